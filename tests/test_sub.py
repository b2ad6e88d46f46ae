"""Sub: one test (or more) per rule id, named after it.

The oracles are independent of numpy's kernels: Python integers reduced modulo
2^n for the integers; for the floating-point types, MPFR (gmpy2) rounding the
exact difference once, at the precision, exponent range and subnormals of the type.
"""

from __future__ import annotations

import math

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    INTS,
    Member,
    assert_same,
    elementwise,
    ieee_context,
    req,
    same_shape_pair,
    wrapped,
)

from sonnx_spec import sub

NAN, INF = math.nan, math.inf


def sub_oracle(dtype: np.dtype):
    """The difference of two Python values of ``dtype``, as SUB_S2 and SUB_S3 define it."""

    def oracle(a: int | float, b: int | float) -> int | float:
        if isinstance(a, int):
            return wrapped(a - b, dtype)
        x, y = gmpy2.mpfr(a, 53), gmpy2.mpfr(b, 53)  # exact: every value of the type is a double
        with ieee_context(dtype):
            return float(x - y)

    return oracle


def plus_opposite_oracle(dtype: np.dtype):
    """A + (-B), the opposite taken first (exactly: modulo 2^n, or the sign flipped), then one sum."""

    def oracle(a: int | float, b: int | float) -> int | float:
        if isinstance(a, int):
            return wrapped(a + wrapped(-b, dtype), dtype)
        x, y = gmpy2.mpfr(a, 53), -gmpy2.mpfr(b, 53)
        with ieee_context(dtype):
            return float(x + y)

    return oracle


FAMILY_MEMBER = Member(
    oracle=sub_oracle,
    shapes="SUB_C1",
    results=("SUB_C2", "SUB_C3"),
    semantics=("SUB_S1", "SUB_S2", "SUB_S3", "SUB_S4", "SUB_S5"),
)
"""The family's shared tests (tests/test_family_binary.py) compute every element with sub_oracle."""


def values(dtype: np.dtype, *items: float | int) -> np.ndarray:
    return np.array(items, dtype=dtype)


@req("SUB_S2")
@INTS
def test_S2_the_extremes_wrap_around(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    low, high, n = int(info.min), int(info.max), 8 * dtype.itemsize
    A = values(dtype, low, high, low, high, 0)
    B = values(dtype, 1, low, high, high, high)
    # low - 1 wraps to high; high - low is 2^n - 1: -1 if signed; low - high is 1 if signed, 1 unsigned.
    expected = [high, high - low - 2**n if low else high, low - high + 2**n, 0, -high if low else 1]
    assert sub(A, B).tolist() == expected
    assert sub(values(dtype, 0), values(dtype, 1)).tolist() == [-1 if low else high]


@req("SUB_S2")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S2_64_bit_differences_are_exact_where_a_double_is_not(dtype: np.dtype) -> None:
    # 2^62 + 1 and 2^53 + 1 have no float64 of their own: a difference computed in float64 would be off.
    A = values(dtype, 2**62 + 1, 2**53 + 1, 0)
    B = values(dtype, 2, 2**53 + 2, 2**62 + 1)
    assert sub(A, B).tolist() == [2**62 - 1, wrapped(-1, dtype), wrapped(-(2**62) - 1, dtype)]


@req("SUB_S3")
@FLOATS
def test_S3_ties_round_to_even_and_representable_differences_are_exact(dtype: np.dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)  # the distance from 1 to the next value
    A = values(dtype, 1, 1 + eps, 1, 1, 7, 0.75)
    B = values(dtype, -eps / 2, -eps / 2, eps / 2, eps / 4, 4, 1)
    # Above 1 the values are eps apart, below 1 eps/2 apart. 1 + eps/2 lies halfway between 1 (even)
    # and 1 + eps; 1 + 3eps/2 halfway between 1 + eps and 1 + 2eps (even); 1 - eps/4 halfway between
    # 1 - eps/2 and 1 (even); 1 - eps/2, 3 and -0.25 are values of the type.
    expected = values(dtype, 1, 1 + 2 * eps, 1 - eps / 2, 1, 3, -0.25)
    assert_same(sub(A, B), expected)


@req("SUB_S3")
@FLOATS
def test_S3_overflow_gives_an_infinity_past_the_rounding_threshold(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    top, ulp = float(info.max), float(info.max) * float(info.eps) / (2 - float(info.eps))  # ulp of max
    A = values(dtype, top, top, -top, top, -top)
    B = values(dtype, -ulp / 2, -ulp / 4, ulp / 2, -top, -top)
    # max + ulp/2 is halfway to 2^emax, whose significand is even: it overflows. max + ulp/4 rounds to max.
    assert_same(sub(A, B), values(dtype, INF, top, -INF, INF, 0.0))


@req("SUB_S3")
@FLOATS
def test_S3_subnormal_differences_are_exact(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    tiny, normal = float(info.smallest_subnormal), float(info.smallest_normal)
    A = values(dtype, normal, tiny, 3 * tiny, -tiny)
    B = values(dtype, tiny, 2 * tiny, tiny, normal)
    assert_same(sub(A, B), values(dtype, normal - tiny, -tiny, 2 * tiny, -tiny - normal))


@req("SUB_S4")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (NAN, 1.0, NAN),
        (1.0, NAN, NAN),
        (NAN, NAN, NAN),
        (INF, NAN, NAN),
        (-0.0, -NAN, NAN),
        (INF, INF, NAN),
        (-INF, -INF, NAN),
        (INF, -INF, INF),
        (-INF, INF, -INF),
        (INF, 1.0, INF),
        (1.0, INF, -INF),
        (-2.5, -INF, INF),
        (-0.0, INF, -INF),
        (-INF, 0.0, -INF),
    ],
)
def test_S4_nan_and_infinities(dtype: np.dtype, a: float, b: float, expected: float) -> None:
    assert_same(sub(values(dtype, a), values(dtype, b)), values(dtype, expected))


@req("SUB_S5")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (0.0, 0.0, 0.0),
        (-0.0, -0.0, 0.0),
        (0.0, -0.0, 0.0),
        (-0.0, 0.0, -0.0),
        (1.0, 1.0, 0.0),
        (-2.5, -2.5, 0.0),
        (-1.0, 0.0, -1.0),
        (1.0, -0.0, 1.0),
        (0.0, 1.0, -1.0),
        (-0.0, -1.0, 1.0),
        (0.0, -2.5, 2.5),
    ],
)
def test_S5_the_sign_of_zero(dtype: np.dtype, a: float, b: float, expected: float) -> None:
    assert_same(sub(values(dtype, a), values(dtype, b)), values(dtype, expected))


@req("SUB_S5")
@FLOATS
def test_S5_x_minus_x_is_plus_zero_at_the_extremes(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    X = values(dtype, float(info.max), float(info.smallest_subnormal), float(info.smallest_normal))
    assert_same(sub(X, X), np.zeros(3, dtype))
    assert_same(sub(-X, -X), np.zeros(3, dtype))


@req("SUB_P1")
@ALL
@given(data=st.data())
def test_P1_subtracting_is_adding_the_opposite(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(same_shape_pair(dtype))
    assert_same(sub(A, B), elementwise(plus_opposite_oracle(dtype), dtype, A, B))
