"""Generating MyST Markdown: the directives of this extension write Markdown and parse it in place.

Writing the page fragment as Markdown keeps sphinx-needs, MyST roles and math
working as on a hand-written page; messages point at the directive's line.
"""

from __future__ import annotations

import string

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from .data import BuildData, build_data
from .i18n import keep_out_of_catalogue


def escape(text: str) -> str:
    """Plain text for Markdown: every ASCII punctuation mark backslash-escaped."""
    return "".join("\\" + c if c in string.punctuation else c for c in text)


def from_docstring(text: str) -> str:
    """A line of a docstring (reStructuredText) as Markdown: ``literals`` as code, the rest plain text."""
    parts = text.split("``")  # text, literal, text, literal, …
    return "".join(code(part) if i % 2 else escape(part) for i, part in enumerate(parts) if part)


def code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def need(rule_id: str) -> str:
    """A link to a rule, shown as its id."""
    return f"{{need}}`{rule_id}`"


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def table(header: list[str], rows: list[list[str]], widths: str = "auto", classes: str = "") -> list[str]:
    """A ``list-table``; ``classes`` are added to the table (e.g. ``sonnx-wide`` to scroll in its box)."""
    lines = ["```{list-table}", ":header-rows: 1", f":widths: {widths}"]
    lines += [f":class: {classes}"] if classes else []
    lines.append("")
    for row in [header, *rows]:
        for i, cell in enumerate(row):
            lines.append(("* - " if i == 0 else "  - ") + (cell or " "))
    return [*lines, "```", ""]


def rubric(title: str) -> list[str]:
    return ["```{rubric} " + escape(title), "```", ""]


def details(summary: str, body: list[str], classes: str = "") -> list[str]:
    """A folded block (HTML ``<details>``): its summary shows, its body opens on a click.

    Blocks of class ``sonnx-trace`` open and close with the page's traceability switch.
    """
    fence = "::::::::"
    options = [f":class: {classes}"] if classes else []
    return [f"{fence}{{details}} {summary}", *options, "", *body, fence, ""]


class SiteDirective(SphinxDirective):
    """A directive that shows the build's data: read again when the data changes, rendered from MyST."""

    def build_data(self) -> BuildData:
        data = build_data(self.env.app)
        for path in data.inputs:  # a new test run, proof run or code change reads the page again
            self.env.note_dependency(str(path))
        return data

    def render(
        self, markdown: list[str], *, match_titles: bool = False, then: StringList | None = None
    ) -> list[nodes.Node]:
        """Parse generated MyST in place; its messages point at the directive's line.

        ``then`` (the directive's own content) is parsed after it, keeping its lines.
        """
        source = StringList(markdown, self.env.doc2path(self.env.docname))
        if then is not None:
            source = source + then
        container = nodes.container()
        sections = set(map(id, self.state.document.findall(nodes.section)))
        self.state.nested_parse(source, self.content_offset, container, match_titles=match_titles)
        # The generated lines are translated where they are written (sonnx_sphinx.i18n), not in the
        # page's catalogue. MyST numbers the lines of this parse from the directive's content on, the
        # generated ones first; a title opens its section outside the container.
        made = [*container.children]
        made += (s for s in self.state.document.findall(nodes.section) if id(s) not in sections)
        last = self.state._lineno + self.content_offset + len(markdown)
        keep_out_of_catalogue(made, last if then is not None else None)
        return container.children

    def site_link(self, path: str, text: str) -> str:
        """Inline HTML linking a file of the built site that is not a page (``_source/…``), from this page."""
        prefix = "../" * self.env.docname.count("/")
        return f'<a class="reference internal" href="{prefix}{path}">{text}</a>'

    def operator_name(self) -> str:
        """``:operator:`` if given, else the operator whose page this is."""
        name = self.options.get("operator") or self.env.docname.removeprefix("operators/")
        if name not in build_data(self.env.app).operators:
            raise self.error("give :operator: (the page is not an operator's page)")
        return name
