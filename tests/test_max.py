"""Max: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    assert_computes,
    assert_same,
    broadcast_shape,
    broadcastable,
    is_nan,
    order_key,
    ordered_max,
    raises_req,
    req,
    scalar,
    tensors,
    to_python,
)

from sonnx_spec import max as sonnx_max


def sample(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    return np.array([1, 5], dtype=dtype), np.array([3, 2], dtype=dtype)


@req("MAX_C1")
def test_C1_no_input_is_refused() -> None:
    with raises_req("MAX_C1") as info:
        sonnx_max()
    assert info.value.problem == "max: no input given"


@req("MAX_E1")
@ALL
@pytest.mark.parametrize("shapes", [[(2,), (3,)], [(2, 3), (3, 2)], [(0,), (2,)], [(1,), (2,), (4, 3)]])
def test_E1_shapes_that_do_not_broadcast_are_refused(dtype: np.dtype, shapes: list[tuple[int, ...]]) -> None:
    assert broadcast_shape(*shapes) is None
    with raises_req("MAX_E1") as info:
        sonnx_max(*(np.zeros(s, dtype) for s in shapes))
    assert info.value.problem == f"max: input shapes {', '.join(str(s) for s in shapes)} do not broadcast"


@req("MAX_P2", "MAX_C3", "MAX_S1")
@ALL
@given(data=st.data())
def test_P2_C3_Y_has_the_broadcast_shape_and_the_inputs_type(dtype: np.dtype, data: st.DataObject) -> None:
    inputs = data.draw(broadcastable(dtype))
    Y = sonnx_max(*inputs)
    assert type(Y) is np.ndarray and Y.dtype == dtype
    assert Y.shape == broadcast_shape(*(x.shape for x in inputs))


@req("MAX_S1", "MAX_S2", "MAX_C3")
@ALL
@given(data=st.data())
def test_S1_S2_each_element_is_the_greatest_in_the_order(dtype: np.dtype, data: st.DataObject) -> None:
    inputs = data.draw(broadcastable(dtype))
    assert_computes(sonnx_max, ordered_max, dtype, *inputs)


@req("MAX_S1")
@ALL
@given(data=st.data())
def test_S1_one_input_gives_a_copy(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    Y = sonnx_max(X)
    assert_same(Y, X)
    assert not np.shares_memory(Y, X)


@req("MAX_S2")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (0.0, -0.0, 0.0),
        (-0.0, 0.0, 0.0),
        (-0.0, -0.0, -0.0),
        (-0.0, -1.0, -0.0),
        (math.nan, math.inf, math.nan),
        (-math.inf, math.nan, math.nan),
        (math.inf, 1.0, math.inf),
        (-math.inf, -1.0, -1.0),
    ],
)
def test_S2_the_order_of_special_values(dtype: np.dtype, a: float, b: float, expected: float) -> None:
    for args in ((a, b), (b, a), (a, b, b), (b, a, a)):
        Y = sonnx_max(*(np.array([v], dtype) for v in args))
        assert_same(Y, np.array([expected], dtype))


@req("MAX_S2")
@FLOATS
def test_S2_signed_zero_with_broadcasting(dtype: np.dtype) -> None:
    X0 = np.array([[-0.0], [0.0]], dtype)
    X1 = np.array([-0.0, 0.0, -1.0], dtype)
    Y = sonnx_max(X0, X1, scalar(dtype, -0.0))
    assert_same(Y, np.array([[-0.0, 0.0, -0.0], [0.0, 0.0, 0.0]], dtype))


@req("MAX_P1")
@ALL
@given(data=st.data())
def test_P1_Y_is_at_least_every_input_and_equals_one(dtype: np.dtype, data: st.DataObject) -> None:
    inputs = data.draw(broadcastable(dtype))
    Y = sonnx_max(*inputs)
    views = np.broadcast_arrays(*inputs)
    for index in np.ndindex(Y.shape):
        y = to_python(Y[index])
        values = [to_python(v[index]) for v in views]
        if is_nan(y):
            assert any(map(is_nan, values))
        else:
            assert all(order_key(y) >= order_key(v) for v in values)
            assert any(order_key(y) == order_key(v) for v in values)


@req("MAX_S1")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S1_64_bit_extremes_are_exact(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X0 = np.array([info.max - 1, info.min], dtype)
    X1 = np.array([info.max, info.min + 1], dtype)
    assert sonnx_max(X0, X1).tolist() == [info.max, info.min + 1]
