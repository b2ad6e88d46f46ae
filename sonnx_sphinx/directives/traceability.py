"""The traceability page: the summary of the run, the whole matrix, the derivation graph.

``{traceability-summary}``  counts per operator and kind, the run's figures, anything unlinked;
``{traceability-matrix}``   every rule in a table to filter (operator, kind, family, result), sort and search;
``{derivation-graph}``      sphinx-needs' needflow of the rules derived from others, drawn by Graphviz.
"""

from __future__ import annotations

import shutil

from docutils import nodes
from sphinx.application import Sphinx

from sonnx_spec.ids import KINDS
from sonnx_spec.requirements import SCOPE_PAGES

from ..data import CI, BuildData
from ..lints import report
from ..lints.traceability import problems
from ..myst import SiteDirective

MATRIX_COLUMNS = [
    ("id", "Id", 7),
    ("operator", "Operator", 6),
    ("type_name", "Kind", 7),
    ("families", "Families", 6),
    ("title", "Statement", 30),
    ("result", "Result", 5),
    ("sources", "Origin", 14),
    ("code", "Code", 10),
    ("tests", "Tests", 15),
]
FILTERS = ["Operator", "Kind", "Families", "Result"]


def summary_markdown(data: BuildData) -> list[str]:
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
    scopes = [s for s in SCOPE_PAGES if data.catalogue.of(s)] + list(data.operators)
    lines += [
        "| Scope | " + " | ".join(k.capitalize() for k in kinds) + " | Total |",
        "|---" * (len(kinds) + 2) + "|",
    ]
    for scope in scopes:
        rules = data.catalogue.of(scope)
        counts = [sum(r.kind == k for r in rules) for k in kinds]
        lines.append(f"| {scope} | " + " | ".join(map(str, counts)) + f" | {len(rules)} |")
    return lines


class TraceabilitySummary(SiteDirective):
    def run(self) -> list[nodes.Node]:
        return self.render(summary_markdown(self.build_data()))


class TraceabilityMatrix(SiteDirective):
    """Every rule; the page's script adds a filter per column of FILTERS above the table."""

    def run(self) -> list[nodes.Node]:
        self.build_data()
        columns = ";".join(f'{field} as "{title}"' for field, title, _ in MATRIX_COLUMNS)
        widths = ",".join(str(width) for _, _, width in MATRIX_COLUMNS)
        filters = nodes.container(classes=["sonnx-matrix-filters"], **{"data-filters": ",".join(FILTERS)})
        table = self.render(
            [
                "```{needtable}",
                f":columns: {columns}",
                f":colwidths: {widths}",
                ":style: datatables",
                ":class: sonnx-matrix",
                ":sort: order",
                "```",
            ]
        )
        return [filters, *table]


class DerivationGraph(SiteDirective):
    """The rules derived from others. Without Graphviz's ``dot`` (only Python installed), the page says
    so instead of failing; in CI its absence is an error, as for every system tool."""

    FLOW = ["```{needflow}", ":filter: len(origin) > 0", ":show_link_names:", "```"]

    def run(self) -> list[nodes.Node]:
        if shutil.which(self.config.graphviz_dot) is None:
            if CI:
                report(
                    "tool",
                    self.env.doc2path(self.env.docname),
                    "Graphviz's dot is not installed: CI requires it",
                )
            return [
                nodes.paragraph(
                    text="The derivation graph is drawn by Graphviz, which was not installed "
                    "where this copy of the site was built."
                )
            ]
        self.build_data()
        return self.render(self.FLOW)


def setup(app: Sphinx) -> dict:
    app.add_directive("traceability-summary", TraceabilitySummary)
    app.add_directive("traceability-matrix", TraceabilityMatrix)
    app.add_directive("derivation-graph", DerivationGraph)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
