"""The site in each of its languages, from one source (``locales/<language>/LC_MESSAGES/``).

Three kinds of words, three homes:

- a page's own prose: Sphinx's catalogue of that page (``operators/abs.po``), made by the gettext builder;
- a rule's statement: the catalogue of its rules file (``rules/abs.po``, the rule's id as context),
  read here, because sphinx-needs keeps a statement out of the page's catalogue;
- the phrases this extension writes on every page (headings, table heads, "Types: …"): one catalogue,
  ``site.po``, read here; the lines a directive generates are kept out of the pages' catalogues, so a
  phrase shared by every page is translated once.

A translation is tied to the exact English it translates (a changed statement is untranslated again).
In a translated build, an untranslated statement, phrase or specification paragraph is a located
error (``sonnx.i18n``): normative text is never shown in English on the Chinese site. The build
reports its coverage: translated messages of all the pages' messages, and of the normative ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache, partial
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.nodes import extract_messages, is_translatable

from sonnx_spec import FAMILIES, operators
from sonnx_spec.types import TYPES

logger = logging.getLogger(__name__)
LANGUAGES = {"en": "English", "zh_CN": "中文"}
"""The site's languages and the name each is offered under in the language switch."""
WORDS = re.compile(r"[A-Za-z]{2,}[A-Za-z0-9_]*")
NAMES = (
    {t.name for t in TYPES}
    | set(FAMILIES)
    | {o.onnx.lower() for o in operators().values()}
    | {
        *("bool", "true", "false", "nan", "inf", "to", "x", "y"),
        *("numpy", "onnx", "onnxruntime", "reference", "why3", "z3", "cvc5", "ulp"),
    }
)
"""Words that read the same in every language: types and their families, operators, engines (a message of
them alone, a number, an id or a formula needs no translation)."""
NORMATIVE_SECTION = re.compile(r"(^|-)specification(-\d+)?$")
"""The ids of an operator page's Specification sections (``abs-specification``, ``specification-1``)."""


def language(env: BuildEnvironment | Sphinx) -> str:
    return env.config.language or "en"


def catalogue(env: BuildEnvironment | Sphinx, name: str) -> dict[tuple[str | None, str], str]:
    """(context, English) → translation, of ``<locale_dirs[0]>/<lang>/LC_MESSAGES/<name>.po``."""
    return _read(Path(env.srcdir, env.config.locale_dirs[0], language(env), "LC_MESSAGES", f"{name}.po"))


@cache
def _read(path: Path) -> dict[tuple[str | None, str], str]:
    """The translated messages of a catalogue, fuzzy ones left out."""
    if not path.exists():
        return {}
    with path.open("rb") as file:
        messages = read_po(file)
    return {
        (m.context, m.id): m.string
        for m in messages
        if m.id and m.string and "fuzzy" not in m.flags and isinstance(m.id, str)
    }


def phrase(env: BuildEnvironment, english: str, **fields: object) -> str:
    """A phrase this extension writes, in the build's language, its ``{fields}`` filled in."""
    _used(env, "site", None, english)
    text = site_translation(env, english)
    return text.format(**fields) if fields else text


def site_translation(build: BuildEnvironment | Sphinx, english: str) -> str:
    """A phrase of ``site.po`` in the build's language: ``build`` is the build's environment, or its
    application before there is one (sphinx-needs' configuration). A missing one is a located error."""
    if language(build) == "en" or not has_words(english):  # a type's or family's name (bool) reads the same
        return english
    text = catalogue(build, "site").get((None, english), "")
    if not text:
        logger.warning(
            "untranslated phrase of the site (locales/%s/LC_MESSAGES/site.po): %r",
            language(build),
            english,
            location=getattr(build, "docname", None),
            type="sonnx",
            subtype="i18n",
        )
    return text or english


Say = Callable[..., str]
"""``phrase`` bound to a build: ``say("{n} cases", n=3)``; what the directives' helpers are given."""


def speaker(env: BuildEnvironment) -> Say:
    """The phrases of the site in the language of ``env``'s build."""
    return partial(phrase, env)


def english(text: str, **fields: object) -> str:
    """A phrase as written (a helper's default when no build is at hand: tests, exports)."""
    return text.format(**fields) if fields else text


def statement(env: BuildEnvironment, rule_id: str, operator: str, english: str) -> str:
    """A rule's statement in the build's language: from ``rules/<operator>.po``, the id as context."""
    return operator_text(env, operator, rule_id, english)


def operator_text(env: BuildEnvironment, operator: str, context: str, english: str) -> str:
    """Words of an operator's rules file or registry entry (a statement, its summary, a tensor's doc) in
    the build's language: from ``rules/<operator>.po``, ``context`` naming what it is (``ABS_C1``,
    ``summary``, ``input X``, ``attribute axis``)."""
    _used(env, f"rules/{operator}", context, english)
    if language(env) == "en":
        return english
    text = catalogue(env, f"rules/{operator}").get((context, english), "")
    if not text:
        logger.warning(
            "%s of %s is not translated (locales/%s/LC_MESSAGES/rules/%s.po)",
            context,
            operator,
            language(env),
            operator,
            location=env.docname,
            type="sonnx",
            subtype="i18n",
        )
        return english
    return text


def _used(env: BuildEnvironment, catalogue: str, context: str | None, english: str) -> None:
    """Notes a message this build wrote: the gettext build makes the catalogue templates of them."""
    messages(env).setdefault(env.docname, set()).add((catalogue, context, english))


