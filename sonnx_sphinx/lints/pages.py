"""Every operator has its page, every page under operators/ is an operator, every rule is placed once.

A rule is placed by a ``{rules}`` directive, which notes it in the ``sonnx`` domain; sphinx-needs reports an
id placed twice.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ..data import build_data
from ..domain import sonnx_domain
from . import report


def _check(app: Sphinx, env: BuildEnvironment) -> None:
    data = build_data(app)
    pages = {d.removeprefix("operators/") for d in env.found_docs if d.startswith("operators/")}
    for name, op in data.operators.items():
        if name not in pages:
            module = data.root / "sonnx_spec" / "ops" / f"{name}.py"
            report("pages", f"{module}:1", f"operator {name} has no page: write docs/{op.page}.md")
    for name in sorted(pages - set(data.operators)):
        report("pages", f"operators/{name}", f"docs/operators/{name}.md is the page of no operator")
    placed = sonnx_domain(env).rule_places
    for rule in data.rules.values():
        if rule.id not in placed:
            report(
                "rules",
                data.location_of(rule.id),
                f"{rule.id} is declared but defined on no page: place it with a {{rules}} directive "
                f"on {rule.page}",
            )
        elif any(page != rule.page for page, _ in placed[rule.id]):
            where = ", ".join(page for page, _ in placed[rule.id])
            report(
                "rules", data.location_of(rule.id), f"{rule.id} belongs on {rule.page}, is placed on {where}"
            )


def setup(app: Sphinx) -> dict:
    app.connect("env-check-consistency", _check)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
