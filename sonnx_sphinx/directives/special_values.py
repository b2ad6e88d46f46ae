"""``{special-values}``: the section of an operator's page that shows its table of special values.

The table is data (``[[special]]`` in ``sonnx_spec/requirements/<op>.toml``, read by
:mod:`sonnx_spec.pages.special_values`): the directive renders the rows, one table per type family and
set of attributes, and runs the reference on every cell while the page is read. A cell where the
reference gives another value, or another refusal, is a build error at the row's line in the rules file.
"""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from sonnx_spec import Operator
from sonnx_spec.pages.special_values import SpecialValuesError, Table, rows_of, tables

from ..domain import add_directive
from ..i18n import phrase
from ..myst import SiteDirective, need

logger = logging.getLogger(__name__)


def caption(op: Operator, table: Table, env: BuildEnvironment) -> str:
    given = ", ".join(
        f"{name} = {list(value) if isinstance(value, tuple) else value}" for name, value in table.attributes
    )
    call = f"{op.name}({', '.join(table.columns)}{'; ' + given if given else ''})"
    return phrase(env, "{call}[i], {family} family", call=call, family=table.family)


def list_row(cells: list[str]) -> list[str]:
    return [("* - " if i == 0 else "  - ") + cell for i, cell in enumerate(cells)]


def table_lines(op: Operator, table: Table, env: BuildEnvironment) -> list[str]:
    """One ``list-table``: a line per inputs, a column per type, and the rules that decide the line."""
    scalars = {t.name for t in op.inputs if t.rank == 0}
    header = [name if name in scalars else f"{name}[i]" for name in table.columns]
    lines = ["```{list-table} " + caption(op, table, env), ":header-rows: 1", ":class: sonnx-values", ""]
    lines += list_row([*header, *(t.name for t in table.types), phrase(env, "rule")])
    for values, cells in table.lines:
        shown = [cells[t].shown(t) if t in cells else "—" for t in table.types]
        rule_ids = ", ".join(need(rule_id) for rule_id in dict.fromkeys(row.rule for row in cells.values()))
        lines += list_row([*values, *shown, rule_ids])
    return [*lines, "```", ""]


class SpecialValuesDirective(SiteDirective):
    has_content = False
    option_spec: ClassVar = {"operator": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        op = self.build_data().operators[self.operator_name()]
        try:
            found = list(tables(op.name))
        except SpecialValuesError as error:
            raise self.error(str(error)) from None
        if not found:
            raise self.error(f"{op.name}: its rules file has no [[special]] rows")
        self.check_reference(op)
        lines = [
            f"({op.name}-special-values)=",
            "## " + phrase(self.env, "Special values"),
            "",
            phrase(
                self.env,
                "What {name} gives on special values for every type of each family, and the rule that "
                "decides it. The table is written from the specification, once "
                "(`sonnx_spec/requirements/{name}.toml`); the reference (`sonnx_spec.{name}`) was run on "
                "every cell while this page was built and gives each. A dash marks a value the type does "
                "not have.",
                name=op.name,
            ),
            "",
        ]
        for table in found:
            lines += table_lines(op, table, self.env)
        return self.render(lines, match_titles=True)

    def check_reference(self, op: Operator) -> None:
        for row in rows_of(op.name):
            for dtype in row.types:
                problem = row.check(dtype)
                if problem:
                    logger.warning(
                        "special values of %s, %s: %s",
                        op.name,
                        ", ".join(row.inputs),
                        problem,
                        location=row.source,
                        type="sonnx",
                        subtype="special-values",
                    )


def setup(app: Sphinx) -> dict:
    add_directive(app, "special-values", SpecialValuesDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
