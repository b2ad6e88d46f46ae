"""Every JSON document the tools print or write is valid against its published schema
(``sonnx_spec/schemas/sonnx-spec.schema.json``), and a SARIF report against OASIS' SARIF 2.1.0 schema
(``sarif-schema-2.1.0.json`` beside this file, the schema the report names, as the SARIF TC publishes it).

The documents are made by the commands themselves, on the gallery's models, on models a rule refuses and
on inputs the reference refuses; the schemas' own tests show they refuse what is not such a document.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import onnx
import pytest
from graphs import make_model, value_info
from onnx import helper

from sonnx_spec.ids import ID
from sonnx_spec.models.cli import main
from sonnx_spec.models.formats import SARIF_SCHEMA
from sonnx_spec.suite.export import FORMAT

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # gallery/: tooling beside the package
import gallery

F32 = np.dtype(np.float32)
SCHEMA = json.loads(resources.files("sonnx_spec.schemas").joinpath("sonnx-spec.schema.json").read_text())
SARIF = json.loads((Path(__file__).with_name("sarif-schema-2.1.0.json")).read_text("utf-8"))


def validator(document: str) -> jsonschema.Validator:
    """A validator of the schema's definition ``document``."""
    schema = {"$schema": SCHEMA["$schema"], "$ref": f"#/$defs/{document}", "$defs": SCHEMA["$defs"]}
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(SCHEMA)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def valid(document: str, value: Any) -> Any:
    validator(document).validate(value)
    return value


def printed(capsys: pytest.CaptureFixture[str], *arguments: object) -> tuple[int, Any]:
    """What ``sonnx-spec ARGUMENTS`` prints, read as JSON, and its exit status."""
    status = main([str(a) for a in arguments])
    return status, json.loads(capsys.readouterr().out)


@pytest.fixture
def mlp(made: dict[str, gallery.Model], tmp_path: Path) -> tuple[Path, Path, Path]:
    """The MLP regressor as skl2onnx wrote it, its conforming version, and its inputs (.npz)."""
    model = made["mlp_regressor"]
    assert model.conforming is not None
    original, conforming = tmp_path / "mlp.onnx", tmp_path / "mlp_conforming.onnx"
    original.write_bytes(model.model.SerializeToString())
    conforming.write_bytes(model.conforming.SerializeToString())
    np.savez(tmp_path / "inputs.npz", **model.inputs)
    return original, conforming, tmp_path / "inputs.npz"


def clip_without_upper_bound(folder: Path) -> Path:
    node = helper.make_node("Clip", ["x", "low"], ["y"], name="limit")
    model = make_model(
        [node], [value_info("x", F32, [3])], [value_info("y", F32, [3])], {"low": np.float32(0)}
    )
    (folder / "clip.onnx").write_bytes(model.SerializeToString())
    return folder / "clip.onnx"


def test_the_schema_reads_ids_and_the_suite_format_as_the_tools_write_them() -> None:
    assert SCHEMA["$defs"]["rule_id"]["pattern"] == ID.pattern
    assert SCHEMA["$defs"]["suite_manifest"]["properties"]["format"]["const"] == FORMAT
    assert SARIF["id"] == SARIF_SCHEMA  # the schema a report names is the one it is checked against


def test_check_json_findings(capsys: pytest.CaptureFixture[str], mlp: tuple, tmp_path: Path) -> None:
    original, conforming, _ = mlp
    status, findings = printed(capsys, "check", original, "--format", "json")
    assert status == 1 and len(valid("findings", findings)) > 1
    assert {"MODEL_C3"} <= {f["rule"] for f in findings}  # skl2onnx's opset 18 is older than the profile's
    status, findings = printed(capsys, "check", conforming, "--format", "json")
    assert (status, valid("findings", findings)) == (0, [])
    status, findings = printed(capsys, "check", clip_without_upper_bound(tmp_path), "--format", "json")
    assert [f["rule"] for f in valid("findings", findings)] == ["GR4"]


def test_check_sarif_is_valid_sarif_2_1_0(capsys: pytest.CaptureFixture[str], mlp: tuple) -> None:
    original, _, _ = mlp
    status, report = printed(capsys, "check", original, "--format", "sarif", "--site", "https://s.example/")
    jsonschema.Draft4Validator.check_schema(SARIF)
    jsonschema.Draft4Validator(SARIF).validate(report)
    assert status == 1 and report["runs"][0]["results"]


