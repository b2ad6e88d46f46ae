"""Keep every page self-contained: no asset a page links is missing or remote.

jupyter-sphinx links ``thebelab-helper.js`` and ``thebelab.css`` on every page
but copies them only when Thebe (live code from a remote kernel) is configured;
the site has no Thebe, so the links would be requests that fail. They are
removed here. (conf.py points jupyter-sphinx's other scripts at local files.)
"""

from __future__ import annotations

import posixpath

from sphinx.application import Sphinx

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


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _drop_unshipped, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
