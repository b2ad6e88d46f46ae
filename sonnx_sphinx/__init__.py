"""The Sphinx extension of the SONNX specification site; ``conf.py`` loads it as ``sonnx_sphinx``.

One concern per module:

``domain``       the ``sonnx`` domain: the directives' home, the rules and operators the pages define,
                 their cross-references (``{sonnx:rule}``), ``objects.inv`` and the index of rules
``data/``        what the site shows, gathered once per build: rules, operators, code lines naming
                 ids, test results, proof status
``directives/``  what the pages write: rules, examples, the skeleton of an operator's page,
                 special values, formal status, conformance, the lists of the whole profile,
                 traceability, folded blocks
``lints/``       what fails the build: traceability, pages, the offline site
``output/``      what the build writes besides the pages: exports, source pages, the Why3 lexer,
                 and the fixes that make two builds of the same sources identical
``i18n``         the site in each language: the catalogues of rule statements and of the phrases
                 written here, coverage, the language switch
``math_server``  the KaTeX server's life: one per build, ended with it
``leftovers``    runs a build and fails it if it leaves a process running (``nox -s docs``)

The page language (examples, special values, value tables) is not here: it is ``sonnx_spec.pages``,
part of the installed package, which the formal harness and the live server import too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

EXTENSIONS = [
    "sonnx_sphinx.domain",  # first: the directives are the domain's
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
    "sonnx_sphinx.directives.suite",
    "sonnx_sphinx.directives.glossary",
    "sonnx_sphinx.lints.traceability",
    "sonnx_sphinx.lints.pages",
    "sonnx_sphinx.lints.site",
    "sonnx_sphinx.output.exports",
    "sonnx_sphinx.output.source_pages",
    "sonnx_sphinx.output.site_root_links",
    "sonnx_sphinx.output.why3_lexer",
    "sonnx_sphinx.output.jupyter_assets",
    "sonnx_sphinx.output.reproducible",
    "sonnx_sphinx.math_server",
    "sonnx_sphinx.i18n",
]


def setup(app: Sphinx) -> dict:
    for extension in EXTENSIONS:
        app.setup_extension(extension)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
