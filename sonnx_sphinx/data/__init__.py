"""The data every part of the extension reads, gathered once per build.

Rules, sources and operators come from the reference package (their one
source); the code lines naming ids, the test results and the proof status from
the run the site is built from (:mod:`.code_refs`, :mod:`.test_results`,
:mod:`.proof_status`). Where each result is and what it depends on is declared
once, in ``results.toml``: a result made from other sources than these is not
published (its recorded digest is not the digest of its inputs now).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from results import Result, declared
from sonnx_spec import Operator, operators
from sonnx_spec.requirements import Catalogue, Rule, catalogue

from .code_refs import CodeRef, scan_code
from .proof_status import FormalGoal, read_formal
from .test_results import TestCase, TestSummary, read_junit, test_lines, tests_by_id

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
PUBLISHED = ("tests", "conformance", "proofs", "mutation")
"""The results the site shows, by their names in results.toml."""


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
    results: dict[str, Result]  # the published results, as results.toml declares them
    current: dict[str, bool]  # made from these very sources

    def missing(self, name: str, how: str) -> str:
        """Why result ``name`` is not published, and ``how`` to make it."""
        path = self.results[name].path.relative_to(self.root)
        if not self.results[name].path.exists():
            return f"no {path}: {how}"
        return f"{path} comes from other sources (its inputs in results.toml changed since): {how}"

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
        files = [path for r in self.results.values() for path in (r.path, r.digest_file)]
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
    results = {name: result for name, result in declared(root).items() if name in PUBLISHED}
    current = {name: result.current() for name, result in results.items()}
    junit, formal, mutation = (results[name].path for name in ("tests", "proofs", "mutation"))
    code, tokens = scan_code(root)
    cases = read_junit(junit) if current["tests"] else []
    header, goals = read_formal(formal) if current["proofs"] else (None, [])
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
        mutation=json.loads(mutation.read_text("utf-8")) if current["mutation"] else None,
        results=results,
        current=current,
    )


def setup(app: Sphinx) -> dict:
    return {"parallel_read_safe": True, "parallel_write_safe": True}
