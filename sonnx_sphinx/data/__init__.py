"""The data every part of the extension reads, gathered once per build.

Rules, sources and operators come from the reference package (their one
source); the code lines naming ids, the test results and the proof status from
the run the site is built from (:mod:`.code_refs`, :mod:`.test_results`,
:mod:`.proof_status`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from sonnx_spec import Operator, operators
from sonnx_spec.requirements import Catalogue, Rule, catalogue

from .code_refs import CodeRef, scan_code
from .proof_status import FormalGoal, read_formal
from .test_results import TestCase, TestSummary, read_junit, test_lines, tests_by_id

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@dataclass
class BuildData:
    root: Path
    catalogue: Catalogue
    operators: dict[str, Operator]
    code: dict[str, list[CodeRef]]
    code_tokens: list[tuple[CodeRef, str]]
    junit: Path
    test_cases: list[TestCase]
    tests: dict[str, TestSummary]
    test_lines: dict[str, int]
    formal_status: Path
    formal_header: dict[str, Any] | None
    formal_goals: list[FormalGoal]
    mutation_status: Path
    mutation: dict[str, Any] | None  # the last `nox -s mutants` run on these sources (mutation/report.py)

    @property
    def rules(self) -> dict[str, Rule]:
        return self.catalogue.rules

    def tests_of(self, rule_id: str) -> TestSummary:
        return self.tests.get(rule_id, TestSummary())

    def goals_of(self, rule_id: str) -> list[FormalGoal]:
        return [goal for goal in self.formal_goals if rule_id in goal.ids]

    def location_of(self, rule_id: str) -> str:
        """``path:line`` of the rule's declaration, for located build errors."""
        rule = self.rules[rule_id]
        return str(rule.location) if rule.location else str(self.root)

    @property
    def inputs(self) -> list[Path]:
        """Files whose change must make the pages showing this data be read again."""
        files = [self.junit, self.formal_status, self.mutation_status]
        files += sorted((self.root / "sonnx_spec").rglob("*.py"))
        files += sorted((self.root / "sonnx_spec" / "requirements").glob("*.toml"))
        return [f for f in files if f.exists()]


def build_data(app: Sphinx) -> BuildData:
    cached = getattr(app, "_sonnx_build_data", None)
    if cached is None:
        cached = _gather(app)
        app._sonnx_build_data = cached  # type: ignore[attr-defined]
    return cached


def _gather(app: Sphinx) -> BuildData:
    root = Path(app.confdir)
    junit = root / app.config.sonnx_test_results
    formal = root / app.config.sonnx_formal_status
    code, tokens = scan_code(root)
    cases = read_junit(junit) if junit.exists() else []
    header, goals = read_formal(formal) if formal.exists() else (None, [])
    mutation = root / app.config.sonnx_mutation_status
    return BuildData(
        root=root,
        catalogue=catalogue(),
        operators=operators(),
        code=code,
        code_tokens=tokens,
        junit=junit,
        test_cases=cases,
        tests=tests_by_id(cases),
        test_lines=test_lines(root, cases),
        formal_status=formal,
        formal_header=header,
        formal_goals=goals,
        mutation_status=mutation,
        mutation=json.loads(mutation.read_text("utf-8")) if mutation.exists() else None,
    )


def setup(app: Sphinx) -> dict:
    app.add_config_value("sonnx_test_results", "build/junit.xml", "env", types=[str])
    app.add_config_value("sonnx_formal_status", "build/formal-status.json", "env", types=[str])
    app.add_config_value("sonnx_mutation_status", "build/mutation.json", "env", types=[str])
    return {"parallel_read_safe": True, "parallel_write_safe": True}
