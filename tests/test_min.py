"""Min: one test (or more) per requirement id, named after it.

The variadic family has no shared test module yet: as Max's tests do, these test the family's behaviour
(the shapes, the type, a new array) for Min itself, with the broadcasting rule restated in support.
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
    broadcast_shape,
    broadcastable,
    is_nan,
    order_key,
    ordered_min,
    raises_req,
    req,
    scalar,
    tensors,
    to_python,
)

from sonnx_spec import min as sonnx_min


@req("MIN_C1")
def test_C1_no_input_is_refused() -> None:
    with raises_req("MIN_C1") as info:
        sonnx_min()
    assert info.value.problem == "min: no input given"


@req("MIN_E1")
@ALL
@pytest.mark.parametrize("shapes", [[(2,), (3,)], [(2, 3), (3, 2)], [(0,), (2,)], [(1,), (2,), (4, 3)]])
def test_E1_shapes_that_do_not_broadcast_are_refused(dtype: np.dtype, shapes: list[tuple[int, ...]]) -> None:
    assert broadcast_shape(*shapes) is None
    with raises_req("MIN_E1") as info:
        sonnx_min(*(np.zeros(s, dtype) for s in shapes))
    assert info.value.problem == f"min: input shapes {', '.join(str(s) for s in shapes)} do not broadcast"


@req("MIN_P2", "MIN_C2", "MIN_S1")
@ALL
@given(data=st.data())
def test_P2_C2_Y_has_the_broadcast_shape_and_the_inputs_type(dtype: np.dtype, data: st.DataObject) -> None:
    inputs = data.draw(broadcastable(dtype))
    Y = sonnx_min(*inputs)
    assert type(Y) is np.ndarray and Y.dtype == dtype
    assert Y.shape == broadcast_shape(*(x.shape for x in inputs))


@req("MIN_P2", "MIN_C2")
@ALL
def test_P2_C2_0_d_inputs_give_a_0_d_array(dtype: np.dtype) -> None:
    Y = sonnx_min(scalar(dtype, 3), np.array(2, dtype))
    assert type(Y) is np.ndarray and Y.dtype == dtype and Y.shape == ()
    assert to_python(Y[()]) == 2


@req("MIN_S1", "MIN_S2", "MIN_C2")
@ALL
@given(data=st.data())
def test_S1_S2_each_element_is_the_least_in_the_order(dtype: np.dtype, data: st.DataObject) -> None:
    inputs = data.draw(broadcastable(dtype))
    assert_computes(sonnx_min, ordered_min, dtype, *inputs)


@req("MIN_S1")
@ALL
@given(data=st.data())
def test_S1_one_input_gives_a_copy(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    Y = sonnx_min(X)
    assert_same(Y, X)
    assert not np.shares_memory(Y, X)


@req("MIN_S1")
@INTS
def test_S1_the_integer_extremes(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X0 = np.array([info.min, info.max, info.max, 0], dtype)
    X1 = np.array([info.max, info.max - 1, info.min, 1], dtype)
    X2 = np.array([info.min + 1, info.max, info.max, 0], dtype)
    assert sonnx_min(X0, X1, X2).tolist() == [info.min, info.max - 1, info.min, 0]


@req("MIN_S2")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (0.0, -0.0, -0.0),
        (-0.0, 0.0, -0.0),
        (0.0, 0.0, 0.0),
        (-0.0, -0.0, -0.0),
        (0.0, 1.0, 0.0),
        (-0.0, 1.0, -0.0),
        (-0.0, -1.0, -1.0),
        (math.nan, -math.inf, math.nan),
        (math.inf, math.nan, math.nan),
        (math.nan, 0.0, math.nan),
        (-math.inf, 1.0, -math.inf),
        (math.inf, -1.0, -1.0),
        (math.inf, -math.inf, -math.inf),
    ],
)
def test_S2_the_order_of_special_values(dtype: np.dtype, a: float, b: float, expected: float) -> None:
    for args in ((a, b), (b, a), (a, b, b), (b, a, a), (a, a, b), (b, b, a)):
        Y = sonnx_min(*(np.array([v], dtype) for v in args))
        assert_same(Y, np.array([expected], dtype))


@req("MIN_S2")
@FLOATS
def test_S2_signed_zero_with_broadcasting(dtype: np.dtype) -> None:
    X0 = np.array([[0.0], [-0.0]], dtype)
    X1 = np.array([0.0, -0.0, 1.0], dtype)
    Y = sonnx_min(X0, X1, scalar(dtype, 0.0))
    assert_same(Y, np.array([[0.0, -0.0, 0.0], [-0.0, -0.0, -0.0]], dtype))


@req("MIN_S2")
@FLOATS
def test_S2_a_minus_zero_in_any_position_of_many(dtype: np.dtype) -> None:
    for k in range(5):
        values = [0.0] * 5
        values[k] = -0.0
        Y = sonnx_min(*(np.array([v, 1.0], dtype) for v in values))
        assert_same(Y, np.array([-0.0, 1.0], dtype))
    Y = sonnx_min(*(np.array([0.0, 2.0], dtype) for _ in range(5)))
    assert_same(Y, np.array([0.0, 2.0], dtype))


@req("MIN_S2")
@FLOATS
def test_S2_subnormals_and_zeros(dtype: np.dtype) -> None:
    tiny = float(np.float64(ml_dtypes.finfo(dtype).smallest_subnormal))
    X0 = np.array([tiny, tiny, -tiny, -tiny], dtype)
    X1 = np.array([0.0, -0.0, 0.0, -0.0], dtype)
    assert_same(sonnx_min(X0, X1), np.array([0.0, -0.0, -tiny, -tiny], dtype))


@req("MIN_S2")
def test_S2_bfloat16_nan_gives_no_warning() -> None:
    # ml_dtypes' bfloat16 kernels flag NaN operands as invalid; the tests turn warnings into errors
    bf16 = np.dtype(ml_dtypes.bfloat16)
    Y = sonnx_min(np.array([math.nan, 1.0], bf16), np.array([1.0, math.nan], bf16))
    assert all(map(is_nan, (to_python(y) for y in Y)))


@req("MIN_P1")
@ALL
@given(data=st.data())
def test_P1_Y_is_at_most_every_input_and_equals_one(dtype: np.dtype, data: st.DataObject) -> None:
    inputs = data.draw(broadcastable(dtype))
    Y = sonnx_min(*inputs)
    views = np.broadcast_arrays(*inputs)
    for index in np.ndindex(Y.shape):
        y = to_python(Y[index])
        values = [to_python(v[index]) for v in views]
        if is_nan(y):
            assert any(map(is_nan, values))
        else:
            assert not any(map(is_nan, values))
            assert all(order_key(y) <= order_key(v) for v in values)
            assert any(order_key(y) == order_key(v) for v in values)


@req("MIN_S1")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S1_64_bit_extremes_are_exact(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X0 = np.array([info.max - 1, info.min], dtype)
    X1 = np.array([info.max, info.min + 1], dtype)
    assert sonnx_min(X0, X1).tolist() == [info.max - 1, info.min]
    assert sonnx_min(X1, X0).tolist() == [info.max - 1, info.min]


@req("GEN_E1", "MIN_P2")
def test_GEN_E1_a_broadcast_result_too_large_for_memory_is_refused() -> None:
    # The shapes broadcast (not MIN_E1), but their common shape holds 2^64 elements.
    column = np.broadcast_to(np.zeros((1, 1), np.float32), (2**31, 1))  # views: no memory of their own
    row = np.broadcast_to(np.zeros((1, 1), np.float32), (1, 2**33))
    with raises_req("GEN_E1") as info:
        sonnx_min(column, row)
    assert info.value.problem == (
        "min: a result of shape (2147483648, 8589934592) and type float32 "
        "does not fit in this machine's memory"
    )
