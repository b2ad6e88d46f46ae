"""Exp: one test (or more) per requirement id, named after it.

The oracle is MPFR (gmpy2), called here element by element on the exact inputs (support.correctly_rounded):
it shares nothing with the reference's vectorised evaluation but the library.
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
    req,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import exp
from sonnx_spec.correctly_rounded import RELATIVE_ERROR, ulp_distance

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)

# Float32 inputs whose exponential, in float64, lies within 8 units of its last place (2⁻⁴⁹ relative) of a
# midpoint of float32: all 21 of them, found by scanning every float32 of [−104, 89] (the float64 value's
# 29 low bits against 2²⁸). The float64 evaluation cannot decide them; MPFR must.
HARD_FLOAT32 = [
    0x00000003,
    0x00000034,
    0x00000035,
    0x00000036,
    0x00000038,
    0x00000039,
    0x00000039,
    0x00000337,
    0x00000343,
    0x00000356,
    0x00000367,
    0x00000377,
    0x00000383,
    0x00004001,
    0x00040315,
    0x04288942,
    0x33800000,
]


def ieee_exp(dtype: np.dtype) -> object:
    return lambda x: correctly_rounded(dtype, "exp", x)


FAMILY_MEMBER = Member(oracle=ieee_exp, results=("EXP_C1", "EXP_C2"), semantics=("EXP_S1", "EXP_S2"))
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


def float32_sample(size: int) -> np.ndarray:
    """Random bit patterns (mostly huge or tiny values: 0, 1 and +∞ as results), random values of the
    range where e^x is neither 0, 1 nor +∞, and every float32 of a few short intervals."""
    rng = np.random.default_rng(21)
    patterns = rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32).view(np.float32)
    useful = rng.uniform(-104.0, 89.0, size).astype(np.float32)
    around = [
        np.float32(v).view(np.uint32) + np.arange(-200, 200, dtype=np.int64) for v in (0.5, 1.0, -87.33)
    ]
    neighbours = np.concatenate(around).astype(np.uint32).view(np.float32)
    return np.concatenate([patterns, useful, neighbours])


@req("EXP_S1", "EXP_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns against MPFR: subnormal results, overflow, underflow to 0, NaNs included."""
    X = every_value(dtype)
    inputs_unchanged = unchanged(X)
    Y = exp(X)
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns: looked at, not computed with
        inputs_unchanged()
        assert_same(Y, elementwise(ieee_exp(dtype), dtype, X))


@req("EXP_S1")
def test_S1_a_float32_sample() -> None:
    X = float32_sample(20_000)
    assert_same(exp(X), elementwise(ieee_exp(F32), F32, X))


@req("EXP_S1")
def test_S1_float32_hard_to_round_cases() -> None:
    """The cases the float64 evaluation cannot decide, and inputs around the float32 thresholds of overflow
    (88.72…), of subnormal results (−87.33…) and of zero (−103.97…)."""
    edges = [88.72283172607422, 88.72283935546875, -87.33654022216797, -87.33655548095703]
    edges += [-103.97207641601562, -103.97208404541016, -103.27892303466797, -103.27893829345703]
    X = np.concatenate([np.array(HARD_FLOAT32, np.uint32).view(F32), np.array(edges, F32)])
    assert_same(exp(X), elementwise(ieee_exp(F32), F32, X))


@req("EXP_S1")
def test_S1_a_float64_sample() -> None:
    """float64 results all come from MPFR at 53 bits; the oracle here is MPFR too, called independently."""
    rng = np.random.default_rng(13)
    X = np.concatenate([rng.uniform(-746.0, 710.0, 2_000), rng.standard_normal(1_000), [709.782712893384]])
    assert_same(exp(X), elementwise(ieee_exp(F64), F64, X))


@req("EXP_S1")
@FLOATS
def test_S1_the_thresholds_of_overflow(dtype: np.dtype) -> None:
    """The largest finite result is the largest value of the type whose e^x stays below the midpoint between
    the largest finite value and the next power of two; the next value of the type gives +∞."""
    info = ml_dtypes.finfo(dtype)
    p = info.nmant + 1
    with gmpy2.context(precision=200):
        threshold = (2 - gmpy2.mpfr(2) ** -p) * gmpy2.mpfr(2) ** (info.maxexp - 1)  # (max + 2^emax+1) / 2
        below = gmpy2.log(gmpy2.mpfr(threshold))  # ln of the threshold: no value of the type is it
        last = np.array(float(below), np.float64).astype(dtype)[()]  # a value of the type near it
        while gmpy2.mpfr(float(last)) > below:
            last = _step(last, -1)
    following = _step(last, 1)
    Y = exp(np.array([last, following], dtype))
    assert np.isfinite(Y[0]) and Y[0] > 0 and np.isinf(Y[1]) and Y[1] > 0


def _step(x: np.generic, by: int) -> np.generic:
    """The value ``by`` places above the positive value x in its type."""
    bits = np.dtype(f"u{x.dtype.itemsize}")
    return np.array(int(np.array(x).view(bits)) + by, bits).view(x.dtype)[()]


