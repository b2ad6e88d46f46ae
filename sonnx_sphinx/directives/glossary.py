"""``{glossary-terms} zh_CN``: the translation's glossary, one row a term, from
``locales/<language>/glossary.toml`` (its one source: translators keep to it). The table is the same on
every language's site: it is about both languages."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import ClassVar

from docutils import nodes
from sphinx.application import Sphinx

from ..domain import add_directive
from ..i18n import LANGUAGES, phrase
from ..myst import SiteDirective, escape, table


class GlossaryTermsDirective(SiteDirective):
    required_arguments = 1
    option_spec: ClassVar = {}

    def run(self) -> list[nodes.Node]:
        language = self.arguments[0]
        path = Path(self.env.srcdir, self.config.locale_dirs[0], language, "glossary.toml")
        if not path.exists():
            raise self.error(f"no glossary for {language!r}: write {path}")
        self.env.note_dependency(str(path))
        terms = tomllib.loads(path.read_text("utf-8"))["term"]
        rows = [
            [
                escape(term["en"]) + (f" ({escape(term['note'])})" if "note" in term else ""),
                term["zh"],
                "✓" if term.get("onnx") else "",
            ]
            for term in terms
        ]
        header = ["English", LANGUAGES[language], phrase(self.env, "ONNX's Chinese pages")]
        return self.render(table(header, rows, widths="4 4 2"))


def setup(app: Sphinx) -> dict:
    add_directive(app, "glossary-terms", GlossaryTermsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
