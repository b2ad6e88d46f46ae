"""Pages showing the sources the site links to, line by line: the reference, its tests, the Why3 files.

The traceability tables link each rule to the line that enforces it
(``_source/sonnx_spec/ops/clip.py.html#L-42``), each test to its function and
each Why3 goal to its line; these pages are those targets, in the site's theme.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from sphinx.application import Sphinx

from .why3_lexer import Why3Lexer

SOURCES = {
    "sonnx_spec": ("*.py", PythonLexer),
    "tests": ("*.py", PythonLexer),
    "formal": ("*.mlw", Why3Lexer),
}


def source_files(root: Path) -> Iterator[tuple[Path, type]]:
    for folder, (pattern, lexer) in SOURCES.items():
        for path in sorted((root / folder).rglob(pattern)):
            yield path, lexer


def _pages(app: Sphinx) -> Iterator[tuple[str, dict, str]]:
    if app.builder.format != "html":
        return
    root = Path(app.confdir)
    # Each line is a span with id L-<n>: a link's target line is the one highlighted (see sonnx.css).
    formatter = HtmlFormatter(linenos="inline", linespans="L", cssclass="highlight")
    for path, lexer in source_files(root):
        rel = path.relative_to(root).as_posix()
        code = highlight(path.read_text("utf-8"), lexer(), formatter)
        body = f'<section><h1>{rel}</h1><div class="sonnx-source">{code}</div></section>'
        yield f"_source/{rel}", {"title": rel, "body": body}, "page.html"


def setup(app: Sphinx) -> dict:
    app.connect("html-collect-pages", _pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
