"""Add: one test (or more) per rule id, named after it.

The oracles are independent of numpy's kernels: Python integers reduced modulo
2^n for the integers; for the floating-point types, MPFR (gmpy2) rounding the
exact sum once, at the precision, exponent range and subnormals of the type.
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

from sonnx_spec import add

NAN, INF = math.nan, math.inf


def add_oracle(dtype: np.dtype):
    """The sum of two Python values of ``dtype``, as ADD_S2 and ADD_S3 define it."""

    def oracle(a: int | float, b: int | float) -> int | float:
        if isinstance(a, int):
            return wrapped(a + b, dtype)
        x, y = gmpy2.mpfr(a, 53), gmpy2.mpfr(b, 53)  # exact: every value of the type is a double
        with ieee_context(dtype):
            return float(x + y)

    return oracle


FAMILY_MEMBER = Member(
    oracle=add_oracle,
    shapes="ADD_C1",
    results=("ADD_C2", "ADD_C3"),
    semantics=("ADD_S1", "ADD_S2", "ADD_S3", "ADD_S4", "ADD_S5"),
)
"""The family's shared tests (tests/test_family_binary.py) compute every element with add_oracle."""


def values(dtype: np.dtype, *items: float | int) -> np.ndarray:
    return np.array(items, dtype=dtype)


@req("ADD_S2")
@INTS
def test_S2_the_extremes_wrap_around(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    low, high, n = int(info.min), int(info.max), 8 * dtype.itemsize
    A = values(dtype, high, high, low, low, high)
    B = values(dtype, 1, high, low, high, 0)
    expected = [low, high + high - 2**n, low + low + 2**n if low else 0, low + high, high]
    assert add(A, B).tolist() == expected
    if low:
        assert add(values(dtype, low, -1), values(dtype, -1, low)).tolist() == [high, high]


@req("ADD_S2")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S2_64_bit_sums_are_exact_where_a_double_is_not(dtype: np.dtype) -> None:
    # 2^62 + 1 and 2^62 + 3 have no float64 of their own: a sum computed in float64 would lose the 1s.
    A = values(dtype, 2**62 + 1, 2**62 + 3, 2**53 + 1)
    B = values(dtype, 2**62, 2**62 + 1, 2**53)
    assert add(A, B).tolist() == [wrapped(a + b, dtype) for a, b in zip(A.tolist(), B.tolist(), strict=True)]
    assert add(A, B).tolist()[2] == 2**54 + 1


@req("ADD_S3")
@FLOATS
def test_S3_ties_round_to_even_and_representable_sums_are_exact(dtype: np.dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)  # the distance from 1 to the next value
    A = values(dtype, 1, 1 + eps, 1, 1 + eps, 1, 1, 0.5, 3)
    B = values(dtype, eps / 2, eps / 2, eps / 4, -eps / 2, -eps / 2, -eps / 4, 0.25, 4)
    # Above 1 the values are eps apart, below 1 eps/2 apart. 1 + eps/2 lies halfway between 1 (even)
    # and 1 + eps: 1; 1 + 3eps/2 halfway between 1 + eps and 1 + 2eps (even); 1 - eps/4 halfway between
    # 1 - eps/2 and 1 (even); 1 + eps/4 is nearer 1; 1 - eps/2, 0.75 and 7 are values of the type.
    expected = values(dtype, 1, 1 + 2 * eps, 1, 1, 1 - eps / 2, 1, 0.75, 7)
    assert_same(add(A, B), expected)


@req("ADD_S3")
@FLOATS
def test_S3_overflow_gives_an_infinity_past_the_rounding_threshold(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    top, ulp = float(info.max), float(info.max) * float(info.eps) / (2 - float(info.eps))  # ulp of max
    A = values(dtype, top, top, -top, top, -top)
    B = values(dtype, ulp / 2, ulp / 4, -ulp / 2, top, top)
    # max + ulp/2 is halfway to 2^emax, whose significand is even: it overflows. max + ulp/4 rounds to max.
    assert_same(add(A, B), values(dtype, INF, top, -INF, INF, 0.0))


@req("ADD_S3")
@FLOATS
def test_S3_subnormal_sums_are_exact(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    tiny, normal = float(info.smallest_subnormal), float(info.smallest_normal)
    A = values(dtype, tiny, normal, -tiny, tiny)
    B = values(dtype, tiny, -tiny, 3 * tiny, -normal)
    assert_same(add(A, B), values(dtype, 2 * tiny, normal - tiny, 2 * tiny, tiny - normal))


@req("ADD_S4")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (NAN, 1.0, NAN),
        (1.0, NAN, NAN),
        (NAN, NAN, NAN),
        (NAN, INF, NAN),
        (-NAN, -0.0, NAN),
        (INF, -INF, NAN),
        (-INF, INF, NAN),
        (INF, INF, INF),
        (-INF, -INF, -INF),
        (INF, -1.0, INF),
        (-2.5, -INF, -INF),
        (-INF, 0.0, -INF),
    ],
)
def test_S4_nan_and_infinities(dtype: np.dtype, a: float, b: float, expected: float) -> None:
    assert_same(add(values(dtype, a), values(dtype, b)), values(dtype, expected))


@req("ADD_S4")
@FLOATS
def test_S4_an_infinity_absorbs_the_largest_values(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    assert_same(add(values(dtype, INF, -top), values(dtype, -top, -INF)), values(dtype, INF, -INF))


@req("ADD_S5")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (0.0, 0.0, 0.0),
        (0.0, -0.0, 0.0),
        (-0.0, 0.0, 0.0),
        (-0.0, -0.0, -0.0),
        (1.0, -1.0, 0.0),
        (-1.0, 1.0, 0.0),
        (-2.5, 2.5, 0.0),
        (-1.0, 0.0, -1.0),
        (-1.0, -0.0, -1.0),
        (0.0, -1.0, -1.0),
        (-0.0, 1.0, 1.0),
    ],
)
def test_S5_the_sign_of_zero(dtype: np.dtype, a: float, b: float, expected: float) -> None:
    assert_same(add(values(dtype, a), values(dtype, b)), values(dtype, expected))


@req("ADD_S5")
@FLOATS
def test_S5_x_plus_minus_x_is_plus_zero_at_the_extremes(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    X = values(dtype, float(info.max), float(info.smallest_subnormal), float(info.smallest_normal))
    C = add(X, -X)
    assert_same(C, np.zeros(3, dtype))
    assert not np.signbit(add(-X, X)).any()


@req("ADD_P1")
@ALL
@given(data=st.data())
def test_P1_add_is_commutative(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(same_shape_pair(dtype))
    assert_same(add(A, B), add(B, A))
