"""Sessions: tests, docs (build and verify the site), serve, formal, browser, bench, mutants, lint.

Everything a session writes goes to ``build/`` (test results, proof status, conformance report,
mutation score, and the full logs of each step in ``build/logs/``) or ``docs/_build/`` (the site).
A session prints what ran and what came out; a step that fails prints the end of its log.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"  # nox.project.dependency_groups
nox.options.sessions = ["tests", "docs"]
nox.options.reuse_existing_virtualenvs = True
nox.options.default_venv_backend = "venv"

ROOT = Path(__file__).parent
BUILD = ROOT / "build"
LOGS = BUILD / "logs"
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
sys.path.insert(0, str(ROOT))  # results.py and mutation/: tooling beside the package, not installed
from mutation import modules  # noqa: E402
from results import declared, digest_of  # noqa: E402

# What each result depends on (results.toml): a result whose recorded digest matches is reused.
RESULTS = declared(ROOT)
TESTS, CONFORMANCE, PROOFS, MUTATION = (RESULTS[n] for n in ("tests", "conformance", "proofs", "mutation"))
JUNIT, FORMAL_STATUS = TESTS.path, PROOFS.path
SITE, DOCTREES = RESULTS["site"].path, RESULTS["doctrees"].path
NOISE = re.compile(r"Kernel is running over TCP without encryption|^\s*$|traitlets|Executing notebook")
"""Lines of a log that say nothing about the build (jupyter's kernels), left out of what is printed."""


def install(session: nox.Session, *groups: str) -> None:
    """The package (editable: the site links to these very sources) and dependency groups."""
    pyproject = nox.project.load_toml(ROOT / "pyproject.toml")
    requirements = nox.project.dependency_groups(pyproject, *groups)
    session.install("-q", "-c", "constraints.txt", "-e", ".", *requirements, silent=True)
    if session._runner.global_config.install_only:  # nox has no public flag for --install-only
        session.skip("installed only (--install-only): nothing else runs")


def require_tool(session: nox.Session, tool: str, hint: str) -> bool:
    """True if ``tool`` is on PATH; in CI its absence fails the session instead of skipping."""
    if shutil.which(tool):
        return True
    if CI:
        session.error(f"{tool} is not installed ({hint}); CI requires it")
    session.warn(f"{tool} is not installed ({hint}): this part is not run")
    return False


def logged(
    session: nox.Session, step: str, *args: str, success_codes: tuple[int, ...] = (0,), **kwargs
) -> str:
    """Run a command with its whole output in build/logs/<step>.log; print that output's end if it fails."""
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{step}.log"
    with log.open("w", encoding="utf-8") as out:
        try:
            session.run(
                *args, stdout=out, stderr=subprocess.STDOUT, success_codes=list(success_codes), **kwargs
            )
        except nox.command.CommandFailed:
            out.flush()
            lines = [line for line in log.read_text("utf-8").splitlines() if not NOISE.search(line)]
            session.log(f"{step} failed; the end of {log.relative_to(ROOT)}:\n" + "\n".join(lines[-60:]))
            raise
    return log.read_text("utf-8")


def test_summary() -> str:
    suites = ET.parse(JUNIT).getroot().iter("testsuite")
    total = failed = skipped = 0
    for suite in suites:
        total += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return f"{total} tests: {total - failed - skipped} passed, {failed} failed, {skipped} skipped"


def run_tests(session: nox.Session, *args: str, success_codes: tuple[int, ...] = (0,)) -> None:
    BUILD.mkdir(exist_ok=True)
    started = time.time_ns()
    sources = {result: result.digest() for result in (TESTS, CONFORMANCE)}  # as they are when the run starts
    for result in sources:
        result.record(None)  # an interrupted run leaves results of no known sources
    report = CONFORMANCE.path
    before = report.stat().st_mtime_ns if report.exists() else None  # the run writes it when all of it ran
    # pytest-xdist: one worker per core; the conformance tests share one (tests/conformance/conftest.py)
    command = [
        "pytest",
        "-n",
        "auto",
        "--dist",
        "loadgroup",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--junitxml={JUNIT}",
    ]
    command += args
    logged(session, "tests", *command, success_codes=success_codes)
    if not JUNIT.exists() or JUNIT.stat().st_mtime_ns < started:  # --install-only: nothing ran
        return
    session.log(f"Tests: {test_summary()} (log: build/logs/tests.log)")
    complete = not args  # a partial run (posargs) is never reused
    TESTS.record(sources[TESTS] if complete else None)
    written = report.exists() and report.stat().st_mtime_ns != before
    CONFORMANCE.record(sources[CONFORMANCE] if complete and written else None)


@nox.session
def tests(session: nox.Session) -> None:
    """The reference package's tests, the conformance runs against ONNX and onnxruntime."""
    install(session, "test", "oracles", "third-party", "docs")  # docs: a test builds a small site
    run_tests(session, *session.posargs)


def ci_base() -> str | None:
    """The commit a submission starts after, when the landing system names it (SONNX_CI_BASE, in CI): the
    records changed since are made again there, cold. Otherwise None: a committed record is reused while its
    key is its inputs' digest, in CI as on a developer's machine (a record of other sources is stale and is
    made again). The full replay (``nox -s formal -- --verify``) is the scheduled check of every record."""
    if not CI:
        return None
    return os.environ.get("SONNX_CI_BASE") or None


def ci_verification() -> list[str]:
    """With a base, the proof records the submission changed (or stale ones) are proved again, cold, and
    checked (formal/harness/changes.py)."""
    base = ci_base()
    if base is None:
        return []
    return ["--verify", "--since", base]


def prove(session: nox.Session, *args: str) -> None:
    BUILD.mkdir(exist_ok=True)
    before = inputs_but_records()
    PROOFS.record(None)  # a failed run writes a status of no known sources
    command = ["python", "-m", "formal.harness", f"--status={FORMAL_STATUS}", *(args or ci_verification())]
    output = logged(session, "formal", *command)
    session.log(output.strip().splitlines()[-1] + " (log: build/logs/formal.log)")
    # The records are the run's output as well as an input: the status is of the records as the run
    # left them, and of the other inputs as they were when it started (unless edited meanwhile).
    complete = not args and inputs_but_records() == before  # a partial run (--only) is never reused
    PROOFS.record(PROOFS.digest() if complete else None)


def inputs_but_records() -> str:
    return digest_of(ROOT, [f for f in PROOFS.files() if f.parent != ROOT / "formal" / "proofs"])


@nox.session
def formal(session: nox.Session) -> None:
    """Prove the Why3 specifications in formal/ with Z3 and cvc5 (-- --only clip,max; -- --replay).
    In CI (CI=true) everything is proved again and a committed record claiming more fails (--verify)."""
    if require_tool(session, "why3", "apt-get install why3 z3 cvc5"):
        install(session)  # the harness checks the goals' ids against the rules' catalogue
        prove(session, *session.posargs)


def build_site(session: nox.Session, *args: str) -> None:
    """Build the site beside the one in docs/_build/html and put it there only if the build succeeded:
    a failed build (a wrong example, say) leaves no page with wrong content, and no file of an earlier
    build survives in a new one."""
    staging = SITE.with_name("html.new")
    SITE.parent.mkdir(parents=True, exist_ok=True)
    lock = (SITE.parent / "build.lock").open("w")
    try:  # two builds at once would delete each other's staging folder midway
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        session.error("another `nox -s docs` is building this site; wait for it to finish")
    shutil.rmtree(staging, ignore_errors=True)
    readers = {}
    for name in ("doctrees", "doctrees-zh_CN"):
        if not RESULTS[name].current():  # the code that reads the pages changed: read them all
            shutil.rmtree(RESULTS[name].path, ignore_errors=True)
        readers[name] = RESULTS[name].digest()  # as they are when the build starts
    sources = RESULTS["site"].digest()
    common = ["-W", "--keep-going", "-q", "-n", "-j", "auto", "-c", str(ROOT)]
    # A build that leaves a process running (a math server, a kernel) fails, the process ended.
    sphinx_build = ["python", "-m", "sonnx_sphinx.leftovers", "sphinx-build"]
    english = [*common, "-d", str(DOCTREES), "docs"]
    chinese = [*common, "-D", "language=zh_CN", "-d", str(RESULTS["doctrees-zh_CN"].path), "docs"]
    try:
        # -a: write every page (into an empty folder Sphinx would write only the pages it read again).
        # The Chinese site first: the English build's check of the links then sees both languages.
        logged(
            session, "site-zh_CN", *sphinx_build, "-b", "html", "-a", *chinese, str(staging / "zh_CN"), *args
        )
        logged(session, "site", *sphinx_build, "-b", "html", "-a", *english, str(staging), *args)
        doctest = staging.with_name("doctest")
        logged(session, "doctest", *sphinx_build, "-b", "doctest", *english, str(doctest))
    except nox.command.CommandFailed:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(SITE, ignore_errors=True)
    staging.rename(SITE)
    for name, digest in readers.items():
        RESULTS[name].record(digest)
    RESULTS["site"].record(sources)
    summary = re.search(r"^\s*(\d+) tests$", (doctest / "output.txt").read_text("utf-8"), re.MULTILINE)
    pages = len(list(SITE.rglob("*.html")))
    examples = summary[1] if summary else "no"
    session.log(f"Site: {pages} pages, {examples} doctest examples run again, no warning (logs: build/logs/)")
    session.log((SITE / "zh_CN" / "translation-coverage.txt").read_text("utf-8").strip())


@nox.session
def docs(session: nox.Session) -> None:
    """Run the tests, then build the site with warnings as errors and verify it."""
    install(session, "docs", "test", "oracles", "third-party")
    if TESTS.current():
        session.log(
            f"Tests: reused {JUNIT.relative_to(ROOT)}, a run on these very sources ({test_summary()})"
        )
    else:
        # A failing test does not stop here: the build names the ids its failures leave unproved.
        run_tests(session, success_codes=(0, 1))
    if PROOFS.current():
        session.log(f"Proofs: reused {FORMAL_STATUS.relative_to(ROOT)}, a run on these very sources")
    elif require_tool(session, "why3", "apt-get install why3 z3 cvc5"):
        prove(session)
    else:
        FORMAL_STATUS.unlink(missing_ok=True)  # never publish the proofs of other sources
    if MUTATION.current():
        session.log(
            f"Mutation score: published from {MUTATION.path.relative_to(ROOT)}, a run on these very sources"
        )
    else:
        MUTATION.path.unlink(missing_ok=True)  # never publish the score of other sources
        session.log("Mutation score: none for these sources (`nox -s mutants` computes it)")
    build_site(session, *session.posargs)
    session.log(f"The site is in {SITE.relative_to(ROOT)}/index.html")


@nox.session
def catalogues(session: nox.Session) -> None:
    """Bring the Chinese catalogues (locales/zh_CN) up to date with the English pages, rules and phrases."""
    install(session, "docs", "test", "oracles", "third-party")
    templates = BUILD / "gettext"
    shutil.rmtree(templates, ignore_errors=True)
    doctrees = BUILD / "gettext-doctrees"  # the gettext builder's own: Sphinx refuses the html ones
    command = ["python", "-m", "sonnx_sphinx.leftovers", "sphinx-build", "-b", "gettext", "-q", "-j", "auto"]
    command += ["-c", str(ROOT), "-D", "needs_build_json=0", "-d", str(doctrees), "docs", str(templates)]
    logged(session, "gettext", *command)
    session.run("python", "-m", "sonnx_sphinx.catalogues", str(templates), "locales", "zh_CN")


@nox.session
def serve(session: nox.Session) -> None:
    """Serve the site on 127.0.0.1 with live examples; build it first if missing or stale (-- --port N)."""
    install(session)  # the runs need the reference only; the server needs the standard library only
    if (SITE / "index.html").exists() and RESULTS["site"].current():
        session.log(f"{SITE.relative_to(ROOT)} was built from these very sources")
    else:
        session.log(f"Building the site first: {SITE.relative_to(ROOT)} is missing or older than its sources")
        session.run(sys.executable, "-m", "nox", "-f", str(ROOT / "noxfile.py"), "-s", "docs", external=True)
    session.run("python", "-m", "sonnx_live", "--site", str(SITE), *session.posargs)


@nox.session
def browser(session: nox.Session) -> None:
    """Visit every page of the built site in Chromium (run ``nox -s docs`` first)."""
    if not (SITE / "index.html").exists():
        session.error(f"no site in {SITE.relative_to(ROOT)}: run `nox -s docs` first")
    install(session, "browser")
    require_tool(session, "chromium", "apt-get install chromium")
    session.run("pytest", "-q", "-p", "no:cacheprovider", "browser_tests", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Time the reference against numpy's kernels and onnxruntime, operator by operator (-- OPERATORS: those
    only), then ``sonnx-spec run`` against onnxruntime on the models gallery's models; print the ratios."""
    install(session, "oracles", "third-party")  # third-party: the gallery's scikit-learn models
    session.run("python", "bench/bench.py", *session.posargs)
    if not session.posargs:
        session.run("python", "bench/models.py")


@nox.session
def mutants(session: nox.Session) -> None:
    """Mutation testing of the reference (mutmut): every mutant is killed by a test, or explained.

    A module's committed record (mutation/records/) is reused while its inputs are unchanged
    (mutation/modules.py); mutmut runs the other modules' mutants only. In CI, the records the submission
    changed are made again too. ``-- <mutant names or patterns>`` runs those and updates no score."""
    install(session, "test", "oracles", "mutants")
    sources = MUTATION.digest()
    MUTATION.record(None)
    env = {"HYPOTHESIS_PROFILE": "mutants"}  # fewer hypothesis examples: the tests run once per mutant
    if session.posargs:
        logged(session, "mutants", "mutmut", "run", *session.posargs, env=env)
        session.log("Mutation: a partial run; the score is not updated (log: build/logs/mutants.log)")
        return
    records = modules.Records(ROOT)
    stale = records.stale()
    base = ci_base()
    if base is not None:  # the landing system named the submission: its records are made again
        stale = sorted({*stale, *records.changed_since(base)})
    names = records.to_run(stale)
    if names:
        # mutmut reuses its map of which tests run which function even when the tests or the functions
        # changed: a new function would have no tests, and its mutants would survive. Map them again.
        (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
        logged(session, "mutants", "mutmut", "run", *names, env=env)
    records.update(stale, ROOT / "mutants")
    reused = len(records.modules) - len(stale)
    session.log(
        f"Mutation: {len(stale)} modules run, {reused} reused from {records.folder.relative_to(ROOT)}/"
        + ("; commit the records" if stale and base is None else "")
    )
    session.run("python", "mutation/report.py", f"--status={MUTATION.path}")
    MUTATION.record(sources)


@nox.session
def lint(session: nox.Session) -> None:
    install(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
