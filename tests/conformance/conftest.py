"""Collects the conformance tests' outcomes; writes ``build/conformance.json`` when the session ends.

The report is written only when every conformance test recorded its outcome: a
run narrowed with ``-k`` or stopped early would publish part of the picture,
so it leaves the previous report alone and says so. Under pytest-xdist each
worker hands what it recorded to the controller (``tests/conftest.py`` gathers
it), which writes the report with ``conformance_report.conclude``.
"""

from __future__ import annotations

import pickle

import pytest
from conformance_report import Recorder, conclude

_RECORDER = pytest.StashKey[Recorder]()
CONCLUSION = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def conformance(pytestconfig: pytest.Config) -> Recorder:
    """The session's recorder: tests add their outcomes to it."""
    return pytestconfig.stash.setdefault(_RECORDER, Recorder())


def pytest_sessionfinish(session: pytest.Session) -> None:
    recorder = session.config.stash.get(_RECORDER, None)
    if recorder is None:
        return  # no conformance test ran here
    if hasattr(session.config, "workerinput"):  # a pytest-xdist worker: the controller concludes
        session.config.workeroutput["conformance"] = pickle.dumps(recorder)
        return
    session.config.stash[CONCLUSION] = conclude(recorder, session.config.rootpath)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Says whether the report was written (this hook runs after pytest_sessionfinish)."""
    if CONCLUSION in config.stash:
        terminalreporter.write_sep("-", config.stash[CONCLUSION])
