"""The site's fixed words outside the pages' Markdown, in the build's language.

Three places hold words no page writes: sphinx-needs' configuration (the kinds' titles "Constraint", the
layout's prefixes "Origin: ", the links' names "derived from"), the site's scripts (``docs/_static/*.js``:
"Show traceability", the live examples' buttons) and the theme's templates ("On this page", "Back to
top"). Each is read where it is written, the configuration in ``conf.py``, the scripts' words from their
calls of ``t("…")``, the templates' by Jinja's own extractor, so no list of them is kept here.

The extension's own phrases reach ``site.pot`` as the pages use them; those a page shows only in another
state of the build (no mutation run, an engine that fails) are found in the extension's code, as the
literals of its calls of ``phrase`` and ``say``, so that such a state is translated too.

The gettext build puts the first two in ``site.pot`` with the extension's other phrases, and the
templates' in ``sphinx.pot`` (Sphinx reads a ``sphinx.po`` of ``locale_dirs`` for its templates, before
its own). A translated build replaces the configuration's words before sphinx-needs reads them, and gives
the scripts their words as ``window.SONNX_WORDS``; an untranslated one is an error (``sonnx.i18n``), as for
a phrase. A template's word left untranslated falls back to Sphinx's catalogue, then to English.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

from jinja2.ext import babel_extract
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from .domain import RuleIndex
from .i18n import has_words, messages, site_translation

PREFIX = re.compile(r'prefix="([^"]*)"')
SCRIPT_WORDS = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]')
SCRIPTS = Path(__file__).parents[1] / "docs" / "_static"
"""The site's scripts (``html_static_path``): each word they show is written ``t("…")``."""


def script_words() -> list[str]:
    """The words the site's scripts show, in the order they are written."""
    found = [
        json.loads(f'"{m}"')
        for path in sorted(SCRIPTS.glob("*.js"))
        for m in SCRIPT_WORDS.findall(path.read_text("utf-8"))
    ]
    return list(dict.fromkeys(found))


EXTENSION = Path(__file__).parent
PHRASE_CALLS = {"phrase": 1, "say": 0}
"""The extension's calls that take a phrase, and the position of the phrase among their arguments."""


def extension_phrases() -> list[str]:
    """The literal phrases of the extension's calls of ``phrase(env, "…")`` and ``say("…")``."""
    found = []
    for path in sorted(EXTENSION.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in PHRASE_CALLS
            ):
                position = PHRASE_CALLS[node.func.id]
                argument = node.args[position] if len(node.args) > position else None
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found.append(argument.value)
    return list(dict.fromkeys(p for p in found if has_words(p)))


def template_words(config: Config, confdir: Path) -> list[str]:
    """The words of the theme's templates and of the site's own (``templates_path``), as ``_()`` and
    ``{% trans %}`` give them to gettext."""
    theme = Path(importlib.import_module(config.html_theme).__file__).parent
    folders = [theme, *(Path(confdir, folder) for folder in config.templates_path)]
    words = []
    for path in sorted(p for folder in folders for p in folder.rglob("*.html")):
        with path.open("rb") as file:
            words += [m for _, _, m, _ in babel_extract(file, ("_", "gettext"), (), {}) if isinstance(m, str)]
    return list(dict.fromkeys(w for w in words if has_words(w)))


def needs_words(config: Config) -> list[str]:
    """The words of sphinx-needs' configuration the pages show: kinds, layout prefixes, links' names."""
    words = [kind["title"] for kind in config.needs_types]
    for layout in config.needs_layouts.values():
        for lines in layout["layout"].values():
            words += [m for line in lines for m in PREFIX.findall(line)]
    for link in config.needs_links.values():
        words += [link["incoming"], link["outgoing"]]
    return list(dict.fromkeys(w for w in words if has_words(w)))


def _translations(app: Sphinx, words: list[str]) -> dict[str, str]:
    return {word: site_translation(app, word) for word in words}


def _translate_needs(app: Sphinx, config: Config) -> None:
    """Before sphinx-needs reads its configuration: its words in the build's language."""
    if (config.language or "en") == "en":
        return
    words = _translations(app, needs_words(config))
    for kind in config.needs_types:
        kind["title"] = words.get(kind["title"], kind["title"])
    for layout in config.needs_layouts.values():
        for part, lines in layout["layout"].items():
            layout["layout"][part] = [
                PREFIX.sub(lambda m: f'prefix="{words.get(m[1], m[1])}"', line) for line in lines
            ]
    for link in config.needs_links.values():
        for end in ("incoming", "outgoing"):
            link[end] = words.get(link[end], link[end])


def _script_words(app: Sphinx) -> None:
    """The scripts' words for this build: English needs none."""
    if (app.config.language or "en") == "en":
        return
    words = _translations(app, script_words())
    app.add_js_file(None, body=f"window.SONNX_WORDS = {json.dumps(words, ensure_ascii=False)};", priority=100)


def _record(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """For the gettext build's templates: these words, as the extension's phrases are."""
    words = {("site", None, w) for w in [*needs_words(app.config), *script_words(), *extension_phrases()]}
    theme = [*template_words(app.config, app.confdir), str(RuleIndex.localname)]  # a title Sphinx shows
    messages(env)["_chrome"] = words | {("sphinx", None, w) for w in theme}


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", _translate_needs, priority=5)  # sphinx-needs resolves its types at 12
    app.connect("builder-inited", _script_words)
    app.connect("env-before-read-docs", _record)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
