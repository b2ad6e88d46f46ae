"""The shared pieces of the reductions and the data movement operators to come (ReduceSum, Transpose,
Concat…): axes normalized and refused once, and sums computed exactly.

The oracles: Python's own indexing for the axes; for the sums Python integers reduced modulo 2^n, and
the exact rational sum (fractions) rounded once to the type by MPFR (gmpy2).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    FLOATS,
    INTS,
    assert_same,
    ieee_context,
    raises_req,
    shapes,
    tensors,
    to_python,
    unchanged,
    wrapped,
)

from sonnx_spec.families.axes import normalized_axis, repeated_axis
from sonnx_spec.families.reduction import exact_sum, reduced_shape, wrapped_sum

# -- axes -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", range(5))
def test_an_axis_counts_from_the_start_or_from_the_end(rank: int) -> None:
    for axis in range(-rank - 2, rank + 2):
        expected = range(rank)[axis] if -rank <= axis < rank else None  # Python's indexing: -1 is the last
        assert normalized_axis(axis, rank) == expected, (axis, rank)


@pytest.mark.parametrize(
    ("axes", "expected"),
    [((), None), ((0,), None), ((0, 1, 2), None), ((1, 1), 1), ((2, 0, 1, 0, 2), 0), ((3, 1, 3, 1), 3)],
)
def test_the_first_axis_named_twice(axes: tuple[int, ...], expected: int | None) -> None:
    assert repeated_axis(axes) == expected


# -- sums -----------------------------------------------------------------------------------------------


@st.composite
def reduction(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, tuple[int, ...], bool]:
    """A tensor of ``dtype``, some of its axes (each once, in any order) and keepdims."""
    X = draw(tensors(dtype, draw(shapes(max_dims=3))))
    axes = tuple(draw(st.permutations(range(X.ndim)))[: draw(st.integers(0, X.ndim))])
    return X, axes, draw(st.booleans())


def expected_sums(X: np.ndarray, axes: tuple[int, ...], keepdims: bool, total) -> np.ndarray:
    """``total`` of the elements of X along ``axes`` at each index of the result, by Python indexing."""
    shape = tuple(1 if a in axes else n for a, n in enumerate(X.shape) if keepdims or a not in axes)
    out = np.empty(shape, X.dtype)
    kept = [a for a in range(X.ndim) if a not in axes]
    for index in np.ndindex(*(X.shape[a] for a in kept)):
        at = dict(zip(kept, index, strict=True))
        terms = [
            to_python(X[tuple(at.get(a, r[axes.index(a)] if a in axes else 0) for a in range(X.ndim))])
            for r in product(*(range(X.shape[a]) for a in axes))
        ]
        where = tuple(at[a] if a in at else 0 for a in range(X.ndim) if keepdims or a not in axes)
        out[where] = total(terms)
    return out


def ieee_sum(dtype: np.dtype):
    def total(terms: list[float]) -> float:
        if any(map(math.isnan, terms)) or {math.inf, -math.inf} <= set(terms):
            return math.nan
        if math.inf in terms or -math.inf in terms:
            return next(t for t in terms if math.isinf(t))
        exact = sum(map(Fraction, terms), Fraction(0))
        if exact == 0:  # IEEE 754: x + (-x) is +0, -0 + -0 is -0
            return -0.0 if terms and all(math.copysign(1, t) < 0 for t in terms) else 0.0
        with ieee_context(dtype):
            return float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator)))

    return total


@pytest.mark.parametrize(
    ("shape", "axes", "keepdims", "expected"),
    [((2, 3, 4), (1,), False, (2, 4)), ((2, 3, 4), (2, 0), True, (1, 3, 1)), ((5,), (), False, (5,))],
)
def test_the_reduced_shape(shape: tuple, axes: tuple, keepdims: bool, expected: tuple) -> None:
    assert reduced_shape(shape, axes, keepdims) == expected


@INTS
@given(data=st.data())
def test_integer_sums_wrap_modulo_2_to_the_n(dtype: np.dtype, data: st.DataObject) -> None:
    X, axes, keepdims = data.draw(reduction(dtype))
    inputs_unchanged = unchanged(X)
    Y = wrapped_sum("r", X, axes, keepdims)
    inputs_unchanged()
    assert not np.shares_memory(Y, X)
    assert_same(Y, expected_sums(X, axes, keepdims, lambda terms: wrapped(sum(terms), dtype)))


@INTS
def test_integer_sums_at_the_extremes(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([[info.max, 1, info.max], [info.min, info.min, 127]], dtype)
    expected = [wrapped(2 * int(info.max) + 1, dtype), wrapped(2 * int(info.min) + 127, dtype)]
    assert wrapped_sum("r", X, (1,), False).tolist() == expected


@FLOATS
@given(data=st.data())
def test_float_sums_are_exact_and_rounded_once(dtype: np.dtype, data: st.DataObject) -> None:
    X, axes, keepdims = data.draw(reduction(dtype))
    inputs_unchanged = unchanged(X)
    Y = exact_sum("r", X, axes, keepdims)
    inputs_unchanged()
    assert type(Y) is np.ndarray and not np.shares_memory(Y, X)
    assert_same(Y, expected_sums(X, axes, keepdims, ieee_sum(dtype)))


@FLOATS
def test_float_sums_of_special_values(dtype: np.dtype) -> None:
    inf, nan, top = math.inf, math.nan, float(ml_dtypes.finfo(dtype).max)
    rows = [
        ([nan, 1.0], nan),
        ([inf, -inf], nan),
        ([1.0, -inf, 2.0], -inf),
        ([inf, top, top], inf),
        ([top, top], inf),  # overflow
        ([-top, -top, 1.0], -inf),
        ([top, top, -top], top),  # no overflow: the exact sum, once
        ([-0.0, -0.0], -0.0),
        ([-0.0, 0.0], 0.0),
        ([1.0, -1.0], 0.0),
        ([-0.0], -0.0),
    ]
    for terms, expected in rows:
        X = np.array(terms, dtype)
        assert_same(exact_sum("r", X, (0,), False), np.array(expected, dtype))
    assert_same(exact_sum("r", np.zeros((0, 2), dtype), (0,), True), np.zeros((1, 2), dtype))  # empty: +0


@FLOATS
def test_float_sums_are_rounded_once_not_term_by_term(dtype: np.dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    # 1 + eps/2 alone is a tie, to 1 (even); with eps/4 more it is above the tie: 1 + eps. Adding one term
    # at a time rounds 1 + eps/2 to 1 first and gives 1.
    # Just above the tie by the smallest subnormal, less than float64 holds next to 1: the exact sum rounds
    # up; rounded to nearest in float64 first, it would be the tie itself, and round down.
    X = np.array(
        [[1.0, eps / 2, eps / 4], [eps / 4, 1.0, eps / 2], [1.0, eps / 2, 0.0], [1.0, eps / 2, tiny]], dtype
    )
    assert_same(exact_sum("r", X, (1,), False), np.array([1 + eps, 1 + eps, 1.0, 1 + eps], dtype))
    # 1 + 3eps/2, exact in float64, is a tie between 1 + eps (odd) and 1 + 2eps (even): up.
    assert_same(
        exact_sum("r", np.array([1 + eps, eps / 2], dtype), (0,), False), np.array(1 + 2 * eps, dtype)
    )
    # A large value and its opposite leave a subnormal exactly; rounding to float64 first would lose it.
    assert_same(exact_sum("r", np.array([2.0, tiny, -2.0], dtype), (0,), False), np.array(tiny, dtype))


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(ml_dtypes.bfloat16)], ids=["f32", "bf16"])
@pytest.mark.parametrize(
    ("below", "expected"),
    [(3 * 2.0**-54, "up"), (-(2.0**-54), "down")],
    ids=["float64 rounds up to an odd value", "float64 rounds up to the tie, which is even"],
)
def test_a_sum_that_float64_cannot_hold_is_rounded_to_odd_first(
    dtype: np.dtype, below: float, expected: str
) -> None:
    """1 + eps/2, a tie of the type, plus a term below float64's precision at 1 (2^-52): the sum is above
    or below the tie, and float64 to nearest would round it onto the tie or its odd neighbour."""
    eps = float(ml_dtypes.finfo(dtype).eps)
    X = np.array([1.0, eps / 2, below], dtype)
    assert_same(exact_sum("r", X, (0,), False), np.array(1 + eps if expected == "up" else 1.0, dtype))


@pytest.mark.parametrize("sum_in_type", [wrapped_sum, exact_sum], ids=["wrapped", "exact"])
def test_a_sum_too_large_for_memory_is_refused(sum_in_type) -> None:
    dtype = np.dtype(np.int8 if sum_in_type is wrapped_sum else np.float32)
    huge = np.broadcast_to(np.ones((1, 1, 1), dtype), (2**30, 2**30, 1))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        sum_in_type("reduce_sum", huge, (2,), False)
    assert info.value.problem == (
        f"reduce_sum: a result of shape (1073741824, 1073741824) and type {dtype} "
        "does not fit in this machine's memory"
    )