@req("EXP_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    X = np.array([nan, -nan, -inf, inf], dtype)
    Y = exp(X)
    assert_same(Y, np.array([nan, nan, 0.0, inf], dtype))
    assert math.copysign(1.0, float(Y[2])) == 1.0  # +0, not −0


@req("EXP_P1")
@FLOATS
@given(data=st.data())
def test_P1_one_rounding_a_positive_monotone_result(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    info = ml_dtypes.finfo(dtype)
    u = gmpy2.mpfr(2.0 ** -(info.nmant + 1))
    tiny, largest = float(info.smallest_normal), float(info.max)
    with gmpy2.context(precision=300, emin=-100_000, emax=100_000):
        overflow = (2 - gmpy2.mpfr(2) ** -(info.nmant + 1)) * gmpy2.mpfr(2) ** (info.maxexp - 1)
        for x, y in zip(map(to_python, X.ravel()), map(to_python, exp(X).ravel()), strict=True):
            if not math.isfinite(x):
                continue
            assert y >= 0 and not math.isnan(y)
            exact = gmpy2.exp(gmpy2.mpfr(x))
            if tiny <= exact < overflow:
                assert y <= largest and abs(gmpy2.mpfr(y) - exact) <= u * exact
            elif exact < tiny:
                assert abs(gmpy2.mpfr(y) - exact) <= gmpy2.mpfr(float(info.smallest_subnormal)) / 2
    with np.errstate(invalid="ignore"):  # bfloat16's isnan flags a signalling NaN
        ordered = np.sort(X.ravel()[~np.isnan(X.ravel())])
    Y = exp(ordered).astype(np.float64)
    assert np.all(Y[1:] >= Y[:-1])


@req("EXP_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # float32 values beyond float16: ±∞ there
        X = float32_sample(500).astype(dtype)
        assert np.all(ulp_distance(exp(X), elementwise(ieee_exp(dtype), dtype, X)) == 0)


@req("EXP_P2")
def test_P2_the_judge_counts_values_of_the_type() -> None:
    """Hand-made: neighbours are 1 apart, +∞ is the neighbour of the largest value, −0 and +0 are one value,
    a NaN is no distance from a number."""
    f16 = np.float16
    ones = np.array([1.0, 1.0, 65504.0, -0.0, 0.0, 6e-8, math.nan, math.nan], f16)
    other = np.array([1.0009765625, 0.99951171875, math.inf, 0.0, 6e-8, -6e-8, math.nan, 1.0], f16)
    assert ulp_distance(ones, other).tolist() == [1, 1, 1, 0, 1, 2, 0, 2**62]


@req("EXP_S1")
def test_S1_numpy_float64_exp_is_well_within_the_trusted_bound() -> None:
    """The bound the fast path trusts (2⁻⁴⁰ relative) against numpy's float64 exp, on every float16 and
    bfloat16 value and on the float32 sample: measured against MPFR at 200 bits, it stays below 2⁻⁵⁰."""
    with np.errstate(invalid="ignore"):  # the signalling NaNs among the patterns
        X = np.concatenate([every_value(t).astype(F64) for t in SIXTEEN_BITS] + [float32_sample(5_000)])
    X = X[np.isfinite(X) & (X > -708.0) & (X < 709.0)]  # where float64's result is normal
    with np.errstate(all="ignore"):
        Y = np.exp(X)
    worst = 0.0
    with gmpy2.context(precision=200):
        for x, y in zip(X.tolist(), Y.tolist(), strict=True):
            exact = gmpy2.exp(gmpy2.mpfr(x))
            worst = max(worst, float(abs(gmpy2.mpfr(y) - exact) / exact))
    assert worst < 2.0**-50 < RELATIVE_ERROR


INSTANCES = {"Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64"}


def why3_value(literal: str) -> float:
    """A literal of formal/exp.mlw's instances: (0x1.8p1:F.t), (F.neg (0.0:F.t)), an infinity."""
    negative = literal.startswith("(F.neg ")
    text = literal[len("(F.neg ") : -1] if negative else literal
    value = math.inf if "F.div" in text else float.fromhex(text.strip("()").removesuffix(":F.t"))
    return -value if negative else value


@req("EXP_S1")
def test_S1_the_values_the_formal_specification_trusts_are_mpfrs() -> None:
    """formal/exp.mlw states MPFR's values at the page's inputs as axioms (Why3 has no exponential): each is
    checked here against MPFR, independently of the reference."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "exp.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Exp(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        dtype = np.dtype(ml_dtypes.bfloat16) if name == "BFloat16" else np.dtype(INSTANCES[name])
        for line in body.splitlines():
            if not line.strip().startswith("exp_finite ("):
                continue
            x, y = line.strip().removesuffix(" /\\").removeprefix("exp_finite ").split(" = ")
            expected = correctly_rounded(dtype, "exp", why3_value(x))
            assert why3_value(y) == expected and math.copysign(1, why3_value(y)) == math.copysign(1, expected)
            checked += 1
    assert checked > 20
