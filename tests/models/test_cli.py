"""The ``sonnx-spec`` command as a user runs it: exit status, reports in three formats, bad files.

Exit status 0: in the profile / ran / agree; 1: not in the profile / refused /
differ; 2: the file cannot be read as a model (or as inputs). Never a traceback.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import onnx
import pytest
from graphs import make_model, value_info
from onnx import helper
from support import req

F32 = np.dtype(np.float32)
SCRIPT = Path(sys.executable).with_name("sonnx-spec")


def sonnx_spec(*args: object, script: bool = False) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPT)] if script else [sys.executable, "-m", "sonnx_spec"]
    done = subprocess.run(
        [*command, *map(str, args)], capture_output=True, text=True, timeout=120, check=False
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def save(model: onnx.ModelProto, path: Path) -> Path:
    path.write_bytes(model.SerializeToString())
    return path


@pytest.fixture
def clip_without_upper_bound(tmp_path: Path) -> Path:
    node = helper.make_node("Clip", ["x", "low"], ["y"], name="limit")
    model = make_model(
        [node], [value_info("x", F32, [3])], [value_info("y", F32, [3])], {"low": np.float32(0)}
    )
    return save(model, tmp_path / "clip.onnx")


@pytest.fixture
def clip_abs_max(tmp_path: Path) -> Path:
    nodes = [
        helper.make_node("Clip", ["x", "low", "high"], ["c"], name="clip"),
        helper.make_node("Abs", ["c"], ["a"], name="abs"),
        helper.make_node("Max", ["a", "z"], ["y"], name="max"),
    ]
    bounds = {"low": np.float32(-1), "high": np.float32(2)}
    inputs = [value_info("x", F32, [4]), value_info("z", F32, [4])]
    return save(make_model(nodes, inputs, [value_info("y", F32, [4])], bounds), tmp_path / "chain.onnx")


@req("GR4")
def test_check_names_the_rule_the_node_and_the_link(clip_without_upper_bound: Path) -> None:
    done = sonnx_spec("check", clip_without_upper_bound, "--site", "https://sonnx.example/spec", script=True)
    assert done.returncode == 1
    line = done.stdout.splitlines()[1]
    assert line.startswith('  node 0 (Clip "limit") — GR4 (Clip\'s draft: R2; formerly CLIP_R2) — input M')
    assert line.endswith("— https://sonnx.example/spec/general-rules.html#GR4")


@req("GR4")
def test_check_json_is_a_list_of_findings(clip_without_upper_bound: Path) -> None:
    done = sonnx_spec("check", clip_without_upper_bound, "--format", "json")
    [finding] = json.loads(done.stdout)
    assert done.returncode == 1
    assert {k: finding[k] for k in ("rule", "node", "op_type")} == {
        "rule": "GR4",
        "node": "limit",
        "op_type": "Clip",
    }
    assert "input M (ONNX 'max') is omitted" in finding["message"]
    assert finding["link"] == "general-rules.html#GR4"
    assert (finding["draft_labels"], finding["formerly"]) == (["R2"], ["CLIP_R2"])  # M is R2, L was R1


@req("GR4")
def test_check_sarif_names_the_rule_and_the_node(clip_without_upper_bound: Path) -> None:
    done = sonnx_spec("check", clip_without_upper_bound, "--format", "sarif")
    sarif = json.loads(done.stdout)
    assert sarif["version"] == "2.1.0"
    [run] = sarif["runs"]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["GR4"]
    [result] = run["results"]
    assert (result["ruleId"], result["level"], result["ruleIndex"]) == ("GR4", "error", 0)
    assert result["locations"][0]["logicalLocations"][0]["name"] == "limit"
    assert result["properties"] == {"draft_labels": ["R2"], "formerly": ["CLIP_R2"]}
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == str(
        clip_without_upper_bound
    )


@req("MODEL_S1")
def test_check_run_and_compare_a_model_in_the_profile(clip_abs_max: Path, tmp_path: Path) -> None:
    assert sonnx_spec("check", clip_abs_max).returncode == 0
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.array([-3, -0.5, 0.5, 3], F32), z=np.array([0, 1, -1, np.nan], F32))
    out = tmp_path / "out.npz"
    done = sonnx_spec("run", clip_abs_max, "--inputs", inputs, "--output", out)
    assert done.returncode == 0 and done.stdout.strip() == "y: float32 of shape (4,) [1.0, 1.0, 0.5, nan]"
    with np.load(out) as saved:
        assert saved["y"].tobytes() == np.array([1, 1, 0.5, np.nan], F32).tobytes()
    assert sonnx_spec("compare", clip_abs_max, "--inputs", inputs).returncode == 0
    done = sonnx_spec(
        "compare", clip_abs_max, "--inputs", inputs, "--engine", "onnx-reference", "--format", "json"
    )
    assert json.loads(done.stdout)["agree"] is True


@req("MAX_S2")
def test_compare_shows_the_first_differing_elements(tmp_path: Path) -> None:
    node = helper.make_node("Max", ["a", "b"], ["y"])
    model = make_model([node], [value_info(n, F32, [2]) for n in "ab"], [value_info("y", F32, [2])])
    inputs = tmp_path / "in.npz"
    np.savez(inputs, a=np.array([-0.0, 1], F32), b=np.array([0.0, 1], F32))
    done = sonnx_spec("compare", save(model, tmp_path / "max.onnx"), "--inputs", inputs)
    assert done.returncode == 1
    assert "    y[0]: reference 0.0, onnxruntime -0.0" in done.stdout.splitlines()


@req("MODEL_S1")
def test_run_reads_bfloat16_inputs_numpy_saved_as_raw_records(tmp_path: Path) -> None:
    bf16 = np.dtype(ml_dtypes.bfloat16)
    model = make_model(
        [helper.make_node("Abs", ["x"], ["y"])], [value_info("x", bf16, [2])], [value_info("y", bf16, [2])]
    )
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.array([-0.1, -0.0], bf16))
    done = sonnx_spec("run", save(model, tmp_path / "abs.onnx"), "--inputs", inputs, "--format", "json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"y": {"dtype": "bfloat16", "shape": [2], "values": ["0.1", "0.0"]}}


@req("MODEL_E1", "ABS_E1")
def test_run_refusals_exit_1_with_the_rule(tmp_path: Path, clip_without_upper_bound: Path) -> None:
    int8 = np.dtype(np.int8)
    model = make_model(
        [helper.make_node("Abs", ["x"], ["y"], name="a")],
        [value_info("x", int8, [1])],
        [value_info("y", int8, [1])],
    )
    path = save(model, tmp_path / "abs.onnx")
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.array([-128], int8))
    done = sonnx_spec("run", path, "--inputs", inputs)
    assert (
        done.returncode == 1
        and 'node 0 (Abs "a"): abs: X[0] is -128' in done.stdout
        and "ABS_E1" in done.stdout
    )
    np.savez(inputs, x=np.array([1, 2], int8))
    done = sonnx_spec("run", path, "--inputs", inputs)
    assert done.returncode == 1 and "MODEL_E1" in done.stdout
    np.savez(inputs, x=np.zeros(3, F32))
    done = sonnx_spec("run", clip_without_upper_bound, "--inputs", inputs)
    assert done.returncode == 1 and "GR4" in done.stdout and str(clip_without_upper_bound) in done.stdout


def _bad_files(tmp_path: Path, clip_abs_max: Path) -> dict[str, Path]:
    data = clip_abs_max.read_bytes()
    rng = random.Random(14)
    files = {
        "missing": tmp_path / "missing.onnx",
        "directory": tmp_path,
        "empty": tmp_path / "empty.onnx",
        "random bytes": tmp_path / "random.onnx",
        "text": tmp_path / "text.onnx",
        "too large": tmp_path / "large.onnx",
    }
    files["empty"].write_bytes(b"")
    files["random bytes"].write_bytes(bytes(rng.randrange(256) for _ in range(4096)))
    files["text"].write_text("ir_version: 8\ngraph { node { op_type: 'Abs' } }\n")
    with files["too large"].open("wb") as large:
        large.truncate(2**31 + 1)  # a sparse file: nothing is written
    for cut in (1, 10, len(data) // 2, len(data) - 1):
        files[f"truncated at {cut}"] = tmp_path / f"truncated{cut}.onnx"
        files[f"truncated at {cut}"].write_bytes(data[:cut])
    return files


@req("MODEL_C1")
def test_bad_files_exit_2_or_1_with_one_clear_line_never_a_traceback(
    tmp_path: Path, clip_abs_max: Path
) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.zeros(4, F32), z=np.zeros(4, F32))
    for what, path in _bad_files(tmp_path, clip_abs_max).items():
        for command in (
            ["check", path],
            ["run", path, "--inputs", inputs],
            ["compare", path, "--inputs", inputs],
        ):
            done = sonnx_spec(*command)
            # protobuf reads some prefixes of a model as a (broken) model: then the check refuses it
            assert done.returncode in (1, 2), (what, done)
            if done.returncode == 2:
                assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, (what, done.stderr)
                assert done.stderr.startswith("sonnx-spec: ") and "internal error" not in done.stderr
            else:
                assert "MODEL_C1" in done.stdout, (what, done.stdout)


def test_unreadable_inputs_exit_2(tmp_path: Path, clip_abs_max: Path) -> None:
    inputs = tmp_path / "in.npz"
    inputs.write_bytes(b"not a zip")
    done = sonnx_spec("run", clip_abs_max, "--inputs", inputs)
    assert done.returncode == 2 and "cannot be read as a .npz file" in done.stderr


@req("MODEL_C2")
def test_a_cycle_is_reported_not_run(tmp_path: Path) -> None:
    nodes = [
        helper.make_node("Abs", ["b"], ["a"]),
        helper.make_node("Abs", ["a"], ["b"]),
        helper.make_node("Abs", ["b"], ["y"]),
    ]
    model = make_model(nodes, [value_info("x", F32, [1])], [value_info("y", F32, [1])])
    path = save(model, tmp_path / "cycle.onnx")
    done = sonnx_spec("check", path)
    assert done.returncode == 1 and "a cycle" in done.stdout
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.zeros(1, F32))
    assert sonnx_spec("run", path, "--inputs", inputs).returncode == 1


@req("MODEL_C5")
def test_a_huge_dimension_is_reported(tmp_path: Path) -> None:
    huge = [2**62]
    model = make_model(
        [helper.make_node("Abs", ["x"], ["y"])], [value_info("x", F32, huge)], [value_info("y", F32, huge)]
    )
    done = sonnx_spec("check", save(model, tmp_path / "huge.onnx"))
    assert done.returncode == 1 and "MODEL_C5" in done.stdout


def test_without_onnx_the_reference_imports_and_the_command_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['onnx'] = None\n"  # an import of onnx now fails, as if it were not installed
        "import sonnx_spec\n"
        "from sonnx_spec.models.cli import main\n"
        "raise SystemExit(main(['check', 'model.onnx']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert (
        done.stderr.strip()
        == "sonnx-spec: the model tools need the onnx package: pip install 'sonnx-spec[models]'"
    )


def test_a_reader_that_stops_early_is_no_error(clip_without_upper_bound: Path) -> None:
    command = [sys.executable, "-m", "sonnx_spec", "check", str(clip_without_upper_bound)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        process.stdout.close()  # as `| head -0` does: the report is written to a closed pipe
        error = process.stderr.read().decode()
        assert process.wait(timeout=60) == 1 and error == ""
