"""Tanh: one test (or more) per requirement id, named after it.

The oracle is MPFR (gmpy2), called here element by element on the exact inputs (support.correctly_rounded):
it shares nothing with the reference's vectorised evaluation but the library. Some tests use Python's
exact rationals instead (the Taylor bounds of tanh near zero).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    FLOATS,
    Member,
    assert_same,
    correctly_rounded,
    elementwise,
    req,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import tanh
from sonnx_spec.correctly_rounded import RELATIVE_ERROR, ulp_distance

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)

# Positive float32 inputs whose hyperbolic tangent, in float64, lies within 64 units of its last place
# (2⁻⁴⁶ relative) of a midpoint of float32: every one of them, found by scanning every positive float32
# below 9.2 (the float64 value's 29 low bits against 2²⁸; tanh is odd, so their negatives are as hard):
# all 33 of them. The float64 evaluation cannot decide them (its window is 2¹⁴ units wide); MPFR must.
HARD_FLOAT32 = [
    0x39B89BA2,
    0x39B89BA3,
    0x3A27BA3B,
    0x3A5E773A,
    0x3ABC6065,
    0x3AC37DE2,
    0x3ADBC904,
    0x3BC11B0B,
    0x3BC8B605,
    0x3BE46E2B,
    0x3C4E34B0,
    0x3C96AE2E,
    0x3CA1E990,
    0x3CD41B91,
    0x3D7C3055,
    0x3DA99442,
    0x3DC95DB7,
    0x3DEE483B,
    0x3E150CD4,
    0x3EEE0566,
    0x3EF6AFEE,
    0x3F172BE6,
    0x3F20B67F,
    0x3F325D3B,
    0x3F97FBC7,
    0x3FB3C82A,
    0x3FF8BC7E,
    0x4013CD84,
    0x4053EEA7,
    0x40A6EF82,
    0x40ACB4D0,
    0x40C5E8CA,
    0x40C7B05F,
]


def ieee_tanh(dtype: np.dtype) -> object:
    return lambda x: correctly_rounded(dtype, "tanh", x)


FAMILY_MEMBER = Member(oracle=ieee_tanh, results=("TANH_C1", "TANH_C2"), semantics=("TANH_S1", "TANH_S2"))
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


def float32_sample(size: int) -> np.ndarray:
    """Random bit patterns (mostly huge or tiny values: ±1 and x itself as results), random values of the
    range where tanh x is neither ±1 nor x, and every float32 of a few short intervals."""
    rng = np.random.default_rng(21)
    patterns = rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32).view(np.float32)
    useful = rng.uniform(-10.0, 10.0, size).astype(np.float32)
    around = [
        np.float32(v).view(np.uint32) + np.arange(-200, 200, dtype=np.int64)
        for v in (2.0**-126, 2.0**-12, 0.5493061443340549, 1.0, 9.010913339828708)
    ]
    neighbours = np.concatenate(around).astype(np.uint32).view(np.float32)
    return np.concatenate([patterns, useful, neighbours, -neighbours])


@req("TANH_S1", "TANH_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns against MPFR: subnormals, ±1, signed zeros, infinities and NaNs included."""
    X = every_value(dtype)
    inputs_unchanged = unchanged(X)
    Y = tanh(X)
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns: looked at, not computed with
        inputs_unchanged()
        assert_same(Y, elementwise(ieee_tanh(dtype), dtype, X))
    assert Y is not X and not np.shares_memory(Y, X)


@req("TANH_S1")
def test_S1_a_float32_sample() -> None:
    X = float32_sample(20_000)
    assert_same(tanh(X), elementwise(ieee_tanh(F32), F32, X))


@req("TANH_S1")
def test_S1_float32_hard_to_round_cases() -> None:
    """The cases the float64 evaluation cannot decide, both signs."""
    X = np.array(HARD_FLOAT32, np.uint32).view(F32)
    X = np.concatenate([X, -X])
    assert_same(tanh(X), elementwise(ieee_tanh(F32), F32, X))


