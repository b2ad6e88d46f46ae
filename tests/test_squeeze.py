"""Squeeze: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: the shape of Y as X's dimensions without those at the axes
of A, and each element of Y read from X at Y's index with 0 inserted at the axes of A. Elements are
compared as bits, so a NaN's payload and a zero's sign are checked too.
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
    raises_req,
    req,
    tensors,
    unchanged,
)

from sonnx_spec import squeeze

BOOL = np.dtype(np.bool_)


def A(*axes: int) -> np.ndarray:
    return np.array(axes, np.int64)


def named(axes: list[int], rank: int) -> set[int]:
    """The axes of X that A names, each negative one counted from the back."""
    return {a + rank if a < 0 else a for a in axes}


@st.composite
def squeezes(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list[int]]:
    """X with some dimensions of size 1, and distinct axes among them, some written negative, in any
    order."""
    shape = tuple(draw(st.lists(st.sampled_from([1, 1, 2, 3, 0]), max_size=5)))
    X = draw(tensors(dtype, shape))
    ones = [p for p, d in enumerate(shape) if d == 1]
    chosen = draw(st.permutations(ones))[: draw(st.integers(0, len(ones)))]
    return X, [p - len(shape) if draw(st.booleans()) else p for p in chosen]


@req("SQUEEZE_S1", "SQUEEZE_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_the_dimensions_at_A_removed_and_every_element_from_the_index_with_0_there(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X, axes = data.draw(squeezes(dtype))
    inputs_unchanged = unchanged(X)
    Y = squeeze(X, A(*axes))
    inputs_unchanged()
    removed = named(axes, X.ndim)
    assert Y.shape == tuple(d for p, d in enumerate(X.shape) if p not in removed) and Y.dtype == dtype
    assert not np.shares_memory(Y, X)
    for i in np.ndindex(X.shape):
        j = tuple(c for p, c in enumerate(i) if p not in removed)
        assert bits(Y)[j] == bits(X)[i], (j, i)


@req("SQUEEZE_S1")
@pytest.mark.parametrize(
    ("x", "axes", "shape"),
    [
        ((1, 3, 4, 5), [0], (3, 4, 5)),  # ONNX's backend case
        ((1, 3, 1, 5), [-2], (1, 3, 5)),  # and its negative axis
        ((1, 3, 1, 5), [2, 0], (3, 5)),  # any order
        ((1, 3, 1, 5), [], (1, 3, 1, 5)),  # an empty A removes nothing
        ((1,), [0], ()),
        ((1,), [-1], ()),
        ((), [], ()),
        ((1, 0, 1), [0, -1], (0,)),
        ((1, 1, 1), [1], (1, 1)),
    ],
)
def test_S1_shapes_written_out(x: tuple, axes: list[int], shape: tuple) -> None:
    assert squeeze(np.zeros(x, np.float32), A(*axes)).shape == shape


@req("SQUEEZE_S2")
def test_S2_a_column_squeezed_element_by_element() -> None:
    X = np.arange(6, dtype=np.int32).reshape(1, 3, 1, 2)
    assert squeeze(X, A(0, 2)).tolist() == [[0, 1], [2, 3], [4, 5]]


@req("SQUEEZE_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    X = np.array(patterns, unsigned).view(dtype).reshape(2, 1, 3)  # −0, NaN payloads, a subnormal, +0
    Y = squeeze(X, A(1))
    assert Y.shape == (2, 3) and Y.view(unsigned).reshape(-1).tolist() == patterns


@req("SQUEEZE_S2")
@ALL
def test_S2_the_extremes_are_copied(dtype: np.dtype) -> None:
    info = ml_dtypes.iinfo(dtype) if dtype.kind in "iu" else ml_dtypes.finfo(dtype)
    Y = squeeze(np.array([[info.min], [info.max]], dtype), A(-1))
    assert_same(Y, np.array([info.min, info.max], dtype))


@req("SQUEEZE_C1")
@pytest.mark.parametrize(
    ("x", "axes", "bad"), [((1, 1), [2], 2), ((1, 1), [-3], -3), ((), [0], 0), ((1,), [0, 1], 1)]
)
def test_C1_an_axis_outside_minus_r_to_r_minus_1_is_refused(x: tuple, axes: list[int], bad: int) -> None:
    with raises_req("SQUEEZE_C1") as info:
        squeeze(np.zeros(x, np.int8), A(*axes))
    rank = len(x)
    assert info.value.problem == f"squeeze: A holds {bad}, outside [{-rank}, {rank - 1}] for X of rank {rank}"


@req("SQUEEZE_C1")
def test_C1_the_bounds_themselves_are_taken() -> None:
    assert squeeze(np.zeros((1, 2, 1), np.uint8), A(-3)).shape == (2, 1)
    assert squeeze(np.zeros((1, 2, 1), np.uint8), A(2)).shape == (1, 2)


@req("SQUEEZE_C2")
@pytest.mark.parametrize(("axes", "axis"), [([0, 0], 0), ([2, -1], 2), ([-3, 0], 0), ([0, 2, -1], 2)])
def test_C2_an_axis_named_twice_is_refused(axes: list[int], axis: int) -> None:
    with raises_req("SQUEEZE_C2") as info:
        squeeze(np.zeros((1, 2, 1), np.float16), A(*axes))
    assert info.value.problem == f"squeeze: A = {axes} names axis {axis} of X more than once"


@req("SQUEEZE_C3")
@pytest.mark.parametrize(
    ("x", "axes", "axis", "d"), [((1, 3), [1], 1, 3), ((2, 1), [-2], 0, 2), ((1, 0), [0, 1], 1, 0)]
)
def test_C3_an_axis_whose_dimension_is_not_1_is_refused(x: tuple, axes: list[int], axis: int, d: int) -> None:
    with raises_req("SQUEEZE_C3") as info:
        squeeze(np.zeros(x, np.bool_), A(*axes))
    assert info.value.problem == f"squeeze: X's dimension {axis} is {d}, not 1"


@req("SQUEEZE_C4")
@pytest.mark.parametrize("a", [np.array(0, np.int64), np.array([[0]], np.int64)])
def test_C4_A_of_another_rank_is_refused(a: np.ndarray) -> None:
    with raises_req("SQUEEZE_C4"):
        squeeze(np.zeros((1, 4), np.int8), a)


@req("SQUEEZE_C4")
def test_C4_an_empty_A_removes_no_dimension_even_of_size_1() -> None:
    X = np.arange(3, dtype=np.uint32).reshape(1, 3, 1)
    Y = squeeze(X, A())
    assert_same(Y, np.array([[[0], [1], [2]]], np.uint32))
    assert not np.shares_memory(X, Y)


@req("GEN_E1")
def test_a_shape_too_large_for_memory_is_refused() -> None:
    X = np.broadcast_to(np.zeros((), np.int8), (1, 2**20, 2**20, 2**20))  # no memory: a broadcast view
    with raises_req("GEN_E1"):
        squeeze(X, A(0))


def test_Y_is_a_new_array_even_where_numpy_would_give_a_view() -> None:
    X = np.arange(3, dtype=np.int64).reshape(1, 3)
    Y = squeeze(X, A(0))
    Y[0] = 99
    assert X[0, 0] == 0 and not np.shares_memory(X, Y)
    assert_same(Y, np.array([99, 1, 2], np.int64))
