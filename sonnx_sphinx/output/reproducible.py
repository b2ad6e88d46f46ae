"""Same sources, same site: what sphinx-needs writes differently on every build.

- It names each need's container ``SNCB-`` + a random uuid; the container is
  renamed after the need it holds (its collapse script only needs the prefix
  and uniqueness).
- It writes ``schema_violations.json`` with the validation's timings;
  a violation is a build warning already (an error here), so the file is removed.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx


def _name_need_containers(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    counter = itertools.count(1)
    for container in doctree.findall(nodes.container):
        if "need_container" not in container["classes"]:
            continue
        inner = next(
            (n["ids"][0] for n in container.findall(nodes.Element) if n is not container and n["ids"]), None
        )
        container["ids"] = [f"SNCB-{inner}" if inner else f"SNCB-{docname}-{next(counter)}"]


def _remove_timed_report(app: Sphinx, exception: Exception | None) -> None:
    (Path(app.outdir) / "schema_violations.json").unlink(missing_ok=True)


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _remove_timed_report)
    app.connect("doctree-resolved", _name_need_containers, priority=900)  # after sphinx-needs builds them
    return {"parallel_read_safe": True, "parallel_write_safe": True}
