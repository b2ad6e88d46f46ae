"""Erf: one test (or more) per requirement id, named after it.

The oracle is MPFR (gmpy2), called here element by element on the exact inputs (support.correctly_rounded):
it shares nothing with the reference's vectorised evaluation but the library. Some tests use no erf at all:
the Taylor bounds of erf near zero (2x/√π·(1 − x²/3) < erf x < 2x/√π) with π from MPFR, and Python's exact
rationals.
"""

from __future__ import annotations

import math
import re
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
    ieee_context,
    req,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import erf
from sonnx_spec.correctly_rounded import RELATIVE_ERROR, ulp_distance

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)

# Positive float32 inputs whose error function, in float64 (math.erf), lies within 64 units of its last
# place (2⁻⁴⁶ relative) of a midpoint of float32: every one of them between 2⁻¹² and 3.92 (above, erf x
# rounds to 1), found by scanning every float32 of that range (the float64 value's 29 low bits against 2²⁸;
# erf is odd, so their negatives are as hard). The float64 evaluation cannot decide them (its window is 2¹⁴
# units wide); MPFR must.
HARD_FLOAT32 = [
    0x39C0057D,
    0x39F347A2,
    0x3A540BDE,
    0x3A9045EC,
    0x3AA60E18,
    0x3AB2E0CF,
    0x3ABB67B6,
    0x3ADAC744,
    0x3B13E8A5,
    0x3B25A39D,
    0x3B5788EA,
    0x3B636D88,
    0x3B7C1894,
    0x3C45AAF6,
    0x3C722D53,
    0x3C7C9E9F,
    0x3CAFEB05,
    0x3CB655CB,
    0x3CC37934,
    0x3CE105F6,
    0x3D3E3BD9,
    0x3D844128,
    0x3E09737D,
    0x3E1FCC60,
    0x3E2F129D,
    0x3E97E551,
    0x3F043A75,
    0x3F44DDFD,
]


def ieee_erf(dtype: np.dtype) -> object:
    return lambda x: correctly_rounded(dtype, "erf", x)


FAMILY_MEMBER = Member(oracle=ieee_erf, results=("ERF_C1", "ERF_C2"), semantics=("ERF_S1", "ERF_S2"))
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


def float32_sample(size: int) -> np.ndarray:
    """Random bit patterns (mostly huge or tiny values: ±1 and about 2x/√π as results), random values of
    the range where erf x is neither ±1 nor tiny, and every float32 of a few short intervals."""
    rng = np.random.default_rng(21)
    patterns = rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32).view(np.float32)
    useful = rng.uniform(-4.5, 4.5, size).astype(np.float32)
    around = [
        np.float32(v).view(np.uint32) + np.arange(-200, 200, dtype=np.int64)
        for v in (2.0**-126, 2.0**-12, 0.4769362762044699, 1.0, 3.919205843636722)
    ]
    neighbours = np.concatenate(around).astype(np.uint32).view(np.float32)
    return np.concatenate([patterns, useful, neighbours, -neighbours])


