"""Neg: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import (
    FLOATS,
    SIGNED_INTS,
    Member,
    assert_same,
    elementwise,
    raises_req,
    req,
    tensors,
    unchanged,
    without_lowest,
)

from sonnx_spec import FLOAT_TYPES, TYPES
from sonnx_spec import neg as sonnx_neg

NEG_TYPES = [t for t in TYPES if t.kind in "if" or t in FLOAT_TYPES]
"""The types Neg takes: the signed integers and the floating-point types."""
NEG = pytest.mark.parametrize("dtype", NEG_TYPES, ids=[t.name for t in NEG_TYPES])
UNSIGNED = [t for t in TYPES if t.kind == "u"]


def neg_oracle(x: int | float) -> int | float:
    return -x  # Python's: exact on ints; on floats a sign flip, -(0.0) is -0.0 and -nan is nan


def representable(X: np.ndarray) -> bool:
    """No element is the lowest value of a signed integer type (NEG_E1)."""
    return X.dtype.kind != "i" or not (X == np.iinfo(X.dtype).min).any()


FAMILY_MEMBER = Member(
    oracle=lambda dtype: neg_oracle,
    results=("NEG_C1", "NEG_C2"),
    semantics=("NEG_S1", "NEG_S2"),
    defined=without_lowest,
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def test_the_types_of_neg() -> None:
    assert [t.name for t in NEG_TYPES] == [
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "bfloat16",
    ]


@req("NEG_E1")
@SIGNED_INTS
def test_E1_the_lowest_signed_integer_is_refused(dtype: np.dtype) -> None:
    lowest = int(np.iinfo(dtype).min)
    X = np.array([[1, -1], [lowest + 1, lowest]], dtype=dtype)
    inputs_unchanged = unchanged(X)
    with raises_req("NEG_E1") as info:
        sonnx_neg(X)
    inputs_unchanged()
    assert info.value.problem == (
        f"neg: X[1, 1] is {lowest}, the lowest {dtype}; its negation is not representable in {dtype}"
    )
    assert_same(sonnx_neg(X[:, :1]), np.array([[-1], [-(lowest + 1)]], dtype=dtype))


@req("NEG_E1")
@SIGNED_INTS
@pytest.mark.parametrize("shape", [(), (1,), (3, 1), (2, 0, 2)])
def test_E1_the_lowest_value_is_refused_in_any_shape(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    lowest = int(np.iinfo(dtype).min)
    X = np.full(shape, lowest, dtype)
    if X.size == 0:  # nothing to negate: an empty tensor gives an empty tensor
        assert_same(sonnx_neg(X), np.empty(shape, dtype))
        return
    with raises_req("NEG_E1") as info:
        sonnx_neg(X)
    assert info.value.problem.startswith(f"neg: X{[0] * len(shape)} is {lowest}, ")
    with raises_req("NEG_E1") as info:
        sonnx_neg(np.array(lowest, dtype)[()])  # a numpy scalar too
    assert info.value.problem.startswith(f"neg: X[] is {lowest}, ")


@req("NEG_E1", "NEG_S1")
@SIGNED_INTS
@given(data=st.data())
def test_E1_refused_exactly_when_X_holds_the_lowest_value(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    lowest = X == np.iinfo(dtype).min
    if not lowest.any():
        assert_same(sonnx_neg(X), elementwise(neg_oracle, dtype, X))
        return
    first = [int(i) for i in np.unravel_index(int(np.argmax(lowest)), X.shape)]
    with raises_req("NEG_E1") as info:
        sonnx_neg(X)
    assert info.value.problem.startswith(f"neg: X{first} is {np.iinfo(dtype).min}, ")


@req("NEG_S1")
@SIGNED_INTS
def test_S1_integer_extremes(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.max, int(info.min) + 1, -1, 0, 1], dtype=dtype)
    assert sonnx_neg(X).tolist() == [-int(info.max), int(info.max), 1, 0, -1]


@req("NEG_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    X = np.array([0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan], dtype=dtype)
    Y = sonnx_neg(X)
    assert_same(Y, np.array([-0.0, 0.0, -math.inf, math.inf, math.nan, math.nan], dtype=dtype))
    assert np.signbit(Y[:4]).tolist() == [True, False, True, False]


@req("NEG_S2")
@FLOATS
def test_S2_only_the_sign_bit_changes(dtype: np.dtype) -> None:
    bits = np.dtype(f"u{dtype.itemsize}")
    every = np.arange(2**16, dtype=np.uint16).astype(bits)  # every float16 and bfloat16; a sample above
    pattern = every * (2 ** (8 * dtype.itemsize - 16)) | (every & 0xFF)
    X = pattern.view(dtype)
    sign = bits.type(1 << (8 * dtype.itemsize - 1))
    assert np.array_equal(sonnx_neg(X).view(bits), pattern ^ sign)  # NaN payloads included


@req("NEG_P1")
@NEG
@given(data=st.data())
def test_P1_negating_twice_gives_X_back(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    assume(representable(X))
    Y = sonnx_neg(sonnx_neg(X))
    if dtype in FLOAT_TYPES:
        number = ~np.isnan(X)
        bits = np.dtype(f"u{dtype.itemsize}")
        assert np.array_equal(Y[number].view(bits), X[number].view(bits))
        assert np.isnan(Y[~number]).all()
    else:
        assert np.array_equal(Y, X)
