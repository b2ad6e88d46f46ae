"""Transpose: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: Y's dimension k is X's dimension perm[k], and Y[i] is X[j]
with j[perm[k]] = i[k], the index j written out coordinate by coordinate. Elements are compared as bits,
so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import itertools

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

from sonnx_spec import transpose

BOOL = np.dtype(np.bool_)


def source(index: tuple[int, ...], perm: tuple[int, ...]) -> tuple[int, ...]:
    """TRANSPOSE_S2: the index j of X that Y[index] comes from, j[perm[k]] = index[k]."""
    j = [0] * len(perm)
    for k, axis in enumerate(perm):
        j[axis] = index[k]
    return tuple(j)


@req("TRANSPOSE_S1", "TRANSPOSE_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_each_axis_of_Y_is_the_axis_perm_names_and_each_element_is_copied(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X = data.draw(tensors(dtype, data.draw(shapes(max_dims=4))))
    perm = tuple(data.draw(st.permutations(range(X.ndim))))
    inputs_unchanged = unchanged(X)
    Y = transpose(X, perm=perm)
    inputs_unchanged()
    assert Y.shape == tuple(X.shape[p] for p in perm) and Y.dtype == dtype
    assert not np.shares_memory(Y, X)
    for index in np.ndindex(Y.shape):
        assert bits(Y)[index] == bits(X)[source(index, perm)], (index, perm)


@req("TRANSPOSE_S1")
@pytest.mark.parametrize(
    ("x", "perm", "shape"),
    [
        ((1, 2, 3), (1, 0, 2), (2, 1, 3)),  # ONNX's first example
        ((1, 2, 3), (1, 2, 0), (2, 3, 1)),  # its second
        ((2, 3, 4), (2, 1, 0), (4, 3, 2)),
        ((2, 0, 5), (2, 0, 1), (5, 2, 0)),
        ((7,), (0,), (7,)),
        ((), (), ()),
    ],
)
def test_S1_shapes_written_out(x: tuple, perm: tuple, shape: tuple) -> None:
    assert transpose(np.zeros(x, np.float32), perm=perm).shape == shape


@req("TRANSPOSE_S2")
def test_S2_every_permutation_of_rank_3_element_by_element() -> None:
    X = np.arange(24, dtype=np.int64).reshape(2, 3, 4)  # X[a, b, c] = 12a + 4b + c
    for perm in itertools.permutations(range(3)):
        Y = transpose(X, perm=perm)
        for i in np.ndindex(Y.shape):
            a, b, c = source(i, perm)
            assert Y[i] == 12 * a + 4 * b + c, (perm, i)


@req("TRANSPOSE_S2")
def test_S2_a_matrix_written_out() -> None:
    X = np.array([[1, 2, 3], [4, 5, 6]], np.uint8)
    assert_same(transpose(X, perm=(1, 0)), np.array([[1, 4], [2, 5], [3, 6]], np.uint8))
    assert_same(transpose(X, perm=(0, 1)), X)


@req("TRANSPOSE_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    X = np.array(patterns, unsigned).view(dtype).reshape(2, 3)  # −0, NaN payloads, a subnormal, +0
    Y = transpose(X, perm=(1, 0))
    assert Y.view(unsigned).tolist() == [
        [patterns[0], patterns[3]],
        [patterns[1], patterns[4]],
        [patterns[2], patterns[5]],
    ]


@req("TRANSPOSE_S2")
@ALL
def test_S2_the_extremes_of_each_type(dtype: np.dtype) -> None:
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    low, high = (info.min, info.max) if info else (-np.inf, np.inf)
    X = np.array([[low, high]], dtype)
    assert_same(transpose(X, perm=(1, 0)), np.array([[low], [high]], dtype))


@req("TRANSPOSE_C1")
@pytest.mark.parametrize(("x", "perm"), [((2, 3), (0,)), ((2, 3), (0, 1, 2)), ((), (0,)), ((4,), ())])
def test_C1_a_perm_of_another_length_than_the_rank_is_refused(x: tuple, perm: tuple) -> None:
    with raises_req("TRANSPOSE_C1") as info:
        transpose(np.zeros(x, np.int8), perm=perm)
    expected = f"transpose: perm {list(perm)} has {len(perm)} entries; X has rank {len(x)}"
    assert info.value.problem == expected
    assert (info.value.operator, info.value.tensor) == ("transpose", "perm")  # the attribute that breaks it


@req("TRANSPOSE_C2")
@pytest.mark.parametrize(("perm", "axis"), [((0, 2), 2), ((-1, 0), -1), ((1, -2), -2), ((5, 9), 5)])
def test_C2_an_axis_outside_0_to_rank_minus_1_is_refused_negative_ones_too(perm: tuple, axis: int) -> None:
    with raises_req("TRANSPOSE_C2") as info:
        transpose(np.zeros((2, 3), np.float16), perm=perm)
    assert info.value.problem == f"transpose: perm holds {axis}; an axis of X is 0 to 1"
    assert (info.value.operator, info.value.tensor) == ("transpose", "perm")


@req("TRANSPOSE_C3")
@pytest.mark.parametrize(
    ("perm", "axis"), [((0, 0, 1), 0), ((2, 1, 1), 1), ((2, 2, 2), 2), ((1, 0, 1, 0), 1), ((3, 0, 2, 0), 0)]
)
def test_C3_an_axis_named_twice_is_refused_naming_the_first_repeated(perm: tuple, axis: int) -> None:
    with raises_req("TRANSPOSE_C3") as info:
        transpose(np.zeros((2, 3, 4, 5)[: len(perm)], BOOL), perm=perm)
    assert info.value.problem == f"transpose: perm {list(perm)} names axis {axis} more than once"
    assert (info.value.operator, info.value.tensor) == ("transpose", "perm")


def test_numpy_integers_in_perm_are_read_as_axes() -> None:
    X = np.arange(6, dtype=np.int32).reshape(2, 3)
    Y = transpose(X, perm=(np.int64(1), np.int64(0)))
    assert_same(Y, np.array([[0, 3], [1, 4], [2, 5]], np.int32))


def test_Y_is_a_new_array_even_where_numpy_would_give_a_view() -> None:
    X = np.arange(6, dtype=np.int64).reshape(2, 3)
    Y = transpose(X, perm=(1, 0))
    Y[0, 0] = 99
    assert X[0, 0] == 0 and not np.shares_memory(X, Y) and Y.flags.c_contiguous
