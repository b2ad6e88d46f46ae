"""The translations: how catalogues follow the English, which lines stay out of a page's catalogue, how a
phrase or statement is looked up, and that every translation keeps what must not be translated."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from docutils import nodes

from sonnx_sphinx import catalogues, i18n

ROOT = Path(__file__).parents[2]
CATALOGUES = sorted((ROOT / "locales" / "zh_CN" / "LC_MESSAGES").rglob("*.po"))


def write(path: Path, entries: list[tuple[str | None, str, str]]) -> None:
    catalogue = Catalog(locale="zh_CN")
    for context, english, translation in entries:
        catalogue.add(english, translation, context=context)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalogue)


def read(path: Path) -> dict[tuple[str | None, str], tuple[str, bool]]:
    with path.open("rb") as file:
        return {(m.context, m.id): (m.string, m.fuzzy) for m in read_po(file) if m.id}


def test_an_update_keeps_translations_marks_changed_english_fuzzy_and_drops_what_is_gone(
    tmp_path: Path,
) -> None:
    templates, locales = tmp_path / "pot", tmp_path / "locales"
    po = locales / "zh_CN" / "LC_MESSAGES"
    write(
        po / "page.po",
        [(None, "Kept", "保留"), (None, "The old sentence.", "旧句子。"), (None, "Gone", "走了")],
    )
    write(po / "orphan.po", [(None, "Alone", "孤")])
    write(templates / "page.pot", [(None, "Kept", ""), (None, "The old sentences.", ""), (None, "New", "")])
    write(templates / "rules" / "abs.pot", [("ABS_C1", "Y has the shape of X.", "")])

    changes = catalogues.update(templates, locales, "zh_CN")

    assert read(po / "page.po") == {
        (None, "Kept"): ("保留", False),
        (None, "The old sentences."): ("旧句子。", True),  # shown in English until a translator checks it
        (None, "New"): ("", False),
    }
    assert read(po / "rules" / "abs.po") == {("ABS_C1", "Y has the shape of X."): ("", False)}
    assert not (po / "orphan.po").exists()
    assert "zh_CN/LC_MESSAGES/orphan.po: deleted (no template)" in changes


def test_a_second_update_changes_nothing(tmp_path: Path) -> None:
    templates, locales = tmp_path / "pot", tmp_path / "locales"
    write(templates / "page.pot", [(None, "Kept", "")])
    catalogues.update(templates, locales, "zh_CN")
    assert catalogues.update(templates, locales, "zh_CN") == []


def env(tmp_path: Path, language: str) -> SimpleNamespace:
    return SimpleNamespace(
        config=SimpleNamespace(language=language, locale_dirs=["locales"]), srcdir=str(tmp_path), docname="p"
    )


def test_a_phrase_is_the_english_in_the_english_build_and_the_catalogue_s_in_another(tmp_path: Path) -> None:
    write(tmp_path / "locales/zh_CN/LC_MESSAGES/site.po", [(None, "Types: {types}.", "类型：{types}。")])
    assert i18n.phrase(env(tmp_path, "en"), "Types: {types}.", types="int8") == "Types: int8."
    assert i18n.phrase(env(tmp_path, "zh_CN"), "Types: {types}.", types="int8") == "类型：int8。"


def test_a_statement_is_found_by_its_id_and_its_exact_english(tmp_path: Path) -> None:
    write(
        tmp_path / "locales/zh_CN/LC_MESSAGES/rules/abs.po",
        [("ABS_C2", "Y has the type of X.", "Y 与 X 同类型。")],
    )
    zh = env(tmp_path, "zh_CN")
    assert i18n.statement(zh, "ABS_C2", "abs", "Y has the type of X.") == "Y 与 X 同类型。"
    assert (
        i18n.statement(env(tmp_path, "en"), "ABS_C2", "abs", "Y has the type of X.") == "Y has the type of X."
    )


@pytest.mark.parametrize(
    ("rule_id", "english"),
    [("ABS_C1", "Y has the type of X."), ("ABS_C2", "Y has the element type of X.")],
    ids=["another id", "changed English"],
)
def test_an_untranslated_statement_is_an_error_of_the_build(
    tmp_path: Path, rule_id: str, english: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path / "locales/zh_CN/LC_MESSAGES/rules/abs.po",
        [("ABS_C2", "Y has the type of X.", "Y 与 X 同类型。")],
    )
    warnings = []
    monkeypatch.setattr(i18n.logger, "warning", lambda *args, **kwargs: warnings.append((args, kwargs)))
    assert i18n.statement(env(tmp_path, "zh_CN"), rule_id, "abs", english) == english
    [(args, kwargs)] = warnings
    assert args[1:3] == (rule_id, "abs") and kwargs["subtype"] == "i18n"


def test_the_generated_lines_stay_out_of_the_page_s_catalogue_and_the_page_s_own_do_not() -> None:
    section = nodes.section()
    section += nodes.title("", "Abs for the integer family")  # a generated heading, line 10
    section[0].line = 10
    generated = nodes.paragraph("", "", nodes.emphasis("", "ABS_C1"))  # no line: its section's
    own = nodes.paragraph("", "The page's own words.")
    own.line = 14
    section += [generated, own]
    i18n.keep_out_of_catalogue([section], last=12)
    assert section[0]["translatable"] is False
    assert generated["translatable"] is False
    assert "translatable" not in own


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("The input is refused.", True),
        ("float16, bfloat16", False),
        ("Softmax", False),
        ("{need}`ABS_C1`, {need}`ABS_S1`", False),
        ("$Y[i] = |X[i]|$ for `X`", True),
        ("`to`", False),
        ("GEN_P1, GEN_P2", False),
        ("3.4028234663852886e+38", False),
        ("{count} of {goals}", True),
        ("{call}[i]", False),  # a phrase's placeholders are filled in, not translated
        ("int, float", False),  # the type families' names
    ],
)
def test_a_message_of_names_numbers_ids_and_formulas_alone_needs_no_translation(
    message: str, words: bool
) -> None:
    assert i18n.has_words(message) is words


PLACEHOLDER = re.compile(r"\{[a-z]+\}")
ROLE = re.compile(r"\{([a-z:+-]+)\}(`+)(?:[^`<]*<([^>`]+)>|([^`]+))\2")
"""A role and what it points at: the target of {ref}`text <target>` (whose text is translated), else all."""
CODE = re.compile(r"(`+)([^`]+?)\1")
KEPT = {
    # the words of \text{…} in a formula are translated
    "math": lambda text: re.findall(r"\$[^$]+\$", re.sub(r"\\text\{[^}]*\}", r"\\text{}", text)),
    "role": lambda text: [(m[1], m[3] or m[4]) for m in ROLE.finditer(text)],
    "code": lambda text: [m[2] for m in CODE.finditer(ROLE.sub("", text))],
    "link target": lambda text: re.findall(r"\]\(([^)]+)\)", text),
    "rule id": lambda text: re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z]+[0-9]+\b", text),
}


TEMPLATE_FIELD = re.compile(r"%\(\w+\)s")
TAG = re.compile(r"<[^>]+>")


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.relative_to(CATALOGUES[0].parents[0]).as_posix())
def test_a_translation_keeps_the_math_code_roles_links_ids_and_placeholders_of_its_english(
    path: Path,
) -> None:
    """A translator rewrites the words around them; these pass through as they are."""
    kept = {
        "site.po": {**KEPT, "placeholder": PLACEHOLDER.findall},
        # the theme's templates: Jinja's %(name)s and the HTML around them
        "sphinx.po": {**KEPT, "placeholder": TEMPLATE_FIELD.findall, "tag": TAG.findall},
    }.get(path.name, KEPT)
    problems = []
    for (context, english), (translation, fuzzy) in read(path).items():
        if not translation or fuzzy:
            continue
        for name, find in kept.items():
            want, got = set(find(english)), set(find(translation))
            # every one kept; one added only if the English says it (a formula's part, named again)
            if want - got or any(str(extra).strip("$`") not in english for extra in got - want):
                problems.append(
                    f"{context or ''} {english[:60]!r}: {name} {sorted(want)} became {sorted(got)}"
                )
    assert problems == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.relative_to(CATALOGUES[0].parents[0]).as_posix())
def test_a_docstring_s_restructuredtext_role_is_left_untranslated(path: Path) -> None:
    """Sphinx parses a translation with the page's parser (MyST): a reST role in it would lose its link."""
    translated = [english for (_, english), (translation, _) in read(path).items() if translation]
    assert [e for e in translated if re.search(r"(^|\s):[a-z:]+:`", e)] == []