@req("ERF_S1", "ERF_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns against MPFR: subnormals, ±1, signed zeros, infinities and NaNs included."""
    X = every_value(dtype)
    inputs_unchanged = unchanged(X)
    Y = erf(X)
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns: looked at, not computed with
        inputs_unchanged()
        assert_same(Y, elementwise(ieee_erf(dtype), dtype, X))
    assert Y is not X and not np.shares_memory(Y, X)


@req("ERF_S1")
def test_S1_a_float32_sample() -> None:
    X = float32_sample(20_000)
    assert_same(erf(X), elementwise(ieee_erf(F32), F32, X))


@req("ERF_S1")
def test_S1_float32_hard_to_round_cases() -> None:
    """The cases the float64 evaluation cannot decide, both signs."""
    X = np.array(HARD_FLOAT32, np.uint32).view(F32)
    X = np.concatenate([X, -X])
    assert_same(erf(X), elementwise(ieee_erf(F32), F32, X))


@req("ERF_S1")
def test_S1_hard_cases_are_near_a_midpoint() -> None:
    """Each hard case's exact erf lies within 2⁻⁴⁵ (relative) of a float32 midpoint: MPFR at 200 bits, the
    midpoint found from the correctly rounded result and the next float32 away from it."""
    with gmpy2.context(precision=200):
        for bits in HARD_FLOAT32:
            x = float(np.array(bits, np.uint32).view(F32))
            exact = gmpy2.erf(gmpy2.mpfr(x))
            y = np.float32(correctly_rounded(F32, "erf", x))
            other = np.nextafter(y, np.float32(2.0) if exact > y else np.float32(0.0))
            midpoint = (gmpy2.mpfr(float(y)) + gmpy2.mpfr(float(other))) / 2
            assert abs(exact - midpoint) <= exact * gmpy2.mpfr(2) ** -45


@req("ERF_S1")
def test_S1_a_float64_sample() -> None:
    """float64 results all come from MPFR at 53 bits; the oracle here is MPFR too, called independently."""
    rng = np.random.default_rng(13)
    X = np.concatenate(
        [rng.uniform(-6.5, 6.5, 2_000), rng.standard_normal(1_000), 2.0 ** rng.uniform(-1074, -1, 500)]
    )
    X = np.concatenate([X, [5e-324, -5e-324, 2.2250738585072014e-308, 5.9, 6.0, 27.0, 1e300]])
    assert_same(erf(X), elementwise(ieee_erf(F64), F64, X))


def _step(x: np.generic, by: int) -> np.generic:
    """The value ``by`` places above the positive value x in its type."""
    bits = np.dtype(f"u{x.dtype.itemsize}")
    return np.array(int(np.array(x).view(bits)) + by, bits).view(x.dtype)[()]


@req("ERF_S1")
@FLOATS
def test_S1_the_threshold_of_plus_and_minus_one(dtype: np.dtype) -> None:
    """The last input whose result is below 1 is the largest value of the type whose erf stays below the
    midpoint 1 − 2^−(p+1) between 1 and the value before it, 1 − 2^−p; from the next value on, the result
    is 1 (a tie would go to 1, whose significand is even). The same, negated, for −1. The threshold is
    found by bisection on erf in MPFR at 200 bits (erf is increasing)."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    with gmpy2.context(precision=200):
        midpoint = 1 - gmpy2.mpfr(2) ** -(p + 1)
        low, high = gmpy2.mpfr(0), gmpy2.mpfr(8)
        for _ in range(120):
            middle = (low + high) / 2
            low, high = (middle, high) if gmpy2.erf(middle) < midpoint else (low, middle)
        last = np.array(float(low), np.float64).astype(dtype)[()]
        while gmpy2.erf(gmpy2.mpfr(float(last))) >= midpoint:
            last = _step(last, -1)
        following = _step(last, 1)
        assert gmpy2.erf(gmpy2.mpfr(float(following))) > midpoint
    X = np.array([last, following, -last, -following], dtype)
    below = 1 - 2.0**-p
    assert erf(X).astype(np.float64).tolist() == [below, 1.0, -below, -1.0]


@req("ERF_S1")
@FLOATS
def test_S1_a_tiny_input_gives_two_over_root_pi_times_it(dtype: np.dtype) -> None:
    """For 0 < x < 1, 2x/√π·(1 − x²/3) < erf x < 2x/√π (its series alternates with decreasing terms). Where
    both bounds round alike in the type, that is the result: subnormal inputs and results included. No erf
    here: π from MPFR at 300 bits, the rounding by MPFR in the type."""
    info = ml_dtypes.finfo(dtype)
    p = info.nmant + 1
    tiny = float(info.smallest_subnormal)
    subnormals = [tiny, 2 * tiny, 3 * tiny, 4 * tiny, 7 * tiny]
    X = np.array([*subnormals, float(info.smallest_normal), 2.0 ** (-p - 2), 3 * 2.0**-p], dtype)
    expected = []
    with gmpy2.context(precision=300, emin=-100_000, emax=100_000):
        two_over_root_pi = 2 / gmpy2.sqrt(gmpy2.const_pi())
        for x in map(gmpy2.mpfr, X.astype(np.float64).tolist()):
            upper = two_over_root_pi * x
            lower = upper * (1 - x * x / 3)
            rounded_low, rounded_high = (float(ieee_context(dtype).plus(v)) for v in (lower, upper))
            assert rounded_low == rounded_high
            expected.append(rounded_high)
    assert_same(erf(X), np.array(expected, dtype))
    assert_same(erf(-X), -np.array(expected, dtype))
    assert float(erf(X)[4]) == 8 * tiny  # 7·1.128… = 7.9: erf of a subnormal is not the subnormal itself


@req("ERF_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    X = np.array([nan, -nan, -inf, inf, -0.0, 0.0], dtype)
    Y = erf(X)
    assert_same(Y, np.array([nan, nan, -1.0, 1.0, -0.0, 0.0], dtype))
    assert [math.copysign(1.0, float(y)) for y in Y[4:]] == [-1.0, 1.0]  # −0 for −0, +0 for +0


@req("ERF_P1")
@FLOATS
@given(data=st.data())
def test_P1_one_rounding_odd_monotone_within_minus_one_and_one(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    info = ml_dtypes.finfo(dtype)
    u = gmpy2.mpfr(2.0 ** -(info.nmant + 1))
    tiny = float(info.smallest_normal)
    Y = erf(X)
    with gmpy2.context(precision=300, emin=-100_000, emax=100_000):
        for x, y in zip(map(to_python, X.ravel()), map(to_python, Y.ravel()), strict=True):
            if not math.isfinite(x):
                continue
            assert -1.0 <= y <= 1.0
            assert math.copysign(1.0, y) == math.copysign(1.0, x)
            exact = gmpy2.erf(gmpy2.mpfr(x))
            if abs(exact) >= tiny:
                assert abs(gmpy2.mpfr(y) - exact) <= u * abs(exact)
            else:
                assert abs(gmpy2.mpfr(y) - exact) <= gmpy2.mpfr(float(info.smallest_subnormal)) / 2
    assert_same(erf(-X), -Y)  # odd
    with np.errstate(invalid="ignore"):  # bfloat16's isnan flags a signalling NaN
        ordered = np.sort(X.ravel()[~np.isnan(X.ravel())])
    Z = erf(ordered).astype(np.float64)
    assert np.all(Z[1:] >= Z[:-1])


@req("ERF_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # float32 values beyond float16: ±∞ there
        X = float32_sample(500).astype(dtype)
        assert np.all(ulp_distance(erf(X), elementwise(ieee_erf(dtype), dtype, X)) == 0)


@req("ERF_P2")
def test_P2_one_unit_is_a_neighbour_of_the_correctly_rounded_result() -> None:
    """The judge of engines, on erf's own values: float16's erf 1 is 0.8427734375 = 1726·2⁻¹¹, where float16's
    spacing is 2⁻¹¹; 1726 ± 1 units are neighbours (1), 1724 two away; near zero the unit is the smallest
    subnormal; across 1 the spacing changes; a NaN for a number is no distance."""
    f16 = np.float16
    Y = np.array([0.8427734375, 0.8427734375, 0.8427734375, 2**-24, 1.0, 1.0], f16)
    engine = np.array([1727 * 2**-11, 1725 * 2**-11, 1724 * 2**-11, 0.0, 0.99951171875, math.nan], f16)
    assert ulp_distance(engine, Y).tolist() == [1, 1, 2, 1, 1, 2**62]


@req("ERF_S1")
def test_S1_math_erf_is_well_within_the_trusted_bound() -> None:
    """The bound the fast path trusts (2⁻⁴⁰ relative) against Python's math.erf, on every float16 and
    bfloat16 value and on the float32 sample: measured against MPFR at 200 bits, it stays below 2⁻⁵⁰."""
    with np.errstate(invalid="ignore"):  # the signalling NaNs among the patterns
        X = np.concatenate([every_value(t).astype(F64) for t in SIXTEEN_BITS] + [float32_sample(5_000)])
    X = X[np.isfinite(X) & (np.abs(X) >= 2.0**-1000)]  # where float64's result is normal
    worst = 0.0
    with gmpy2.context(precision=200):
        for x in X.tolist():
            exact = gmpy2.erf(gmpy2.mpfr(x))
            worst = max(worst, float(abs(gmpy2.mpfr(math.erf(x)) - exact) / abs(exact)))
    assert worst < 2.0**-50 < RELATIVE_ERROR


INSTANCES = {"Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64"}


def why3_value(literal: str) -> float:
    """A literal of formal/erf.mlw's instances: (0x1.8p1:F.t), (F.neg (0.0:F.t))."""
    negative = literal.startswith("(F.neg ")
    text = literal[len("(F.neg ") : -1] if negative else literal
    value = float.fromhex(text.strip("()").removesuffix(":F.t"))
    return -value if negative else value


@req("ERF_S1")
def test_S1_the_values_the_formal_specification_trusts_are_mpfrs() -> None:
    """formal/erf.mlw states MPFR's values at the page's inputs as axioms (Why3 has no erf): each is
    checked here against MPFR, independently of the reference."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "erf.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Erf(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        dtype = np.dtype(ml_dtypes.bfloat16) if name == "BFloat16" else np.dtype(INSTANCES[name])
        for line in body.splitlines():
            if not line.strip().startswith("erf_finite ("):
                continue
            x, y = line.strip().removesuffix(" /\\").removeprefix("erf_finite ").split(" = ")
            expected = correctly_rounded(dtype, "erf", why3_value(x))
            assert why3_value(y) == expected and math.copysign(1, why3_value(y)) == math.copysign(1, expected)
            checked += 1
    assert checked > 20
