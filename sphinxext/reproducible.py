"""Same sources, same site: remove what makes two builds of the same sources differ.

- sphinx-needs names each need's container ``SNCB-`` + a random uuid; it is
  renamed after the need it holds (its collapse script only needs the prefix
  and uniqueness).
- jupyter-sphinx copies its stylesheet after the pages are written, so a first
  build links it without the checksum Sphinx adds once the file exists; its
  folder is made a static path, copied before the pages like every other.
- sphinx-needs writes ``schema_violations.json`` with the validation's timings;
  a violation is a build warning already (an error here), so the file is removed.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import jupyter_sphinx
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config


def _name_need_containers(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    counter = itertools.count(1)
    for container in doctree.findall(nodes.container):
        if "need_container" not in container["classes"]:
            continue
        inner = next(
            (n["ids"][0] for n in container.findall(nodes.Element) if n is not container and n["ids"]), None
        )
        container["ids"] = [f"SNCB-{inner}" if inner else f"SNCB-{docname}-{next(counter)}"]


def _static_jupyter_css(app: Sphinx, config: Config) -> None:
    config.html_static_path = [*config.html_static_path, str(Path(jupyter_sphinx.__file__).parent / "css")]


def _remove_timed_report(app: Sphinx, exception: Exception | None) -> None:
    (Path(app.outdir) / "schema_violations.json").unlink(missing_ok=True)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", _static_jupyter_css)
    app.connect("build-finished", _remove_timed_report)
    app.connect("doctree-resolved", _name_need_containers, priority=900)  # after sphinx-needs builds them
    return {"parallel_read_safe": True, "parallel_write_safe": True}
