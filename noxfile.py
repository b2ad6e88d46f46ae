"""Sessions: tests, docs (build and verify the site), formal, browser, bench, lint.

Everything a session writes goes to ``build/`` (test results, proof status,
conformance report) or ``docs/_build/`` (the site).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.options.sessions = ["tests", "docs"]
nox.options.reuse_existing_virtualenvs = True
nox.options.default_venv_backend = "venv"

ROOT = Path(__file__).parent
BUILD = ROOT / "build"
SITE = ROOT / "docs" / "_build" / "html"
DOCTREES = ROOT / "docs" / "_build" / "doctrees"
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
JUNIT = BUILD / "junit.xml"


def install(session: nox.Session, *groups: str) -> None:
    """The package (editable: the site links to these very sources) and dependency groups."""
    session.install("-c", "constraints.txt", "-e", ".", *nox.project.dependency_groups(PYPROJECT, *groups))


def require_tool(session: nox.Session, tool: str, hint: str) -> bool:
    """True if ``tool`` is on PATH; in CI its absence fails the session instead of skipping."""
    if shutil.which(tool):
        return True
    if CI:
        session.error(f"{tool} is not installed ({hint}); CI requires it")
    session.warn(f"{tool} is not installed ({hint}): this part is not run")
    return False


def run_tests(session: nox.Session, *args: str, **kwargs) -> None:
    BUILD.mkdir(exist_ok=True)
    session.run("pytest", f"--junitxml={JUNIT}", *args, **kwargs)


@nox.session
def tests(session: nox.Session) -> None:
    """The reference package's tests, the conformance runs against ONNX and onnxruntime."""
    install(session, "test", "oracles")
    run_tests(session, *session.posargs)


def prove(session: nox.Session, *args: str) -> None:
    session.run("python", "formal/prove.py", f"--status={BUILD / 'formal-status.json'}", *args)


@nox.session
def formal(session: nox.Session) -> None:
    """Prove the Why3 specifications in formal/ with Z3 and CVC4."""
    if require_tool(session, "why3", "apt-get install why3 z3 cvc4"):
        install(session)  # prove.py checks the goals' ids against sonnx_spec.requirements()
        prove(session, *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Run the tests, then build the site with warnings as errors and verify it."""
    install(session, "docs", "test", "oracles")
    session.log(f"Running the tests first: the site publishes their results ({JUNIT.relative_to(ROOT)})")
    # A failing test does not stop here: the build names the ids its failures leave unproved.
    run_tests(session, "-q", "-p", "no:cacheprovider", success_codes=[0, 1])
    if require_tool(session, "why3", "apt-get install why3 z3 cvc4"):
        prove(session)
    common = ["-W", "--keep-going", "-n", "-j", "auto", "-c", str(ROOT), "-d", str(DOCTREES), "docs"]
    session.run("sphinx-build", "-b", "html", *common, str(SITE), *session.posargs)
    session.run("sphinx-build", "-b", "doctest", *common, str(ROOT / "docs" / "_build" / "doctest"))
    session.log(f"The site is in {SITE.relative_to(ROOT)}/index.html")


@nox.session
def browser(session: nox.Session) -> None:
    """Visit every page of the built site in Chromium (run ``nox -s docs`` first)."""
    if not (SITE / "index.html").exists():
        session.error(f"no site in {SITE.relative_to(ROOT)}: run `nox -s docs` first")
    install(session, "browser")
    require_tool(session, "chromium", "apt-get install chromium")
    session.run("pytest", "-p", "no:cacheprovider", "browser_tests", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Time the reference against numpy's kernels and onnxruntime; print the ratios."""
    install(session, "oracles")
    session.run("python", "bench/bench.py", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    install(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
