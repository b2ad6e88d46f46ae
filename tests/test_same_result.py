"""sonnx_spec.compare.same_result: "the same result", for the tests, the examples and the conformance runs."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from sonnx_spec.compare import same_result

FLOATS = [np.float16, np.float32, np.float64, ml_dtypes.bfloat16]


@pytest.mark.parametrize("dtype", FLOATS)
def test_floats_compare_bit_for_bit_with_all_nans_alike(dtype) -> None:
    a = np.array([1.5, -0.0, math.nan, math.inf], dtype)
    assert same_result(a, a.copy())
    assert same_result(a, np.array([1.5, -0.0, -math.nan, math.inf], dtype))  # NaN's sign is not compared
    assert not same_result(a, np.array([1.5, 0.0, math.nan, math.inf], dtype))  # -0 is not +0
    assert not same_result(a, np.array([1.5, -0.0, 1.0, math.inf], dtype))  # NaN is not a number
    assert not same_result(np.array([1.0, 2.0], dtype), np.array([1.0, math.nan], dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_signaling_nans_are_nans_and_raise_no_warning(dtype) -> None:
    # A quiet NaN has the top bit of its fraction set; a signaling NaN has it clear and another bit set.
    info = ml_dtypes.finfo(dtype)
    bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
    exponent = ((1 << info.nexp) - 1) << info.nmant
    signaling = np.array([exponent | 1, exponent | 1 | (1 << (8 * bits.itemsize - 1))], bits).view(dtype)
    quiet = np.array([math.nan, math.nan], dtype)
    assert same_result(signaling, quiet) and same_result(quiet, signaling)  # warnings are errors here
    assert not same_result(signaling, np.array([math.nan, 1.0], dtype))


def test_type_and_shape_must_match() -> None:
    a = np.array([1, 2], np.int32)
    assert same_result(a, np.array([1, 2], np.int32))
    assert not same_result(a, np.array([1, 2], np.int64))  # same values, another type
    assert not same_result(a, np.array([[1, 2]], np.int32))  # same values, another shape
    assert not same_result(a, np.array([1, 3], np.int32))
    assert not same_result(np.zeros((2, 0), np.float32), np.zeros((0, 2), np.float32))
    assert same_result(np.zeros((2, 0), np.float32), np.zeros((2, 0), np.float32))


def test_bool_and_integers_compare_by_value() -> None:
    assert same_result(np.array([True, False]), np.array([True, False]))
    assert not same_result(np.array([True, False]), np.array([True, True]))
    big = np.array([2**64 - 1], np.uint64)
    assert not same_result(big, np.array([2**64 - 2], np.uint64))
