"""How a rule's list fields reach sphinx-needs: it splits a field's text at every comma, semicolon and bar,
with no escape, so a value holding one goes through the dynamic function ``verbatim``, which returns it."""

from __future__ import annotations

import pytest

from sonnx_sphinx.directives.rules import _list, verbatim


def test_a_value_without_a_delimiter_is_written_as_it_is() -> None:
    assert _list(["onnx-gather#Gather-13 inputs", "decision"]) == "onnx-gather#Gather-13 inputs, decision"


@pytest.mark.parametrize("delimiter", [",", ";", "|"])
def test_a_value_holding_a_delimiter_goes_through_verbatim(delimiter: str) -> None:
    value = f"onnx-gather#range [−r{delimiter} r − 1]"
    assert _list([value, "decision"]) == f"[[verbatim({value!r})]], decision"


def test_verbatim_returns_its_argument_whole() -> None:
    text = "onnx-slice#Slice-13 summary (S, E, A, K; a|b)"
    assert verbatim(None, None, None, text) == text  # type: ignore[arg-type]


def test_a_value_that_would_end_the_function_early_is_refused() -> None:
    with pytest.raises(ValueError, match=r"may not hold '\]\]'"):
        _list(["a, [[b]]"])
