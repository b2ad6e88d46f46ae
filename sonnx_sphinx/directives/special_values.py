"""``{special-values}``: the section of an operator's page computed by the reference in a live cell.

The cell (jupyter-sphinx) runs :func:`sonnx_sphinx.value_tables.table` for each
family of the operator. Without content, an operator of one input is run on
every special value and one of two inputs on the standard pairs; otherwise each
line of the content is a case, ``float: NaN, −1, +1``, one value per input.
``:attributes: alpha=0.01`` gives the attributes of every case.
"""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from ..example_language import ExampleError, parse_value
from ..myst import SiteDirective


class SpecialValuesDirective(SiteDirective):
    has_content = True
    option_spec: ClassVar = {"operator": directives.unchanged, "attributes": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        op = self.build_data().operators[self.operator_name()]
        if not op.inputs:
            raise self.error(f"{op.name} has no input: a special-values table has no input to vary")
        cases: dict[str, list[tuple[str, ...]]] = {}
        for line in filter(None, (raw.strip() for raw in self.content)):
            family, _, values = line.partition(":")
            if family not in op.families or not values:
                raise self.error(f"a case is `<family>: v1, v2, …` with a family of {op.name}; got {line!r}")
            cases.setdefault(family, []).append(tuple(v.strip() for v in values.split(",")))
        attributes = {}
        for item in self.options.get("attributes", "").split():
            name, _, value = item.partition("=")
            try:
                attributes[name] = parse_value(value)
            except ExampleError as error:
                raise self.error(str(error)) from None
        calls = ", ".join(
            f"table({op.name!r}, {family!r}, {cases.get(family)!r}, {attributes!r})" for family in op.families
        )
        lines = [
            f"({op.name}-special-values)=",
            "## Special values",
            "",
            f"Computed while this page was built, by the reference (`sonnx_spec.{op.name}`), for every type "
            "of each family; a dash marks a value the type does not have.",
            "",
            "```{jupyter-execute}",
            ":hide-code:",
            "",
            "from sonnx_sphinx.value_tables import table",
            f"display({calls})",
            "```",
            "",
        ]
        return self.render(lines, match_titles=True)


def setup(app: Sphinx) -> dict:
    app.add_directive("special-values", SpecialValuesDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
