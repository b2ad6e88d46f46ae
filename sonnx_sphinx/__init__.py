"""The Sphinx extension of the SONNX specification site; ``conf.py`` loads it as ``sonnx_sphinx``.

One concern per module:

``data/``        what the site shows, gathered once per build: rules, operators, code lines naming
                 ids, test results, proof status
``directives/``  what the pages write: rules, examples, the skeleton of an operator's page,
                 special values, formal status, conformance, the lists of the whole profile,
                 traceability, folded blocks
``lints/``       what fails the build: traceability, pages, the offline site
``output/``      what the build writes besides the pages: exports, source pages, the Why3 lexer,
                 and the fixes that make two builds of the same sources identical
``example_language``, ``value_tables``   read without Sphinx (the formal harness and the pages'
                 live cells import them)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing the package needs no Sphinx: the formal harness and the live server read
    from sphinx.application import Sphinx  # example_language and value_tables without it

EXTENSIONS = [
    "sonnx_sphinx.data",
    "sonnx_sphinx.directives.details",
    "sonnx_sphinx.directives.rules",
    "sonnx_sphinx.directives.examples",
    "sonnx_sphinx.directives.operator_page",
    "sonnx_sphinx.directives.special_values",
    "sonnx_sphinx.directives.formal",
    "sonnx_sphinx.directives.conformance",
    "sonnx_sphinx.directives.catalogue",
    "sonnx_sphinx.directives.traceability",
    "sonnx_sphinx.lints.traceability",
    "sonnx_sphinx.lints.pages",
    "sonnx_sphinx.lints.site",
    "sonnx_sphinx.output.exports",
    "sonnx_sphinx.output.source_pages",
    "sonnx_sphinx.output.site_root_links",
    "sonnx_sphinx.output.why3_lexer",
    "sonnx_sphinx.output.jupyter_assets",
    "sonnx_sphinx.output.reproducible",
]


def setup(app: Sphinx) -> dict:
    for extension in EXTENSIONS:
        app.setup_extension(extension)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
