"""``compare_nodes`` (``sonnx-spec compare --by-node``): an engine judged node by node, each node on the
reference's values, by its operator's accuracy rule.

Engines here are onnxruntime, and functions that stand for an engine: the reference's own result moved a
known number of values of the type, so each test knows the verdict the rules give.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import onnx
import pytest
from graphs import make_model, requires, value_info
from onnx import helper
from support import req

import sonnx_spec
from sonnx_spec.models.by_node import compare_nodes, one_node
from sonnx_spec.models.cli import main

F32 = np.dtype(np.float32)
ROOT = Path(__file__).resolve().parents[2]


def chain(n: int = 64, dtype: np.dtype = F32) -> onnx.ModelProto:
    """x → Exp → Tanh → Add(·, x) → y: two correctly rounded functions and an exact operator."""
    nodes = [
        helper.make_node("Exp", ["x"], ["e"], name="exp"),
        helper.make_node("Tanh", ["e"], ["t"], name="tanh"),
        helper.make_node("Add", ["t", "x"], ["y"], name="add"),
    ]
    return make_model(nodes, [value_info("x", dtype, [n])], [value_info("y", dtype, [n])])


def moved(steps: Mapping[str, int]) -> object:
    """An engine giving the reference's result of each node moved ``steps[op_type]`` values up."""

    def run(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        [node] = model.graph.node
        op = sonnx_spec.operators()[{"Exp": "exp", "Tanh": "tanh", "Add": "add"}[node.op_type]]
        result = op.function(*(feeds[name] for name in node.input))
        for _ in range(steps.get(node.op_type, 0)):
            result = np.nextafter(result, np.asarray(np.inf, result.dtype)).astype(result.dtype)
        return {node.output[0]: result}

    return run


X = np.linspace(-3.0, 2.0, 64, dtype=F32)


@req("EXP_P2")
@req("TANH_P2")
def test_each_node_is_judged_by_its_own_rule_on_the_references_inputs() -> None:
    comparison = compare_nodes(chain(), {"x": X}, "stand-in", runner=moved({"Exp": 1, "Tanh": 1}))
    assert [n.node.op_type for n in comparison.nodes] == ["Exp", "Tanh", "Add"]
    assert [(o.verdict, o.rule, o.differing) for n in comparison.nodes for o in n.outputs] == [
        ("conforms", "EXP_P2", 64),
        ("conforms", "TANH_P2", 64),
        ("conforms", "", 0),  # Add is judged on the reference's t, not on the engine's
    ]
    assert comparison.conforms


@req("TANH_P2")
def test_two_steps_are_outside_and_the_worst_element_is_named_with_its_rule() -> None:
    comparison = compare_nodes(chain(), {"x": X}, "stand-in", runner=moved({"Tanh": 2, "Add": 1}))
    exp, tanh, add = (n.outputs[0] for n in comparison.nodes)
    assert exp.verdict == "conforms" and exp.worst is None
    assert (tanh.verdict, tanh.rule, tanh.why, tanh.steps) == (
        "outside",
        "TANH_P2",
        "64 of 64 elements outside",
        2,
    )
    reference = sonnx_spec.tanh(sonnx_spec.exp(X))
    assert tanh.reference == sonnx_spec.models.values.exact(reference[tanh.worst])
    assert (add.verdict, add.rule, add.steps) == ("outside", "", 1)  # an exact operator: one step is wrong
    assert not comparison.conforms


def test_an_engine_that_fails_on_a_node_fails_that_node_only() -> None:
    def refuses_tanh(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        if model.graph.node[0].op_type == "Tanh":
            raise RuntimeError("no kernel\n for Tanh")
        return moved({})(model, feeds)

    comparison = compare_nodes(chain(), {"x": X}, "stand-in", runner=refuses_tanh)
    assert [n.conforms for n in comparison.nodes] == [True, False, True]
    assert comparison.nodes[1].engine_failure == "RuntimeError: no kernel for Tanh"


def test_an_output_of_another_type_or_shape_or_none_differs() -> None:
    def wrong(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        op_type, out = model.graph.node[0].op_type, model.graph.node[0].output[0]
        if op_type == "Exp":
            return {out: np.zeros(64, np.float64)}
        if op_type == "Tanh":
            return {out: np.zeros(63, F32)}
        return {}

    outputs = [n.outputs[0] for n in compare_nodes(chain(), {"x": X}, "stand-in", runner=wrong).nodes]
    assert [(o.verdict, o.why) for o in outputs] == [
        ("differs", "element type float64, not float32"),
        ("differs", "shape (63,), not (64,)"),
        ("differs", "the engine gives no such output"),
    ]


def test_a_node_alone_keeps_the_models_opsets_and_its_initializers() -> None:
    model = make_model(
        [helper.make_node("Add", ["x", "w"], ["y"])],
        [value_info("x", F32, [2])],
        [value_info("y", F32, [2])],
        initializers={"w": np.array([1.0, 2.0], F32)},
    )
    values = {"x": np.array([3.0, 4.0], F32), "w": np.array([1.0, 2.0], F32), "y": np.array([4.0, 6.0], F32)}
    alone, feeds = one_node(model, model.graph.node[0], values, {"w"})
    assert list(feeds) == ["x"]
    assert [t.name for t in alone.graph.initializer] == ["w"]
    assert alone.opset_import == model.opset_import
    onnx.checker.check_model(alone, full_check=True)


@req("EXP_P2")
@req("TANH_P2")
def test_onnxruntime_by_node_agrees_with_the_published_accuracy_tables() -> None:
    """On the worst input of each table, the verdict is the table's "meets" column (both made from the
    engines' results; the table by exhaustive measurement, this by the judging code)."""
    requires("onnxruntime")
    for op, op_type in (("exp", "Exp"), ("tanh", "Tanh"), ("log", "Log"), ("sigmoid", "Sigmoid")):
        with (ROOT / "docs" / "operators" / f"{op}.accuracy.csv").open() as table:
            rows = [
                r for r in csv.DictReader(table) if r["engine"] == "onnxruntime" and r["type"] == "float32"
            ]
        [row] = rows
        # a long tensor: onnxruntime's vectorised kernel, as the table measured (one element goes another way)
        worst = np.full(1024, float(row["worst input"]), F32)
        model = make_model(
            [helper.make_node(op_type, ["x"], ["y"])],
            [value_info("x", F32, [1024])],
            [value_info("y", F32, [1024])],
        )
        [node] = compare_nodes(model, {"x": worst}, "onnxruntime").nodes
        assert node.conforms == (row["meets"] == "yes"), (op, row)


@req("EXP_P2")
def test_cli_by_node_exit_status_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    requires("onnxruntime")
    path = tmp_path / "model.onnx"
    model = make_model(
        [helper.make_node("Exp", ["x"], ["y"])], [value_info("x", F32, [3])], [value_info("y", F32, [3])]
    )
    onnx.save(model, path)
    np.savez(tmp_path / "in.npz", x=np.array([0.0, -np.inf, 1.0], F32))
    status = main(
        ["compare", str(path), "--inputs", str(tmp_path / "in.npz"), "--by-node", "--format", "json"]
    )
    document = json.loads(capsys.readouterr().out)
    assert status == 0 and document["conforms"] is True
    [node] = document["nodes"]
    assert (node["op_type"], node["outputs"][0]["verdict"], node["outputs"][0]["rule"]) == (
        "Exp",
        "conforms",
        "EXP_P2",
    )
    status = main(["compare", str(path), "--inputs", str(tmp_path / "in.npz"), "--by-node"])
    assert status == 0
    assert "judged node by node" in capsys.readouterr().out
