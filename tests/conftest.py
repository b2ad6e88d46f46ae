"""Links tests to rule ids and records them in the JUnit XML the site reads.

``@pytest.mark.req("CLIP_C4", ...)`` says which rules a test proves. An
unknown id stops the run at collection. Each test case's JUnit record carries
its ids (property ``req``) and, for tests parametrized by ``dtype``, the type
it ran with, so that ``nox -s docs`` can show per id the tests and their result.
"""

from __future__ import annotations

import importlib
import os
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from sonnx_spec import rules

# Derandomized: the same sources give the same examples, hence the same site.
settings.register_profile(
    "spec",
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Mutation testing runs the tests once per mutant: fewer examples, same determinism.
settings.register_profile("mutants", settings.get_profile("spec"), max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "spec"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "req(*ids): the rule ids (CLIP_C4, GR2, …) this test proves")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    known = rules()
    for item in items:
        for mark in item.iter_markers("req"):
            for req_id in mark.args:
                if req_id not in known:
                    raise pytest.UsageError(f"{item.nodeid}: unknown rule id {req_id!r} in @req")
                item.user_properties.append(("req", req_id))
        params = getattr(item, "callspec", None)
        if params is not None and "dtype" in params.params:
            item.user_properties.append(("dtype", np.dtype(params.params["dtype"]).name))
        item.user_properties.append(("nodeid", item.nodeid))


# -- pytest-xdist: the conformance tests' outcomes come back from the workers --------------------------
_CONFORMANCE_PARTS = pytest.StashKey[list]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # pytest-xdist's hook: a worker finished
    part = getattr(node, "workeroutput", {}).get("conformance")
    if part is not None:
        node.config.stash.setdefault(_CONFORMANCE_PARTS, []).append(part)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In the controller of a pytest-xdist run: merge what the workers recorded, write the report."""
    parts = session.config.stash.get(_CONFORMANCE_PARTS, None)
    if not parts or hasattr(session.config, "workerinput"):
        return
    sys.path.insert(0, str(Path(__file__).parent / "conformance"))
    report = importlib.import_module("conformance_report")  # the conformance tests' own module
    recorder = report.Recorder()
    for part in parts:
        recorder.merge(pickle.loads(part))
    session.config.stash[_CONFORMANCE_MESSAGE] = report.conclude(recorder, session.config.rootpath)


_CONFORMANCE_MESSAGE = pytest.StashKey[str]()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if _CONFORMANCE_MESSAGE in config.stash:
        terminalreporter.write_sep("-", config.stash[_CONFORMANCE_MESSAGE])
