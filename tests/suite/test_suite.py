"""The conformance suite: what ``sonnx-spec suite export`` writes, and how ``suite run`` grades engines.

The cases' values come from the special-values rows (checked against the reference and the drafts by
tests/test_special_values.py); here the files, the grading rules, the engines' interface and the bad
inputs a user can give (a folder that is not a suite, a link out of it, an engine that crashes).
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, numpy_helper

from sonnx_spec import operators, rules
from sonnx_spec.pages.special_values import special_rows
from sonnx_spec.suite import cases, export, grade
from sonnx_spec.suite.errors import SuiteError

SOME = {"abs", "clip", "div", "max"}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("suite") / "suite"
    export(folder, SOME)
    return folder


def tensor(path: Path) -> np.ndarray:
    proto = TensorProto()
    proto.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(proto)


def children() -> set[int]:
    """The processes this test process started and that are still running (Linux)."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(pid) for pid in text}
    return found


def engine_file(tmp_path: Path, body: str) -> str:
    path = tmp_path / "my_engine.py"
    path.write_text(textwrap.dedent(body), "utf-8")
    return str(path)


def test_one_case_per_cell_of_every_table() -> None:
    cells = sum(len(row.types) for rows in special_rows().values() for row in rows)
    everything = cases()
    assert len(everything) == cells
    assert len({c.name for c in everything}) == len(everything)
    assert {c.operator for c in everything} == {op for op, rows in special_rows().items() if rows}


def test_the_layout_of_onnx_backend_node_tests(suite: Path) -> None:
    manifest = json.loads((suite / "manifest.json").read_text("utf-8"))
    assert manifest["format"] == "sonnx-conformance-suite/1"
    listed = manifest["cases"]
    assert sorted(p.name for p in (suite / "node").iterdir()) == sorted(c["name"] for c in listed)
    for case in listed:
        where = suite / "node" / case["name"]
        model = onnx.load(where / "model.onnx")
        onnx.checker.check_model(model, full_check=True)
        (node,) = model.graph.node
        op = operators()[next(n for n, o in operators().items() if o.onnx == node.op_type)]
        assert (case["operator"], case["opset"]) == (op.onnx, op.version)
        assert model.opset_import[0].version == op.version
        data = where / "test_data_set_0"
        inputs = sorted(p.name for p in data.glob("input_*.pb"))
        assert inputs == [f"input_{i}.pb" for i in range(len(model.graph.input))]
        assert (data / "output_0.pb").exists() == (case["result"] != "refused")
        assert case["rule"] in rules()
        assert json.loads((where / "manifest.json").read_text("utf-8")) == case


def test_the_values_of_some_cases_written_by_hand(suite: Path) -> None:
    node = suite / "node"
    assert math.isnan(tensor(node / "test_sonnx_clip_nan_m1_p1_float32/test_data_set_0/output_0.pb")[()])
    assert tensor(node / "test_sonnx_abs_m1_int8/test_data_set_0/input_0.pb")[()] == -1
    assert tensor(node / "test_sonnx_abs_m1_int8/test_data_set_0/output_0.pb").dtype == np.int8
    refused = json.loads((node / "test_sonnx_abs_min_int8/manifest.json").read_text("utf-8"))
    assert (refused["result"], refused["rule"]) == ("refused", "ABS_E1")
    assert tensor(node / "test_sonnx_abs_min_int8/test_data_set_0/input_0.pb")[()] == -128
    zero = tensor(node / "test_sonnx_max_m0_p0_float64/test_data_set_0/output_0.pb")
    assert zero[()] == 0 and math.copysign(1, zero[()]) == 1  # MAX_S2: +0 is the greater zero


def test_the_same_specification_gives_the_same_digest(tmp_path: Path, suite: Path) -> None:
    again = export(tmp_path / "again", SOME)
    assert again["digest"] == json.loads((suite / "manifest.json").read_text("utf-8"))["digest"]
    assert export(tmp_path / "fewer", {"abs"})["digest"] != again["digest"]


def test_the_reference_passes_every_case_and_refuses_with_the_rule(tmp_path: Path) -> None:
    export(tmp_path / "all")
    graded = grade(tmp_path / "all", "reference")
    assert [g for g in graded.grades if g.outcome != "pass"] == []
    assert len(graded.grades) == len(cases())
    for g in graded.grades:
        if g.detail:  # a refused case: the reference's error names the rule the case proves
            assert g.detail.startswith(f"refused, as {g.rule} requires") and f"{g.rule}" in g.detail[30:]
    assert children() == set()


