"""Concat: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: Y's dimension at the axis is the sum of the inputs', and
Y[i] is found by walking the inputs in order, subtracting each one's dimension at the axis from i[axis]
until it falls inside one (the draft's s_k written out). Elements are compared as bits, so a NaN's
payload and a zero's sign are checked too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL,
    ALL_AND_BOOL,
    FLOATS,
    assert_same,
    bits,
    copy_patterns,
    raises_req,
    req,
    tensors,
    unchanged,
)

from sonnx_spec import concat

BOOL = np.dtype(np.bool_)


def source(index: tuple[int, ...], shapes: list[tuple[int, ...]], axis: int) -> tuple[int, tuple[int, ...]]:
    """CONCAT_S2: the input k and the index in it that Y[index] comes from."""
    position = index[axis]
    for k, shape in enumerate(shapes):
        if position < shape[axis]:
            return k, (*index[:axis], position, *index[axis + 1 :])
        position -= shape[axis]
    raise AssertionError(f"{index} lies beyond every input")


@st.composite
def joinable(draw: st.DrawFn, dtype: np.dtype) -> tuple[list[np.ndarray], int]:
    """One to four inputs of one rank (1 to 4) and the same dimensions off the axis, each with its own
    dimension (0 to 3) at the axis."""
    rank = draw(st.integers(1, 4))
    axis = draw(st.integers(0, rank - 1))
    common = draw(st.lists(st.integers(0, 3), min_size=rank, max_size=rank))
    inputs = []
    for _ in range(draw(st.integers(1, 4))):
        shape = list(common)
        shape[axis] = draw(st.integers(0, 3))
        inputs.append(draw(tensors(dtype, tuple(shape))))
    return inputs, axis


@req("CONCAT_S1", "CONCAT_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_the_inputs_one_after_the_other_along_the_axis(dtype: np.dtype, data: st.DataObject) -> None:
    X, axis = data.draw(joinable(dtype))
    inputs_unchanged = unchanged(*X)
    Y = concat(*X, axis=axis)
    inputs_unchanged()
    shapes = [x.shape for x in X]
    expected = list(shapes[0])
    expected[axis] = sum(shape[axis] for shape in shapes)
    assert Y.shape == tuple(expected) and Y.dtype == dtype
    assert not any(np.shares_memory(Y, x) for x in X)
    for index in np.ndindex(Y.shape):
        k, j = source(index, shapes, axis)
        assert bits(Y)[index] == bits(X[k])[j], (index, k, j)


@req("CONCAT_S1")
@pytest.mark.parametrize(
    ("shapes", "axis", "shape"),
    [
        ([(2, 3), (1, 3)], 0, (3, 3)),
        ([(2, 3), (2, 1), (2, 4)], 1, (2, 8)),
        ([(2, 3, 1), (2, 0, 1), (2, 5, 1)], 1, (2, 8, 1)),  # the draft's kind of example, and an empty one
        ([(4,)], 0, (4,)),
        ([(0,), (0,)], 0, (0,)),
        ([(3, 0), (3, 0)], 0, (6, 0)),
    ],
)
def test_S1_shapes_written_out(shapes: list[tuple], axis: int, shape: tuple) -> None:
    assert concat(*[np.zeros(s, np.float32) for s in shapes], axis=axis).shape == shape


@req("CONCAT_S2")
def test_S2_the_drafts_example_element_by_element() -> None:
    """Inputs of 3, 2 and 1 columns along axis 1: Y[0, 3] is X1[0, 0] (the draft's worked example)."""
    X = [np.array([[10 * k + c for c in range(n)]], np.int32) for k, n in enumerate((3, 2, 1))]
    Y = concat(*X, axis=1)
    assert Y[0, 3] == X[1][0, 0] == 10
    assert Y.tolist() == [[0, 1, 2, 10, 11, 20]]


@req("CONCAT_S2")
def test_S2_rank_3_along_each_axis_written_out() -> None:
    A = np.arange(8, dtype=np.int64).reshape(2, 2, 2)  # A[a, b, c] = 4a + 2b + c
    B = 100 + A
    for axis in range(3):
        Y = concat(A, B, axis=axis)
        for i in np.ndindex(Y.shape):
            j = list(i)
            base = 0
            if j[axis] >= 2:
                j[axis] -= 2
                base = 100
            assert Y[i] == base + 4 * j[0] + 2 * j[1] + j[2], (axis, i)


@req("CONCAT_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    X = np.array(patterns, unsigned).view(dtype)  # −0, NaN payloads, a subnormal, +0
    Y = concat(X[:2], X[2:5], X[5:], axis=0)
    assert Y.view(unsigned).tolist() == patterns


@req("CONCAT_S2")
@ALL
def test_S2_the_extremes_of_each_type(dtype: np.dtype) -> None:
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    low, high = (info.min, info.max) if info else (-np.inf, np.inf)
    Y = concat(np.array([[low]], dtype), np.array([[high]], dtype), axis=1)
    assert_same(Y, np.array([[low, high]], dtype))


@req("CONCAT_S2")
def test_S2_one_input_is_copied() -> None:
    X = np.array([[True, False]], BOOL)
    Y = concat(X, axis=0)
    assert_same(Y, X)
    assert not np.shares_memory(X, Y)


@req("CONCAT_C1")
@pytest.mark.parametrize(("shapes", "axis"), [([(2,), (3,)], 1), ([(2, 2), (2, 2)], 2), ([(1, 1, 1)], 7)])
def test_C1_an_axis_the_inputs_do_not_have_is_refused(shapes: list[tuple], axis: int) -> None:
    with raises_req("CONCAT_C1") as info:
        concat(*[np.zeros(s, np.int8) for s in shapes], axis=axis)
    rank = len(shapes[0])
    expected = f"concat: axis is {axis}; the inputs have rank {rank}, their axes are 0 to {rank - 1}"
    assert info.value.problem == expected
    assert (info.value.operator, info.value.tensor) == ("concat", "axis")


@req("CONCAT_C1")
@ALL_AND_BOOL
def test_C1_0_d_inputs_have_no_axis(dtype: np.dtype) -> None:
    with raises_req("CONCAT_C1") as info:
        concat(np.zeros((), dtype), np.zeros((), dtype), axis=0)
    assert info.value.problem == "concat: axis is 0; the inputs have rank 0, their axes are 0 to -1"


@req("CONCAT_C2")
@pytest.mark.parametrize("axis", [-1, -2, -3, -(2**63)])
def test_C2_a_negative_axis_is_refused_even_one_ONNX_counts_from_the_back(axis: int) -> None:
    with raises_req("CONCAT_C2") as info:
        concat(np.zeros((2, 2), np.float16), np.zeros((2, 2), np.float16), axis=axis)
    assert info.value.problem == f"concat: axis is {axis}; an axis is 0 or more"
    assert (info.value.operator, info.value.tensor) == ("concat", "axis")


@req("CONCAT_C3")
def test_C3_no_input_is_refused() -> None:
    with raises_req("CONCAT_C3") as info:
        concat(axis=0)
    assert info.value.problem == "concat: no input given"


@req("CONCAT_C4")
@pytest.mark.parametrize(
    ("shapes", "problem"),
    [
        ([(2, 2), (2,)], "X1 has rank 1; X0 has rank 2"),
        ([(2,), (2,), (1, 2)], "X2 has rank 2; X0 has rank 1"),
        ([(1,), ()], "X1 has rank 0; X0 has rank 1"),
    ],
)
def test_C4_inputs_of_different_ranks_are_refused(shapes: list[tuple], problem: str) -> None:
    with raises_req("CONCAT_C4") as info:
        concat(*[np.zeros(s, np.uint32) for s in shapes], axis=0)
    assert info.value.problem == f"concat: {problem}"
    assert (info.value.operator, info.value.tensor) == ("concat", "X")


@req("CONCAT_C4")
def test_C4_is_checked_before_the_axis() -> None:
    with raises_req("CONCAT_C4"):
        concat(np.zeros((2, 2)), np.zeros(2), axis=-1)


@req("CONCAT_C5")
@pytest.mark.parametrize(
    ("shapes", "axis", "problem"),
    [
        ([(2, 2), (2, 1)], 0, "X1 has dimension 1 at axis 1, X0 has 2"),
        ([(2, 3, 4), (2, 1, 4), (3, 5, 4)], 1, "X2 has dimension 3 at axis 0, X0 has 2"),
        ([(1, 0), (1, 1)], 0, "X1 has dimension 1 at axis 1, X0 has 0"),
    ],
)
def test_C5_dimensions_that_differ_off_the_axis_are_refused(
    shapes: list[tuple], axis: int, problem: str
) -> None:
    with raises_req("CONCAT_C5") as info:
        concat(*[np.zeros(s, np.int64) for s in shapes], axis=axis)
    assert info.value.problem == f"concat: {problem}"
    assert (info.value.operator, info.value.tensor) == ("concat", "X")
    concat(*[np.zeros(s, np.int64) for s in shapes[:1]], axis=axis)  # one input always fits itself


@req("GEN_E1")
def test_a_result_too_large_for_memory_is_refused() -> None:
    X = np.broadcast_to(np.zeros((), np.int8), (2**61,))  # no memory of its own: a view of one element
    with raises_req("GEN_E1") as info:
        concat(X, X, X, X, axis=0)
    assert info.value.problem == (
        "concat: a result of shape (9223372036854775808,) and type int8 does not fit in this machine's memory"
    )


def test_Y_is_a_new_array_even_for_one_input() -> None:
    X = np.arange(6, dtype=np.int64).reshape(2, 3)
    Y = concat(X, axis=0)
    Y[0, 0] = 99
    assert X[0, 0] == 0 and not np.shares_memory(X, Y) and Y.flags.c_contiguous
