"""The formal specification of an operator on its page: the Why3 file and its proof status.

``{formal-spec} clip`` shows, from the last ``nox -s formal`` run
(``build/formal-status.json``), each goal of ``formal/clip.mlw`` with the
requirement ids it proves and its status, then the file itself, included
rather than copied. Unproved goals fail the build (see traceability).
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from .site_data import SiteDirective


def _table(headers: list[str], rows: list[list[list[nodes.Node]]]) -> nodes.table:
    table = nodes.table(classes=["sonnx-formal-goals"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    group += [nodes.colspec(colwidth=1) for _ in headers]
    head = nodes.thead()
    head += nodes.row("", *(nodes.entry("", nodes.paragraph(text=h)) for h in headers))
    body = nodes.tbody()
    for cells in rows:
        body += nodes.row("", *(nodes.entry("", nodes.paragraph("", "", *cell)) for cell in cells))
    group += [head, body]
    return table


class FormalSpecDirective(SiteDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        operator = self.arguments[0]
        data = self.site_data()
        path = Path(data.root) / "formal" / f"{operator}.mlw"
        if not path.exists():
            raise self.error(f"no formal specification {path.relative_to(data.root)}")
        self.env.note_dependency(str(path))
        rel = path.relative_to(data.root).as_posix()
        result: list[nodes.Node] = []
        goals = [g for g in data.formal_goals if g.file == rel]
        if data.formal_header is None:
            result += self.parse_text_to_nodes(
                "Proof status: not available in this build (Why3 was not installed); "
                "`nox -s formal` proves the goals and records their status."
            )
        else:
            header = data.formal_header
            proved = sum(g.status == "proved" for g in goals)
            result += self.parse_text_to_nodes(
                f"Proof status from the last `nox -s formal` run: {proved} of {len(goals)} goals "
                f"proved by Why3 {header.get('why3')} with {', '.join(header.get('provers', []))}."
            )
            rows = []
            for goal in goals:
                link = nodes.reference("", goal.goal, refuri=f"_source/{rel}.html#L-{goal.line}")
                ids: list[nodes.Node] = []
                for req_id in goal.ids:
                    ids += self.parse_text_to_nodes(f"{{need}}`{req_id}`")[0].children
                    ids.append(nodes.Text(" "))
                rows.append(
                    [
                        [nodes.literal("", "", link)],
                        [nodes.Text(goal.theory)],
                        ids,
                        [nodes.Text(goal.status)],
                        [nodes.Text(goal.prover or "")],
                    ]
                )
            result.append(_table(["Goal", "Theory", "Proves", "Status", "Prover"], rows))
        code = nodes.literal_block(
            path.read_text("utf-8"),
            path.read_text("utf-8"),
            language="why3",
            linenos=True,
            classes=["sonnx-why3"],
        )
        code["source"] = str(path)
        result.append(code)
        return result


class FormalSummaryDirective(SiteDirective):
    """Goals per operator and the harness's mutation self-check, from the last run."""

    def run(self) -> list[nodes.Node]:
        data = self.site_data()
        if data.formal_header is None:
            return self.parse_text_to_nodes("No proof status in this build: `nox -s formal` was not run.")
        rows = []
        for operator in ("clip", "max", "abs"):
            goals = [g for g in data.formal_goals if g.file == f"formal/{operator}.mlw"]
            proved = sum(g.status == "proved" for g in goals)
            rows.append([[nodes.Text(operator)], [nodes.Text(f"{proved} of {len(goals)}")]])
        result: list[nodes.Node] = [_table(["Operator", "Goals proved"], rows)]
        mutants = data.formal_header.get("mutants", [])
        if mutants:
            result.append(
                nodes.paragraph(
                    text="The prover harness checks itself: each file is also submitted with a deliberate "
                    "error, which must not be proved."
                )
            )
            result.append(
                _table(
                    ["File", "Deliberate error", "Outcome"],
                    [
                        [
                            [nodes.literal(text=m["file"])],
                            [nodes.Text(m["change"])],
                            [nodes.Text(m["status"])],
                        ]
                        for m in mutants
                    ],
                )
            )
        return result


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinxext.site_data")
    app.setup_extension("sphinxext.why3_lexer")
    app.add_directive("formal-spec", FormalSpecDirective)
    app.add_directive("formal-summary", FormalSummaryDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
