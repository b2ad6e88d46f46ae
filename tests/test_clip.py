"""Clip: one test (or more) per requirement id, named after it."""

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
    order_key,
    ordered_max,
    ordered_min,
    raises_req,
    req,
    scalar,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import FLOAT_TYPES, clip


def clip_oracle(x: float, low: float, high: float) -> float:
    """The specification, element by element (CLIP_S1–S4)."""
    if order_key(low) > order_key(high):
        return high
    return ordered_min(high, ordered_max(x, low))


def bounds(dtype: np.dtype) -> st.SearchStrategy[tuple[np.generic, np.generic]]:
    return st.tuples(elements(dtype), elements(dtype)).filter(
        lambda b: not (np.isnan(b[0]) or np.isnan(b[1])) if dtype in FLOAT_TYPES else True
    )


def sample(dtype: np.dtype) -> tuple[np.ndarray, np.generic, np.generic]:
    return np.array([1, 2, 3], dtype=dtype), scalar(dtype, 1), scalar(dtype, 2)


@req("CLIP_C4")
@ALL
@pytest.mark.parametrize("shape", [(1,), (1, 1), (0,), (3,)])
@pytest.mark.parametrize("position", [1, 2], ids=["L", "M"])
def test_C4_bounds_must_be_scalars(dtype: np.dtype, shape: tuple[int, ...], position: int) -> None:
    args: list = list(sample(dtype))
    args[position] = np.ones(shape, dtype=dtype)
    with raises_req("CLIP_C4"):
        clip(*args)


@req("CLIP_C1", "CLIP_C3")
@ALL
def test_C1_C3_each_of_the_twelve_types_gives_its_type_and_shape(dtype: np.dtype) -> None:
    for shape in [(), (0,), (2, 0, 3), (2, 3), (1, 1, 1, 1, 1, 2)]:
        X = np.ones(shape, dtype=dtype)
        Y = clip(X, scalar(dtype, 0), scalar(dtype, 1))
        assert type(Y) is np.ndarray and Y.dtype == dtype and Y.shape == shape


@req("CLIP_E1")
@FLOATS
def test_E1_nan_bounds_are_refused(dtype: np.dtype) -> None:
    X, L, M = sample(dtype)
    nan = scalar(dtype, math.nan)
    for low, high, which in [(nan, M, "L"), (L, nan, "M"), (nan, nan, "L")]:
        with raises_req("CLIP_E1") as info:
            clip(X, low, high)
        assert f"bound {which} is NaN" in str(info.value)


@req("CLIP_S1", "CLIP_S3", "CLIP_S4", "CLIP_C1", "CLIP_C3")
@ALL
@given(data=st.data())
def test_S1_each_element_is_raised_to_L_and_lowered_to_M(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    L, M = sorted(data.draw(bounds(dtype)), key=lambda v: order_key(to_python(v)))
    inputs_unchanged = unchanged(X, L, M)
    Y = clip(X, L, M)
    inputs_unchanged()
    assert not np.shares_memory(Y, X)
    assert_same(Y, elementwise(clip_oracle, dtype, X, L, M))


@req("CLIP_S2", "CLIP_C1", "CLIP_C3")
@ALL
@given(data=st.data())
def test_S2_L_above_M_gives_M_everywhere(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    high, low = sorted(data.draw(bounds(dtype)), key=lambda v: order_key(to_python(v)))
    assume(order_key(to_python(low)) > order_key(to_python(high)))
    Y = clip(X, low, high)
    assert_same(Y, np.full(X.shape, high, dtype=dtype))


@req("CLIP_S3")
@FLOATS
def test_S3_nan_elements_stay_nan_when_L_is_at_most_M(dtype: np.dtype) -> None:
    X = np.array([math.nan, -math.nan, 1.0, math.nan], dtype=dtype)
    Y = clip(X, scalar(dtype, -1), scalar(dtype, 0.5))
    assert np.isnan(Y).tolist() == [True, True, False, True]
    assert_same(clip(X, scalar(dtype, 2), scalar(dtype, 0.5)), np.full(4, 0.5, dtype=dtype))  # CLIP_S2


SIGNED_ZERO_CASES = [
    # X, L, M, expected Y: the order -0 < +0 (CLIP_S4)
    ([-0.0, 0.0], 0.0, 1.0, [0.0, 0.0]),
    ([-0.0, 0.0], -0.0, 1.0, [-0.0, 0.0]),
    ([-0.0, 0.0], -1.0, -0.0, [-0.0, -0.0]),
    ([-0.0, 0.0], -1.0, 0.0, [-0.0, 0.0]),
    ([-0.0, 0.0, math.nan, 5.0], 0.0, -0.0, [-0.0, -0.0, -0.0, -0.0]),  # L > M: +0 is above -0
    ([-0.0, 0.0, math.nan], -0.0, 0.0, [-0.0, 0.0, math.nan]),  # -0 <= +0: ordinary clip
    ([-3.0, 3.0], -0.0, 0.0, [-0.0, 0.0]),
]


@req("CLIP_S4")
@FLOATS
@pytest.mark.parametrize(("x", "low", "high", "expected"), SIGNED_ZERO_CASES)
def test_S4_minus_zero_is_below_plus_zero(dtype, x, low, high, expected) -> None:
    Y = clip(np.array(x, dtype=dtype), scalar(dtype, low), scalar(dtype, high))
    assert_same(Y, np.array(expected, dtype=dtype))


@req("CLIP_S1")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S1_64_bit_extremes_are_exact(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.min, info.min + 1, info.max - 1, info.max], dtype=dtype)
    Y = clip(X, scalar(dtype, info.min + 1), scalar(dtype, info.max - 1))
    assert Y.tolist() == [info.min + 1, info.min + 1, info.max - 1, info.max - 1]


@req("CLIP_P1")
@ALL
@given(data=st.data())
def test_P1_elements_lie_in_the_interval_or_all_equal_M(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    L, M = data.draw(bounds(dtype))
    Y = clip(X, L, M)
    low, high = to_python(L), to_python(M)
    for y in map(to_python, Y.ravel()):
        if order_key(low) <= order_key(high):
            assert is_nan(y) or order_key(low) <= order_key(y) <= order_key(high)
        else:
            assert order_key(y) == order_key(high)
