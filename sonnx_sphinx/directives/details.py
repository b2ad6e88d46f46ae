"""``{details}``: a block folded behind its summary, as HTML ``<details>`` (no script needed).

Other builders (doctest, text) show the block unfolded.
"""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

from ..domain import add_directive


class details(nodes.General, nodes.Element):
    pass


class summary(nodes.TextElement, nodes.General):
    pass


class TitledBlock(SphinxDirective):
    """A directive of a title (its argument, spaces allowed) and a body."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True


class DetailsDirective(TitledBlock):
    option_spec: ClassVar = {"class": directives.class_option, "open": directives.flag}

    def run(self) -> list[nodes.Node]:
        node = details(classes=["sonnx-details", *self.options.get("class", [])], open="open" in self.options)
        title, messages = self.state.inline_text(self.arguments[0], self.lineno)
        node += summary("", "", *title)
        self.state.nested_parse(self.content, self.content_offset, node, match_titles=False)
        return [node, *messages]


def _visit_details(translator: HTML5Translator, node: details) -> None:
    translator.body.append(
        translator.starttag(node, "details", OPEN="open")
        if node["open"]
        else translator.starttag(node, "details")
    )


def _depart_details(translator: HTML5Translator, node: details) -> None:
    translator.body.append("</details>\n")


def _visit_summary(translator: HTML5Translator, node: summary) -> None:
    translator.body.append(translator.starttag(node, "summary", suffix=""))


def _depart_summary(translator: HTML5Translator, node: summary) -> None:
    translator.body.append("</summary>\n")


def _skip(translator: object, node: nodes.Node) -> None:
    pass


def setup(app: Sphinx) -> dict:
    app.add_node(
        details,
        html=(_visit_details, _depart_details),
        text=(_skip, _skip),
        latex=(_skip, _skip),
    )
    app.add_node(summary, html=(_visit_summary, _depart_summary), text=(_skip, _skip), latex=(_skip, _skip))
    add_directive(app, "details", DetailsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
