"""Links written relative to the site's root (``SITEROOT/_source/…``), made relative to each page.

sphinx-needs writes the links of need fields from one template for every page;
pages live at the root and under ``operators/``, and the site must work from
``file://``, so no link may be absolute.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

MARKER = "SITEROOT/"


def _relative(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    prefix = "../" * docname.count("/")
    for reference in doctree.findall(nodes.reference):
        uri = reference.get("refuri", "")
        if uri.startswith(MARKER):
            reference["refuri"] = prefix + uri.removeprefix(MARKER)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", _relative, priority=900)  # after sphinx-needs makes its links
    return {"parallel_read_safe": True, "parallel_write_safe": True}
