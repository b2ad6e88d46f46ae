"""jupyter-sphinx's assets, shipped the way the rest of the site's are.

- It links ``thebelab-helper.js`` and ``thebelab.css`` on every page but copies
  them only when Thebe (live code from a remote kernel) is configured; the site
  has no Thebe, so the links would be requests that fail. They are removed.
- It copies its stylesheet after the pages are written, so a first build links
  it without the checksum Sphinx adds once the file exists, and two builds of
  the same sources differ. Its folder is made a static path instead, copied
  before the pages like every other.

(conf.py points jupyter-sphinx's widget scripts at local files.)
"""

from __future__ import annotations

import posixpath
from pathlib import Path

import jupyter_sphinx
from sphinx.application import Sphinx
from sphinx.config import Config

UNSHIPPED = {"thebelab-helper.js", "thebelab.css"}


def _shipped(asset: object) -> bool:
    name = getattr(asset, "filename", asset)
    if isinstance(name, tuple):  # the registry's (filename, attributes)
        name = name[0]
    return posixpath.basename(str(name)) not in UNSHIPPED


def _drop_unshipped(app: Sphinx) -> None:
    app.registry.js_files = [f for f in app.registry.js_files if _shipped(f)]
    app.registry.css_files = [f for f in app.registry.css_files if _shipped(f)]
    for attr in ("_js_files", "_css_files"):  # the HTML builder's copies, made before builder-inited
        files = getattr(app.builder, attr, None)
        if isinstance(files, list):
            files[:] = [f for f in files if _shipped(f)]


def _stylesheet_as_static_file(app: Sphinx, config: Config) -> None:
    config.html_static_path = [*config.html_static_path, str(Path(jupyter_sphinx.__file__).parent / "css")]


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", _stylesheet_as_static_file)
    app.connect("builder-inited", _drop_unshipped, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