def test_an_engine_of_ones_own_is_graded_case_by_case(tmp_path: Path, suite: Path) -> None:
    # an engine that answers its first input: right where the operator gives it back, wrong elsewhere
    engine = engine_file(
        tmp_path,
        """
        import numpy as np
        def prepare(model):
            if b"float16" in model or b"Clip" in model:
                raise RuntimeError("no kernel")
            return model
        def run(session, inputs):
            print("a chatty engine")  # stdout is not the grader's channel
            return [np.array(inputs["x0"], copy=True)]
        """,
    )
    graded = {g.case: g for g in grade(suite, engine).grades}
    assert (graded["test_sonnx_abs_1_int8"].outcome, graded["test_sonnx_abs_1_int8"].detail) == ("pass", "")
    assert graded["test_sonnx_abs_m1_int8"].outcome == "fail"
    assert graded["test_sonnx_abs_m1_int8"].detail == "gave int8 [-1], expected int8 [1]"
    assert graded["test_sonnx_abs_min_int8"].outcome == "fail"
    assert (
        graded["test_sonnx_abs_min_int8"].detail == "gave [-128]; the profile refuses these inputs (ABS_E1)"
    )
    assert {g.outcome for name, g in graded.items() if "_clip_" in name} == {"unsupported"}
    assert graded["test_sonnx_abs_nan_float32"].outcome == "pass"  # NaN for NaN, whatever the payload


def test_refusing_a_refused_case_passes(tmp_path: Path, suite: Path) -> None:
    engine = engine_file(
        tmp_path,
        """
        def prepare(model):
            return model
        def run(session, inputs):
            raise ValueError("I refuse")
        """,
    )
    graded = {g.case: g for g in grade(suite, engine).grades}
    assert graded["test_sonnx_abs_min_int8"].outcome == "pass"
    assert graded["test_sonnx_abs_min_int8"].detail == "refused, as ABS_E1 requires: ValueError: I refuse"
    assert graded["test_sonnx_abs_1_int8"].outcome == "fail"
    assert graded["test_sonnx_abs_1_int8"].detail.startswith("refused inputs the profile accepts")


def test_an_engine_that_crashes_fails_that_case_and_the_grading_goes_on(tmp_path: Path, suite: Path) -> None:
    engine = engine_file(
        tmp_path,
        """
        import os, signal
        import numpy as np
        def prepare(model):
            return model
        def run(session, inputs):
            x = inputs["x0"]
            if x.dtype == np.int16 and x == -1:
                os.kill(os.getpid(), signal.SIGFPE)  # as onnxruntime on an integer division by zero
            return [np.abs(x)]
        """,
    )
    graded = grade(suite, engine)
    crashed = [g for g in graded.grades if "crashed" in g.detail]
    first_input = {
        g.case: tensor(suite / "node" / g.case / "test_data_set_0/input_0.pb") for g in graded.grades
    }
    assert {g.case for g in crashed} == {
        case for case, x in first_input.items() if x.dtype == np.int16 and x == -1
    }
    assert crashed and all(g.detail == "the engine crashed its process (signal SIGFPE)" for g in crashed)
    after = graded.grades[graded.grades.index(crashed[0]) + 1]
    assert after.outcome in ("pass", "fail") and "crashed" not in after.detail
    assert children() == set()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("def prepare(model):\n    return model\n", "the module has no run function"),
        ("raise ImportError('broken')\n", "cannot be imported (ImportError: broken)"),
    ],
)
def test_an_engine_that_is_not_one_is_refused_in_one_line(
    tmp_path: Path, suite: Path, body: str, message: str
) -> None:
    engine = engine_file(tmp_path, body)
    with pytest.raises(SuiteError, match=re.escape(message)):
        grade(suite, engine)
    assert children() == set()


def test_a_folder_that_is_not_a_suite_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="not a suite"):
        grade(tmp_path, "reference")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(SuiteError, match="not empty and not a suite"):
        export(mine)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


def test_nothing_outside_the_suite_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "suite"
    export(folder, {"abs"})
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    manifest["cases"][0]["name"] = "../../etc"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SuiteError, match="names a case that is no folder name"):
        grade(folder, "reference")
    export(folder, {"abs"})
    model = folder / "node" / "test_sonnx_abs_1_int8" / "model.onnx"
    secret = tmp_path / "outside.onnx"
    secret.write_bytes(model.read_bytes())
    model.unlink()
    model.symlink_to(secret)
    with pytest.raises(SuiteError, match="leads out of the suite folder"):
        grade(folder, "reference")


