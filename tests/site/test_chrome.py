"""The fixed words outside the pages (sphinx-needs' configuration, the scripts, the theme's templates): found
where they are written, and replaced in a translated build."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from sonnx_sphinx import chrome, i18n

ROOT = Path(__file__).parents[2]


def needs_config(language: str = "en") -> SimpleNamespace:
    return SimpleNamespace(
        language=language,
        locale_dirs=["locales"],
        needs_types=[{"directive": "constraint", "title": "Constraint"}, {"directive": "x", "title": "GR1"}],
        needs_layouts={
            "sonnx": {
                "layout": {
                    "head": ['<<meta("type_name")>> <<meta_id()>>: **<<meta("title")>>**'],
                    "meta": [
                        '<<meta("sources", prefix="Origin: ")>>',
                        '<<meta("code", prefix="Enforced at: ")>>',
                    ],
                }
            }
        },
        needs_links={"origin": {"incoming": "origin of", "outgoing": "derived from"}},
    )


def site_po(folder: Path, entries: dict[str, str]) -> None:
    catalogue = Catalog(locale="zh_CN")
    for english, translation in entries.items():
        catalogue.add(english, translation)
    path = folder / "locales" / "zh_CN" / "LC_MESSAGES" / "site.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as file:
        write_po(file, catalogue)


def test_the_configuration_s_words_are_its_kinds_prefixes_and_links_not_its_ids() -> None:
    assert chrome.needs_words(needs_config()) == [
        "Constraint",
        "Origin: ",
        "Enforced at: ",
        "origin of",
        "derived from",
    ]


def test_a_translated_build_replaces_them_before_sphinx_needs_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site_po(
        tmp_path,
        {"Constraint": "约束", "Origin: ": "来源：", "origin of": "是其来源", "derived from": "源自"},
    )
    warnings = []
    monkeypatch.setattr(i18n.logger, "warning", lambda *args, **kwargs: warnings.append((args, kwargs)))
    config = needs_config("zh_CN")
    chrome._translate_needs(SimpleNamespace(srcdir=str(tmp_path), config=config), config)

    assert [kind["title"] for kind in config.needs_types] == ["约束", "GR1"]
    assert config.needs_layouts["sonnx"]["layout"]["meta"] == [
        '<<meta("sources", prefix="来源：")>>',
        '<<meta("code", prefix="Enforced at: ")>>',  # untranslated: shown in English, and an error
    ]
    assert config.needs_links["origin"] == {"incoming": "是其来源", "outgoing": "源自"}
    [(args, kwargs)] = warnings
    assert args[-1] == "Enforced at: " and kwargs["subtype"] == "i18n"


def test_the_english_build_keeps_the_configuration_as_written() -> None:
    config = needs_config("en")
    chrome._translate_needs(SimpleNamespace(srcdir=".", config=config), config)
    assert config == needs_config("en")


def test_the_scripts_words_are_the_literals_of_their_calls_of_t_fields_and_escapes_included(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "a.js").write_text(
        'button.textContent = open ? t("Hide traceability") : t("Show traceability");\n'
        'line.textContent = t( "Not an input of this type: {message}.", { message: m });\n'
        'note = t("Say \\"run\\"");  element("p", "", "Not a word of t");  start("Run");\n',
        "utf-8",
    )
    monkeypatch.setattr(chrome, "SCRIPTS", tmp_path)
    assert chrome.script_words() == [
        "Hide traceability",
        "Show traceability",
        "Not an input of this type: {message}.",
        'Say "run"',
    ]


def test_the_site_s_scripts_show_their_buttons_words_through_t() -> None:
    words = chrome.script_words()
    assert {"Show traceability", "Hide traceability", "Run", "Reset", "all"} <= set(words)


def test_the_templates_words_are_the_theme_s_and_the_language_switch_s() -> None:
    config = SimpleNamespace(html_theme="furo", templates_path=["docs/_templates"])
    words = chrome.template_words(config, ROOT)
    assert {"On this page", "Back to top", "Skip to content", "Language"} <= set(words)


def test_the_extension_s_phrases_are_the_literals_of_its_calls_of_phrase_and_say(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "a.py").write_text(
        'phrase(env, "No mutation run in this build.")\n'
        'say("Cited by: {rules}.", rules=r)\n'
        'say("one " "sentence")\n'
        "phrase(env, NAME)\n"  # a name: found when a page uses it
        'say("{count}")\n'  # no words: read the same in every language
        'print("not a phrase")\n',
        "utf-8",
    )
    monkeypatch.setattr(chrome, "EXTENSION", tmp_path)
    assert chrome.extension_phrases() == [
        "No mutation run in this build.",
        "Cited by: {rules}.",
        "one sentence",
    ]


def test_every_phrase_of_the_extension_is_translated_those_of_rare_states_too() -> None:
    """A build without a mutation run or Why3 shows phrases the usual build never uses."""
    with (ROOT / "locales/zh_CN/LC_MESSAGES/site.po").open("rb") as file:
        translated = {m.id for m in read_po(file) if m.string and not m.fuzzy}
    assert [p for p in chrome.extension_phrases() if p not in translated] == []
