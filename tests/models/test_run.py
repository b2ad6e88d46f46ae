"""``run_model``: a graph run by the reference gives what its operators give one by one."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from graphs import make_model, sample_node, value_info
from onnx import helper
from support import ALL, each_operator_and_type, raises_req, req

import sonnx_spec
from sonnx_spec import check_model, run_model
from sonnx_spec.compare import same_result
from sonnx_spec.models import ModelRefused, NodeError
from sonnx_spec.models.graph import dataflow

F32 = np.dtype(np.float32)


def chain(dtype: np.dtype, low: float, high: float) -> tuple:
    """x -> Clip(x, low, high) -> Abs -> Max(·, z): the model and its bounds."""
    nodes = [
        helper.make_node("Clip", ["x", "low", "high"], ["clipped"], name="clip"),
        helper.make_node("Abs", ["clipped"], ["magnitude"], name="abs"),
        helper.make_node("Max", ["magnitude", "z"], ["y"], name="max"),
    ]
    bounds = {"low": np.array(low, dtype), "high": np.array(high, dtype)}
    inputs = [value_info("x", dtype, [2, 3]), value_info("z", dtype, [3])]
    return make_model(nodes, inputs, [value_info("y", dtype, [2, 3])], bounds), bounds


@req("MODEL_S1")
@ALL
def test_MODEL_S1_clip_abs_max_gives_the_operators_one_by_one(dtype: np.dtype) -> None:
    signed = dtype.kind in "if" or dtype == ml_dtypes.bfloat16
    model, bounds = chain(dtype, -2 if signed else 1, 5)
    values = [-7, -2, 0, 3, 5, 9] if signed else [0, 1, 2, 3, 5, 9]
    x = np.array(values, dtype).reshape(2, 3)
    z = np.array([1, 4, 2], dtype)
    expected = sonnx_spec.max(sonnx_spec.abs(sonnx_spec.clip(x, bounds["low"][()], bounds["high"][()])), z)
    outputs = run_model(model, {"x": x, "z": z})
    assert list(outputs) == ["y"] and same_result(outputs["y"], expected)


@req("MODEL_S1")
def test_MODEL_S1_special_floats_go_through_the_graph_unchanged() -> None:
    model, _ = chain(F32, -1, 2)
    x = np.array([[np.nan, -0.0, np.inf], [-np.inf, 0.5, -1.5]], F32)
    z = np.array([-0.0, np.nan, 0.0], F32)
    y = run_model(model, {"x": x, "z": z})["y"]
    # clip: [nan, -0, 2], [-1, 0.5, -1]; abs: [nan, 0, 2], [1, 0.5, 1]; max with z: -0 < +0, NaN wins
    expected = np.array([[np.nan, np.nan, 2.0], [1.0, np.nan, 1.0]], F32)
    assert same_result(y, expected)


@req("MODEL_S1")
@each_operator_and_type()
def test_MODEL_S1_a_node_of_every_operator_gives_its_operator(
    op: sonnx_spec.Operator, dtype: np.dtype
) -> None:
    sample = sample_node(op, dtype)
    outputs = run_model(sample.model(), sample.feeds)
    args, kwargs = sample.call
    expected = op.results(op.function(*args, **kwargs))  # every output (Split's several)
    assert len(expected) == len(sample.outputs)
    for output, value in zip(sample.outputs, expected, strict=True):
        assert same_result(outputs[output.name], value)


@req("MODEL_S1")
def test_MODEL_S1_a_topological_order_of_nodes_written_in_any_order() -> None:
    nodes = [
        helper.make_node("Max", ["a", "b"], ["y"], name="last"),
        helper.make_node("Abs", ["x"], ["a"], name="first"),
        helper.make_node("Abs", ["a"], ["b"], name="second"),
    ]
    model = make_model(nodes, [value_info("x", F32, [2])], [value_info("y", F32, [2])])
    assert dataflow(model.graph).order == [1, 2, 0]


def test_the_result_is_new_and_the_inputs_unchanged() -> None:
    node = helper.make_node("Max", ["x"], ["y"])
    model = make_model([node], [value_info("x", F32, [2])], [value_info("y", F32, [2])])
    x = np.array([1.0, -0.0], F32)
    y = run_model(model, {"x": x})["y"]
    assert not np.shares_memory(x, y) and same_result(x, np.array([1.0, -0.0], F32))


def test_a_model_the_checker_refuses_is_refused_with_its_report() -> None:
    node = helper.make_node("Clip", ["x", "low"], ["y"], name="limit")
    model = make_model(
        [node], [value_info("x", F32, [3])], [value_info("y", F32, [3])], {"low": np.float32(0)}
    )
    with pytest.raises(ModelRefused) as info:
        run_model(model, {"x": np.zeros(3, F32)})
    assert info.value.report.findings == check_model(model).findings
    assert 'node 0 (Clip "limit") — GR4' in str(info.value)


@req("ABS_E1")
def test_a_refusal_at_run_time_names_the_node_and_the_rule() -> None:
    nodes = [
        helper.make_node("Max", ["x", "x"], ["m"], name="widest"),
        helper.make_node("Abs", ["m"], ["y"], name="size"),
    ]
    int8 = np.dtype(np.int8)
    model = make_model(nodes, [value_info("x", int8, [2])], [value_info("y", int8, [2])])
    with raises_req("ABS_E1") as info:
        run_model(model, {"x": np.array([-128, 5], int8)})
    assert isinstance(info.value, NodeError) and info.value.node.name == "size"
    assert str(info.value).startswith('node 1 (Abs "size"): abs: X[0] is -128')


@req("MODEL_E1")
@pytest.mark.parametrize(
    ("feeds", "message"),
    [
        ({}, "graph input 'x' is not given"),
        ({"x": np.zeros(3, F32), "w": np.zeros(3, F32)}, "'w' is not a graph input"),
        ({"x": np.zeros(3, np.float64)}, "graph input 'x' is float64, the model declares float32"),
        ({"x": np.zeros(4, F32)}, "graph input 'x' has shape (4,), not (3,)"),
        ({"x": [0.0, 0.0, 0.0]}, "graph input 'x' is a list, not a numpy array"),
    ],
    ids=["missing", "unknown", "type", "shape", "list"],
)
def test_MODEL_E1_the_inputs_must_be_the_graph_inputs(feeds: dict, message: str) -> None:
    model = make_model(
        [helper.make_node("Abs", ["x"], ["y"])], [value_info("x", F32, [3])], [value_info("y", F32, [3])]
    )
    with raises_req("MODEL_E1") as info:
        run_model(model, feeds)
    assert message in str(info.value)
