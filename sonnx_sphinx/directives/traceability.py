"""The traceability page: the summary of the run, the whole matrix, the derivation graph.

``{traceability-summary}``  counts per operator and kind, the run's figures, anything unlinked;
``{traceability-matrix}``   every rule in a table to filter (operator, kind, family, result), sort and search;
``{derivation-graph}``      sphinx-needs' needflow of the rules derived from others, drawn by Graphviz;
``{mutation-score}``        the last mutation run of the reference: its score, per module, and the mutants
                            explained as equivalent.
"""

from __future__ import annotations

import shutil

from docutils import nodes
from sphinx.application import Sphinx

from sonnx_spec.ids import KINDS
from sonnx_spec.requirements import SCOPE_PAGES

from ..data import CI, BuildData
from ..domain import add_directive
from ..i18n import Say, phrase, speaker
from ..lints import report
from ..lints.traceability import problems
from ..myst import SiteDirective, code, details, escape, table

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


def summary_markdown(data: BuildData, say: Say) -> list[str]:
    issues = problems(data)
    lines = [
        say("**Unlinked or unproved:** none.")
        if not issues
        else say("**Unlinked or unproved:** {count} problem(s):", count=len(issues)),
        "",
    ]
    lines += [f"- {message}" for _, message in issues]
    passed = sum(c.outcome == "pass" for c in data.test_cases)
    lines += [
        "",
        say(
            "**Test run:** {cases} test cases, {passed} passed, {others} failed or skipped.",
            cases=len(data.test_cases),
            passed=passed,
            others=len(data.test_cases) - passed,
        ),
        "",
    ]
    if data.formal_header:
        proved = sum(g.status == "proved" for g in data.formal_goals)
        lines += [
            say(
                "**Proofs:** {proved} of {goals} Why3 goals proved (Why3 {why3}, {provers}).",
                proved=proved,
                goals=len(data.formal_goals),
                why3=data.formal_header.get("why3"),
                provers=", ".join(data.formal_header.get("provers", [])),
            ),
            "",
        ]
    kinds = list(KINDS.values())
    scopes = [s for s in SCOPE_PAGES if data.catalogue.of(s)] + list(data.operators)
    lines += [
        f"| {say('Scope')} | " + " | ".join(say(k.capitalize()) for k in kinds) + f" | {say('Total')} |",
        "|---" * (len(kinds) + 2) + "|",
    ]
    for scope in scopes:
        rules = data.catalogue.of(scope)
        counts = [sum(r.kind == k for r in rules) for k in kinds]
        lines.append(f"| {scope} | " + " | ".join(map(str, counts)) + f" | {len(rules)} |")
    return lines


class TraceabilitySummary(SiteDirective):
    def run(self) -> list[nodes.Node]:
        return self.render(summary_markdown(self.build_data(), speaker(self.env)))


