"""Lists of the whole profile, derived from the registry and the rules files.

``{operator-index}``   every operator: its page, its ONNX basis, its types, what it computes;
``{onnx-relations}``   every operator against ONNX: version, names, and the rules this specification decides;
``{operator-api}``     the reference's documentation of every operator (autodoc);
``{sources}``          every source the rules cite, with the rules that cite it.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from sonnx_spec import FAMILIES
from sonnx_spec.requirements import SOURCE_KINDS

from ..data import BuildData
from ..domain import add_directive
from ..i18n import Say, operator_text, speaker
from ..myst import SiteDirective, code, escape, from_docstring, need, table
from .operator_page import onnx_url


def _types(data: BuildData, name: str, say: Say) -> str:
    op = data.operators[name]
    families = {"int": "integers", "float": "floating point", "bool": "bool"}
    parts = []
    for family in op.families:
        members = [t for t in op.numeric_types if t in FAMILIES[family]]
        total = len(FAMILIES[family])
        parts.append(say(families[family]) if len(members) == total else ", ".join(t.name for t in members))
    return "; ".join(parts)


class OperatorIndexDirective(SiteDirective):
    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        say = speaker(self.env)
        rows = [
            [
                f"[{op.onnx}](operators/{op.name}.md)",
                f"{op.onnx}-{op.version}",
                _types(data, op.name, say),
                from_docstring(operator_text(self.env, op.name, "summary", op.summary)),
            ]
            for op in data.operators.values()
        ]
        return self.render(
            table(
                [say(h) for h in ("Operator", "ONNX basis", "Types", "What it computes")],
                rows,
                widths="2 2 3 6",
                classes="sonnx-cards",  # one card per operator on a phone (sonnx.css)
            )
        )


class OnnxRelationsDirective(SiteDirective):
    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        say = speaker(self.env)
        rows = []
        for op in data.operators.values():
            renamed = ", ".join(
                f"`{t.onnx}` → {t.name}" for t in [*op.inputs, *op.outputs] if t.onnx != t.name
            )
            decided = [
                r.id for r in data.catalogue.of(op.name) if any(o.source == "decision" for o in r.origin)
            ]
            rows.append(
                [
                    f"[{op.onnx}](operators/{op.name}.md#{op.name}-relation-to-onnx)",
                    f"[{op.onnx}-{op.version}]({onnx_url(op)})",
                    renamed or say("same names"),
                    " ".join(need(i) for i in decided) or "—",
                ]
            )
        header = [
            say("SONNX operator"),
            say("Based on"),
            say("Names"),
            say("Decided by this specification (its sources silent or at odds)"),
        ]
        return self.render(table(header, rows, widths="2 2 3 4", classes="sonnx-cards"))


class OperatorApiDirective(SiteDirective):
    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        lines = ["```{eval-rst}"]
        lines += [f".. autofunction:: sonnx_spec.{name}\n" for name in data.operators]
        return self.render([*lines, "```", ""])


class SourcesDirective(SiteDirective):
    def run(self) -> list[nodes.Node]:
        return self.render(sources_markdown(self.build_data(), speaker(self.env)), match_titles=True)


def sources_markdown(data: BuildData, say: Say) -> list[str]:
    lines: list[str] = []
    for kind, heading in SOURCE_KINDS.items():
        sources = [s for s in data.catalogue.sources.values() if s.kind == kind]
        if not sources:
            continue
        lines += [f"## {say(heading)}", ""]
        for source in sources:
            citing = [
                (rule.id, origin.section)
                for rule in data.rules.values()
                for origin in rule.origin
                if origin.source == source.key
            ]
            citing += [
                (rule_id, label.origin.section)
                for labels in data.catalogue.draft_labels.values()
                for rule_id, labelled in labels.items()
                for label in labelled
                if label.origin.source == source.key
            ]
            lines += [f"({source.key})=", f"### {source.title}", "", source.summary, ""]
            where = [say("Key {key}", key=code(source.key))]
            if source.path:
                where.append(say("in the project's copy of the sources as {path}", path=code(source.path)))
            if source.url:
                where.append(say("published at <{url}>", url=source.url))
            lines += ["; ".join(where) + say("."), ""]
            cited = "; ".join(need(rid) + (f" (§ {escape(sec)})" if sec else "") for rid, sec in citing)
            lines += [say("Cited by: {rules}.", rules=cited) if cited else say("Cited by no rule."), ""]
    return lines


def setup(app: Sphinx) -> dict:
    add_directive(app, "operator-index", OperatorIndexDirective)
    add_directive(app, "onnx-relations", OnnxRelationsDirective)
    add_directive(app, "operator-api", OperatorApiDirective)
    add_directive(app, "sources", SourcesDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
