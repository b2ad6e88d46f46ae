"""Requirements on the pages: each id defined once, as a sphinx-needs object.

``{rules}`` places the requirements it selects (by ``:ids:``, or by
``:operator:``/``:kind:``/``:family:``) where the page needs them, as need
objects whose statement, origin and math come from ``requirements.toml`` and
whose code, tests, result and formal goals come from the run. ``{rules-table}``
lists requirements in a ``needtable`` that links to those definitions, in the
``summary`` view (statement and origin) or the ``trace`` view (code, tests, result).

Build errors: an unknown id in ``:ids:``; an id placed on two pages (sphinx-needs
reports the duplicate); a declared id placed on no page.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from sonnx_spec.requirements import Requirement

from .site_data import SiteData, SiteDirective, site_data

logger = logging.getLogger(__name__)
DIRECTIVES = {"error": "error-condition"}  # docutils already has an `error` admonition


def select(data: SiteData, options: dict) -> list[Requirement]:
    """The requirements an options dict selects, in the order of requirements.toml."""
    if "ids" in options:
        return [data.requirements[i] for i in options["ids"]]
    chosen = list(data.requirements.values())
    if "operator" in options:
        chosen = [r for r in chosen if r.operator == options["operator"]]
    if "kind" in options:
        chosen = [r for r in chosen if r.kind in options["kind"]]
    if "family" in options:
        chosen = [r for r in chosen if options["family"] in r.families]
    return chosen


def _list(values: object) -> str:
    return ", ".join(str(v) for v in values)  # type: ignore[attr-defined]


def need_source(rule: Requirement, data: SiteData) -> list[str]:
    """The MyST source of the need object that defines ``rule``."""
    tests = data.tests_of(rule.id)
    fields = {
        "id": rule.id,
        "order": f"{list(data.requirements).index(rule.id):04d}",
        "operator": rule.operator,
        "kind": rule.kind,
        "families": _list(rule.families),
        "tensors": _list(rule.tensors),
        "origin": _list(o.requirement for o in rule.origin if o.requirement),
        "sources": _list(o for o in rule.origin if o.source),
        "code": _list(data.code.get(rule.id, [])),
        "tests": _list(f"{name} ({len(cases)})" for name, cases in tests.functions.items()),
        "result": tests.result,
        # A goal of a generic theory is proved once per clone: list each (theory, goal) once.
        "formal": _list(dict.fromkeys(f"{g.theory}.{g.goal}@{g.ref}" for g in data.goals_of(rule.id))),
    }
    lines = [f":::{{{DIRECTIVES.get(rule.kind, rule.kind)}}} {rule.statement}"]
    lines += [f":{key}: {value}" for key, value in fields.items() if value]
    if rule.math:
        lines += ["", "$$", rule.math, "$$"]
    return [*lines, ":::", ""]


def _ids(argument: str) -> list[str]:
    return argument.replace(",", " ").split()


class RulesDirective(SiteDirective):
    """Define the selected requirements here (each id on one page only)."""

    has_content = False
    option_spec = {
        "ids": _ids,
        "operator": directives.unchanged,
        "kind": _ids,
        "family": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        data = self.site_data()
        unknown = [i for i in self.options.get("ids", []) if i not in data.requirements]
        if unknown:
            raise self.error(f"unknown requirement id(s): {', '.join(unknown)}")
        chosen = select(data, self.options)
        if not chosen:
            raise self.error("these options select no requirement")
        placed = _placed(self.env)
        for rule in chosen:
            placed.setdefault(rule.id, []).append((self.env.docname, self.lineno))
        return self.render([line for rule in chosen for line in need_source(rule, data)])


VIEWS = {
    # The restrictions, constraints… of a type family, where the SONNX layout lists them.
    "summary": 'id as "Id";title as "Statement";origin as "Derived from";sources as "Origin"',
    # The traceability of an operator page: each id to its origin, code, tests and result.
    "trace": 'id as "Id";type_name as "Kind";title as "Statement";origin as "Derived from";'
    'sources as "Origin";code as "Code";tests as "Tests";result as "Result"',
}


class RulesTableDirective(SiteDirective):
    """A table of the selected requirements, linking to their definitions."""

    has_content = False
    option_spec = {**RulesDirective.option_spec, "view": lambda arg: directives.choice(arg, list(VIEWS))}

    def run(self) -> list[nodes.Node]:
        ids = [rule.id for rule in select(self.site_data(), self.options)]
        if not ids:
            raise self.error("these options select no requirement")
        table = [
            "```{needtable}",
            f":filter: id in {ids!r}",
            f":columns: {VIEWS[self.options.get('view', 'summary')]}",
            ":style: table",
            ":sort: order",  # the order of requirements.toml
            "```",
        ]
        return self.render(table)


def _placed(env: BuildEnvironment) -> dict[str, list[tuple[str, int]]]:
    if not hasattr(env, "sonnx_rules_placed"):
        env.sonnx_rules_placed = {}  # type: ignore[attr-defined]
    return env.sonnx_rules_placed  # type: ignore[attr-defined]


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    placed = _placed(env)
    for req_id in list(placed):
        placed[req_id] = [p for p in placed[req_id] if p[0] != docname]
        if not placed[req_id]:
            del placed[req_id]


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    placed = _placed(env)
    for req_id, places in _placed(other).items():
        placed.setdefault(req_id, []).extend(p for p in places if p[0] in docnames)


def _check_all_placed(app: Sphinx, env: BuildEnvironment) -> None:
    data = site_data(app)
    placed = _placed(env)
    for req_id in data.requirements:
        if req_id not in placed:
            logger.warning(
                "%s is declared but defined on no page: place it with a {rules} directive",
                req_id,
                location=data.requirements_file_location(req_id),
                type="sonnx",
                subtype="rules",
            )


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinxext.site_data")
    app.add_directive("rules", RulesDirective)
    app.add_directive("rules-table", RulesTableDirective)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-check-consistency", _check_all_placed)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
