"""Slice: one test (or more) per rule id, named after it.

The oracles restate ONNX's text in plain Python: the start and end of each axis with the dimension added to
a negative value and clamped by comparisons written out, then the indices taken by walking from the start,
one step at a time, while the end is not reached (no division, no numpy slice). Elements are compared as
bits, so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL_AND_BOOL,
    FLOATS,
    assert_same,
    bits,
    copy_patterns,
    raises_req,
    req,
    shapes,
    tensors,
    unchanged,
)

from sonnx_spec import slice_

MAX, MIN = 2**63 - 1, -(2**63)
BOOL = np.dtype(np.bool_)


def v(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def start_end(d: int, s: int, e: int, k: int) -> tuple[int, int]:
    """ONNX's text, step by step: d added to a negative start or end, then the clamping."""
    if s < 0:
        s += d
    if e < 0:
        e += d
    low_s, high_s = (0, d) if k > 0 else (0, d - 1)
    low_e, high_e = (0, d) if k > 0 else (-1, d - 1)
    if s < low_s:
        s = low_s
    if s > high_s:
        s = high_s  # after the lower bound: for d = 0 and k < 0 the start is −1, and nothing is taken
    if e < low_e:
        e = low_e
    if e > high_e:
        e = high_e
    return s, e


def walk(d: int, s: int, e: int, k: int) -> list[int]:
    """The indices taken along an axis: from the start, by the step, while the end is not reached."""
    start, end = start_end(d, s, e, k)
    taken, i = [], start
    while (k > 0 and i < end) or (k < 0 and i > end):
        taken.append(i)
        i += k
    return taken


def expected(X: np.ndarray, S: list, E: list, A: list, K: list) -> tuple[list[list[int]], tuple[int, ...]]:
    """For every axis of X, the indices of X it takes; and Y's shape."""
    per_axis = [list(range(d)) for d in X.shape]  # an axis A does not name: whole
    for s, e, a, k in zip(S, E, A, K, strict=True):
        axis = a + X.ndim if a < 0 else a
        per_axis[axis] = walk(X.shape[axis], s, e, k)
    return per_axis, tuple(len(taken) for taken in per_axis)


def check(X: np.ndarray, S: list, E: list, A: list, K: list) -> np.ndarray:
    """Y against the oracle: its shape, and every element's bits from the index the walk gives."""
    inputs = (X, v(*S), v(*E), v(*A), v(*K))
    inputs_unchanged = unchanged(*inputs)
    Y = slice_(*inputs)
    inputs_unchanged()
    per_axis, shape = expected(X, S, E, A, K)
    assert Y.shape == shape and Y.dtype == X.dtype
    assert not np.shares_memory(Y, X)
    for index in np.ndindex(shape):
        source = tuple(per_axis[axis][i] for axis, i in enumerate(index))
        assert bits(Y)[index] == bits(X)[source], (index, source)
    return Y


@st.composite
def slices(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list, list, list, list]:
    """X of any shape and values, and a slice of some of its axes, each once, written either way, with
    starts and ends anywhere (int64's extremes included) and steps of either sign."""
    X = draw(tensors(dtype, draw(shapes(max_dims=3))))
    axes = draw(st.permutations(range(X.ndim)))[: draw(st.integers(0, X.ndim))]
    A = [a - X.ndim if draw(st.booleans()) else a for a in axes]
    bound = st.one_of(st.integers(-7, 7), st.sampled_from([MIN, MIN + 1, MAX - 1, MAX]))
    S = [draw(bound) for _ in A]
    E = [draw(bound) for _ in A]
    K = [draw(st.one_of(st.integers(-4, -1), st.integers(1, 4), st.sampled_from([MIN, MAX]))) for _ in A]
    return X, S, E, A, K


@req("SLICE_S1", "SLICE_S2", "SLICE_S3")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_S3_every_element_from_the_index_onnx_text_gives(dtype: np.dtype, data: st.DataObject) -> None:
    check(*data.draw(slices(dtype)))


