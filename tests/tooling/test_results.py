"""results.toml: editing each kind of input makes stale exactly the results that depend on it.

The digests are computed over a copy of the repository's tracked files; each case edits (or adds) one
file, and compares every result's digest before and after.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # results.py: tooling beside the package, not installed
from results import declared  # noqa: E402

EVERYTHING_BUILT_FROM_THE_REFERENCE = {
    "tests",
    "conformance",
    "proofs",
    "mutation",
    "doctrees",
    "doctrees-zh_CN",
    "site",
    "browser-live",
}
CASES = {
    "sonnx_spec/ops/clip.py": EVERYTHING_BUILT_FROM_THE_REFERENCE,
    "sonnx_spec/requirements/clip.toml": EVERYTHING_BUILT_FROM_THE_REFERENCE | {"mutation-module"},
    "sonnx_spec/pages/example_language.py": EVERYTHING_BUILT_FROM_THE_REFERENCE,  # in keys as examples
    # tests/site tests the extension's parts
    "sonnx_sphinx/directives/examples.py": {"tests", "doctrees", "doctrees-zh_CN", "site"},
    "tests/test_clip.py": {"tests", "mutation", "site"},
    "tests/support.py": {"tests", "mutation", "mutation-module", "site"},
    "tests/conformance/test_differential.py": {"tests", "conformance", "mutation", "site"},
    "docs/operators/clip.md": {"tests", "proofs", "mutation", "mutation-module", "site"},
    "docs/index.md": {"site"},
    "docs/_static/sonnx.css": {"site"},
    "conf.py": {"doctrees", "doctrees-zh_CN", "site"},
    # tests/site/test_i18n.py checks every translation; the Chinese site reads it (the English one does not)
    "locales/zh_CN/LC_MESSAGES/operators/clip.po": {"tests", "doctrees-zh_CN", "site"},
    "README.md": {"tests", "mutation", "mutation-module", "site"},
    "pyproject.toml": {"tests", "conformance", "mutation", "mutation-module", "site"},
    "formal/clip.mlw": {"tests", "proofs", "site"},
    "formal/lib/ieee.mlw": {"tests", "proofs", "proof-record", "site"},
    "formal/harness/run.py": {"tests", "proofs", "proof-record", "site"},
    "formal/harness/examples.py": {"tests", "proofs", "site"},  # its output is in each operator's key
    "formal/harness/status.py": {"tests", "proofs", "site"},  # reads the records, makes none
    "formal/proofs/clip.json": {"proofs", "site"},  # no test reads the records: a proof run re-runs none
    "mutation/equivalent/sonnx_spec.ops.cast.toml": {"mutation", "site"},
    "sonnx_live/server.py": {"tests", "site", "browser-live"},
    "gallery/rewrite.py": {"tests", "site"},  # the models gallery: its tests and its page
    "browser_tests/test_site.py": {"browser"},
    "docs/_build/html/_static/sonnx.css": {"browser"},
    "docs/_build/html/index.html": set(),  # a page's own check keys on it (browser_tests/reuse.py)
    "sonnx_spec/__pycache__/ids.cpython-311.pyc": set(),
    "CONTRIBUTING.md": set(),
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository's tracked files."""
    copy = tmp_path_factory.mktemp("tree")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, copy / name)
    return copy


def digests(root: Path) -> dict[str, str]:
    return {name: result.digest() for name, result in declared(root).items()}


@pytest.mark.parametrize("edited", CASES)
def test_an_edit_makes_stale_exactly_what_depends_on_it(tree: Path, edited: str) -> None:
    before = digests(tree)
    path = tree / edited
    original = path.read_bytes() if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((original or b"") + b"\n")
    try:
        after = digests(tree)
    finally:
        path.write_bytes(original) if original is not None else path.unlink()
    assert {name for name in before if before[name] != after[name]} == CASES[edited]
    assert digests(tree) == before


def test_a_result_is_current_only_with_the_digest_of_its_inputs(tree: Path) -> None:
    tests = declared(tree)["tests"]
    tests.path.parent.mkdir(parents=True, exist_ok=True)
    tests.path.write_text("<testsuites/>")
    assert not tests.current()  # no digest recorded
    tests.record(tests.digest())
    assert tests.current()
    clip = tree / "sonnx_spec" / "ops" / "clip.py"
    original = clip.read_bytes()
    clip.write_bytes(original + b"# edited\n")
    try:
        assert not tests.current()
    finally:
        clip.write_bytes(original)
    assert tests.current()
    tests.record(None)  # a partial run
    assert not tests.current()


def test_the_harness_keys_each_operator_on_the_declared_shared_inputs() -> None:
    sys.path.insert(0, str(ROOT))
    from formal.harness import cache

    shared = set(declared(ROOT)["proof-record"].files())
    assert set(cache.inputs(cache.LIBRARY)) == shared
    assert set(cache.inputs("clip")) == shared | {ROOT / "formal/clip.mlw", ROOT / "formal/clip.mutants.toml"}
    assert ROOT / "formal/harness/status.py" not in shared and ROOT / "formal/lib/ieee.drv" in shared
