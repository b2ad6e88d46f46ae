"""Abs: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    INTS,
    SIGNED_INTS,
    Member,
    assert_same,
    elementwise,
    is_nan,
    raises_req,
    req,
    tensors,
    to_python,
    unchanged,
    without_lowest,
)

from sonnx_spec import TYPES
from sonnx_spec import abs as sonnx_abs


def abs_oracle(x: float) -> float:
    return math.fabs(x) if isinstance(x, float) else abs(x)  # fabs: |-0| = +0, |NaN| = NaN


def representable(X: np.ndarray) -> bool:
    """No element is the lowest value of a signed integer type (ABS_E1)."""
    return X.dtype.kind != "i" or not (X == np.iinfo(X.dtype).min).any()


FAMILY_MEMBER = Member(
    oracle=lambda dtype: abs_oracle,
    results=("ABS_C1", "ABS_C2"),
    semantics=("ABS_S1", "ABS_S2"),
    defined=without_lowest,
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


@req("ABS_E1")
@SIGNED_INTS
def test_E1_the_lowest_signed_integer_is_refused(dtype: np.dtype) -> None:
    lowest = np.iinfo(dtype).min
    X = np.array([[1, -1], [lowest + 1, lowest]], dtype=dtype)
    inputs_unchanged = unchanged(X)
    with raises_req("ABS_E1") as info:
        sonnx_abs(X)
    inputs_unchanged()
    assert f"X[1, 1] is {lowest}, the lowest {dtype}" in str(info.value)
    assert_same(sonnx_abs(X[:, :1]), np.array([[1], [-(lowest + 1)]], dtype=dtype))


@req("ABS_E1")
@SIGNED_INTS
@pytest.mark.parametrize("shape", [(), (1,), (3, 1)])
def test_E1_the_lowest_value_is_refused_in_any_shape(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    lowest = np.iinfo(dtype).min
    X = np.full(shape, lowest, dtype)
    with raises_req("ABS_E1") as info:
        sonnx_abs(X)
    assert f"X{[0] * len(shape)} is {lowest}" in str(info.value)
    with raises_req("ABS_E1"):
        sonnx_abs(np.array(lowest, dtype)[()])  # a numpy scalar too


@req("ABS_E1", "ABS_S1")
@SIGNED_INTS
@given(data=st.data())
def test_E1_refused_exactly_when_X_holds_the_lowest_value(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    lowest = X == np.iinfo(dtype).min
    if not lowest.any():
        assert_same(sonnx_abs(X), elementwise(abs_oracle, dtype, X))
        return
    first = [int(i) for i in np.unravel_index(int(np.argmax(lowest)), X.shape)]
    with raises_req("ABS_E1") as info:
        sonnx_abs(X)
    assert f"X{first} is {np.iinfo(dtype).min}" in str(info.value)


@req("ABS_E1")
@pytest.mark.parametrize("dtype", [t for t in TYPES if t.kind == "u"], ids=lambda t: t.name)
def test_E1_does_not_concern_unsigned_types(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.min, info.max], dtype=dtype)
    assert_same(sonnx_abs(X), X)


@req("ABS_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    X = np.array([-0.0, 0.0, -math.inf, math.inf, math.nan, -math.nan], dtype=dtype)
    Y = sonnx_abs(X)
    assert_same(Y, np.array([0.0, 0.0, math.inf, math.inf, math.nan, math.nan], dtype=dtype))
    assert not np.signbit(Y[:4]).any()


@req("ABS_P1")
@ALL
@given(data=st.data())
def test_P1_Y_is_non_negative_and_equals_X_or_minus_X(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    assume(representable(X))
    for x, y in zip(map(to_python, X.ravel()), map(to_python, sonnx_abs(X).ravel()), strict=True):
        assert is_nan(y) == is_nan(x)
        if not is_nan(y):
            assert y >= 0 and y in (x, -x)


@req("ABS_S1")
@INTS
def test_S1_integer_extremes(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.max, info.min + (1 if info.min < 0 else 0)], dtype=dtype)
    assert sonnx_abs(X).tolist() == [info.max, abs(int(info.min) + (1 if info.min < 0 else 0))]
