"""Rules on the pages: each id defined once, as a sphinx-needs object.

``{rules}`` places the rules it selects (``:ids:``, or ``:operator:``,
``:kind:``, ``:family:``; ``:operator:`` defaults to the page's operator) where
the page needs them, as need objects whose statement, origin and math come from
the rules files and whose code, tests, result and proofs come from the run.
``{rules-table}`` lists rules in a ``needtable`` linking to their definitions,
in the ``summary`` view (statement, origin) or the ``trace`` view.

Build errors: an unknown id in ``:ids:``; an id placed on two pages (sphinx-needs
reports the duplicate); a declared id placed on no page (see lints.placement).
"""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx_needs.api import add_dynamic_function

from sonnx_spec.requirements import Rule

from ..data import BuildData
from ..domain import add_directive, sonnx_domain
from ..i18n import statement
from ..myst import SiteDirective
from ..output.exports import draft_labels, formerly, label_text

NEED_DIRECTIVES = {"error": "error-condition"}  # docutils already has an `error` admonition


def select(data: BuildData, options: dict, default_operator: str | None) -> list[Rule]:
    """The rules an options dict selects, in the order of the rules files."""
    if "ids" in options:
        return [data.rules[i] for i in options["ids"]]
    operator = options.get("operator", default_operator)
    chosen = [r for r in data.rules.values() if r.operator == operator]
    if "kind" in options:
        chosen = [r for r in chosen if r.kind in options["kind"]]
    if "family" in options:
        chosen = [r for r in chosen if options["family"] in r.families]
    return chosen


NEEDS_DELIMITERS = frozenset(",;|")
"""sphinx-needs splits a list field's text at each of these, with no escape."""


def verbatim(app: Sphinx, need: object, needs: object, text: str) -> str:
    """A dynamic function that returns its argument: a value holding a delimiter (an origin such as
    ``onnx-gather#… (axis: accepted range [−r, r − 1])``) reaches its field whole, not split in two."""
    return text


def _value(text: str) -> str:
    if "]]" in text:  # it would end the dynamic function early
        raise ValueError(f"a need field's value may not hold ']]': {text!r}")
    return f"[[verbatim({text!r})]]" if NEEDS_DELIMITERS & set(text) else text


def _list(values: object) -> str:
    return ", ".join(_value(str(v)) for v in values)  # type: ignore[attr-defined]


def test_reference(data: BuildData, function: str, count: int) -> str:
    """``path::name@line (count)``: a test function, where it is defined, how many cases it ran."""
    path, _, name = function.partition("::")
    line = data.test_lines.get(function, 1)
    return f"{path}::{name}@{line} ({count})"


def need_source(rule: Rule, data: BuildData, env: BuildEnvironment) -> list[str]:
    """The MyST source of the need object that defines ``rule``, its statement in the build's language."""
    tests = data.tests_of(rule.id)
    goals = data.goals_of(rule.id)
    fields = {
        "id": rule.id,
        "order": f"{list(data.rules).index(rule.id):04d}",
        "operator": rule.operator,
        "kind": rule.kind,
        "families": _list(rule.families),
        "tensors": _list(rule.tensors),
        "origin": _list(o.rule for o in rule.origin if o.rule),
        "sources": _list(o for o in rule.origin if o.source),
        "code": _list(data.code.get(rule.id, [])),
        "tests": _list(test_reference(data, name, len(cases)) for name, cases in tests.functions.items()),
        "result": tests.result,
        # A goal of a generic theory is proved once per instance: each (theory, goal) once.
        "formal": _list(dict.fromkeys(f"{g.theory}.{g.goal}@{g.where}" for g in goals)),
        "static": "yes" if rule.static else "no",
        "formerly": _list(formerly(data.catalogue, rule.id)),
        "draft_labels": _list(dict.fromkeys(label_text(d) for d in draft_labels(data.catalogue, rule.id))),
    }
    text = statement(env, rule.id, rule.operator, rule.statement)
    lines = [f":::{{{NEED_DIRECTIVES.get(rule.kind, rule.kind)}}} {text}"]
    lines += [f":{key}: {value}" for key, value in fields.items() if value]
    if rule.math:
        lines += ["", "$$", rule.math, "$$"]
    return [*lines, ":::", ""]


def _ids(argument: str) -> list[str]:
    return argument.replace(",", " ").split()


class RulesDirective(SiteDirective):
    """Define the selected rules here (each id on one page only)."""

    has_content = False
    option_spec: ClassVar = {
        "ids": _ids,
        "operator": directives.unchanged,
        "kind": _ids,
        "family": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        chosen = self.chosen()
        domain = sonnx_domain(self.env)
        for rule in chosen:
            domain.note_rule(rule.id, self.env.docname, self.lineno)
        return self.render(
            [line for rule in chosen for line in need_source(rule, self.build_data(), self.env)]
        )

    def chosen(self) -> list[Rule]:
        data = self.build_data()
        unknown = [i for i in self.options.get("ids", []) if i not in data.rules]
        if unknown:
            raise self.error(f"unknown rule id(s): {', '.join(unknown)}")
        page_operator = self.env.docname.removeprefix("operators/")
        default = page_operator if page_operator in data.operators else None
        if "ids" not in self.options and "operator" not in self.options and default is None:
            raise self.error("give :ids: or :operator: (general, or an operator) outside an operator's page")
        chosen = select(data, self.options, default)
        if not chosen:
            raise self.error("these options select no rule")
        return chosen


VIEWS = {
    # The rules of a type family, where the SONNX layout lists them.
    "summary": 'id as "Id";title as "Statement";origin as "Derived from";sources as "Origin"',
    # The traceability of an operator page: each id to its origin, code, tests and result.
    "trace": 'id as "Id";type_name as "Kind";title as "Statement";sources as "Origin";'
    'code as "Code";tests as "Tests";result as "Result"',
}


class RulesTableDirective(RulesDirective):
    """A table of the selected rules, linking to their definitions."""

    option_spec: ClassVar = {
        **RulesDirective.option_spec,
        "view": lambda a: directives.choice(a, list(VIEWS)),
    }

    def run(self) -> list[nodes.Node]:
        ids = [rule.id for rule in self.chosen()]
        return self.render(
            [
                "```{needtable}",
                f":filter: id in {ids!r}",
                f":columns: {VIEWS[self.options.get('view', 'summary')]}",
                ":style: table",
                ":class: sonnx-rules-table",
                ":sort: order",  # the order of the rules files
                "```",
            ]
        )


def setup(app: Sphinx) -> dict:
    add_dynamic_function(app, verbatim)
    add_directive(app, "rules", RulesDirective)
    add_directive(app, "rules-table", RulesTableDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
