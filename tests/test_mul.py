"""Mul: one test (or more) per rule id, named after it.

The oracles are independent of numpy's kernels: Python integers reduced modulo
2^n for the integers; for the floating-point types, MPFR (gmpy2) rounding the
exact product once, at the precision, exponent range and subnormals of the type.
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
    ieee_context,
    req,
    same_shape_pair,
    wrapped,
)

from sonnx_spec import mul

NAN, INF = math.nan, math.inf


def mul_oracle(dtype: np.dtype):
    """The product of two Python values of ``dtype``, as MUL_S2 and MUL_S3 define it."""

    def oracle(a: int | float, b: int | float) -> int | float:
        if isinstance(a, int):
            return wrapped(a * b, dtype)
        x, y = gmpy2.mpfr(a, 53), gmpy2.mpfr(b, 53)  # exact: every value of the type is a double
        with ieee_context(dtype):
            return float(x * y)

    return oracle


FAMILY_MEMBER = Member(
    oracle=mul_oracle,
    shapes="MUL_C1",
    results=("MUL_C2", "MUL_C3"),
    semantics=("MUL_S1", "MUL_S2", "MUL_S3", "MUL_S4", "MUL_S5"),
)
"""The family's shared tests (tests/test_family_binary.py) compute every element with mul_oracle."""


def values(dtype: np.dtype, *items: float | int) -> np.ndarray:
    return np.array(items, dtype=dtype)


