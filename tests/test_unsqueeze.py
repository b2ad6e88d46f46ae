"""Unsqueeze: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: the shape of Y built axis by axis (1 at an axis of A, X's
next dimension elsewhere), and each element of Y read from X at Y's index without its coordinates at the
axes of A. Elements are compared as bits, so a NaN's payload and a zero's sign are checked too.
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
    shapes,
    tensors,
    unchanged,
)

from sonnx_spec import unsqueeze

BOOL = np.dtype(np.bool_)


def A(*axes: int) -> np.ndarray:
    return np.array(axes, np.int64)


def named(axes: list[int], rank: int) -> set[int]:
    """The axes of Y that A names, each negative one counted from the back."""
    return {a + rank if a < 0 else a for a in axes}


def expected_shape(X_shape: tuple[int, ...], axes: list[int]) -> tuple[int, ...]:
    """UNSQUEEZE_S1, axis by axis."""
    rank = len(X_shape) + len(axes)
    inserted, rest = named(axes, rank), list(X_shape)
    shape = []
    for p in range(rank):
        shape.append(1 if p in inserted else rest.pop(0))
    return tuple(shape)


@st.composite
def unsqueezes(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list[int]]:
    """X of any shape and values, and distinct axes of Y, some written negative, in any order."""
    X = draw(tensors(dtype, draw(shapes(max_dims=3))))
    count = draw(st.integers(0, 3))
    rank = X.ndim + count
    positions = draw(st.lists(st.integers(0, max(rank - 1, 0)), min_size=count, max_size=count, unique=True))
    return X, [p - rank if draw(st.booleans()) else p for p in positions]


@req("UNSQUEEZE_S1", "UNSQUEEZE_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_a_1_at_each_axis_and_every_element_from_the_index_without_them(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X, axes = data.draw(unsqueezes(dtype))
    inputs_unchanged = unchanged(X)
    Y = unsqueeze(X, A(*axes))
    inputs_unchanged()
    assert Y.shape == expected_shape(X.shape, axes) and Y.dtype == dtype
    assert not np.shares_memory(Y, X)
    inserted = named(axes, Y.ndim)
    for j in np.ndindex(Y.shape):
        source = tuple(c for p, c in enumerate(j) if p not in inserted)
        assert all(j[p] == 0 for p in inserted)
        assert bits(Y)[j] == bits(X)[source], (j, source)


@req("UNSQUEEZE_S1")
@pytest.mark.parametrize(
    ("x", "axes", "shape"),
    [
        ((2, 3, 4), [0], (1, 2, 3, 4)),  # the draft's example 1
        ((2, 3, 4), [-1], (2, 3, 4, 1)),  # its example 2
        ((2, 3, 4), [0, 1], (1, 1, 2, 3, 4)),  # its example 3
        ((2, 3, 4), [1, 2], (2, 1, 1, 3, 4)),  # its example 4
        ((3, 4, 5), [2, 4, 5], (3, 4, 1, 5, 1, 1)),
        ((3, 4, 5), [5, 4, 2], (3, 4, 1, 5, 1, 1)),  # any order
        ((1, 3, 1, 5), [-2], (1, 3, 1, 1, 5)),
        ((2,), [-3, 1], (1, 1, 2)),
        ((), [0], (1,)),
        ((), [], ()),
        ((2, 0), [1, -1], (2, 1, 0, 1)),
        ((2, 3), [], (2, 3)),
    ],
)
def test_S1_shapes_written_out(x: tuple, axes: list[int], shape: tuple) -> None:
    assert unsqueeze(np.zeros(x, np.float32), A(*axes)).shape == shape


@req("UNSQUEEZE_S2")
def test_S2_the_drafts_example_4_element_by_element() -> None:
    X = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    Y = unsqueeze(X, A(1, 2))
    assert Y.tolist() == [[[[[12 * i + 4 * r + c for c in range(4)] for r in range(3)]]] for i in range(2)]


@req("UNSQUEEZE_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    X = np.array(patterns, unsigned).view(dtype).reshape(2, 3)  # −0, NaN payloads, a subnormal, +0
    Y = unsqueeze(X, A(1))
    assert Y.shape == (2, 1, 3) and Y.view(unsigned).reshape(-1).tolist() == patterns


@req("UNSQUEEZE_S2")
@ALL
def test_S2_the_extremes_are_copied(dtype: np.dtype) -> None:
    info = ml_dtypes.iinfo(dtype) if dtype.kind in "iu" else ml_dtypes.finfo(dtype)
    Y = unsqueeze(np.array([info.min, info.max], dtype), A(-1))
    assert_same(Y, np.array([[info.min], [info.max]], dtype))


@req("UNSQUEEZE_C1")
@pytest.mark.parametrize(
    ("x", "axes", "bad", "rank"),
    [((2, 3), [3], 3, 3), ((2, 3), [-4], -4, 3), ((), [1], 1, 1), ((2,), [0, 3], 3, 3), ((), [-2], -2, 1)],
)
def test_C1_an_axis_outside_minus_r_to_r_minus_1_of_Y_is_refused(
    x: tuple, axes: list[int], bad: int, rank: int
) -> None:
    with raises_req("UNSQUEEZE_C1") as info:
        unsqueeze(np.zeros(x, np.int8), A(*axes))
    assert (
        info.value.problem == f"unsqueeze: A holds {bad}, outside [{-rank}, {rank - 1}] for Y of rank {rank}"
    )


@req("UNSQUEEZE_C1")
def test_C1_the_bounds_themselves_are_taken() -> None:
    assert unsqueeze(np.zeros((2, 3), np.uint8), A(-3)).shape == (1, 2, 3)
    assert unsqueeze(np.zeros((2, 3), np.uint8), A(2)).shape == (2, 3, 1)


@req("UNSQUEEZE_C2")
@pytest.mark.parametrize(
    ("axes", "axis"), [([1, 1], 1), ([0, -4], 0), ([-2, 3, 0], 3), ([2, 0, 2], 2), ([0, 2, 2], 2)]
)
def test_C2_an_axis_named_twice_is_refused(axes: list[int], axis: int) -> None:
    with raises_req("UNSQUEEZE_C2") as info:
        unsqueeze(np.zeros((2, 3), np.float16), A(*axes))
    assert info.value.problem == f"unsqueeze: A = {axes} names axis {axis} of Y more than once"


@req("UNSQUEEZE_C3")
@pytest.mark.parametrize("a", [np.array(0, np.int64), np.array([[0, 1]], np.int64)])
def test_C3_A_of_another_rank_is_refused(a: np.ndarray) -> None:
    with raises_req("UNSQUEEZE_C3"):
        unsqueeze(np.zeros(4, np.int8), a)


@req("UNSQUEEZE_C3")
def test_C3_an_empty_A_gives_a_copy_of_X() -> None:
    X = np.arange(6, dtype=np.int16).reshape(2, 3)
    Y = unsqueeze(X, A())
    assert_same(Y, np.arange(6, dtype=np.int16).reshape(2, 3))
    assert not np.shares_memory(X, Y)


@req("GEN_E1")
def test_a_shape_too_large_for_memory_is_refused() -> None:
    X = np.broadcast_to(np.zeros((), np.int8), (2**20, 2**20, 2**20))  # no memory: a broadcast view
    with raises_req("GEN_E1"):
        unsqueeze(X, A(0))


def test_Y_is_a_new_array_even_where_numpy_would_give_a_view() -> None:
    X = np.arange(3, dtype=np.int64)
    Y = unsqueeze(X, A(0))
    Y[0, 0] = 99
    assert X[0] == 0 and not np.shares_memory(X, Y)
    assert_same(Y, np.array([[99, 1, 2]], np.int64))