@req("TANH_S1")
def test_S1_a_float64_sample() -> None:
    """float64 results all come from MPFR at 53 bits; the oracle here is MPFR too, called independently."""
    rng = np.random.default_rng(13)
    X = np.concatenate(
        [rng.uniform(-20.0, 20.0, 2_000), rng.standard_normal(1_000), 2.0 ** rng.uniform(-1074, -1, 500)]
    )
    X = np.concatenate([X, [5e-324, -5e-324, 2.2250738585072014e-308, 19.0, 19.1, 1e300]])
    assert_same(tanh(X), elementwise(ieee_tanh(F64), F64, X))


def _step(x: np.generic, by: int) -> np.generic:
    """The value ``by`` places above the positive value x in its type."""
    bits = np.dtype(f"u{x.dtype.itemsize}")
    return np.array(int(np.array(x).view(bits)) + by, bits).view(x.dtype)[()]


@req("TANH_S1")
@FLOATS
def test_S1_the_threshold_of_plus_and_minus_one(dtype: np.dtype) -> None:
    """The last input whose result is below 1 is the largest value of the type whose tanh stays below the
    midpoint 1 − 2^−(p+1) between 1 and the value before it, 1 − 2^−p; from the next value on, the result
    is 1 (a tie would go to 1, whose significand is even). The same, negated, for −1."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    with gmpy2.context(precision=200):
        midpoint = 1 - gmpy2.mpfr(2) ** -(p + 1)
        threshold = gmpy2.atanh(midpoint)  # tanh is increasing: below it, below the midpoint
        last = np.array(float(threshold), np.float64).astype(dtype)[()]
        while gmpy2.mpfr(float(last)) > threshold:
            last = _step(last, -1)
        assert gmpy2.tanh(gmpy2.mpfr(float(last))) < midpoint
    following = _step(last, 1)
    X = np.array([last, following, -last, -following], dtype)
    below = 1 - 2.0**-p
    assert tanh(X).astype(np.float64).tolist() == [below, 1.0, -below, -1.0]


@req("TANH_S1")
@FLOATS
def test_S1_a_tiny_input_is_its_own_result(dtype: np.dtype) -> None:
    """For 0 < x ≤ 2^−p, x − x³/3 < tanh x < x (Taylor, alternating), so tanh x lies within x³/3 ≤
    2^−2p·x/3 of x, less than half the spacing below x: it rounds to x itself, subnormals included. Exact
    rationals, no MPFR."""
    info = ml_dtypes.finfo(dtype)
    p = info.nmant + 1
    X = np.array([info.smallest_subnormal, info.smallest_normal, 2.0**-p, 2.0 ** (-p - 3) * 3], dtype)
    for x in X.tolist():
        x3 = Fraction(x) ** 3 / 3
        spacing_below = Fraction(2) ** (max(math.frexp(x)[1] - 1, info.minexp) - info.nmant) / 2
        assert x3 < spacing_below / 2
    assert_same(tanh(X), X)
    assert_same(tanh(-X), -X)


@req("TANH_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    X = np.array([nan, -nan, -inf, inf, -0.0, 0.0], dtype)
    Y = tanh(X)
    assert_same(Y, np.array([nan, nan, -1.0, 1.0, -0.0, 0.0], dtype))
    assert [math.copysign(1.0, float(y)) for y in Y[4:]] == [-1.0, 1.0]  # −0 for −0, +0 for +0


@req("TANH_P1")
@FLOATS
@given(data=st.data())
def test_P1_one_rounding_odd_monotone_within_minus_one_and_one(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    info = ml_dtypes.finfo(dtype)
    u = gmpy2.mpfr(2.0 ** -(info.nmant + 1))
    tiny = float(info.smallest_normal)
    Y = tanh(X)
    with gmpy2.context(precision=300, emin=-100_000, emax=100_000):
        for x, y in zip(map(to_python, X.ravel()), map(to_python, Y.ravel()), strict=True):
            if not math.isfinite(x):
                continue
            assert -1.0 <= y <= 1.0 and abs(y) <= abs(x)
            assert math.copysign(1.0, y) == math.copysign(1.0, x)
            exact = gmpy2.tanh(gmpy2.mpfr(x))
            if abs(exact) >= tiny:
                assert abs(gmpy2.mpfr(y) - exact) <= u * abs(exact)
            else:
                assert abs(gmpy2.mpfr(y) - exact) <= gmpy2.mpfr(float(info.smallest_subnormal)) / 2
    assert_same(tanh(-X), -Y)  # odd
    with np.errstate(invalid="ignore"):  # bfloat16's isnan flags a signalling NaN
        ordered = np.sort(X.ravel()[~np.isnan(X.ravel())])
    Z = tanh(ordered).astype(np.float64)
    assert np.all(Z[1:] >= Z[:-1])


@req("TANH_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # float32 values beyond float16: ±∞ there
        X = float32_sample(500).astype(dtype)
        assert np.all(ulp_distance(tanh(X), elementwise(ieee_tanh(dtype), dtype, X)) == 0)


@req("TANH_P2")
def test_P2_the_judge_counts_values_of_the_type() -> None:
    """Hand-made: neighbours are 1 apart, also across 1 and across zero through the subnormals (the
    absolute floor), −0 and +0 are one value, a NaN is no distance from a number."""
    f16 = np.float16
    ones = np.array([1.0, 1.0, -0.0, 6e-8, 6e-8, math.nan, math.nan, -1.0], f16)
    other = np.array([0.99951171875, 1.0009765625, 0.0, -6e-8, 1.2e-7, math.nan, 1.0, -0.99951171875], f16)
    assert ulp_distance(ones, other).tolist() == [1, 1, 0, 2, 1, 0, 2**62, 1]


@req("TANH_S1")
def test_S1_numpy_float64_tanh_is_well_within_the_trusted_bound() -> None:
    """The bound the fast path trusts (2⁻⁴⁰ relative) against numpy's float64 tanh, on every float16 and
    bfloat16 value and on the float32 sample: measured against MPFR at 200 bits, it stays below 2⁻⁵⁰."""
    with np.errstate(invalid="ignore"):  # the signalling NaNs among the patterns
        X = np.concatenate([every_value(t).astype(F64) for t in SIXTEEN_BITS] + [float32_sample(5_000)])
    X = X[np.isfinite(X) & (np.abs(X) >= 2.0**-1000)]  # where float64's result is normal
    Y = np.tanh(X)
    worst = 0.0
    with gmpy2.context(precision=200):
        for x, y in zip(X.tolist(), Y.tolist(), strict=True):
            exact = gmpy2.tanh(gmpy2.mpfr(x))
            worst = max(worst, float(abs(gmpy2.mpfr(y) - exact) / abs(exact)))
    assert worst < 2.0**-50 < RELATIVE_ERROR


INSTANCES = {"Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64"}


def why3_value(literal: str) -> float:
    """A literal of formal/tanh.mlw's instances: (0x1.8p1:F.t), (F.neg (0.0:F.t))."""
    negative = literal.startswith("(F.neg ")
    text = literal[len("(F.neg ") : -1] if negative else literal
    value = float.fromhex(text.strip("()").removesuffix(":F.t"))
    return -value if negative else value


@req("TANH_S1")
def test_S1_the_values_the_formal_specification_trusts_are_mpfrs() -> None:
    """formal/tanh.mlw states MPFR's values at the page's inputs as axioms (Why3 has no tanh): each is
    checked here against MPFR, independently of the reference."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "tanh.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Tanh(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        dtype = np.dtype(ml_dtypes.bfloat16) if name == "BFloat16" else np.dtype(INSTANCES[name])
        for line in body.splitlines():
            if not line.strip().startswith("tanh_finite ("):
                continue
            x, y = line.strip().removesuffix(" /\\").removeprefix("tanh_finite ").split(" = ")
            expected = correctly_rounded(dtype, "tanh", why3_value(x))
            assert why3_value(y) == expected and math.copysign(1, why3_value(y)) == math.copysign(1, expected)
            checked += 1
    assert checked > 20
