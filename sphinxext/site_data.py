"""The data every project extension reads, gathered once per build.

Requirements come from ``sonnx_spec/requirements.toml``; code lines, test
results and proof status from :mod:`sphinxext.trace_data`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from sonnx_spec.requirements import Requirement, Source, requirements, sources

from .trace_data import (
    CodeRef,
    FormalGoal,
    TestCase,
    TestSummary,
    read_formal,
    read_junit,
    scan_code,
    tests_by_id,
)

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@dataclass
class SiteData:
    root: Path
    requirements: dict[str, Requirement]
    sources: dict[str, Source]
    code: dict[str, list[CodeRef]]
    code_tokens: list[tuple[CodeRef, str]]
    junit: Path
    test_cases: list[TestCase]
    tests: dict[str, TestSummary]
    formal_status: Path
    formal_header: dict | None
    formal_goals: list[FormalGoal]

    def tests_of(self, req_id: str) -> TestSummary:
        return self.tests.get(req_id, TestSummary())

    def goals_of(self, req_id: str) -> list[FormalGoal]:
        return [goal for goal in self.formal_goals if req_id in goal.ids]

    def requirements_file_location(self, req_id: str) -> str:
        """``path:line`` of the id's declaration, for located build errors."""
        path = self.root / "sonnx_spec" / "requirements.toml"
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if line.replace(" ", "") == f'id="{req_id}"':
                return f"{path}:{number}"
        return str(path)

    @property
    def inputs(self) -> list[Path]:
        """Files whose change must make the pages showing this data be read again."""
        files = [self.root / "sonnx_spec" / "requirements.toml", self.junit, self.formal_status]
        files += sorted((self.root / "sonnx_spec").rglob("*.py"))
        return [f for f in files if f.exists()]


def site_data(app: Sphinx) -> SiteData:
    cached = getattr(app, "_sonnx_site_data", None)
    if cached is None:
        cached = _gather(app)
        app._sonnx_site_data = cached  # type: ignore[attr-defined]
    return cached


def _gather(app: Sphinx) -> SiteData:
    root = Path(app.confdir)
    junit = root / app.config.sonnx_test_results
    formal = root / app.config.sonnx_formal_status
    code, tokens = scan_code(root)
    cases = read_junit(junit) if junit.exists() else []
    header, goals = read_formal(formal) if formal.exists() else (None, [])
    return SiteData(
        root=root,
        requirements=requirements(),
        sources=sources(),
        code=code,
        code_tokens=tokens,
        junit=junit,
        test_cases=cases,
        tests=tests_by_id(cases),
        formal_status=formal,
        formal_header=header,
        formal_goals=goals,
    )


class SiteDirective(SphinxDirective):
    """A directive that shows the site's data: re-read when the data changes, rendered from MyST."""

    def site_data(self) -> SiteData:
        data = site_data(self.env.app)
        for path in data.inputs:  # a new test run, proof run or code change re-reads the page
            self.env.note_dependency(str(path))
        return data

    def render(self, markdown: list[str], *, match_titles: bool = False) -> list[nodes.Node]:
        """Parse generated MyST in place; its messages point at the directive's line."""
        source = StringList(markdown, self.env.doc2path(self.env.docname))
        container = nodes.container()
        self.state.nested_parse(source, self.content_offset, container, match_titles=match_titles)
        return container.children


def setup(app: Sphinx) -> dict:
    app.add_config_value("sonnx_test_results", "build/junit.xml", "env", types=[str])
    app.add_config_value("sonnx_formal_status", "build/formal-status.json", "env", types=[str])
    return {"parallel_read_safe": True, "parallel_write_safe": True}
