"""Graphviz's drawings inlined in their pages: the links of an SVG shown as an ``<img>`` do not work.

Sphinx writes ``<img src="_images/graphviz-….svg">``; after the build each such image of class
``sonnx-graph`` is replaced by the SVG itself, in a box that scrolls if the drawing is wider than the
column (it keeps its own size: its text stays readable).
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

IMAGE = re.compile(
    r'(?:<a [^>]*href="[^"]*\.svg"[^>]*>\s*)?'
    r'<img [^>]*src="(?P<src>[^"]*\.svg)"[^>]*class="[^"]*graphviz[^"]*sonnx-graph[^"]*"[^>]*>'
    r"(?:\s*</a>)?"
)
PROLOGUE = re.compile(r"^.*?(?=<svg)", re.DOTALL)


def _inline(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    for page in outdir.rglob("*.html"):
        text = page.read_text("utf-8")
        if "sonnx-graph" not in text:
            continue

        page.write_text(IMAGE.sub(lambda match, folder=page.parent: _svg(folder, match), text), "utf-8")


def _svg(folder: Path, match: re.Match[str]) -> str:
    drawing = (folder / match["src"]).read_text("utf-8")
    return '<div class="sonnx-graph-box">' + PROLOGUE.sub("", drawing, count=1) + "</div>"


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _inline, priority=100)  # before the site check reads the pages
    return {"parallel_read_safe": True, "parallel_write_safe": True}