def test_run_json_outputs_and_refusals(
    capsys: pytest.CaptureFixture[str], mlp: tuple, tmp_path: Path
) -> None:
    original, conforming, inputs = mlp
    status, outputs = printed(capsys, "run", conforming, "--inputs", inputs, "--format", "json")
    assert status == 0 and valid("outputs", outputs)
    [tensor] = outputs.values()
    assert (tensor["dtype"], len(tensor["values"])) == ("float32", np.prod(tensor["shape"]))
    status, findings = printed(capsys, "run", original, "--inputs", inputs, "--format", "json")
    assert status == 1 and valid("findings", findings)  # a model outside the profile: its findings
    np.savez(tmp_path / "wrong.npz", X=np.zeros((16, 4), np.float64))
    status, refusal = printed(
        capsys, "run", conforming, "--inputs", tmp_path / "wrong.npz", "--format", "json"
    )
    assert status == 1 and valid("refusal", refusal)["rule"] == "MODEL_E1"


@pytest.mark.parametrize("engine", ["onnxruntime", "onnx-reference"])
def test_compare_json(capsys: pytest.CaptureFixture[str], mlp: tuple, engine: str) -> None:
    _, conforming, inputs = mlp
    status, comparison = printed(
        capsys, "compare", conforming, "--inputs", inputs, "--engine", engine, "--format", "json"
    )
    assert valid("comparison", comparison)["engine"] == engine
    assert status == (0 if comparison["agree"] else 1)
    status, judged = printed(
        capsys, "compare", conforming, "--inputs", inputs, "--engine", engine, "--by-node", "--format", "json"
    )
    assert len(valid("node_comparison", judged)["nodes"]) == len(onnx.load(conforming).graph.node)


def test_the_suite_manifests_and_grades(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    suite, results = tmp_path / "suite", tmp_path / "results"
    assert main(["suite", "export", str(suite), "--operators", "abs,exp,div"]) == 0
    capsys.readouterr()
    manifest = valid("suite_manifest", json.loads((suite / "manifest.json").read_text("utf-8")))
    kinds = {case["result"] for case in manifest["cases"]}
    assert kinds == {"exact", "bounded", "refused"}  # Exp's bounded cases, Div's refused ones
    for case in manifest["cases"]:
        assert valid(
            "case_manifest", json.loads((suite / "node" / case["name"] / "manifest.json").read_text())
        )
    status, grades = printed(capsys, "suite", "run", suite, "--engine", "reference", "--format", "json")
    assert status == 0 and valid("grades", grades)["totals"]["pass"] == len(manifest["cases"])
    main(["suite", "run", str(suite), "--engine", "reference", "--output", str(results)])
    capsys.readouterr()
    assert valid("grades", json.loads((results / "grades.json").read_text("utf-8"))) == grades


FINDING = {
    "rule": "GR4",
    "draft_labels": [],
    "formerly": [],
    "level": "error",
    "node": "limit",
    "node_index": 0,
    "op_type": "Clip",
    "domain": "",
    "message": "input M is not given",
    "statement": "An optional input…",
    "link": "general-rules.html#GR4",
}


@pytest.mark.parametrize(
    ("document", "value"),
    [
        ("findings", [{k: v for k, v in FINDING.items() if k != "rule"}]),  # a finding names its rule
        ("findings", [{**FINDING, "rule": "gr4"}]),  # an id as the specification writes them
        ("findings", [{**FINDING, "level": "warning"}]),
        ("findings", [{**FINDING, "extra": 1}]),
        ("outputs", {"y": {"dtype": "float32", "shape": [1], "values": [1.5]}}),  # elements as text
        ("outputs", {"y": {"dtype": "float32", "shape": [-1], "values": []}}),
        ("refusal", {"rule": "MODEL_E1"}),
        ("grades", {"engine": "e", "engine_version": "", "suite": "", "specification": "", "totals": {}}),
        ("suite_manifest", {"format": "sonnx-conformance-suite/0", "specification": "", "digest": "d"}),
    ],
)
def test_the_schema_refuses_what_the_tools_never_write(document: str, value: Any) -> None:
    with pytest.raises(jsonschema.ValidationError):
        validator(document).validate(value)


def test_a_bounded_case_names_its_bound_and_only_a_bounded_one() -> None:
    case = {
        "name": "exp_float32_1",
        "operator": "Exp",
        "opset": 13,
        "type": "float32",
        "rule": "EXP_P2",
        "origin": [],
        "draft_labels": [],
        "result": "exact",
        "bound": None,
        "judged": "bits",
        "special_values_row": "exp.toml:1",
    }
    valid("case_manifest", case)
    with pytest.raises(jsonschema.ValidationError):
        valid("case_manifest", {**case, "result": "bounded"})
    with pytest.raises(jsonschema.ValidationError):
        valid("case_manifest", {**case, "bound": {"rule": "EXP_P2", "steps": 1}})
    valid("case_manifest", {**case, "result": "bounded", "bound": {"rule": "EXP_P2", "steps": 1}})
