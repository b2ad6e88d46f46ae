"""Where: one test (or more) per rule id, named after it.

The oracle selects, element by element, on Python values: ``x if c else y``.
Results are compared bit for bit (NaNs alike), so a zero's sign is checked too.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    INTS,
    assert_computes,
    assert_same,
    raises_req,
    req,
    scalar,
    shapes,
    tensors,
    unchanged,
)

from sonnx_spec import where

BOOL = np.dtype(np.bool_)
NAN, INF = math.nan, math.inf


def where_oracle(c: bool, x: int | float, y: int | float) -> int | float:
    return x if c else y


@st.composite
def triples(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A bool condition and two tensors of ``dtype``, all of one shape, any values."""
    shape = draw(shapes())
    return draw(tensors(BOOL, shape)), draw(tensors(dtype, shape)), draw(tensors(dtype, shape))


SHAPE_MISMATCHES = [
    # (C, X, Y): the first shape that differs from C's is named; several of these broadcast in ONNX
    ((2,), (3,), (2,), "X has shape (3,) but C has shape (2,)"),
    ((2,), (2,), (3,), "Y has shape (3,) but C has shape (2,)"),
    ((2, 3), (3,), (2, 3), "X has shape (3,) but C has shape (2, 3)"),
    ((3,), (2, 3), (2, 3), "X has shape (2, 3) but C has shape (3,)"),
    ((), (1,), (1,), "X has shape (1,) but C has shape ()"),
    ((2, 1), (2, 1), (2, 4), "Y has shape (2, 4) but C has shape (2, 1)"),
    ((0,), (0,), (1,), "Y has shape (1,) but C has shape (0,)"),
]


@req("WHERE_C1")
@ALL
@pytest.mark.parametrize(("c", "x", "y", "problem"), SHAPE_MISMATCHES)
def test_C1_C_X_and_Y_of_different_shapes_are_refused(
    dtype: np.dtype, c: tuple, x: tuple, y: tuple, problem: str
) -> None:
    C, X, Y = np.ones(c, BOOL), np.zeros(x, dtype), np.ones(y, dtype)
    inputs_unchanged = unchanged(C, X, Y)
    with raises_req("WHERE_C1") as info:
        where(C, X, Y)
    inputs_unchanged()
    assert info.value.problem == f"where: {problem}"


@req("WHERE_C1", "WHERE_C2")
@ALL
@given(data=st.data())
def test_C1_C2_Z_is_a_new_tensor_of_the_inputs_shape_and_type(dtype: np.dtype, data: st.DataObject) -> None:
    C, X, Y = data.draw(triples(dtype))
    Z = where(C, X, Y)
    assert type(Z) is np.ndarray and Z.dtype == dtype and Z.shape == C.shape
    assert not any(np.shares_memory(Z, a) for a in (C, X, Y))


@req("WHERE_C1", "WHERE_C2")
@ALL
def test_C1_C2_numpy_scalars_give_a_0_d_array(dtype: np.dtype) -> None:
    Z = where(np.bool_(False), scalar(dtype, 1), scalar(dtype, 2))
    assert type(Z) is np.ndarray and Z.dtype == dtype and Z.shape == () and Z[()] == 2


@req("WHERE_S1", "WHERE_S2")
@ALL
@given(data=st.data())
def test_S1_S2_each_element_is_selected_by_C(dtype: np.dtype, data: st.DataObject) -> None:
    C, X, Y = data.draw(triples(dtype))
    assert_computes(where, where_oracle, dtype, C, X, Y)


@req("WHERE_S1")
@ALL
def test_S1_all_true_gives_X_all_false_gives_Y_and_one_tensor_for_both(dtype: np.dtype) -> None:
    X, Y = np.array([[1, 2], [3, 4]], dtype), np.array([[5, 6], [7, 8]], dtype)
    assert_same(where(np.ones((2, 2), BOOL), X, Y), X)
    assert_same(where(np.zeros((2, 2), BOOL), X, Y), Y)
    C = np.array([[True, False], [False, True]])
    Z = where(C, X, X)  # X as both branches: still a new array
    assert_same(Z, X)
    assert not np.shares_memory(Z, X)


@req("WHERE_S1")
@INTS
def test_S1_integer_extremes_are_copied_exactly(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.min, info.max, info.max - 1], dtype)
    Y = np.array([info.max, info.min, info.min + 1], dtype)
    Z = where(np.array([True, True, False]), X, Y)
    assert Z.tolist() == [int(info.min), int(info.max), int(info.min) + 1]


@req("WHERE_S2")
@FLOATS
def test_S2_the_element_not_selected_plays_no_part_even_NaN(dtype: np.dtype) -> None:
    C = np.array([True, False, True, False])
    X = np.array([1.0, NAN, -0.0, NAN], dtype)
    Y = np.array([NAN, 2.0, NAN, -INF], dtype)
    assert_same(where(C, X, Y), np.array([1.0, 2.0, -0.0, -INF], dtype))


@req("WHERE_S2")
@FLOATS
def test_S2_zeros_infinities_subnormals_and_NaN_are_copied_unchanged(dtype: np.dtype) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    C = np.array([True, False] * 4)
    X = np.array([-0.0, 0.0, INF, -INF, tiny, -tiny, NAN, 1.0], dtype)
    Y = np.array([0.0, -0.0, -INF, INF, -tiny, tiny, 1.0, NAN], dtype)
    expected = np.array([-0.0, -0.0, INF, INF, tiny, tiny, NAN, NAN], dtype)
    assert_same(where(C, X, Y), expected)  # bit for bit (NaNs alike): the zeros keep their signs


@req("WHERE_S2")
@FLOATS
def test_S2_the_draft_example_2(dtype: np.dtype) -> None:
    C = np.array([True, False, True, False, True])
    X = np.array([0.0, 0.0, INF, INF, NAN], dtype)
    Y = np.array([0.0, -0.0, -INF, -INF, 1.0], dtype)
    assert_same(where(C, X, Y), np.array([0.0, -0.0, INF, -INF, NAN], dtype))


@req("GEN_E1")
def test_GEN_E1_a_result_too_large_for_memory_is_refused() -> None:
    shape = (2**30, 2**30)  # views: no memory of their own
    C, X = np.broadcast_to(np.ones((1, 1), BOOL), shape), np.broadcast_to(np.zeros((1, 1), np.int32), shape)
    with raises_req("GEN_E1") as info:
        where(C, X, X)
    assert info.value.problem == (
        "where: a result of shape (1073741824, 1073741824) and type int32 "
        "does not fit in this machine's memory"
    )