def run_cli(*args: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "sonnx_spec", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def test_two_commands_grade_onnxruntime(tmp_path: Path) -> None:
    exported = run_cli("suite", "export", tmp_path / "suite", "--operators", "Clip,abs")
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.startswith(f"{tmp_path / 'suite'}: ")
    graded = run_cli(
        "suite", "run", tmp_path / "suite", "--engine", "onnxruntime", "--output", tmp_path / "out"
    )
    # onnxruntime's Clip gives −0 for Clip(−0, +0, 1), where CLIP_S4 gives the bound +0
    assert graded.returncode == 1, graded.stderr
    assert "`test_sonnx_clip_m0_p0_p1_float32` (CLIP_S4): gave float32 [-0.0], expected float32 [0.0]" in (
        graded.stdout
    )
    results = json.loads((tmp_path / "out" / "grades.json").read_text("utf-8"))
    assert results["engine"] == "onnxruntime"
    assert sum(results["totals"].values()) == len(cases({"abs", "clip"}))
    junit = ET.parse(tmp_path / "out" / "junit.xml").getroot()
    assert sorted(s.get("name") for s in junit.iter("testsuite")) == ["Abs", "Clip"]
    failures = sum(int(s.get("failures")) for s in junit.iter("testsuite"))
    assert failures == results["totals"]["fail"] > 0
    assert "| Clip | float32 |" in (tmp_path / "out" / "summary.md").read_text("utf-8")


def test_the_commands_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    unknown = run_cli("suite", "export", tmp_path / "s", "--operators", "Frobnicate")
    assert (unknown.returncode, unknown.stderr.strip()) == (
        2,
        "sonnx-spec: --operators: Frobnicate is no operator of the profile",
    )
    missing = run_cli("suite", "run", tmp_path, "--engine", "reference")
    assert missing.returncode == 2 and missing.stderr.startswith(f"sonnx-spec: {tmp_path}: not a suite")
    export(tmp_path / "s", {"abs"})
    engine = run_cli("suite", "run", tmp_path / "s", "--engine", tmp_path / "none.py")
    assert (engine.returncode, engine.stderr.strip()) == (
        2,
        f"sonnx-spec: engine {tmp_path / 'none.py'}: no such file",
    )


@pytest.mark.req("EXP_P2")
@pytest.mark.req("LOG_P2")
def test_a_bounded_case_passes_an_engine_within_its_accuracy_rule(tmp_path: Path) -> None:
    folder = tmp_path / "suite"
    listed = {c["name"]: c for c in export(folder, {"exp", "log"})["cases"]}
    finite = listed["test_sonnx_exp_m1_float32"]
    assert (finite["result"], finite["bound"]) == ("bounded", {"rule": "EXP_P2", "steps": 1})
    assert (folder / "node" / finite["name"] / "test_data_set_0" / "output_0.pb").exists()
    for special in ("test_sonnx_exp_minf_float32", "test_sonnx_log_p1_float32", "test_sonnx_log_p0_float32"):
        assert (listed[special]["result"], listed[special]["bound"]) == ("exact", None), special
    # an engine giving the next value of the type up from the correctly rounded result, which the
    # engine reads from the case's own files: within EXP_P2 and LOG_P2 on a finite case, wrong on the others
    engine = engine_file(
        tmp_path,
        f"""
        import numpy as np
        from onnx import TensorProto, numpy_helper
        from pathlib import Path
        def read(path):
            proto = TensorProto()
            proto.ParseFromString(path.read_bytes())
            return numpy_helper.to_array(proto)
        EXPECTED = {{}}  # each case's model and input, and its output
        for case in Path({str(folder / "node")!r}).iterdir():
            data = case / "test_data_set_0"
            if (data / "output_0.pb").exists():
                key = (case / "model.onnx").read_bytes(), read(data / "input_0.pb").tobytes()
                EXPECTED[key] = read(data / "output_0.pb")
        def prepare(model):
            return model
        def run(session, inputs):
            y = EXPECTED[session, inputs["x0"].tobytes()]
            return [np.nextafter(y, np.asarray(np.inf, y.dtype)).astype(y.dtype)]
        """,
    )
    graded = {g.case: g for g in grade(folder, engine).grades}
    assert graded["test_sonnx_exp_m1_float32"].outcome == "pass"
    # e^−1 = 0.3678794411…: 0.36787945 in float32 (0.36787945032…), the next value up 0.36787948
    assert graded["test_sonnx_exp_m1_float32"].detail == (
        "within EXP_P2: gave [0.36787948], correctly rounded [0.36787945]"
    )
    for special in ("test_sonnx_exp_minf_float32", "test_sonnx_log_p1_float32", "test_sonnx_log_p0_float32"):
        assert graded[special].outcome == "fail", special
