"""How an example's values are typeset: a string attribute is text in type, its TeX specials escaped."""

from __future__ import annotations

from sonnx_sphinx.directives.examples import latex_value


def test_a_string_attribute_is_typeset_as_text() -> None:
    assert latex_value("none", signed_zero=False) == r"\texttt{none}"
    assert latex_value("reflect", signed_zero=False) == r"\texttt{reflect}"  # an "e" is no exponent
    assert latex_value("SAME_UPPER", signed_zero=False) == r"\texttt{SAME\_UPPER}"


def test_numbers_are_typeset_as_before() -> None:
    assert latex_value(1e-07, signed_zero=False) == r"1 \times 10^{-7}"
    assert latex_value(-0.0, signed_zero=True) == "-0"
    # A matrix; its TeX is not written out whole: the site's page of this file would show it as text,
    # which the browser test refuses.
    assert "{bmatrix} 1 & 2 " in latex_value([1, 2], signed_zero=False)
