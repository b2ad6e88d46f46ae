"""Every rule traced: named where the reference checks it, tested, passing, proved.

Errors, located at the id's line in its rules file, at the code or at the goal:
a constraint or error condition no code names; a rule no test names; a test of a
rule that failed or was skipped; an id named by the code, the tests or the
proofs that is not a rule; no test results; an unproved goal; in CI, no proofs.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ..data import CI, BuildData, build_data
from . import report

ENFORCED_KINDS = ("constraint", "error")  # must be named where the reference checks them


def problems(data: BuildData) -> list[tuple[str, str]]:
    """(location, message) for every traceability promise the data breaks."""
    found = []
    if not data.current["tests"]:
        found.append((str(data.junit), data.missing("tests", "`nox -s docs` runs the tests first")))
    for rule in data.rules.values():
        where = data.location_of(rule.id)
        if rule.kind in ENFORCED_KINDS and not data.code.get(rule.id):
            found.append((where, f"{rule.id} is a {rule.kind} that no code enforces: name it at the check"))
        tests = data.tests_of(rule.id)
        if not tests.cases and data.current["tests"]:
            found.append((where, f'{rule.id} has no test: mark one with @pytest.mark.req("{rule.id}")'))
        for case in tests.cases:
            if case.outcome != "pass":
                verdict = "failed" if case.outcome == "fail" else "was skipped"
                found.append((where, f"{rule.id}: test {case.nodeid} {verdict} in this run"))
    known = set(data.rules)
    for ref, token in data.code_tokens:
        if token not in known:
            found.append((f"{data.root / ref.path}:{ref.line}", f"{token} is not a rule id"))
    for case in data.test_cases:
        for rule_id in case.req:
            if rule_id not in known:
                found.append((str(data.junit), f"{case.nodeid} names {rule_id}, which is not a rule id"))
    for goal in data.formal_goals:
        where = f"{data.root / goal.file}:{goal.line}"
        for rule_id in goal.ids:
            if rule_id not in known:
                found.append((where, f"goal {goal.goal} names unknown id {rule_id}"))
        if goal.status != "proved":
            found.append((where, f"goal {goal.goal} is {goal.status}"))
    if data.formal_header is not None:  # what the harness found besides goals: mutants, examples, files
        found += [(str(data.formal_status), failure) for failure in data.formal_header.get("failures", [])]
    if CI and data.formal_header is None:
        found.append((str(data.formal_status), "no proof status: CI runs `nox -s formal` before the docs"))
    return found


def _check(app: Sphinx, env: BuildEnvironment) -> None:
    for location, message in problems(build_data(app)):
        report("trace", location, message)


def setup(app: Sphinx) -> dict:
    app.connect("env-check-consistency", _check)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
