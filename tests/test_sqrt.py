"""Sqrt: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    FLOATS,
    Member,
    assert_same,
    correctly_rounded,
    elementwise,
    req,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import sqrt

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]


def ieee_square_root(dtype: np.dtype) -> object:
    return lambda x: correctly_rounded(dtype, "sqrt", x)


FAMILY_MEMBER = Member(
    oracle=ieee_square_root,
    results=("SQRT_C1", "SQRT_C2"),
    semantics=("SQRT_S1", "SQRT_S2"),
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


@req("SQRT_S1", "SQRT_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns: numpy computes in float32 and rounds once, which is the correctly
    rounded square root."""
    X = np.arange(2**16, dtype=np.uint16).view(dtype)
    inputs_unchanged = unchanged(X)
    Y = sqrt(X)
    # Among the patterns are signalling NaNs, which numpy's isnan flags as invalid for bfloat16 (it
    # converts to float32): the comparison looks at them, it computes nothing.
    with np.errstate(invalid="ignore"):
        inputs_unchanged()
        assert_same(Y, elementwise(ieee_square_root(dtype), dtype, X))


@req("SQRT_S1")
def test_S1_float64_is_the_c_library_square_root() -> None:
    """IEEE 754 requires the square root to be correctly rounded: Python's math.sqrt is another oracle."""
    values = [2.0, 3.0, 0.1, 1e300, 5e-324, 1.7976931348623157e308, 12345.678]
    assert_same(sqrt(np.array(values)), np.array([math.sqrt(v) for v in values]))


@req("SQRT_S1")
@FLOATS
def test_S1_squares_are_exact(dtype: np.dtype) -> None:
    bits = ml_dtypes.finfo(dtype).nmant
    roots = [0.0, 1.0, 3.0, 0.5, 2.0**-10, float(2 ** ((bits + 1) // 2) - 1)]  # squares of at most p bits
    X = np.array([r * r for r in roots], dtype)
    assert_same(sqrt(X), np.array(roots, dtype))


@req("SQRT_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    tiny, lowest = float(info.smallest_subnormal), float(info.min)
    nan, inf = math.nan, math.inf
    X = np.array([nan, -nan, -inf, lowest, -1.0, -tiny, -0.0, 0.0, inf], dtype)
    assert_same(sqrt(X), np.array([nan, nan, nan, nan, nan, nan, -0.0, 0.0, inf], dtype))


@req("SQRT_P1")
@FLOATS
@given(data=st.data())
def test_P1_within_half_an_ulp_never_subnormal_never_infinite(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    info = ml_dtypes.finfo(dtype)
    u = Fraction(1, 2 ** (info.nmant + 1))
    for x, y in zip(map(to_python, X.ravel()), map(to_python, sqrt(X).ravel()), strict=True):
        if not (math.isfinite(x) and x > 0):
            continue
        assert math.isfinite(y) and y >= float(info.smallest_normal)
        # |y - √x| ≤ u·√x  ⟺  (1 - u)²·x ≤ y² ≤ (1 + u)²·x, in exact rationals
        assert (1 - u) ** 2 * Fraction(x) <= Fraction(y) ** 2 <= (1 + u) ** 2 * Fraction(x)


def test_the_oracle_rounds_as_ieee_754_does() -> None:
    """Values worked out by hand: √2 to 11 and 8 bits, √ of the smallest subnormals, −0, a negative."""
    f16, bf16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
    assert correctly_rounded(f16, "sqrt", 2.0) == 1448 / 1024  # 1.0110101000|001… rounds down
    assert correctly_rounded(bf16, "sqrt", 2.0) == 181 / 128  # 1.0110101|0000… rounds down
    assert correctly_rounded(f16, "sqrt", 2.0**-24) == 2.0**-12
    assert correctly_rounded(bf16, "sqrt", 2.0**-132) == 2.0**-66
    assert math.copysign(1, correctly_rounded(f16, "sqrt", -0.0)) == -1
    assert math.isnan(correctly_rounded(f16, "sqrt", -1.0))
