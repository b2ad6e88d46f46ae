"""ArgMax: one test (or more) per rule id, named after it.

The oracle restates the rules in plain Python: each line of X along the axis read element by element as
Python values (exact for every SONNX value), its NaN found with ``math.isnan``, its greatest number with
Python's comparisons (under which −0 == +0), and the first or last index of the winner taken by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    INTS,
    assert_same,
    raises_req,
    req,
    shapes,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import argmax

I64 = np.dtype(np.int64)


def winner(line: list[int | float], last: int) -> int:
    """ARGMAX_S2 and ARGMAX_S3 on one line of Python values: the first (or last) NaN if there is one,
    else the first (or last) index of the greatest value."""
    order = range(len(line) - 1, -1, -1) if last else range(len(line))
    nans = [j for j in order if isinstance(line[j], float) and math.isnan(line[j])]
    if nans:
        return nans[0]
    best = None
    for j in order:
        if best is None or line[j] > line[best]:  # strictly greater: an equal one keeps the earlier winner
            best = j
    assert best is not None
    return best


def expected(X: np.ndarray, axis: int, keepdims: int, last: int) -> np.ndarray:
    """Y by the oracle, index by index: the line through each index of Y, built by inserting j at a."""
    a = axis + X.ndim if axis < 0 else axis
    shape = tuple(1 if k == a else d for k, d in enumerate(X.shape) if keepdims or k != a)
    out = np.empty(shape, I64)
    for index in np.ndindex(shape):
        outer = list(index)
        if keepdims:
            del outer[a]
        line = [to_python(X[(*outer[:a], j, *outer[a:])]) for j in range(X.shape[a])]
        out[index] = winner(line, last)
    return out


@st.composite
def calls(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, int, int, int]:
    """X of rank 1 or more with a non-empty axis, any values; that axis (perhaps negative), keepdims and
    select_last_index."""
    shape = draw(shapes(max_dims=3).filter(lambda s: len(s) >= 1))
    a = draw(st.integers(0, len(shape) - 1))
    shape = tuple(max(d, 1) if k == a else d for k, d in enumerate(shape))
    X = draw(tensors(dtype, shape))
    axis = a - len(shape) if draw(st.booleans()) else a
    return X, axis, draw(st.sampled_from([0, 1])), draw(st.sampled_from([0, 1]))


@req("ARGMAX_S1", "ARGMAX_S2", "ARGMAX_S3")
@ALL
@given(data=st.data())
def test_S1_S2_S3_every_index_of_Y_against_the_oracle(dtype: np.dtype, data: st.DataObject) -> None:
    X, axis, keepdims, last = data.draw(calls(dtype))
    inputs_unchanged = unchanged(X)
    Y = argmax(X, axis=axis, keepdims=keepdims, select_last_index=last)
    inputs_unchanged()
    assert not np.shares_memory(Y, X) and Y.flags.writeable
    assert_same(Y, expected(X, axis, keepdims, last))


@req("ARGMAX_S1")
@pytest.mark.parametrize(
    ("shape", "axis", "keepdims", "result"),
    [
        ((4,), 0, 1, (1,)),
        ((4,), 0, 0, ()),
        ((2, 3), 0, 1, (1, 3)),
        ((2, 3), 1, 0, (2,)),
        ((2, 3), -1, 1, (2, 1)),
        ((2, 2, 3), 2, 1, (2, 2, 1)),
        ((2, 2, 3), -3, 0, (2, 3)),
        ((0, 3), 1, 1, (0, 1)),  # an empty X whose axis is not empty: an empty Y
        ((3, 0, 2), 0, 0, (0, 2)),
    ],
)
@ALL
def test_S1_the_shape_of_Y(dtype: np.dtype, shape: tuple, axis: int, keepdims: int, result: tuple) -> None:
    Y = argmax(np.zeros(shape, dtype), axis=axis, keepdims=keepdims, select_last_index=0)
    assert Y.shape == result and Y.dtype == I64


@req("ARGMAX_S2")
@ALL
def test_S2_the_drafts_examples(dtype: np.dtype) -> None:
    grid = np.array([[1, 9, 3], [4, 2, 6]], dtype)
    assert argmax(np.array([1, 5, 3, 2], dtype), axis=0, keepdims=1, select_last_index=0).tolist() == [1]
    assert argmax(grid, axis=0, keepdims=1, select_last_index=0).tolist() == [[1, 0, 1]]
    assert argmax(grid, axis=1, keepdims=1, select_last_index=0).tolist() == [[1], [2]]
    assert argmax(grid, axis=1, keepdims=0, select_last_index=0).tolist() == [1, 2]
    tie = np.array([[1, 5, 5, 2]], dtype)
    assert argmax(tie, axis=1, keepdims=1, select_last_index=0).tolist() == [[1]]
    assert argmax(tie, axis=1, keepdims=1, select_last_index=1).tolist() == [[2]]
    block = np.array([[[1, 3, 2], [4, 0, 6]], [[7, 5, 9], [2, 8, 1]]], dtype)
    assert argmax(block, axis=2, keepdims=1, select_last_index=0).tolist() == [[[1], [2]], [[2], [1]]]


@req("ARGMAX_S2")
@INTS
def test_S2_integer_extremes_compare_exactly(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.max - 1, info.max, info.min, info.max], dtype)
    assert argmax(X, axis=0, keepdims=0, select_last_index=0).tolist() == 1
    assert argmax(X, axis=0, keepdims=0, select_last_index=1).tolist() == 3
    low = np.array([info.min, info.min, info.min], dtype)
    assert argmax(low, axis=0, keepdims=0, select_last_index=0).tolist() == 0
    assert argmax(low, axis=0, keepdims=0, select_last_index=1).tolist() == 2
    if dtype == np.int64:  # beyond float64's precision: 2^63 − 1 and 2^63 − 2 differ
        X = np.array([2**63 - 1, 2**63 - 2], dtype)
        assert argmax(X, axis=0, keepdims=0, select_last_index=1).tolist() == 0
    if dtype == np.uint64:
        X = np.array([2**64 - 2, 2**64 - 1, 2**64 - 2], dtype)
        assert argmax(X, axis=0, keepdims=0, select_last_index=1).tolist() == 1


@req("ARGMAX_S2")
@FLOATS
def test_S2_signed_zeros_tie_and_infinities_are_ordered(dtype: np.dtype) -> None:
    zeros = np.array([-0.0, 0.0, -0.0], dtype)
    assert argmax(zeros, axis=0, keepdims=1, select_last_index=0).tolist() == [0]
    assert argmax(zeros, axis=0, keepdims=1, select_last_index=1).tolist() == [2]
    X = np.array([[-np.inf, -4, -2], [-np.inf, -np.inf, -np.inf], [1, np.inf, 3]], dtype)
    assert argmax(X, axis=1, keepdims=0, select_last_index=0).tolist() == [2, 0, 1]
    assert argmax(X, axis=1, keepdims=0, select_last_index=1).tolist() == [2, 2, 1]
    tiny = ml_tiny(dtype)
    X = np.array([-tiny, 0.0, tiny, -0.0], dtype)
    assert argmax(X, axis=0, keepdims=0, select_last_index=0).tolist() == 2


def ml_tiny(dtype: np.dtype) -> float:
    import ml_dtypes

    return float(ml_dtypes.finfo(dtype).smallest_subnormal)


@req("ARGMAX_S3")
@FLOATS
def test_S3_a_nan_wins_first_or_last(dtype: np.dtype) -> None:
    X = np.array([[1, np.nan, 3, np.nan], [np.nan, np.inf, np.nan, 1], [4, 2, 6.5, -np.inf]], dtype)
    assert argmax(X, axis=1, keepdims=0, select_last_index=0).tolist() == [1, 0, 2]
    assert argmax(X, axis=1, keepdims=0, select_last_index=1).tolist() == [3, 2, 2]
    unsigned = np.dtype(f"u{dtype.itemsize}")
    exponent = int(np.array(np.inf, dtype).view(unsigned))
    payloads = np.array([0, exponent | 1, 0, exponent | 3 | 1 << (8 * dtype.itemsize - 1)], unsigned)
    X = payloads.view(dtype)  # NaNs of other payloads and sign are NaNs too
    assert argmax(X, axis=0, keepdims=0, select_last_index=0).tolist() == 1
    assert argmax(X, axis=0, keepdims=0, select_last_index=1).tolist() == 3


@req("ARGMAX_C1")
@ALL
def test_C1_an_axis_outside_X_is_refused(dtype: np.dtype) -> None:
    for axis in (2, -3, 7):
        with raises_req("ARGMAX_C1") as info:
            argmax(np.zeros((2, 3), dtype), axis=axis, keepdims=1, select_last_index=0)
        assert info.value.problem == f"argmax: axis is {axis}, outside [-2, 1] for X of rank 2"
    with raises_req("ARGMAX_C1") as info:
        argmax(np.array(5, dtype), axis=0, keepdims=1, select_last_index=0)  # a 0-d X has no axis
    assert info.value.problem == "argmax: axis is 0, outside [0, -1] for X of rank 0"


@req("ARGMAX_C2")
@ALL
def test_C2_an_empty_axis_is_refused(dtype: np.dtype) -> None:
    with raises_req("ARGMAX_C2") as info:
        argmax(np.zeros((0, 3), dtype), axis=0, keepdims=1, select_last_index=0)
    assert info.value.problem == "argmax: X has shape (0, 3), no element along axis 0"
    with raises_req("ARGMAX_C2"):
        argmax(np.zeros((2, 0), dtype), axis=-1, keepdims=0, select_last_index=1)


@req("ARGMAX_C3")
@pytest.mark.parametrize("keepdims", [-1, 2, 10])
def test_C3_keepdims_other_than_0_or_1_is_refused(keepdims: int) -> None:
    with raises_req("ARGMAX_C3") as info:
        argmax(np.zeros(3, np.int8), axis=0, keepdims=keepdims, select_last_index=0)
    assert info.value.problem == f"argmax: keepdims is {keepdims}, not 0 or 1"


@req("ARGMAX_C4")
@pytest.mark.parametrize("last", [-1, 2, 10])
def test_C4_select_last_index_other_than_0_or_1_is_refused(last: int) -> None:
    with raises_req("ARGMAX_C4") as info:
        argmax(np.zeros(3, np.float32), axis=0, keepdims=1, select_last_index=last)
    assert info.value.problem == f"argmax: select_last_index is {last}, not 0 or 1"


@req("GEN_E1")
@pytest.mark.parametrize("keepdims", [0, 1])
def test_GEN_E1_a_result_too_large_for_memory_is_refused(keepdims: int) -> None:
    huge = np.broadcast_to(np.ones((1, 1, 1), np.float32), (2**30, 2**30, 1))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        argmax(huge, axis=2, keepdims=keepdims, select_last_index=0)
    shape = "(1073741824, 1073741824, 1)" if keepdims else "(1073741824, 1073741824)"
    assert info.value.problem == (
        f"argmax: a result of shape {shape} and type int64 does not fit in this machine's memory"
    )
