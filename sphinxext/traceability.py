"""Traceability: every requirement to its origin, code, tests, result and proofs.

Build errors (located at the id's line in ``requirements.toml`` or at the code):
a constraint or error condition no code names; a requirement no test names;
a test of a requirement that failed or was skipped in the run; an id named in
the code, the tests or the proofs that is not a requirement; no test results.

Exports, next to ``index.html``: ``traceability.json`` and ``traceability.csv``
(sphinx-needs writes ``needs.json`` beside them).
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from sonnx_spec.requirements import KINDS, Requirement

from .site_data import CI, SiteData, SiteDirective, site_data

logger = logging.getLogger(__name__)
ENFORCED_KINDS = ("constraint", "error")  # must be named where the reference checks them
EXPORT_KEYS = [
    "id",
    "kind",
    "operator",
    "type_family",
    "statement",
    "origin",
    "code",
    "tests",
    "test_cases",
    "result",
    "formal",
    "tensors",
    "page",
]


def problems(data: SiteData) -> list[tuple[str, str]]:
    """(location, message) for every traceability rule the data breaks."""
    found = []
    if not data.junit.exists():
        found.append(
            (str(data.junit), "no test results: `nox -s docs` runs the tests first and writes them here")
        )
    for rule in data.requirements.values():
        where = data.requirements_file_location(rule.id)
        if rule.kind in ENFORCED_KINDS and not data.code.get(rule.id):
            found.append((where, f"{rule.id} is a {rule.kind} that no code enforces: name it at the check"))
        tests = data.tests_of(rule.id)
        if not tests.cases and data.junit.exists():
            found.append((where, f'{rule.id} has no test: mark one with @pytest.mark.req("{rule.id}")'))
        for case in tests.cases:
            if case.outcome != "pass":
                found.append(
                    (
                        where,
                        f"{rule.id}: test {case.nodeid} "
                        f"{'failed' if case.outcome == 'fail' else 'was skipped'} in this run",
                    )
                )
    for ref, token in data.code_tokens:
        if token not in data.requirements:
            found.append((str(data.root / ref.path) + f":{ref.line}", f"{token} is not a requirement id"))
    for case in data.test_cases:
        for req_id in case.req:
            if req_id not in data.requirements:
                found.append(
                    (str(data.junit), f"{case.nodeid} names {req_id}, which is not a requirement id")
                )
    for goal in data.formal_goals:
        for req_id in goal.ids:
            if req_id not in data.requirements:
                found.append(
                    (f"{data.root / goal.file}:{goal.line}", f"goal {goal.goal} names unknown id {req_id}")
                )
        if goal.status != "proved":
            found.append((f"{data.root / goal.file}:{goal.line}", f"goal {goal.goal} is {goal.status}"))
    if CI and data.formal_header is None:
        found.append((str(data.formal_status), "no proof status: CI runs `nox -s formal` before the docs"))
    return found


def _check(app: Sphinx, env: BuildEnvironment) -> None:
    for location, message in problems(site_data(app)):
        # Sphinx reads a location without ":line" as a document name.
        where = location if ":" in Path(location).name else f"{location}:0"
        logger.warning("traceability: %s", message, location=where, type="sonnx", subtype="trace")


def export_items(data: SiteData) -> list[dict]:
    items = []
    for rule in data.requirements.values():
        tests = data.tests_of(rule.id)
        items.append(
            {
                "id": rule.id,
                "kind": rule.kind,
                "operator": rule.operator,
                "type_family": list(rule.families),
                "statement": rule.statement,
                "origin": [str(o) for o in rule.origin],
                "code": [str(ref) for ref in data.code.get(rule.id, [])],
                "tests": list(tests.functions),
                "test_cases": len(tests.cases),
                "result": tests.result,
                "formal": [
                    {"theory": g.theory, "goal": g.goal, "file": g.file, "line": g.line, "status": g.status}
                    for g in data.goals_of(rule.id)
                ],
                "tensors": list(rule.tensors),
                "page": f"{rule.page}.html#{rule.id}",
            }
        )
    return items


def _csv(items: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=EXPORT_KEYS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        row = dict(item)
        row["formal"] = [f"{g['theory']}.{g['goal']} ({g['status']})" for g in item["formal"]]
        writer.writerow({k: "; ".join(map(str, v)) if isinstance(v, list) else v for k, v in row.items()})
    return out.getvalue()


def _export(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    items = export_items(site_data(app))
    outdir = Path(app.outdir)
    (outdir / "traceability.json").write_text(json.dumps(items, indent=2, ensure_ascii=False) + "\n", "utf-8")
    (outdir / "traceability.csv").write_text(_csv(items), "utf-8")


class TraceabilitySummary(SiteDirective):
    """Counts per operator and kind, the run's figures, and anything unlinked."""

    def run(self) -> list[nodes.Node]:
        return self.render(summary_markdown(self.site_data()))


def summary_markdown(data: SiteData) -> list[str]:
    issues = problems(data)
    lines = ["**Unlinked or unproved:** " + ("none." if not issues else f"{len(issues)} problem(s):"), ""]
    lines += [f"- {message}" for _, message in issues]
    passed = sum(c.outcome == "pass" for c in data.test_cases)
    lines += [
        "",
        f"**Test run:** {len(data.test_cases)} test cases, {passed} passed, "
        f"{len(data.test_cases) - passed} failed or skipped.",
        "",
    ]
    if data.formal_header:
        proved = sum(g.status == "proved" for g in data.formal_goals)
        lines += [
            f"**Proofs:** {proved} of {len(data.formal_goals)} Why3 goals proved "
            f"(Why3 {data.formal_header.get('why3')}, {', '.join(data.formal_header.get('provers', []))}).",
            "",
        ]
    kinds = list(KINDS.values())
    groups: dict[str, list[Requirement]] = {}
    for rule in data.requirements.values():
        groups.setdefault(rule.operator, []).append(rule)
    lines += [
        "| Operator | " + " | ".join(k.capitalize() for k in kinds) + " | Total |",
        "|---" * (len(kinds) + 2) + "|",
    ]
    for operator, rules in groups.items():
        counts = [sum(r.kind == k for r in rules) for k in kinds]
        lines.append(f"| {operator} | " + " | ".join(map(str, counts)) + f" | {len(rules)} |")
    return lines


class DerivationGraph(SiteDirective):
    """sphinx-needs' needflow of the rules derived from others, drawn by Graphviz.

    Without Graphviz's ``dot`` (only Python installed), the page says so instead
    of failing; in CI its absence is an error, as for every system tool.
    """

    FLOW = ["```{needflow}", ':filter: len(origin) > 0 or id.startswith("GR")', ":show_link_names:", "```"]

    def run(self) -> list[nodes.Node]:
        if shutil.which(self.config.graphviz_dot) is None:
            if CI:
                logger.warning(
                    "Graphviz's dot is not installed: CI requires it for the derivation graph",
                    location=(self.env.docname, self.lineno),
                    type="sonnx",
                    subtype="tool",
                )
            return [
                nodes.paragraph(
                    text="The derivation graph is drawn by Graphviz, which was not installed "
                    "where this copy of the site was built."
                )
            ]
        return self.render(self.FLOW)


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinxext.site_data")
    app.add_directive("traceability-summary", TraceabilitySummary)
    app.add_directive("derivation-graph", DerivationGraph)
    app.connect("env-check-consistency", _check)
    app.connect("build-finished", _export)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
