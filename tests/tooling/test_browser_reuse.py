"""browser_tests/reuse.py: a browser check that passed is not run again while its page, the site's static
files and the checks' code are unchanged.

Runs pytest on a fake site and fake checks (no browser): one check per page, one of no page.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFTEST = f"""
import sys
sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / "browser_tests")!r}]
from pathlib import Path
from reuse import Reuse
HERE = Path(__file__).resolve().parent.parent

def pytest_addoption(parser):
    parser.addoption("--recheck", action="store_true")

def pytest_configure(config):
    site = HERE / "docs" / "_build" / "html"
    config.pluginmanager.register(Reuse(HERE, site, config.getoption("--recheck")), "sonnx-reuse")
"""
CHECKS = """
import pytest
from pathlib import Path
SITE = Path(__file__).resolve().parent.parent / "docs" / "_build" / "html"

@pytest.mark.parametrize("page_path", ["a.html", "b.html"])
def test_page(page_path):
    assert "broken" not in (SITE / page_path).read_text()

def test_every_page():
    pass
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copyfile(ROOT / "results.toml", tmp_path / "results.toml")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    checks = tmp_path / "browser_tests"
    checks.mkdir()
    (checks / "conftest.py").write_text(CONFTEST)
    (checks / "test_checks.py").write_text(CHECKS)
    site = tmp_path / "docs" / "_build" / "html"
    (site / "_static").mkdir(parents=True)
    for name, text in {"a.html": "A", "b.html": "B", "_static/site.css": "p {}"}.items():
        (site / name).write_text(text)
    return tmp_path


def run(tree: Path, *args: str) -> dict[str, int]:
    """Run the fake checks; how many passed, failed, were skipped."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "browser_tests", *args]
    quick = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # no hypothesis, no xdist: a faster start
    out = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=quick).stdout
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped)", out.splitlines()[-1])}


def edit(tree: Path, name: str, text: str = " edited") -> None:
    path = tree / name
    path.write_text(path.read_text() + text)


def test_a_check_runs_again_only_when_its_page_or_the_shared_inputs_change(tree: Path) -> None:
    assert run(tree) == {"passed": 3}
    assert run(tree) == {"skipped": 3}  # nothing changed
    edit(tree, "docs/_build/html/b.html")
    assert run(tree) == {"passed": 2, "skipped": 1}  # b's check and the check of every page
    edit(tree, "docs/_build/html/_static/site.css")
    assert run(tree) == {"passed": 3}
    edit(tree, "browser_tests/test_checks.py", "\n# edited\n")
    assert run(tree) == {"passed": 3}
    assert run(tree, "--recheck") == {"passed": 3}


def test_a_failed_check_runs_again(tree: Path) -> None:
    run(tree)
    edit(tree, "docs/_build/html/a.html", " broken")
    assert run(tree) == {"passed": 1, "failed": 1, "skipped": 1}
    assert run(tree) == {"failed": 1, "skipped": 2}  # the failed one only
