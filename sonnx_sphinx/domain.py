"""The ``sonnx`` Sphinx domain: the specification's objects, its directives and its cross-references.

The site's directives (``{rules}``, ``{example}``, ``{operator}``…) are the domain's (``{sonnx:rules}``), and
are registered under their bare names as well, which the pages write (:func:`add_directive`). The domain
keeps what the pages define:

- each **rule** placed by a ``{rules}`` directive (its page and line: a lint reports one placed twice or
  nowhere), linked as ``{sonnx:rule}`CLIP_C4```;
- each **operator** whose page the ``{operator}`` directive opens, linked as ``{sonnx:op}`Clip```.

Both go into the site's ``objects.inv``: another Sphinx site (a runtime's own documentation) links to a rule
of this specification with intersphinx. The domain's index, "Index of rules" (``sonnx-rules.html``), lists
every rule by operator.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from docutils import nodes
from docutils.nodes import Element
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.domains import Domain, Index, IndexEntry, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.locale import get_translation
from sphinx.roles import XRefRole
from sphinx.util.nodes import make_refnode

from .i18n import phrase, statement

Place = tuple[str, int]  # a page (docname) and a line
_ = get_translation("sphinx")  # the index's title is the theme's: Sphinx gives it to every page's links


class RuleIndex(Index):
    """Every rule placed on the site, by operator (the general and model rules first), then by id."""

    name = "rules"
    localname = _("Index of rules")
    shortname = "rules"

    def generate(
        self, docnames: Iterable[str] | None = None
    ) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        from sonnx_spec import operators, rules

        domain: SonnxDomain = self.domain  # type: ignore[assignment]
        catalogue, titles = rules(), {name: op.onnx for name, op in operators().items()}
        env = self.domain.env
        titles |= {"general": phrase(env, "General rules"), "model": phrase(env, "Rules of a whole model")}
        groups: dict[str, list[IndexEntry]] = {}
        for rule_id, places in sorted(domain.rule_places.items()):
            docname, _ = places[0]
            if docnames is not None and docname not in docnames:
                continue
            rule = catalogue.get(rule_id)
            group = titles.get(rule.operator, rule.operator) if rule is not None else docname
            text = statement(env, rule_id, rule.operator, rule.statement) if rule is not None else ""
            short = text if len(text) <= 120 else text[:119].rsplit(" ", 1)[0] + " …"
            groups.setdefault(group, []).append(IndexEntry(rule_id, 0, docname, rule_id, "", "", short))
        return sorted(groups.items()), False


class SonnxDomain(Domain):
    name = "sonnx"
    label = "SONNX"
    object_types = {"rule": ObjType("rule", "rule"), "operator": ObjType("operator", "op")}
    roles = {"rule": XRefRole(), "op": XRefRole()}
    indices = [RuleIndex]
    initial_data = {"rules": {}, "operators": {}}

    @property
    def rule_places(self) -> dict[str, list[Place]]:
        """Rule id -> the (page, line) of each ``{rules}`` directive that placed it (one, on a sound site)."""
        return self.data["rules"]

    @property
    def operator_pages(self) -> dict[str, str]:
        """ONNX operator name (Clip) -> its page."""
        return self.data["operators"]

    def note_rule(self, rule_id: str, docname: str, line: int) -> None:
        self.rule_places.setdefault(rule_id, []).append((docname, line))

    def note_operator(self, onnx_name: str, docname: str) -> None:
        self.operator_pages[onnx_name] = docname

    def clear_doc(self, docname: str) -> None:
        for rule_id in list(self.rule_places):
            kept = [p for p in self.rule_places[rule_id] if p[0] != docname]
            if kept:
                self.rule_places[rule_id] = kept
            else:
                del self.rule_places[rule_id]
        for name in [n for n, page in self.operator_pages.items() if page == docname]:
            del self.operator_pages[name]

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:
        for rule_id, places in otherdata["rules"].items():
            self.rule_places.setdefault(rule_id, []).extend(p for p in places if p[0] in docnames)
        self.operator_pages.update(
            (n, page) for n, page in otherdata["operators"].items() if page in docnames
        )

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> nodes.reference | None:
        if typ == "rule" and target in self.rule_places:
            docname = self.rule_places[target][0][0]
            return make_refnode(builder, fromdocname, docname, target, contnode, target)
        if typ == "op" and target in self.operator_pages:
            return make_refnode(builder, fromdocname, self.operator_pages[target], "", contnode, target)
        return None

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        found = []
        for typ in ("rule", "op"):
            ref = self.resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
            if ref is not None:
                found.append((f"sonnx:{typ}", ref))
        return found

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for rule_id, places in sorted(self.rule_places.items()):
            yield rule_id, rule_id, "rule", places[0][0], rule_id, 1
        for onnx_name, docname in sorted(self.operator_pages.items()):
            yield onnx_name, onnx_name, "operator", docname, "", 1


def add_directive(app: Sphinx, name: str, directive: type) -> None:
    """Register a directive of the site as the domain's, and under its bare name: the pages write
    ``{rules}``; making ``sonnx`` the primary domain instead would take unqualified Python roles (the API
    page's ``:func:``) from the Python domain."""
    app.add_directive(name, directive)
    app.add_directive_to_domain("sonnx", name, directive)


def sonnx_domain(env: BuildEnvironment) -> SonnxDomain:
    return env.get_domain("sonnx")  # type: ignore[return-value]


def setup(app: Sphinx) -> dict:
    app.add_domain(SonnxDomain)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
