"""Gather: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: Y's shape is X's with J's dimensions in place of the axis,
and Y[i, j, k] is X[i, p, k] with p = J[j] (+ s if negative), the coordinates split and joined as tuples.
Elements are compared as bits, so a NaN's payload and a zero's sign are checked too.
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
    shapes,
    tensors,
    unchanged,
)

from sonnx_spec import gather

BOOL = np.dtype(np.bool_)


def J(values: object) -> np.ndarray:
    return np.array(values, np.int64)


def source(index: tuple[int, ...], a: int, J_: np.ndarray, size: int) -> tuple[int, ...]:
    """GATHER_S2: the index of X that Y[index] comes from."""
    q = J_.ndim
    i, j, k = index[:a], index[a : a + q], index[a + q :]
    p = int(J_[j])
    return (*i, p + size if p < 0 else p, *k)


@st.composite
def gathers(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, int]:
    """X of rank 1 to 3, an axis (perhaps negative) and indices of rank 0 to 2 in [−s, s − 1]."""
    X = draw(tensors(dtype, draw(shapes(max_dims=3).filter(len))))
    axis = draw(st.integers(-X.ndim, X.ndim - 1))
    size = X.shape[axis]
    J_shape = draw(shapes(max_dims=2))
    if size == 0:
        J_shape = (*J_shape[:-1], 0) if J_shape else (0,)
    count = int(np.prod(J_shape))
    values = draw(st.lists(st.integers(-size, size - 1), min_size=count, max_size=count)) if size else []
    return X, np.array(values, np.int64).reshape(J_shape), axis


@req("GATHER_S1", "GATHER_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_the_slices_J_names_in_J_s_shape(dtype: np.dtype, data: st.DataObject) -> None:
    X, indices, axis = data.draw(gathers(dtype))
    inputs_unchanged = unchanged(X, indices)
    Y = gather(X, indices, axis=axis)
    inputs_unchanged()
    a = axis + X.ndim if axis < 0 else axis
    assert Y.shape == (*X.shape[:a], *indices.shape, *X.shape[a + 1 :]) and Y.dtype == dtype
    assert not np.shares_memory(Y, X)
    for index in np.ndindex(Y.shape):
        assert bits(Y)[index] == bits(X)[source(index, a, indices, X.shape[a])], index


@req("GATHER_S1")
@pytest.mark.parametrize(
    ("x", "j", "axis", "shape"),
    [
        ((5, 4, 3, 2), (3,), 0, (3, 4, 3, 2)),  # ONNX's test_gather_0
        ((5, 4, 3, 2), (3,), 1, (5, 3, 3, 2)),  # test_gather_1
        ((3, 3), (1, 2), 1, (3, 1, 2)),  # test_gather_2d_indices
        ((3,), (), 0, ()),
        ((2, 3), (), -1, (2,)),
        ((2, 3), (0,), 0, (0, 3)),
        ((2, 0), (4, 1), 0, (4, 1, 0)),
    ],
)
def test_S1_shapes_written_out(x: tuple, j: tuple, axis: int, shape: tuple) -> None:
    assert gather(np.zeros(x, np.float32), np.zeros(j, np.int64), axis=axis).shape == shape


@req("GATHER_S2")
def test_S2_onnx_examples_written_out() -> None:
    X = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], np.float64)
    Y = gather(X, J([[0, 1], [1, 2]]), axis=0)
    assert Y.tolist() == [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]]
    X = np.array([[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]], np.float64)
    assert gather(X, J([[0, 2]]), axis=1).tolist() == [[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]]


@req("GATHER_S2")
@pytest.mark.parametrize("index", [-1, -2, -3, 0, 2])
def test_S2_a_negative_index_counts_from_the_back(index: int) -> None:
    X = np.array([10, 20, 30], np.int16)
    Y = gather(X, J(index), axis=0)
    assert Y.shape == () and int(Y) == [10, 20, 30][index if index >= 0 else index + 3]


@req("GATHER_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    X = np.array(patterns, unsigned).view(dtype)  # −0, NaN payloads, a subnormal, +0
    Y = gather(X, J([5, 4, 3, 2, 1, 0, -6]), axis=0)
    assert Y.view(unsigned).tolist() == [*patterns[::-1], patterns[0]]


@req("GATHER_S2")
@ALL
def test_S2_the_extremes_of_each_type(dtype: np.dtype) -> None:
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    low, high = (info.min, info.max) if info else (-np.inf, np.inf)
    Y = gather(np.array([[low, high]], dtype), J([1, 0]), axis=1)
    assert_same(Y, np.array([[high, low]], dtype))


@req("GATHER_C1")
@ALL_AND_BOOL
def test_C1_a_0_d_X_is_refused(dtype: np.dtype) -> None:
    with raises_req("GATHER_C1") as info:
        gather(np.zeros((), dtype), J(0), axis=0)
    assert info.value.problem == "gather: X is 0-d; it has no axis to gather along"
    assert (info.value.operator, info.value.tensor) == ("gather", "X")


@req("GATHER_C2")
@pytest.mark.parametrize(
    ("x", "axis"), [((2, 3), 2), ((2, 3), -3), ((4,), 1), ((4,), -2), ((1, 1, 1), 2**62)]
)
def test_C2_an_axis_outside_minus_r_to_r_minus_1_is_refused(x: tuple, axis: int) -> None:
    with raises_req("GATHER_C2") as info:
        gather(np.zeros(x, np.uint8), J([0]), axis=axis)
    rank = len(x)
    assert (
        info.value.problem == f"gather: axis is {axis}; X has rank {rank}, an axis is {-rank} to {rank - 1}"
    )
    assert (info.value.operator, info.value.tensor) == ("gather", "axis")


@req("GATHER_E1")
@pytest.mark.parametrize(
    ("x", "j", "axis", "wrong", "size", "a"),
    [
        ((3,), [0, 3], 0, 3, 3, 0),
        ((3,), [-4], 0, -4, 3, 0),
        ((2, 5), [[0, 5], [-6, 1]], 1, 5, 5, 1),
        ((2, 5), [-3], -2, -3, 2, 0),
        ((0, 2), [0], 0, 0, 0, 0),
        ((3,), [2**63 - 1], 0, 2**63 - 1, 3, 0),
        ((3,), [-(2**63)], 0, -(2**63), 3, 0),
    ],
)
def test_E1_an_index_outside_minus_s_to_s_minus_1_is_refused(
    x: tuple, j: list, axis: int, wrong: int, size: int, a: int
) -> None:
    with raises_req("GATHER_E1") as info:
        gather(np.zeros(x, np.float32), J(j), axis=axis)
    expected = (
        f"gather: J holds {wrong}; X has dimension {size} at axis {a}, an index is {-size} to {size - 1}"
    )
    assert info.value.problem == expected
    assert (info.value.operator, info.value.tensor) == ("gather", "J")


@req("GATHER_E1")
def test_E1_no_index_is_no_error_even_where_X_is_empty_at_the_axis() -> None:
    assert gather(np.zeros((0, 2), BOOL), J(np.zeros((0,), np.int64)), axis=0).shape == (0, 2)


def test_Y_is_a_new_array() -> None:
    X = np.arange(6, dtype=np.int64).reshape(2, 3)
    Y = gather(X, J([0, 1]), axis=0)
    Y[0, 0] = 99
    assert X[0, 0] == 0 and not np.shares_memory(X, Y) and Y.flags.c_contiguous
