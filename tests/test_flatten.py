"""Flatten: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: the two dimensions of Y as products of X's dimensions, and
each element of Y taken from X at the same row-major position (``offset`` and ``index`` written out here,
on Python ints). Elements are compared as bits, so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import ml_dtypes
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
    index_of,
    raises_req,
    req,
    shapes,
    tensors,
    unchanged,
)

from sonnx_spec import flatten

BOOL = np.dtype(np.bool_)


def product(dims: tuple[int, ...]) -> int:
    """The product of ``dims``, 1 for none, written out."""
    result = 1
    for d in dims:
        result *= d
    return result


def expected_shape(X_shape: tuple[int, ...], axis: int) -> tuple[int, int]:
    """FLATTEN_S1: the axes before the split make the rows, the others the columns."""
    split = axis + len(X_shape) if axis < 0 else axis
    return product(X_shape[:split]), product(X_shape[split:])


@req("FLATTEN_S1", "FLATTEN_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_the_two_products_and_every_element_from_the_same_row_major_position(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X = data.draw(tensors(dtype, data.draw(shapes(max_dims=4))))
    axis = data.draw(st.integers(-X.ndim, X.ndim))
    inputs_unchanged = unchanged(X)
    Y = flatten(X, axis=axis)
    inputs_unchanged()
    assert Y.shape == expected_shape(X.shape, axis) and Y.dtype == dtype
    assert not np.shares_memory(Y, X)
    for a, b in np.ndindex(Y.shape):
        source = index_of(a * Y.shape[1] + b, X.shape)
        assert bits(Y)[a, b] == bits(X)[source], ((a, b), source)


@req("FLATTEN_S1")
@pytest.mark.parametrize(
    ("x", "axis", "shape"),
    [
        ((2, 3, 4), 0, (1, 24)),  # the draft's example 1
        ((2, 3, 4), 1, (2, 12)),  # its example 2
        ((2, 3, 4), 2, (6, 4)),  # its example 3
        ((2, 3, 4), 3, (24, 1)),  # axis equal to the rank: one column
        ((2, 3, 4), -1, (6, 4)),
        ((2, 3, 4), -2, (2, 12)),
        ((2, 3, 4), -3, (1, 24)),
        ((2, 3, 4, 5), -4, (1, 120)),
        ((), 0, (1, 1)),  # a 0-d X: both products are of no dimension
        ((7,), 1, (7, 1)),
        ((7,), -1, (1, 7)),
        ((2, 0, 3), 1, (2, 0)),
        ((2, 0, 3), 2, (0, 3)),
        ((0,), 0, (1, 0)),
    ],
)
def test_S1_shapes_written_out(x: tuple, axis: int, shape: tuple) -> None:
    assert flatten(np.zeros(x, np.float32), axis=axis).shape == shape


@req("FLATTEN_S2")
def test_S2_the_drafts_example_3_element_by_element() -> None:
    X = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    Y = flatten(X, axis=2)
    assert Y.tolist() == [[4 * r + c for c in range(4)] for r in range(6)]


@req("FLATTEN_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    X = np.array(patterns, unsigned).view(dtype).reshape(3, 1, 2)  # −0, NaN payloads, a subnormal, +0
    Y = flatten(X, axis=-2)
    assert Y.shape == (3, 2) and Y.view(unsigned).reshape(-1).tolist() == patterns


@req("FLATTEN_S2")
@ALL
def test_S2_the_extremes_are_copied(dtype: np.dtype) -> None:
    info = ml_dtypes.iinfo(dtype) if dtype.kind in "iu" else ml_dtypes.finfo(dtype)
    X = np.array([[[info.min]], [[info.max]]], dtype)
    Y = flatten(X, axis=3)
    assert_same(Y, np.array([[info.min], [info.max]], dtype))


@req("FLATTEN_C1")
@pytest.mark.parametrize(("x", "axis"), [((2, 3, 4), 4), ((2, 3, 4), -4), ((), 1), ((), -1), ((5,), 2)])
def test_C1_an_axis_outside_minus_r_to_r_is_refused(x: tuple, axis: int) -> None:
    with raises_req("FLATTEN_C1") as info:
        flatten(np.zeros(x, np.int8), axis=axis)
    rank = len(x)
    assert info.value.problem == f"flatten: axis is {axis}, outside [{-rank}, {rank}] for X of rank {rank}"


@req("FLATTEN_C1")
@pytest.mark.parametrize("axis", [-3, 3])
def test_C1_the_bounds_themselves_are_taken(axis: int) -> None:
    assert flatten(np.zeros((1, 2, 3), np.uint8), axis=axis).shape == ((1, 6) if axis < 0 else (6, 1))


@req("GEN_E1")
def test_a_shape_too_large_for_memory_is_refused() -> None:
    X = np.broadcast_to(np.zeros((), np.int8), (2**20, 2**20, 2**20))  # no memory: a broadcast view
    with raises_req("GEN_E1"):
        flatten(X, axis=1)


def test_Y_is_a_new_array_even_where_numpy_would_give_a_view() -> None:
    X = np.arange(6, dtype=np.int64).reshape(2, 3)
    Y = flatten(X, axis=1)
    Y[0, 0] = 99
    assert X[0, 0] == 0 and not np.shares_memory(X, Y)
    assert_same(Y, np.array([[99, 1, 2], [3, 4, 5]], np.int64))
