"""Clip: one test (or more) per rule id, named after it.

The oracle restates the specification on Python numbers, whose comparisons are
IEEE 754's: NaN compares false, -0.0 == 0.0.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    assert_same,
    elements,
    elementwise,
    is_nan,
    raises_req,
    req,
    scalar,
    shapes,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import clip


def effective(low: float, high: float) -> tuple[float, float]:
    """L' and M' (CLIP_S5): a NaN bound is no bound."""
    return (-math.inf if is_nan(low) else low), (math.inf if is_nan(high) else high)


def clip_oracle(x: float, low: float, high: float) -> float:
    """The specification, element by element (CLIP_S1 to CLIP_S5)."""
    low, high = effective(low, high)
    if low > high:
        return high
    if x <= low:
        return low
    if x >= high:
        return high
    return x


def bounds(dtype: np.dtype) -> st.SearchStrategy[tuple[np.generic, np.generic]]:
    """Any two values of the type, NaN included."""
    return st.tuples(elements(dtype), elements(dtype))


def sample(dtype: np.dtype) -> tuple[np.ndarray, np.generic, np.generic]:
    return np.array([1, 2, 3], dtype=dtype), scalar(dtype, 1), scalar(dtype, 2)


@req("CLIP_C4")
@ALL
@pytest.mark.parametrize("shape", [(1,), (1, 1), (0,), (3,)])
@pytest.mark.parametrize("position", [1, 2], ids=["L", "M"])
def test_C4_bounds_must_be_scalars(dtype: np.dtype, shape: tuple[int, ...], position: int) -> None:
    args: list = list(sample(dtype))
    args[position] = np.ones(shape, dtype=dtype)
    with raises_req("CLIP_C4") as info:
        clip(*args)
    assert info.value.problem == f"clip: {'XLM'[position]} has shape {shape}, not the shape () of a scalar"


@req("CLIP_C1", "CLIP_C3")
@ALL
def test_C1_C3_each_of_the_twelve_types_gives_its_type_and_shape(dtype: np.dtype) -> None:
    for shape in [(), (0,), (2, 0, 3), (2, 3), (1, 1, 1, 1, 1, 2)]:
        X = np.ones(shape, dtype=dtype)
        for low, high in [(0, 1), (1, 0)]:  # L <= M and L > M
            Y = clip(X, scalar(dtype, low), scalar(dtype, high))
            assert type(Y) is np.ndarray and Y.dtype == dtype and Y.shape == shape


def clipped(data: st.DataObject, dtype: np.dtype, bounds_in_order: bool) -> tuple[np.ndarray, np.ndarray]:
    """Clip of any X by any bounds (NaN included) with L' <= M' or not: (Y, what the oracle gives)."""
    X = data.draw(tensors(dtype))
    L, M = data.draw(bounds(dtype))
    low, high = effective(to_python(L), to_python(M))
    assume((low <= high) == bounds_in_order)
    inputs_unchanged = unchanged(X, L, M)
    Y = clip(X, L, M)
    inputs_unchanged()
    return Y, elementwise(clip_oracle, dtype, X, L, M)


@req("CLIP_S1", "CLIP_S3", "CLIP_S4", "CLIP_S5", "CLIP_C1", "CLIP_C3")
@ALL
@given(data=st.data())
def test_S1_each_element_by_the_cases_when_L_is_at_most_M(dtype: np.dtype, data: st.DataObject) -> None:
    assert_same(*clipped(data, dtype, bounds_in_order=True))


@req("CLIP_S2", "CLIP_S5", "CLIP_C1", "CLIP_C3")
@ALL
@given(data=st.data())
def test_S2_L_above_M_gives_M_everywhere(dtype: np.dtype, data: st.DataObject) -> None:
    assert_same(*clipped(data, dtype, bounds_in_order=False))  # the oracle gives M' everywhere


@req("CLIP_S3")
@FLOATS
def test_S3_nan_elements_stay_nan_when_L_is_at_most_M(dtype: np.dtype) -> None:
    X = np.array([math.nan, -math.nan, 1.0, math.nan], dtype=dtype)
    Y = clip(X, scalar(dtype, -1), scalar(dtype, 0.5))
    assert np.isnan(Y).tolist() == [True, True, False, True]
    assert_same(clip(X, scalar(dtype, 2), scalar(dtype, 0.5)), np.full(4, 0.5, dtype=dtype))  # CLIP_S2


NAN, INF = math.nan, math.inf
NAN_BOUND_CASES = [
    # X, L, M, expected Y (CLIP_S5): the drafts' examples 3 and 4, then each bound alone
    ([-INF, 0.0, INF, NAN], -1.0, NAN, [-1.0, 0.0, INF, NAN]),
    ([-INF, 0.0, INF, NAN], NAN, NAN, [-INF, 0.0, INF, NAN]),
    ([-INF, -0.0, 3.0, NAN], NAN, 2.0, [-INF, -0.0, 2.0, NAN]),
    ([-0.0, 0.0], NAN, NAN, [-0.0, 0.0]),  # X unchanged, the sign of its zeros too
    ([5.0], NAN, -INF, [-INF]),  # L' = -inf is not above M' = -inf: X >= M' gives M'
    ([-1.0, 5.0], NAN, 0.0, [-1.0, 0.0]),  # with a zero bound: the cases form, in X's type
    ([-1.0, 5.0], 0.0, NAN, [0.0, 5.0]),
]


@req("CLIP_S5", "CLIP_S1", "CLIP_S3")
@FLOATS
@pytest.mark.parametrize(("x", "low", "high", "expected"), NAN_BOUND_CASES)
def test_S5_a_nan_bound_is_no_bound(dtype, x, low, high, expected) -> None:
    Y = clip(np.array(x, dtype=dtype), scalar(dtype, low), scalar(dtype, high))
    assert_same(Y, np.array(expected, dtype=dtype))


@req("CLIP_S5", "CLIP_S3")
@FLOATS
def test_S5_both_bounds_infinite_keeps_nan(dtype: np.dtype) -> None:
    """L = +inf, M = NaN (M' = +inf): X <= L' gives L', and a NaN element fails both tests."""
    Y = clip(np.array([5.0, math.nan, -math.inf], dtype), scalar(dtype, math.inf), scalar(dtype, math.nan))
    assert_same(Y, np.array([math.inf, math.nan, math.inf], dtype))


@req("CLIP_S5", "CLIP_C1")
@FLOATS
@pytest.mark.parametrize("shape", [(), (0,), (2, 0)])
def test_S5_nan_bounds_on_empty_and_0d_tensors(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    X = np.full(shape, 3.0, dtype)
    for low, high in [(NAN, 1.0), (1.0, NAN), (NAN, NAN)]:
        expected = np.full(shape, clip_oracle(3.0, low, high), dtype)
        assert_same(clip(X, scalar(dtype, low), scalar(dtype, high)), expected)


SIGNED_ZERO_CASES = [
    # X, L, M, expected Y: IEEE comparison (CLIP_S4) and the cases form (CLIP_S1)
    ([-0.0, 0.0], 0.0, 1.0, [0.0, 0.0]),  # X <= L gives L: -0 becomes +0
    ([-0.0, 0.0], -0.0, 1.0, [-0.0, -0.0]),  # +0 <= -0: +0 becomes -0
    ([-0.0, 0.0], -1.0, -0.0, [-0.0, -0.0]),  # X >= M gives M
    ([-0.0, 0.0], -1.0, 0.0, [0.0, 0.0]),
    ([-1.0, 5.0, 0.0, -0.0], 0.0, -0.0, [0.0, -0.0, 0.0, 0.0]),  # +0 > -0 is false: not L > M
    ([-0.0, 0.0, NAN], -0.0, 0.0, [-0.0, -0.0, NAN]),
    ([-3.0, 3.0], -0.0, 0.0, [-0.0, 0.0]),
]


@req("CLIP_S4", "CLIP_S1")
@FLOATS
@pytest.mark.parametrize(("x", "low", "high", "expected"), SIGNED_ZERO_CASES)
def test_S4_zeros_compare_equal(dtype, x, low, high, expected) -> None:
    Y = clip(np.array(x, dtype=dtype), scalar(dtype, low), scalar(dtype, high))
    assert_same(Y, np.array(expected, dtype=dtype))


@req("CLIP_S1")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S1_64_bit_extremes_are_exact(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.min, info.min + 1, info.max - 1, info.max], dtype=dtype)
    Y = clip(X, scalar(dtype, info.min + 1), scalar(dtype, info.max - 1))
    assert Y.tolist() == [info.min + 1, info.min + 1, info.max - 1, info.max - 1]


@req("CLIP_S2")
@ALL
@pytest.mark.parametrize("shape", [(), (0,), (3,)])
def test_S2_result_is_a_new_array_of_M(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    X = np.full(shape, 1, dtype)
    Y = clip(X, scalar(dtype, 3), scalar(dtype, 2))
    assert Y.flags.writeable and not np.shares_memory(Y, X)
    Y[...] = 0  # writing to the result changes nothing else
    assert_same(X, np.full(shape, 1, dtype))


@req("CLIP_P1")
@ALL
@given(data=st.data())
def test_P1_elements_lie_in_the_interval_or_all_equal_M(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype, data.draw(shapes(max_dims=2))))
    L, M = data.draw(bounds(dtype))
    Y = clip(X, L, M)
    low, high = effective(to_python(L), to_python(M))
    for y in map(to_python, Y.ravel()):
        if low <= high:
            assert is_nan(y) or low <= y <= high
        else:
            assert y == high and math.copysign(1, y) == math.copysign(1, high)