@req("SLICE_S1")
@pytest.mark.parametrize(
    ("s", "e", "k", "taken"),
    [
        (0, 5, 1, [0, 1, 2, 3, 4]),
        (MIN, MAX, 1, [0, 1, 2, 3, 4]),  # INT64_MIN and INT64_MAX: the whole axis, forward
        (MAX, MIN, -1, [4, 3, 2, 1, 0]),  # and backward
        (-1, MIN, -2, [4, 2, 0]),
        (4, -1, -1, []),  # −1 is d − 1 = 4: an end of −1 does not reach the first element
        (4, -6, -1, [4, 3, 2, 1, 0]),  # −6 + 5 = −1: before the first element
        (4, -100, -1, [4, 3, 2, 1, 0]),  # clamped to −1
        (-10, MIN, -1, [0]),  # a start before −d, backward: clamped to 0, the first element
        (MIN, MIN, -1, [0]),
        (9, -9, -2, [4, 2, 0]),  # clamped to d − 1 = 4 and to −1
        (1000, 1000, 1, []),  # ONNX's backend case start_out_of_bounds
        (1, 1000, 1, [1, 2, 3, 4]),  # and end_out_of_bounds
        (-7, 2, 1, [0, 1]),
        (5, 0, -1, [4, 3, 2, 1]),
        (0, MAX, MAX, [0]),
        (MAX, MIN, MIN, [4]),
        (-2, -1, 1, [3]),
    ],
)
def test_S1_starts_and_ends_clamped_as_onnx_writes_it(s: int, e: int, k: int, taken: list[int]) -> None:
    X = np.arange(10, 15, dtype=np.int64)
    Y = slice_(X, v(s), v(e), v(0), v(k))
    assert Y.tolist() == [10 + i for i in taken]


@req("SLICE_S1")
def test_S1_an_axis_not_named_is_whole_and_a_negative_axis_counts_from_the_last() -> None:
    X = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    assert_same(slice_(X, v(), v(), v(), v()), X)
    assert_same(slice_(X, v(1), v(3), v(-1), v(2)), X[:, :, 1:3:2].copy())
    assert_same(slice_(X, v(1), v(3), v(-1), v(2)), slice_(X, v(1), v(3), v(2), v(2)))
    assert slice_(X, v(-1, 0), v(MIN, 1), v(1, -3), v(-1, 1)).tolist() == [
        [[8, 9, 10, 11], [4, 5, 6, 7], [0, 1, 2, 3]]
    ]


@req("SLICE_S1", "SLICE_S2")
@pytest.mark.parametrize(
    ("x", "S", "E", "A", "K", "shape"),
    [
        ((2, 4), [1, 0], [2, 3], [0, 1], [1, 2], (1, 2)),  # ONNX's example 1
        ((2, 4), [0, 1], [-1, 1000], [0, 1], [1, 1], (1, 3)),  # its example 2, axes and steps written
        ((20, 10, 5), [20, 10, 4], [0, 0, 1], [0, 1, 2], [-1, -3, -2], (19, 3, 2)),  # backend neg_steps
        ((20, 10, 5), [0], [-1], [1], [1], (20, 9, 5)),  # backend neg
        ((4, 6), [0, 1], [4, 6], [0, 1], [1, 2], (4, 3)),  # the draft's figure
        ((2, 0), [MAX], [MIN], [1], [-1], (2, 0)),  # a dimension 0 stays 0, backward too
        ((0, 3), [0], [MAX], [0], [1], (0, 3)),
        ((), [], [], [], [], ()),  # a 0-d X: nothing named, Y is X
        ((5,), [2], [2], [0], [1], (0,)),
        ((5,), [1], [3], [0], [-1], (0,)),
        ((7,), [0], [7], [0], [3], (3,)),  # ⌈7 / 3⌉
        ((7,), [6], [MIN], [0], [-3], (3,)),
    ],
)
def test_S2_shapes_written_out(x: tuple, S: list, E: list, A: list, K: list, shape: tuple) -> None:
    assert slice_(np.zeros(x, np.float32), v(*S), v(*E), v(*A), v(*K)).shape == shape


@req("SLICE_S3")
@FLOATS
def test_S3_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    patterns = patterns[:5]  # no +0
    X = np.array(patterns, unsigned).view(dtype)  # −0, NaN payloads, a subnormal
    Y = slice_(X, v(MAX), v(MIN), v(0), v(-1))
    assert Y.view(unsigned).tolist() == patterns[::-1]


