"""The formal specifications on the site: each operator's proof status, and the summary of the run.

``{formal-status}`` (on an operator's page) links the operator's Why3 file,
shown highlighted on a page of its own, and gives the status of each of its
goals from the last ``nox -s formal`` run (``build/formal-status.json``);
``{formal-summary}`` gives the goals per operator and the harness's checks of
itself. Unproved goals fail the build (see lints.traceability).
"""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from ..myst import SiteDirective, code, details, escape, need, table

NOT_RUN = (
    "Proof status: not available in this build (Why3 was not installed); `nox -s formal` proves the goals."
)


class FormalStatusDirective(SiteDirective):
    option_spec: ClassVar = {"operator": directives.unchanged}

    def source_link(self, rel: str, line: int | None = None, text: str | None = None) -> str:
        anchor = f"#L-{line}" if line else ""
        return self.site_link(f"_source/{rel}.html{anchor}", f"<code>{text or rel}</code>")

    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        op = data.operators[self.operator_name()]
        rel = f"formal/{op.name}.mlw"
        path = data.root / rel
        if not path.exists():
            raise self.error(f"no formal specification {rel}")
        self.env.note_dependency(str(path))
        lines = [
            f"({op.name}-formal)=",
            "## Formal specification",
            "",
            f"The Why3 specification of {op.onnx} is {self.source_link(rel)}: the rules of this page as "
            "definitions, preconditions and postconditions, and lemmas named after the ids they prove.",
            "",
        ]
        goals = [g for g in data.formal_goals if g.file == rel]
        if data.formal_header is None:
            return self.render([*lines, NOT_RUN, ""], match_titles=True)
        proved = sum(g.status == "proved" for g in goals)
        header = data.formal_header
        lines += [
            f"Proof status from the last `nox -s formal` run: **{proved} of {len(goals)} goals proved** by "
            f"Why3 {header.get('why3')} with {', '.join(header.get('provers', []))}.",
            "",
        ]
        rows = [
            [
                self.source_link(g.file, g.line, g.goal),
                escape(g.theory),
                " ".join(need(i) for i in g.ids),
                g.status,
                escape(g.prover or ""),
            ]
            for g in goals
        ]
        lines += details(
            "Each goal and its status",
            table(["Goal", "Theory", "Proves", "Status", "Prover"], rows, classes="sonnx-wide"),
            classes="sonnx-trace",
        )
        return self.render(lines, match_titles=True)


class FormalSummaryDirective(SiteDirective):
    """Goals per operator and the harness's check of itself, from the last run."""

    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        if data.formal_header is None:
            return self.render([NOT_RUN])
        rows = []
        for op in data.operators.values():
            goals = [g for g in data.formal_goals if g.file == f"formal/{op.name}.mlw"]
            proved = sum(g.status == "proved" for g in goals)
            rows.append(
                [f"[{op.onnx}](operators/{op.name}.md#{op.name}-formal)", f"{proved} of {len(goals)}"]
            )
        lines = table(["Operator", "Goals proved"], rows)
        mutants = data.formal_header.get("mutants", [])
        if mutants:
            lines += [
                "The prover harness checks itself: each file is also submitted with a deliberate error, "
                "which must not be proved.",
                "",
                *table(
                    ["File", "Deliberate error", "Outcome"],
                    [[code(m["file"]), escape(m["change"]), escape(m["status"])] for m in mutants],
                ),
            ]
        return self.render(lines)


def setup(app: Sphinx) -> dict:
    app.add_directive("formal-status", FormalStatusDirective)
    app.add_directive("formal-summary", FormalSummaryDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
