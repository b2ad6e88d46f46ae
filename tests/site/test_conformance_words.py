"""The conformance data an operator writes (its topics, the reasons its divergences are expected) is shown
in the build's language, from the operator's own catalogue."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from sonnx_sphinx import i18n
from sonnx_sphinx.directives.conformance import REASON, TOPIC, Words


def zh_build(folder: Path) -> SimpleNamespace:
    catalogue = Catalog(locale="zh_CN")
    catalogue.add("signed zero", "有符号零", context=TOPIC)
    catalogue.add("The spec gives +0 for -0.", "规范对 -0 给出 +0。", context=REASON)
    path = folder / "locales" / "zh_CN" / "LC_MESSAGES" / "rules" / "abs.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as file:
        write_po(file, catalogue)
    return SimpleNamespace(
        config=SimpleNamespace(language="zh_CN", locale_dirs=["locales"]), srcdir=str(folder), docname="p"
    )


def test_without_a_build_the_data_is_shown_as_written() -> None:
    assert Words().of("abs", TOPIC, "signed zero") == "signed zero"
    assert Words()("all {count} agree", count=3) == "all 3 agree"


def test_a_translated_build_reads_the_operator_s_topics_and_reasons_by_their_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warnings = []
    monkeypatch.setattr(i18n.logger, "warning", lambda *args, **kwargs: warnings.append(args))
    say = Words(zh_build(tmp_path))
    assert say.of("abs", TOPIC, "signed zero") == "有符号零"
    assert say.of("abs", REASON, "The spec gives +0 for -0.") == "规范对 -0 给出 +0。"
    assert say.of("abs", TOPIC, "NaN") == "NaN"  # a name alone needs no translation
    assert warnings == []
    assert say.of("abs", REASON, "signed zero") == "signed zero"  # another context: untranslated, an error
    [args] = warnings
    assert args[1:3] == (REASON, "abs")