@req("SLICE_S3")
@ALL_AND_BOOL
def test_S3_a_0d_X_is_copied(dtype: np.dtype) -> None:
    X = np.ones((), dtype)
    Y = slice_(X, v(), v(), v(), v())
    assert Y.shape == () and bits(Y) == bits(X) and not np.shares_memory(X, Y)


@req("SLICE_C1")
@pytest.mark.parametrize("position", [1, 2, 3, 4])
@pytest.mark.parametrize("bad", [np.array(0, np.int64), np.array([[0]], np.int64)], ids=["0-d", "2-d"])
def test_C1_S_E_A_K_of_another_rank_are_refused(position: int, bad: np.ndarray) -> None:
    inputs = [np.arange(4, dtype=np.int8), v(0), v(2), v(0), v(1)]
    inputs[position] = bad
    with raises_req("SLICE_C1"):
        slice_(*inputs)


@req("SLICE_C2")
@pytest.mark.parametrize(
    ("S", "E", "A", "K", "counts"),
    [
        ([0, 0], [1], [0], [1], "2, 1, 1, 1"),
        ([0], [1], [0], [1, 1], "1, 1, 1, 2"),
        ([0], [1, 1], [0, 1], [1], "1, 2, 2, 1"),
        ([], [], [], [1], "0, 0, 0, 1"),
    ],
)
def test_C2_lists_of_different_lengths_are_refused(S: list, E: list, A: list, K: list, counts: str) -> None:
    with raises_req("SLICE_C2") as info:
        slice_(np.zeros((2, 4), np.uint16), v(*S), v(*E), v(*A), v(*K))
    assert info.value.problem == f"slice: S, E, A and K hold {counts} values, not as many each"


@req("SLICE_C3")
@pytest.mark.parametrize(
    ("x", "axis"), [((2, 4), 2), ((2, 4), -3), ((2, 4), MAX), ((2, 4), MIN), ((), 0), ((5,), 1)]
)
def test_C3_an_axis_X_does_not_have_is_refused(x: tuple, axis: int) -> None:
    X = np.zeros(x, np.float64)
    with raises_req("SLICE_C3") as info:
        slice_(X, v(0), v(1), v(axis), v(1))
    r = X.ndim
    assert info.value.problem == f"slice: A holds {axis}; X of rank {r} has axes −{r} to {r - 1}"
    assert slice_(np.zeros((2, 4)), v(0), v(1), v(-2), v(1)).shape == (1, 4)  # −r is an axis


@req("SLICE_C4")
@pytest.mark.parametrize(("axes", "twice"), [([1, 1], 1), ([1, -1], 1), ([-2, 0], 0), ([0, 1, 0], 0)])
def test_C4_an_axis_named_twice_is_refused(axes: list[int], twice: int) -> None:
    n = len(axes)
    with raises_req("SLICE_C4") as info:
        slice_(np.zeros((2, 4), np.int64), v(*[0] * n), v(*[1] * n), v(*axes), v(*[1] * n))
    assert info.value.problem == f"slice: A = {axes} names axis {twice} twice"


@req("SLICE_C5")
@ALL_AND_BOOL
def test_C5_a_step_0_is_refused(dtype: np.dtype) -> None:
    with raises_req("SLICE_C5") as info:
        slice_(np.zeros((2, 4), dtype), v(0, 0), v(2, 4), v(0, 1), v(1, 0))
    assert info.value.problem == "slice: K = [1, 0] holds a step 0"
    with raises_req("SLICE_C5"):
        slice_(np.zeros((0,), dtype), v(0), v(0), v(0), v(0))  # even where nothing would be taken


def test_Y_is_a_new_array_even_where_numpy_would_give_a_view() -> None:
    X = np.arange(6, dtype=np.int64)
    Y = slice_(X, v(0), v(6), v(0), v(1))
    Y[0] = 99
    assert X[0] == 0 and not np.shares_memory(X, Y)
    assert_same(Y, np.array([99, 1, 2, 3, 4, 5], np.int64))
