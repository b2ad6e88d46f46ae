"""Expand: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: the common shape written out axis by axis from X's shape and
S, each extended with 1s on the left, and Y[i] read from X at i's last coordinates, 0 where X has size 1.
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

from sonnx_spec import expand

BOOL = np.dtype(np.bool_)


def S(*dims: int) -> np.ndarray:
    return np.array(dims, np.int64)


def common_shape(x: tuple[int, ...], s: list[int]) -> tuple[int, ...]:
    """EXPAND_S1: both extended on the left with 1s, then at each axis X's size unless it is 1."""
    n = max(len(x), len(s))
    x1 = [1] * (n - len(x)) + list(x)
    s1 = [1] * (n - len(s)) + list(s)
    return tuple(s1[j] if x1[j] == 1 else x1[j] for j in range(n))


def source(index: tuple[int, ...], x: tuple[int, ...]) -> tuple[int, ...]:
    """EXPAND_S2: the last len(x) coordinates of index, 0 where X has size 1."""
    last = index[len(index) - len(x) :]
    return tuple(0 if d == 1 else c for c, d in zip(last, x, strict=True))


@st.composite
def expansions(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list[int]]:
    """X of any shape with some sizes 1, and an S that broadcasts with it: at each aligned axis X's size,
    1, or any size where X has 1; sometimes more axes, sometimes fewer."""
    x = [1 if draw(st.booleans()) else d for d in draw(shapes(max_dims=3))]
    X = draw(tensors(dtype, tuple(x)))
    s = [draw(st.sampled_from([d, 1] if d != 1 else [1, 0, 2, 3])) for d in x]
    if draw(st.booleans()):
        return X, s[draw(st.integers(0, len(s))) :]  # fewer axes than X: X's leading ones kept
    return X, [draw(st.integers(1, 3)) for _ in range(draw(st.integers(0, 2)))] + s  # more axes


@req("EXPAND_S1", "EXPAND_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_the_common_shape_and_every_element_from_X_at_its_aligned_index(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X, wanted = data.draw(expansions(dtype))
    inputs_unchanged = unchanged(X)
    Y = expand(X, S(*wanted))
    inputs_unchanged()
    assert Y.shape == common_shape(X.shape, wanted) and Y.dtype == dtype
    assert not np.shares_memory(Y, X)
    for index in np.ndindex(Y.shape):
        assert bits(Y)[index] == bits(X)[source(index, X.shape)], index


@req("EXPAND_S1")
@pytest.mark.parametrize(
    ("x", "wanted", "shape"),
    [
        ((3, 1), [2, 1, 6], (2, 3, 6)),  # ONNX's backend case test_expand_dim_changed
        ((3, 1), [3, 4], (3, 4)),  # test_expand_dim_unchanged
        ((3, 1), [4], (3, 4)),  # S of lower rank
        ((3, 1), [1, 1], (3, 1)),  # 1 where X has 3: X's size
        ((2, 3), [], (2, 3)),
        ((), [], ()),
        ((), [2, 0], (2, 0)),
        ((1,), [0], (0,)),
        ((0, 1), [1, 5], (0, 5)),
        ((1, 1, 1), [7], (1, 1, 7)),
    ],
)
def test_S1_shapes_written_out(x: tuple, wanted: list[int], shape: tuple) -> None:
    assert expand(np.zeros(x, np.float32), S(*wanted)).shape == shape


@req("EXPAND_S2")
def test_S2_a_column_and_a_row_written_out() -> None:
    column = np.array([[1], [2], [3]], np.int16)
    expected = np.array([[[1] * 6, [2] * 6, [3] * 6]] * 2, np.int16)
    assert_same(expand(column, S(2, 1, 6)), expected)
    row = np.array([7, 8], np.uint64)
    assert_same(expand(row, S(3, 1)), np.array([[7, 8], [7, 8], [7, 8]], np.uint64))


@req("EXPAND_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    patterns = patterns[:5]  # no +0
    X = np.array(patterns, unsigned).view(dtype)  # −0, NaN payloads, a subnormal
    Y = expand(X, S(2, 5))
    assert Y.view(unsigned).tolist() == [patterns, patterns]


@req("EXPAND_S2")
@ALL
def test_S2_the_extremes_of_each_type(dtype: np.dtype) -> None:
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    low, high = (info.min, info.max) if info else (-np.inf, np.inf)
    X = np.array([[low], [high]], dtype)
    assert_same(expand(X, S(2, 2)), np.array([[low, low], [high, high]], dtype))


@req("EXPAND_C1")
@pytest.mark.parametrize("s", [np.array(2, np.int64), np.array([[2, 2]], np.int64)])
def test_C1_S_of_another_rank_is_refused(s: np.ndarray) -> None:
    with raises_req("EXPAND_C1"):
        expand(np.zeros(2, np.int8), s)


@req("EXPAND_C2")
@pytest.mark.parametrize(
    ("wanted", "first"), [([3, -1], -1), ([-2], -2), ([-9223372036854775808, 1], -9223372036854775808)]
)
def test_C2_a_negative_dimension_is_refused(wanted: list[int], first: int) -> None:
    with raises_req("EXPAND_C2") as info:
        expand(np.zeros((3, 1), np.float64), S(*wanted))
    assert info.value.problem == f"expand: S holds {first}; a dimension is 0 or more"


@req("EXPAND_C3")
@pytest.mark.parametrize(
    ("x", "wanted"), [((3, 1), [2, 4]), ((3, 1), [0, 4]), ((2, 3), [2]), ((3,), [2, 2]), ((0,), [2])]
)
def test_C3_shapes_that_do_not_broadcast_are_refused(x: tuple, wanted: list[int]) -> None:
    with raises_req("EXPAND_C3") as info:
        expand(np.zeros(x, BOOL), S(*wanted))
    assert info.value.problem == f"expand: X's shape {x} and S = {wanted} do not broadcast"


@req("GEN_E1")
def test_a_shape_too_large_for_memory_is_refused() -> None:
    with raises_req("GEN_E1") as info:
        expand(np.zeros((1,), np.float16), S(2**62))
    assert info.value.problem.startswith("expand: a result of shape (4611686018427387904,)")


def test_Y_is_a_new_writable_array_where_numpy_gives_a_read_only_view() -> None:
    X = np.array([1, 2], np.int64)
    Y = expand(X, S(2, 2))
    Y[0, 0] = 99
    assert X[0] == 1 and not np.shares_memory(X, Y) and Y.flags.writeable
    assert_same(Y, np.array([[99, 2], [1, 2]], np.int64))
