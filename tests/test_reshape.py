"""Reshape: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: the shape from S element by element, and each element of Y
taken from X at the same row-major position (``offset`` and ``index`` written out here, on Python ints).
Elements are compared as bits, so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import math

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
    offset,
    raises_req,
    req,
    shapes,
    tensors,
    unchanged,
)

from sonnx_spec import reshape

BOOL = np.dtype(np.bool_)


def S(*dims: int) -> np.ndarray:
    return np.array(dims, np.int64)


def expected_shape(X_shape: tuple[int, ...], wanted: list[int], allowzero: int) -> tuple[int, ...]:
    """RESHAPE_S1, dimension by dimension."""
    dims = [X_shape[i] if d == 0 and allowzero == 0 else d for i, d in enumerate(wanted)]
    if -1 in dims:
        others = math.prod(d for d in dims if d != -1)
        dims[dims.index(-1)] = math.prod(X_shape) // others
    return tuple(dims)


@st.composite
def reshapes(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list[int], int]:
    """X of any shape and values, and an S that fits it: its size factored into dimensions, some written
    as 0 (X's dimension, allowzero 0) and one perhaps as −1."""
    X = draw(tensors(dtype, draw(shapes(max_dims=3))))
    size = X.size
    dims: list[int] = []
    while size > 1 and len(dims) < 4:
        factor = draw(st.sampled_from([f for f in range(1, size + 1) if size % f == 0]))
        dims.append(factor)
        size //= factor
    dims.append(size)
    dims = draw(st.permutations(dims))
    allowzero = 1 if 0 in dims else draw(st.sampled_from([0, 1]))  # with 0, a written 0 would copy
    written = list(dims)
    if allowzero == 0:
        for axis, d in enumerate(dims):
            if axis < X.ndim and X.shape[axis] == d and d != 0 and draw(st.booleans()):
                written[axis] = 0  # X's dimension, copied
    if written and math.prod(d for d in dims if d) and draw(st.booleans()):
        axis = draw(st.integers(0, len(written) - 1))
        if dims[axis] != 0 and not (allowzero == 1 and 0 in written):
            written[axis] = -1
    return X, written, allowzero


@req("RESHAPE_S1", "RESHAPE_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_the_shape_S_gives_and_every_element_from_the_same_row_major_position(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X, wanted, allowzero = data.draw(reshapes(dtype))
    inputs_unchanged = unchanged(X)
    Y = reshape(X, S(*wanted), allowzero=allowzero)
    inputs_unchanged()
    assert Y.shape == expected_shape(X.shape, wanted, allowzero) and Y.dtype == dtype
    assert not np.shares_memory(Y, X)
    for index in np.ndindex(Y.shape):
        source = index_of(offset(index, Y.shape), X.shape)
        assert bits(Y)[index] == bits(X)[source], (index, source)


@req("RESHAPE_S1")
@pytest.mark.parametrize(
    ("x", "wanted", "allowzero", "shape"),
    [
        ((2, 5), [5, 2], 0, (5, 2)),  # the draft's example 1
        ((2, 3, 4), [0, 6, -1], 0, (2, 6, 2)),  # its example 2
        ((0, 3, 8), [1, 2, 0], 1, (1, 2, 0)),  # its example 4
        ((2, 5), [0, -1], 0, (2, 5)),
        ((2, 3, 4), [-1], 0, (24,)),
        ((), [], 0, ()),
        ((1,), [], 1, ()),
        ((), [1, 1, 1], 0, (1, 1, 1)),
        ((0, 3), [-1, 3], 0, (0, 3)),  # −1 is 0 where the others' product is not 0
        ((0, 3), [0, 0], 0, (0, 3)),
        ((2, 0), [0, 5, 0], 1, (0, 5, 0)),
    ],
)
def test_S1_shapes_written_out(x: tuple, wanted: list[int], allowzero: int, shape: tuple) -> None:
    assert reshape(np.zeros(x, np.float32), S(*wanted), allowzero=allowzero).shape == shape


@req("RESHAPE_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    patterns = patterns[:5]  # no +0
    X = np.array(patterns, unsigned).view(dtype).reshape(5, 1)  # −0, NaN payloads, a subnormal
    Y = reshape(X, S(5), allowzero=0)
    assert Y.view(unsigned).tolist() == patterns


@req("RESHAPE_C1")
@pytest.mark.parametrize("allowzero", [-1, 2, 10])
def test_C1_allowzero_other_than_0_or_1_is_refused(allowzero: int) -> None:
    with raises_req("RESHAPE_C1") as info:
        reshape(np.zeros(4, np.int8), S(2, 2), allowzero=allowzero)
    assert info.value.problem == f"reshape: allowzero is {allowzero}, not 0 or 1"


@req("RESHAPE_C2")
@ALL
def test_C2_a_0_at_an_axis_X_does_not_have_is_refused(dtype: np.dtype) -> None:
    with raises_req("RESHAPE_C2") as info:
        reshape(np.zeros((2, 5), dtype), S(2, 5, 0), allowzero=0)
    assert info.value.problem == "reshape: S[2] is 0 (X's dimension 2), but X has rank 2"
    with raises_req("RESHAPE_C2"):
        reshape(np.zeros((), dtype), S(0), allowzero=0)
    assert reshape(np.zeros((0, 5), dtype), S(0, 5, 0), allowzero=1).shape == (0, 5, 0)  # allowzero 1: a size


@req("RESHAPE_C3")
@pytest.mark.parametrize("wanted", [[-2, -5], [2, -3], [-9223372036854775808]])
def test_C3_a_dimension_below_minus_1_is_refused(wanted: list[int]) -> None:
    with raises_req("RESHAPE_C3") as info:
        reshape(np.zeros(10, np.float32), S(*wanted), allowzero=0)
    assert (
        info.value.problem
        == f"reshape: S holds {next(d for d in wanted if d < -1)}; a dimension is −1, 0 or more"
    )


@req("RESHAPE_C3")
def test_C3_0_and_minus_1_together_are_refused_with_allowzero_1_only() -> None:
    X = np.arange(10, dtype=np.int32).reshape(2, 5)
    with raises_req("RESHAPE_C3") as info:
        reshape(X, S(0, -1), allowzero=1)  # the draft's example 3
    assert info.value.problem == "reshape: S is [0, -1] with allowzero 1: a 0 and a −1 together"
    with raises_req("RESHAPE_C3"):
        reshape(np.zeros((0, 3)), S(-1, 0), allowzero=1)  # even where X is empty
    assert reshape(X, S(0, -1), allowzero=0).shape == (2, 5)


@req("RESHAPE_C4")
@pytest.mark.parametrize("wanted", [[-1, -1], [-1, 2, -1], [1, -1, -1, 1]])
def test_C4_minus_1_twice_is_refused(wanted: list[int]) -> None:
    with raises_req("RESHAPE_C4") as info:
        reshape(np.zeros(4, np.uint16), S(*wanted), allowzero=0)
    assert info.value.problem == f"reshape: S is {wanted}, with −1 more than once"


@req("RESHAPE_C5")
@pytest.mark.parametrize(
    ("x", "wanted", "allowzero", "problem"),
    [
        ((2, 5), [3, 3], 0, "S = [3, 3] gives shape (3, 3), of 9 elements; X has 10"),
        ((10,), [], 0, "S = [] gives shape (), of 1 elements; X has 10"),
        ((), [2], 0, "S = [2] gives shape (2,), of 2 elements; X has 1"),
        ((2, 5), [3, -1], 0, "no dimension at −1 of S = [3, -1] gives X's 10 elements"),
        ((0, 3), [0, -1], 0, "no dimension at −1 of S = [0, -1] gives X's 0 elements"),
        ((2, 5), [0, 5], 1, "S = [0, 5] gives shape (0, 5), of 0 elements; X has 10"),
        ((4,), [2, 2, 2], 1, "S = [2, 2, 2] gives shape (2, 2, 2), of 8 elements; X has 4"),
    ],
)
def test_C5_a_shape_of_another_size_is_refused(
    x: tuple, wanted: list[int], allowzero: int, problem: str
) -> None:
    X = np.zeros(x, np.float64)
    with raises_req("RESHAPE_C5") as info:
        reshape(X, S(*wanted), allowzero=allowzero)
    assert info.value.problem == f"reshape: {problem}"


@req("RESHAPE_C6")
@pytest.mark.parametrize("s", [np.array(2, np.int64), np.array([[2, 2]], np.int64)])
def test_C6_S_of_another_rank_is_refused(s: np.ndarray) -> None:
    with raises_req("RESHAPE_C6"):
        reshape(np.zeros(4, np.int8), s, allowzero=0)


@req("GEN_E1")
def test_a_shape_too_large_for_memory_is_refused_even_for_an_empty_X() -> None:
    with raises_req("GEN_E1") as info:
        reshape(np.zeros((0,), np.float16), S(0, 2**62), allowzero=1)
    assert info.value.problem == (
        "reshape: a result of shape (0, 4611686018427387904) and type float16 does not fit in this "
        "machine's memory"
    )


def test_Y_is_a_new_array_even_where_numpy_would_give_a_view() -> None:
    X = np.arange(6, dtype=np.int64)
    Y = reshape(X, S(2, 3), allowzero=0)
    Y[0, 0] = 99
    assert X[0] == 0 and not np.shares_memory(X, Y)
    assert_same(Y, np.array([[99, 1, 2], [3, 4, 5]], np.int64))
