"""Relu: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    FLOATS,
    SIGNED_INTS,
    Member,
    assert_same,
    is_nan,
    req,
    tensors,
    to_python,
)

from sonnx_spec import FLOAT_TYPES, TYPES
from sonnx_spec import relu as sonnx_relu

RELU_TYPES = [t for t in TYPES if t.kind == "i" or t in FLOAT_TYPES]
"""The types Relu takes: the signed integers and the floating-point types."""
RELU = pytest.mark.parametrize("dtype", RELU_TYPES, ids=[t.name for t in RELU_TYPES])
UNSIGNED = [t for t in TYPES if t.kind == "u"]


def relu_oracle(x: int | float) -> int | float:
    """The draft's cases: NaN gives NaN, x < 0 gives 0 (+0.0 for floats), x ≥ 0 gives x (−0.0 ≥ 0)."""
    if is_nan(x) or x >= 0:
        return x
    return 0.0 if isinstance(x, float) else 0


FAMILY_MEMBER = Member(
    oracle=lambda dtype: relu_oracle,
    results=("RELU_C1", "RELU_C2"),
    semantics=("RELU_S1", "RELU_S2"),
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def test_the_types_of_relu() -> None:
    assert [t.name for t in RELU_TYPES] == [
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "bfloat16",
    ]


@req("RELU_S1")
@SIGNED_INTS
def test_S1_integer_extremes(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([info.min, int(info.min) + 1, -1, 0, 1, info.max], dtype=dtype)
    assert sonnx_relu(X).tolist() == [0, 0, 0, 0, 1, int(info.max)]


@req("RELU_S1", "RELU_S2")
@FLOATS
def test_S1_S2_special_values(dtype: np.dtype) -> None:
    tiny = float(np.finfo(np.float32).smallest_subnormal) if dtype == np.float32 else 2.0**-24
    X = np.array([-0.0, 0.0, -math.inf, math.inf, math.nan, -math.nan, -1.0, -tiny, tiny], dtype=dtype)
    Y = sonnx_relu(X)
    expected = [-0.0, 0.0, 0.0, math.inf, math.nan, math.nan, 0.0, 0.0, float(X[8])]
    assert_same(Y, np.array(expected, dtype=dtype))
    assert np.signbit(Y[[0, 1, 2, 6, 7]]).tolist() == [True, False, False, False, False]


@req("RELU_S1")
@FLOATS
def test_S1_non_negative_elements_are_kept_bit_for_bit(dtype: np.dtype) -> None:
    bits = np.dtype(f"u{dtype.itemsize}")
    every = np.arange(2**16, dtype=np.uint16).astype(bits) * (2 ** (8 * dtype.itemsize - 16))
    X = every.view(dtype)  # every float16 and bfloat16, a sample of the others, NaN payloads included
    with np.errstate(invalid="ignore"):
        kept = ~(X < 0)
    assert np.array_equal(sonnx_relu(X)[kept].view(bits), every[kept])


@req("RELU_P1")
@RELU
@given(data=st.data())
def test_P1_Y_is_non_negative_and_X_or_plus_zero(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    zero = 0.0 if dtype in FLOAT_TYPES else 0
    for x, y in zip(map(to_python, X.ravel()), map(to_python, sonnx_relu(X).ravel()), strict=True):
        assert is_nan(y) == is_nan(x)
        if not is_nan(y):
            assert y >= 0 and (same_value(y, x) or same_value(y, zero))


def same_value(a: int | float, b: int | float) -> bool:
    """Equal, zeros of the same sign."""
    return a == b and math.copysign(1, a) == math.copysign(1, b)