def messages(env: BuildEnvironment) -> dict[str, set[tuple[str, str | None, str]]]:
    """Per page: (catalogue, context, English) of each phrase and operator text the page shows."""
    if not hasattr(env, "sonnx_messages"):
        env.sonnx_messages = {}
    return env.sonnx_messages


def _templates(app: Sphinx, exception: Exception | None) -> None:
    """The gettext build: templates (``.pot``) of site.po and of rules/<operator>.po, besides the pages'."""
    if exception is not None or app.builder.name != "gettext":
        return
    by_catalogue: dict[str, Catalog] = {}
    for page in sorted(messages(app.env)):
        for name, context, english in sorted(messages(app.env)[page], key=str):
            by_catalogue.setdefault(name, Catalog(project=app.config.project)).add(english, context=context)
    for name, catalogue in by_catalogue.items():
        path = Path(app.outdir, f"{name}.pot")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as file:
            write_po(file, catalogue, width=0, omit_header=False)


def keep_out_of_catalogue(made: list[nodes.Node], last: int | None) -> None:
    """Keeps the generated nodes of ``made`` (those up to line ``last``, or all) out of the page's
    catalogue; a node without a line number goes where its nearest numbered ancestor does."""

    def mark(node: nodes.Node, generated: bool) -> None:
        if last is not None and isinstance(node, nodes.Element) and node.line is not None:
            generated = node.line <= last
        if generated and isinstance(node, nodes.TextElement):
            node["translatable"] = False
        for child in node.children if isinstance(node, nodes.Element) else ():
            mark(child, generated)

    for node in made:
        mark(node, True)


class Coverage(SphinxTransform):
    """After Locale (20): counts the page's messages and its translated ones; an untranslated message of a
    Specification section is an error."""

    default_priority = 21

    def apply(self, **kwargs: object) -> None:
        if language(self.env) == "en" or not self.env.docname:
            return
        operator_page = self.env.docname.startswith("operators/")  # the pages with Specification sections
        counts = [0, 0, 0, 0]  # messages, translated, normative messages, normative translated
        for node, in_specification in _messages(self.document):
            normative = operator_page and in_specification
            done = bool(node.get("translated"))
            counts[0] += 1
            counts[1] += done
            counts[2] += normative
            counts[3] += normative and done
            if normative and not done:
                logger.warning(
                    "untranslated text of a Specification section (locales/%s/LC_MESSAGES/%s.po): %r",
                    language(self.env),
                    self.env.docname,
                    node.astext()[:80],
                    location=node,
                    type="sonnx",
                    subtype="i18n",
                )
        coverage(self.env)[self.env.docname] = tuple(counts)


def has_words(message: str) -> bool:
    """Whether a message has words to translate: not only formulas, code, ids, numbers and names."""
    text = re.sub(
        r"\{[a-z:+-]+\}`[^`]*`|\{\w+\}|\$[^$]*\$|`[^`]*`|\b(GR\d+|[A-Z][A-Z0-9]*_[RCESP]\d+)\b", " ", message
    )
    return any(word.lower() not in NAMES for word in WORDS.findall(text))


def _messages(document: nodes.document) -> Iterator[tuple[nodes.Element, bool]]:
    """Each translatable message with words, and whether a Specification section holds it."""
    for node, message in extract_messages(document):
        if not is_translatable(node) or isinstance(node, nodes.math_block) or not has_words(message):
            continue
        yield (
            node,
            any(
                NORMATIVE_SECTION.search(name)
                for section in _ancestors(node, nodes.section)
                # a second "Specification" on a page keeps its name among the duplicates; its id is "id1"
                for name in [*section["ids"], *section["names"], *section.get("dupnames", [])]
            ),
        )


def _ancestors(node: nodes.Node, kind: type[nodes.Element]) -> Iterator[nodes.Element]:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, kind):
            yield parent
        parent = parent.parent


def coverage(env: BuildEnvironment) -> dict[str, tuple[int, int, int, int]]:
    if not hasattr(env, "sonnx_translation_coverage"):
        env.sonnx_translation_coverage = {}
    return env.sonnx_translation_coverage


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    coverage(env).pop(docname, None)
    messages(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    coverage(env).update({d: c for d, c in coverage(other).items() if d in docnames})
    messages(env).update({d: m for d, m in messages(other).items() if d in docnames})


def _report(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or language(app.env) == "en":
        return
    counts = [sum(c[i] for c in coverage(app.env).values()) for i in range(4)]
    text = (
        f"Translation ({language(app.env)}): {counts[1]} of {counts[0]} messages of the pages "
        f"({100 * counts[1] / max(counts[0], 1):.1f} %); normative: {counts[3]} of {counts[2]} "
        f"({100 * counts[3] / max(counts[2], 1):.1f} %); every rule statement and phrase of the site"
    )
    Path(app.outdir, "translation-coverage.txt").write_text(text + "\n", "utf-8")
    logger.info(text)


def switch(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: object) -> None:
    """The links of the language switch: this page in each language, relative to this page."""
    here = language(app.env)
    up = "../" * pagename.count("/")
    root = up if here == "en" else up + "../"  # the Chinese site is the folder zh_CN/ of the English one
    context["sonnx_languages"] = [
        (lang, name, lang == here, f"{root}{'' if lang == 'en' else lang + '/'}{pagename}.html")
        for lang, name in LANGUAGES.items()
        if lang in app.config.sonnx_languages
    ]


def setup(app: Sphinx) -> dict:
    app.add_config_value("sonnx_languages", ["en"], "html", types=[list])
    app.add_transform(Coverage)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _report)
    app.connect("build-finished", _templates)
    app.connect("html-page-context", switch)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
