"""Collects the conformance tests' outcomes; writes ``build/conformance.json`` when the session ends.

The report is written only when every conformance test recorded its outcome: a
run narrowed with ``-k`` or stopped early would publish part of the picture,
so it leaves the previous report alone and says so. Under pytest-xdist every
conformance test runs in one worker (``--dist loadgroup``), which writes the report.
"""

from __future__ import annotations

import pytest
from backend_cases import backend_cases
from conformance_report import Recorder, report, write

REPORT = "build/conformance.json"  # relative to the repository root, where the site reads it
_RECORDER = pytest.StashKey[Recorder]()
_MESSAGE = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def conformance(pytestconfig: pytest.Config) -> Recorder:
    """The session's recorder: tests add their outcomes to it."""
    return pytestconfig.stash.setdefault(_RECORDER, Recorder())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = config.rootpath / "tests" / "conformance"
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.xdist_group("conformance"))  # one recorder sees them all


def pytest_sessionfinish(session: pytest.Session) -> None:
    recorder = session.config.stash.get(_RECORDER, None)
    if recorder is None:
        return  # no conformance test ran
    # backend_cases() is cached: calling it costs nothing once a backend test ran.
    complete = bool(recorder.backend) and not recorder.missing({case.name for case in backend_cases()})
    path = session.config.rootpath / REPORT
    if not complete:
        message = f"{REPORT} not written: not every conformance test ran"
    else:
        write(report(recorder), path)
        message = f"conformance report written to {REPORT}"
    session.config.stash[_MESSAGE] = message


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Says whether the report was written (this hook runs after pytest_sessionfinish)."""
    if _MESSAGE in config.stash:
        terminalreporter.write_sep("-", config.stash[_MESSAGE])