class TraceabilityMatrix(SiteDirective):
    """Every rule; the page's script adds a filter per column of FILTERS above the table."""

    def run(self) -> list[nodes.Node]:
        self.build_data()
        say = speaker(self.env)  # the filters find their columns by the headers' words
        columns = ";".join(f'{field} as "{say(title)}"' for field, title, _ in MATRIX_COLUMNS)
        widths = ",".join(str(width) for _, _, width in MATRIX_COLUMNS)
        names = ",".join(say(name) for name in FILTERS)
        filters = nodes.raw(
            "", f'<div class="sonnx-matrix-filters" data-filters="{names}"></div>', format="html"
        )
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
    """The general rules and what derives from them: an edge from a general rule to each operator whose
    drafts label it (Clip's R3 for GR1), and to each rule that cites it as its origin. Drawn by Graphviz
    left to right at its own size, each node a link (Sphinx shows the SVG in an ``<object>``, where links
    work; ``target="_top"`` opens them in the page, not in the drawing's frame).

    Without Graphviz's ``dot`` (only Python installed), the page says so instead of failing; in CI its
    absence is an error, as for every system tool."""

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
                    text=phrase(
                        self.env,
                        "The derivation graph is drawn by Graphviz, which was not installed "
                        "where this copy of the site was built.",
                    )
                )
            ]
        return self.render(["```{graphviz}", "", *derivation_dot(self.build_data()), "```"])


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def derivation_dot(data: BuildData) -> list[str]:
    lines = [
        "digraph derivation {",
        "  rankdir=LR; ranksep=1.2; nodesep=0.15;",
        '  node [shape=box, style="rounded,filled", fillcolor="#f5f5f5", fontname="sans-serif",',
        '        fontsize=11, target="_top"];',
        '  edge [fontname="sans-serif", fontsize=9, color="#777777"];',
    ]
    used: set[str] = set()
    edges = []
    for op, labels in data.catalogue.draft_labels.items():
        for general, origins in labels.items():
            sections = sorted({d.label for d in origins if d.label and len(d.label) <= 12})
            edges.append((general, f"op:{op}", ", ".join(sections)))
    for rule in data.rules.values():
        for origin in rule.origin:
            if origin.rule:
                edges.append((origin.rule, rule.id, ""))
    for source, target, _ in edges:
        used.update((source, target))
    for name in sorted(used):
        if name.startswith("op:"):
            op = data.operators.get(name[3:])
            title = op.onnx if op else name[3:]
            url = _quote(f"operators/{name[3:]}.html")
            lines.append(f'  {_quote(name)} [label={_quote(title)}, URL={url}, fillcolor="#e8f0fe"];')
        else:
            rule = data.rules[name]
            url = _quote(f"{rule.page}.html#{name}")
            lines.append(f"  {_quote(name)} [URL={url}, tooltip={_quote(rule.statement)}];")
    lines += [f"  {_quote(s)} -> {_quote(t)} [label={_quote(label)}];" for s, t, label in sorted(edges)]
    return [*lines, "}"]


class MutationScore(SiteDirective):
    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        say = speaker(self.env)
        result = data.mutation
        if result is None:
            if CI:
                report(
                    "trace", str(data.mutation_status), "no mutation score: CI runs `nox -s mutants` first"
                )
            return self.render([say("No mutation run in this build: `nox -s mutants` writes its score.")])
        lines = [
            say(
                "**Mutation score: {score}** — of {mutants} mutants of the reference (`sonnx_spec`, "
                "model tools aside), {killed} are killed by the tests, {timeout} make the tests run past "
                "their time limit, {crashed} crash them, and {equivalent} are equivalent (they compute what "
                "the reference computes; each is explained below); {unexplained} survive unexplained. The "
                "score is detected (killed, timed out or crashed) / (mutants − equivalent). Tool: mutmut, "
                "run by `nox -s mutants`.",
                score=f"{result['score']:.1%}",
                mutants=result["mutants"],
                killed=result["killed"],
                timeout=len(result.get("timeout", [])),
                crashed=len(result.get("crashed", [])),
                equivalent=result["equivalent"],
                unexplained=len(result["unexplained"]),
            ),
            "",
        ]
        statuses = sorted({s for counts in result["modules"].values() for s in counts})
        rows = [
            [code(module), *(str(counts.get(s, 0)) for s in statuses)]
            for module, counts in result["modules"].items()
        ]
        lines += details(
            say("Mutants per module"), table([say("Module"), *statuses], rows), classes="sonnx-trace"
        )
        ended = [[code(name), how] for how in ("timeout", "crashed") for name in result.get(how, [])]
        if ended:
            lines += details(
                say("Mutants detected by the time limit or a crash"),
                table([say("Mutant"), say("How")], ended),
            )
        explained = [[code(name), escape(why)] for name, why in result["explained"].items()]
        if explained:
            lines += details(
                say("Equivalent mutants, and why"),
                table([say("Mutant"), say("Why it is equivalent")], explained),
            )
        return self.render(lines)


def setup(app: Sphinx) -> dict:
    add_directive(app, "mutation-score", MutationScore)
    add_directive(app, "traceability-summary", TraceabilitySummary)
    add_directive(app, "traceability-matrix", TraceabilityMatrix)
    add_directive(app, "derivation-graph", DerivationGraph)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
