"""mutation/modules.py: a module's mutation results are reused while its inputs are unchanged.

A fake tree: two operators (one named xor, whose mutants no pattern of its package may catch), a module
without functions, a file mutmut must not mutate, their tests, and what mutmut leaves in mutants/.
"""

from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # results.py and mutation/: tooling beside the package, not installed
from mutation.modules import Records, mutated, patterns  # noqa: E402

CLIP, XOR, OPS = "sonnx_spec.ops.clip", "sonnx_spec.ops.xor", "sonnx_spec.ops"
FILES = {
    "pyproject.toml": (
        "[tool.mutmut]\nsource_paths = ['sonnx_spec/']\ndo_not_mutate = ['sonnx_spec/models/*']"
    ),
    "sonnx_spec/__init__.py": "",
    "sonnx_spec/ops/__init__.py": "def registry():\n    return {}\n",
    "sonnx_spec/ops/clip.py": "def clip(x):\n    return x\n",
    "sonnx_spec/ops/xor.py": "def xor(a, b):\n    return a != b\n",
    "sonnx_spec/limits.py": "LIMIT = 3\n",
    "sonnx_spec/models/check.py": "def check():\n    pass\n",
    "tests/support.py": "",
    "tests/conformance/operator_cases/clip.py": "",
    "sonnx_spec/requirements/clip.toml": "",
    "tests/test_clip.py": "def test_clip(): ...\n",
    "tests/test_xor.py": "def test_xor(): ...\n",
}
STATS = {
    "tests_by_mangled_function_name": {
        f"{CLIP}.x_clip": ["tests/test_clip.py::test_clip"],
        f"{XOR}.x_xor": ["tests/test_xor.py::test_xor[1]", "tests/test_xor.py::test_xor[2]"],
        f"{OPS}.x_registry": ["tests/test_clip.py::test_clip", "tests/test_xor.py::test_xor[1]"],
    }
}
META = {
    "sonnx_spec/ops/clip.py": {f"{CLIP}.x_clip__mutmut_1": 1, f"{CLIP}.x_clip__mutmut_2": 0},
    "sonnx_spec/ops/xor.py": {f"{XOR}.x_xor__mutmut_1": 1},
    "sonnx_spec/ops/__init__.py": {f"{OPS}.x_registry__mutmut_1": 33},
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copyfile(ROOT / "results.toml", tmp_path / "results.toml")
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    mutants = tmp_path / "mutants"
    for name, codes in META.items():
        (mutants / name).parent.mkdir(parents=True, exist_ok=True)
        (mutants / f"{name}.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    (mutants / "mutmut-stats.json").write_text(json.dumps(STATS))
    return tmp_path


def run_all(tree: Path) -> Records:
    """As a first ``nox -s mutants``: every module stale, recorded from what mutmut left."""
    records = Records(tree)
    records.update(records.stale(), tree / "mutants")
    return records


def edit(tree: Path, name: str) -> None:
    path = tree / name
    path.write_text(path.read_text() + "# edited\n")


def test_the_mutated_modules_are_named_as_mutmut_names_them() -> None:
    found = mutated(ROOT)
    assert found["sonnx_spec.ops.clip"] == ROOT / "sonnx_spec" / "ops" / "clip.py"
    assert found["sonnx_spec.requirements"] == ROOT / "sonnx_spec" / "requirements" / "__init__.py"
    assert not any(name.startswith("sonnx_spec.models") for name in found)  # do_not_mutate


def test_a_package_s_patterns_catch_none_of_its_modules_mutants() -> None:
    def caught(module: str, mutant: str) -> bool:
        return any(fnmatch.fnmatchcase(mutant, p) for p in patterns(module))

    assert caught(OPS, f"{OPS}.x_registry__mutmut_1")
    assert caught(OPS, f"{OPS}.xǁRegistryǁget__mutmut_2")
    assert not caught(OPS, f"{XOR}.x_xor__mutmut_1")
    assert caught(XOR, f"{XOR}.x_xor__mutmut_1") and not caught(CLIP, f"{XOR}.x_xor__mutmut_1")


def test_a_first_run_records_every_module_with_the_tests_that_run_it(tree: Path) -> None:
    records = Records(tree)
    assert sorted(records.stale()) == sorted(records.modules)
    assert set(records.modules) == {"sonnx_spec", OPS, CLIP, XOR, "sonnx_spec.limits"}
    assert records.to_run(records.stale()) == [p for m in (OPS, CLIP, XOR) for p in patterns(m)]  # with code
    records = run_all(tree)
    assert Records(tree).stale() == []
    assert records.load(XOR)["tests"] == ["tests/test_xor.py"]
    assert records.load(OPS)["tests"] == ["tests/test_clip.py", "tests/test_xor.py"]
    assert records.results()[CLIP] == {
        f"{CLIP}.x_clip__mutmut_1": "killed",
        f"{CLIP}.x_clip__mutmut_2": "survived",
    }
    assert records.results()[OPS] == {f"{OPS}.x_registry__mutmut_1": "no tests"}
    assert records.results()["sonnx_spec.limits"] == {}


@pytest.mark.parametrize(
    ("edited", "stale"),
    [
        ("sonnx_spec/ops/xor.py", [XOR]),
        ("tests/test_clip.py", [OPS, CLIP]),  # the tests that run clip's code, and the registry's
        ("tests/test_xor.py", [OPS, XOR]),
        ("tests/support.py", ["sonnx_spec", OPS, CLIP, XOR, "sonnx_spec.limits"]),  # every test uses it
        ("pyproject.toml", ["sonnx_spec", OPS, CLIP, XOR, "sonnx_spec.limits"]),  # mutmut's settings
        ("sonnx_spec/models/check.py", []),  # not mutated
        ("sonnx_spec/requirements/clip.toml", ["sonnx_spec", OPS, CLIP, XOR, "sonnx_spec.limits"]),
        ("tests/conformance/operator_cases/clip.py", []),  # mutmut runs no conformance test
    ],
)
def test_an_edit_makes_stale_the_modules_it_can_change_only(
    tree: Path, edited: str, stale: list[str]
) -> None:
    run_all(tree)
    edit(tree, edited)
    assert sorted(Records(tree).stale()) == sorted(stale)


def test_a_module_run_again_replaces_its_record_and_a_module_gone_loses_its_own(tree: Path) -> None:
    run_all(tree)
    edit(tree, "sonnx_spec/ops/clip.py")
    meta = tree / "mutants" / "sonnx_spec/ops/clip.py.meta"
    meta.write_text(json.dumps({"exit_code_by_key": {f"{CLIP}.x_clip__mutmut_1": 1}}))  # mutmut's new run
    (tree / "sonnx_spec/ops/xor.py").unlink()
    records = Records(tree)
    records.update(records.stale(), tree / "mutants")
    assert records.results()[CLIP] == {f"{CLIP}.x_clip__mutmut_1": "killed"}
    assert not records.path(XOR).exists() and XOR not in records.results()
    assert Records(tree).stale() == []


@pytest.mark.parametrize(
    "added", ["sonnx_spec/requirements/min.toml", "tests/registered_operators.py", "tests/test_min.py"]
)
def test_a_file_added_since_a_record_changes_none(tree: Path, added: str) -> None:
    # a new operator's rules, helper or test: tests only gain cases; what they killed stays killed
    run_all(tree)
    (tree / added).write_text("# new\n")
    assert Records(tree).stale() == []


def test_a_recorded_file_deleted_makes_its_records_stale(tree: Path) -> None:
    run_all(tree)
    (tree / "tests/test_xor.py").unlink()
    assert sorted(Records(tree).stale()) == [OPS, XOR]


def test_ci_makes_again_the_records_a_submission_changed(tree: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tree, check=True, capture_output=True)

    run_all(tree)
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    records = Records(tree)
    assert records.changed_since("HEAD") == []
    record = records.load(CLIP)
    record["mutants"][f"{CLIP}.x_clip__mutmut_2"] = "killed"  # a record claiming more than its run found
    records.path(CLIP).write_text(json.dumps(record))
    assert records.changed_since("HEAD") == [CLIP]
    assert Records(tree).stale() == []  # its key still matches: only CI's rule catches it