@req("MUL_S2")
@INTS
def test_S2_the_extremes_wrap_around(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    low, high, n = int(info.min), int(info.max), 8 * dtype.itemsize
    A = values(dtype, high, high, 2 ** (n // 2), low, 2 ** (n - 1) - 1)
    B = values(dtype, high, 2, 2 ** (n // 2 - 1), low, 1)
    # high * high is 1 modulo 2^n when high is odd; 2^(n-1) is low (signed) or itself (unsigned).
    expected = [1, wrapped(2 * high, dtype), wrapped(2 ** (n - 1), dtype), 0, 2 ** (n - 1) - 1]
    assert mul(A, B).tolist() == expected
    if low:  # the lowest value times -1 is itself: its opposite is not a value of the type
        assert mul(values(dtype, low, -1), values(dtype, -1, low)).tolist() == [low, low]


@req("MUL_S2")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S2_64_bit_products_are_exact_where_a_double_is_not(dtype: np.dtype) -> None:
    # (2^32 + 1)(2^32 - 1) = 2^64 - 1 and (2^31 + 1)(2^31 + 3) = 2^62 + 2^33 + 3: no double holds them.
    A = values(dtype, 2**32 + 1, 2**31 + 1, 3)
    B = values(dtype, 2**32 - 1, 2**31 + 3, 2**62 + 1)
    expected = [wrapped(2**64 - 1, dtype), 2**62 + 2**33 + 3, wrapped(3 * 2**62 + 3, dtype)]
    assert mul(A, B).tolist() == expected


@req("MUL_S3")
@FLOATS
def test_S3_ties_round_to_even_and_representable_products_are_exact(dtype: np.dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)  # the distance from 1 to the next value
    A = values(dtype, 3, 3, 1 + eps, 1 + eps, 1 + 2 * eps, 1.5, 0.5)
    B = values(dtype, 1 + eps, 1 + 3 * eps, 1 + eps, 1 - eps / 2, 1 - eps / 2, -3, 0.75)
    # From 2 to 4 the values are 2eps apart. 3(1 + eps) = 3 + 3eps lies halfway between 3 + 2eps and
    # 3 + 4eps (even); 3(1 + 3eps) = 3 + 9eps halfway between 3 + 8eps (even) and 3 + 10eps.
    # (1 + eps)^2 = 1 + 2eps + eps^2, nearest 1 + 2eps; (1 + eps)(1 - eps/2) = 1 + eps/2 - eps^2/2, below
    # the midpoint of 1 and 1 + eps: 1; (1 + 2eps)(1 - eps/2) = 1 + 3eps/2 - eps^2, below the midpoint
    # of 1 + eps and 1 + 2eps: 1 + eps; -4.5 and 0.375 are values of the type.
    expected = values(dtype, 3 + 4 * eps, 3 + 8 * eps, 1 + 2 * eps, 1, 1 + eps, -4.5, 0.375)
    assert_same(mul(A, B), expected)


@req("MUL_S3")
@FLOATS
def test_S3_overflow_gives_an_infinity_and_underflow_a_subnormal_or_a_zero(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    top, eps = float(info.max), float(info.eps)
    tiny, normal = float(info.smallest_subnormal), float(info.smallest_normal)
    A = values(dtype, top, -top, top, normal, tiny, tiny, 3 * tiny, tiny)
    B = values(dtype, 2, 1 + eps, 1 - eps / 2, 0.5, 0.5, 0.75, 0.5, tiny)
    # normal/2 is a subnormal, exact; tiny/2 is halfway between +0 (even) and tiny; 3tiny/4 is nearer
    # tiny; 3tiny/2 is halfway between tiny and 2tiny (even); tiny^2 is far below tiny/2.
    expected = values(dtype, INF, -INF, top * (1 - eps / 2), normal / 2, 0.0, tiny, 2 * tiny, 0.0)
    assert_same(mul(A, B), expected)


@req("MUL_S3")
@FLOATS
def test_S3_products_of_normal_values_at_half_the_smallest_subnormal(dtype: np.dtype) -> None:
    # The case where rounding first to float32 could go wrong for bfloat16, whose subnormals float32
    # shares: normal operands whose product is tiny/2, or just above it. Exactly tiny/2 rounds to +0
    # (even); a product above it, however little, rounds up to tiny.
    info = ml_dtypes.finfo(dtype)
    normal, eps, tiny = float(info.smallest_normal), float(info.eps), float(info.smallest_subnormal)
    A = values(dtype, normal, normal * (1 + eps), -normal * (1 + eps), 2 * normal)
    B = values(dtype, eps / 2, eps / 2, eps / 2, eps / 4 * (1 + eps))
    assert_same(mul(A, B), values(dtype, 0.0, tiny, -tiny, tiny))


@req("MUL_S4")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (NAN, 1.0, NAN),
        (1.0, NAN, NAN),
        (NAN, NAN, NAN),
        (NAN, 0.0, NAN),
        (-INF, -NAN, NAN),
        (0.0, INF, NAN),
        (INF, -0.0, NAN),
        (-0.0, -INF, NAN),
        (-INF, 0.0, NAN),
        (INF, INF, INF),
        (INF, -INF, -INF),
        (-INF, -1.0, INF),
        (INF, 0.5, INF),
    ],
)
def test_S4_nan_and_infinities(dtype: np.dtype, a: float, b: float, expected: float) -> None:
    assert_same(mul(values(dtype, a), values(dtype, b)), values(dtype, expected))


@req("MUL_S4")
@FLOATS
def test_S4_an_infinity_times_the_smallest_subnormal_is_infinite(dtype: np.dtype) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    assert_same(mul(values(dtype, INF, -tiny), values(dtype, tiny, INF)), values(dtype, INF, -INF))


@req("MUL_S5")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (0.0, 0.0, 0.0),
        (-0.0, 0.0, -0.0),
        (0.0, -0.0, -0.0),
        (-0.0, -0.0, 0.0),
        (-0.0, 1.0, -0.0),
        (-1.0, 0.0, -0.0),
        (-1.0, -0.0, 0.0),
        (2.5, -0.0, -0.0),
        (-1.0, -1.0, 1.0),
        (-1.0, INF, -INF),
        (-INF, -0.5, INF),
    ],
)
def test_S5_the_sign_is_the_exclusive_or_of_the_signs(dtype: np.dtype, a: float, b: float, expected) -> None:
    assert_same(mul(values(dtype, a), values(dtype, b)), values(dtype, expected))


@req("MUL_S5")
@FLOATS
def test_S5_an_underflow_to_zero_keeps_the_sign(dtype: np.dtype) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = values(dtype, tiny, -tiny, -tiny, tiny)
    B = values(dtype, -tiny, tiny, -tiny, -0.5)
    assert_same(mul(A, B), values(dtype, -0.0, -0.0, 0.0, -0.0))


@req("MUL_P1")
@ALL
@given(data=st.data())
def test_P1_mul_is_commutative(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(same_shape_pair(dtype))
    assert_same(mul(A, B), mul(B, A))
