"""Sessions: tests, docs (build and verify the site), serve, formal, browser, bench, lint.

Everything a session writes goes to ``build/`` (test results, proof status,
conformance report) or ``docs/_build/`` (the site).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
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
JUNIT = BUILD / "junit.xml"  # the tests' results, with the conformance report beside it
FORMAL_STATUS = BUILD / "formal-status.json"
# What a result depends on: a result whose recorded digest matches is reused by `docs`.
TEST_INPUTS = [
    "sonnx_spec/**/*.py",
    "sonnx_spec/**/*.toml",
    "tests/**/*.py",
    "README.md",
    "pyproject.toml",
    "constraints.txt",
]
FORMAL_INPUTS = ["formal/**/*.mlw", "formal/**/*.py", "formal/**/*.toml", "sonnx_spec/requirements/*.toml"]


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


def digest(patterns: list[str]) -> str:
    sha = hashlib.sha256()
    for path in sorted({p for pattern in patterns for p in ROOT.glob(pattern) if p.is_file()}):
        sha.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def digest_file(result: Path) -> Path:
    return result.with_name(result.name + ".digest")


def up_to_date(result: Path, patterns: list[str]) -> bool:
    """True if ``result`` was written by a complete run on the current sources."""
    recorded = digest_file(result)
    return result.exists() and recorded.exists() and recorded.read_text() == digest(patterns)


def record(result: Path, patterns: list[str], complete: bool) -> None:
    """Remember which sources ``result`` comes from; a partial run (posargs) is never reused."""
    if complete:
        digest_file(result).write_text(digest(patterns))
    else:
        digest_file(result).unlink(missing_ok=True)


def run_tests(session: nox.Session, *args: str, **kwargs) -> None:
    BUILD.mkdir(exist_ok=True)
    digest_file(JUNIT).unlink(missing_ok=True)  # an interrupted run leaves results of no known sources
    session.run("pytest", f"--junitxml={JUNIT}", *args, **kwargs)
    record(JUNIT, TEST_INPUTS, complete=not session.posargs)


@nox.session
def tests(session: nox.Session) -> None:
    """The reference package's tests, the conformance runs against ONNX and onnxruntime."""
    install(session, "test", "oracles")
    run_tests(session, *session.posargs)


def prove(session: nox.Session, *args: str) -> None:
    BUILD.mkdir(exist_ok=True)
    digest_file(FORMAL_STATUS).unlink(missing_ok=True)  # a failed run writes a status of no known sources
    session.run("python", "formal/prove.py", f"--status={FORMAL_STATUS}", *args)
    record(FORMAL_STATUS, FORMAL_INPUTS, complete=not args)


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
    junit = JUNIT.relative_to(ROOT)
    if up_to_date(JUNIT, TEST_INPUTS):
        session.log(f"The site publishes the results in {junit}, from a full test run on these very sources")
    else:
        session.log(f"Running the tests first: the site publishes their results ({junit})")
        # A failing test does not stop here: the build names the ids its failures leave unproved.
        run_tests(session, "-q", "-p", "no:cacheprovider", success_codes=[0, 1])
    status = FORMAL_STATUS.relative_to(ROOT)
    if up_to_date(FORMAL_STATUS, FORMAL_INPUTS):
        session.log(f"The site publishes the proof status in {status}, from a run on these very sources")
    elif require_tool(session, "why3", "apt-get install why3 z3 cvc4"):
        session.log(f"Proving formal/ first: the site publishes each goal's status ({status})")
        prove(session)
    else:
        FORMAL_STATUS.unlink(missing_ok=True)  # never publish the proofs of other sources
    common = ["-W", "--keep-going", "-n", "-j", "auto", "-c", str(ROOT), "-d", str(DOCTREES), "docs"]
    session.run("sphinx-build", "-b", "html", *common, str(SITE), *session.posargs)
    session.run("sphinx-build", "-b", "doctest", *common, str(ROOT / "docs" / "_build" / "doctest"))
    session.log(f"The site is in {SITE.relative_to(ROOT)}/index.html")


# What the site is built from (docs/ but docs/_build, the site): `serve` rebuilds it when they change.
SITE_INPUTS = [
    *TEST_INPUTS,
    *FORMAL_INPUTS,
    "docs/*",
    "docs/[!_]*/**/*",
    "docs/_[!b]*/**/*",
    "sonnx_sphinx/**/*.py",
    "conf.py",
    "noxfile.py",
]


@nox.session
def serve(session: nox.Session) -> None:
    """Serve the site on 127.0.0.1 with live examples; build it first if missing or stale (-- --port N)."""
    install(session)  # the runs need the reference only; the server needs the standard library only
    site = SITE.relative_to(ROOT)
    sources = digest(SITE_INPUTS)
    if (SITE / "index.html").exists() and up_to_date(SITE, SITE_INPUTS):
        session.log(f"{site} was built from these very sources")
    else:
        session.log(
            f"Building the site first: {site} is missing, or was not built by `serve` from these sources"
        )
        digest_file(SITE).unlink(missing_ok=True)
        shutil.rmtree(
            DOCTREES, ignore_errors=True
        )  # every page read again: Sphinx misses sonnx_sphinx's changes
        session.run(sys.executable, "-m", "nox", "-f", str(ROOT / "noxfile.py"), "-s", "docs", external=True)
        digest_file(SITE).write_text(sources)  # the sources as they were when the build started
    session.run("python", "-m", "sonnx_live", "--site", str(SITE), *session.posargs)


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
