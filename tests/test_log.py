"""Log: one test (or more) per requirement id, named after it.

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

from sonnx_spec import log
from sonnx_spec.correctly_rounded import RELATIVE_ERROR, ulp_distance

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)

# Float32 inputs whose logarithm, in float64, lies within 8 units of its last place (2⁻⁴⁹ relative) of a
# midpoint of float32: all 77 of them, found by scanning every positive finite float32 (the float64
# value's 29 low bits against 2²⁸). The float64 evaluation cannot decide them; MPFR must.
HARD_FLOAT32 = [
    0x022AE487,
    0x064CB44B,
    0x07C060FA,
    0x0B265D7B,
    0x0DC8BBA4,
    0x0F61FF63,
    0x111C87F8,
    0x11B257E3,
    0x13FCD84A,
    0x145CB6D4,
    0x14907055,
    0x158772EB,
    0x16C5EE7A,
    0x18B06F2A,
    0x1A8446CB,
    0x1AAC80DC,
    0x1B81AB52,
    0x1DC9E7C1,
    0x1F116AB8,
    0x22925AD4,
    0x22F6D580,
    0x2423C085,
    0x24A8FB14,
    0x25BE734F,
    0x25F12E61,
    0x2758EEC4,
    0x27A51454,
    0x28E3FA26,
    0x29E6126B,
    0x29FD22F8,
    0x2C4C24B7,
    0x2E492984,
    0x2E7A6221,
    0x3418949B,
    0x38DCBE38,
    0x39C31348,
    0x39C7B1F9,
    0x3BF86EF0,
    0x3C413D3A,
    0x3E2B3421,
    0x3FD364D7,
    0x41178FEB,
    0x44BC4360,
    0x464D5B2B,
    0x4665A9A6,
    0x46CA6C75,
    0x4B77325A,
    0x4BF70DB3,
    0x4C08FF78,
    0x4C5D65A5,
    0x4D604EBE,
    0x4E85F412,
    0x4FE4AB24,
    0x526A304F,
    0x54AF989D,
    0x5B98E163,
    0x5BF9890B,
    0x5D800341,
    0x5D8B2D5B,
    0x5EE8984E,
    0x5EFBCAAE,
    0x5F64C24A,
    0x62B467BA,
    0x63B134D9,
    0x64E27FA3,
    0x65D890D3,
    0x66A8C860,
    0x66ABBD63,
    0x6914CB96,
    0x6D1F23EB,
    0x6E7054F2,
    0x6F31A8EC,
    0x736CC271,
    0x7405DEE8,
    0x74896A73,
    0x79E7EC37,
    0x7D98B8F4,
]


def ieee_log(dtype: np.dtype) -> object:
    return lambda x: correctly_rounded(dtype, "log", x)


FAMILY_MEMBER = Member(oracle=ieee_log, results=("LOG_C1", "LOG_C2"), semantics=("LOG_S1", "LOG_S2"))
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


def float32_sample(size: int) -> np.ndarray:
    """Random bit patterns (half of them negative: NaN), random positive patterns, and every float32 of a
    few short intervals around 1, where the result is small and the float64 log must stay accurate."""
    rng = np.random.default_rng(21)
    patterns = rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32).view(np.float32)
    positive = rng.integers(1, 0x7F800000, size, dtype=np.uint32).view(np.float32)
    steps = np.arange(-300, 300, dtype=np.int64)
    around = [np.float32(v).view(np.uint32) + steps for v in (1.0, 2.0, 0.5, 1e-30)]
    neighbours = np.concatenate(around).astype(np.uint32).view(np.float32)
    return np.concatenate([patterns, positive, neighbours])


@req("LOG_S1", "LOG_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns against MPFR: subnormal inputs, zeros, negative values, NaNs included."""
    X = every_value(dtype)
    inputs_unchanged = unchanged(X)
    Y = log(X)
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns: looked at, not computed with
        inputs_unchanged()
        assert_same(Y, elementwise(ieee_log(dtype), dtype, X))


@req("LOG_S1", "LOG_S2")
def test_S1_S2_a_float32_sample() -> None:
    X = float32_sample(20_000)
    assert_same(log(X), elementwise(ieee_log(F32), F32, X))


@req("LOG_S1")
def test_S1_float32_hard_to_round_cases() -> None:
    X = np.array(HARD_FLOAT32, np.uint32).view(F32)
    assert_same(log(X), elementwise(ieee_log(F32), F32, X))


@req("LOG_S1")
def test_S1_a_float64_sample() -> None:
    """float64 results all come from MPFR at 53 bits; the oracle here is MPFR too, called independently."""
    rng = np.random.default_rng(13)
    positive = rng.integers(1, 0x7FF0000000000000, 2_000, dtype=np.uint64).view(F64)
    X = np.concatenate([positive, rng.uniform(0.5, 2.0, 1_000), [1.0, 2.0, 5e-324, 1.7976931348623157e308]])
    assert_same(log(X), elementwise(ieee_log(F64), F64, X))


@req("LOG_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    tiny, lowest = float(info.smallest_subnormal), float(info.min)
    nan, inf = math.nan, math.inf
    X = np.array([nan, -nan, -inf, lowest, -1.0, -tiny, -0.0, 0.0, inf], dtype)
    assert_same(log(X), np.array([nan, nan, nan, nan, nan, nan, -inf, -inf, inf], dtype))


@req("LOG_S1")
@FLOATS
def test_S1_the_logarithm_of_1_is_plus_0_and_of_powers_of_2_their_rounded_multiples_of_ln_2(
    dtype: np.dtype,
) -> None:
    Y = log(np.array([1.0, 2.0, 0.5, 1024.0], dtype))
    assert float(Y[0]) == 0.0 and math.copysign(1.0, float(Y[0])) == 1.0
    assert_same(Y[1:], np.array([correctly_rounded(dtype, "log", v) for v in (2.0, 0.5, 1024.0)], dtype))


@req("LOG_P1")
@FLOATS
@given(data=st.data())
def test_P1_one_rounding_never_subnormal_never_infinite_monotone(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X = data.draw(tensors(dtype))
    info = ml_dtypes.finfo(dtype)
    u = gmpy2.mpfr(2.0 ** -(info.nmant + 1))
    with gmpy2.context(precision=300, emin=-100_000, emax=100_000):
        for x, y in zip(map(to_python, X.ravel()), map(to_python, log(X).ravel()), strict=True):
            if not (math.isfinite(x) and x > 0):
                continue
            exact = gmpy2.log(gmpy2.mpfr(x))
            assert math.isfinite(y) and (y == 0 or abs(y) >= float(info.smallest_normal))
            assert abs(gmpy2.mpfr(y) - exact) <= u * abs(exact)
            assert (y > 0) == (x > 1) and (y < 0) == (x < 1)
    with np.errstate(invalid="ignore"):  # bfloat16's comparisons flag a signalling NaN
        ordered = np.sort(X.ravel()[X.ravel() > 0])
    Y = log(ordered).astype(np.float64)
    assert np.all(Y[1:] >= Y[:-1])


@req("LOG_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # float32 values beyond float16: ±∞ there
        X = float32_sample(500).astype(dtype)
        assert np.all(ulp_distance(log(X), elementwise(ieee_log(dtype), dtype, X)) == 0)


@req("LOG_P2")
def test_P2_the_judge_counts_values_of_the_type() -> None:
    """Hand-made, in bfloat16: 1 and its neighbours above (1 + 2⁻⁷) and below (1 − 2⁻⁸), the largest value
    and +∞, a NaN against a number and against a NaN."""
    bf16 = ml_dtypes.bfloat16
    a = np.array([1.0, 1.0, 3.3895313892515355e38, math.nan, math.nan, -0.0], bf16)
    b = np.array([1.0078125, 0.99609375, math.inf, 0.0, math.nan, 0.0], bf16)
    assert ulp_distance(a, b).tolist() == [1, 1, 1, 2**62, 0, 0]


@req("LOG_S1")
def test_S1_numpy_float64_log_is_well_within_the_trusted_bound() -> None:
    """The bound the fast path trusts (2⁻⁴⁰ relative) against numpy's float64 log, on every positive float16
    and bfloat16 value and on the float32 sample: measured against MPFR at 200 bits, it stays below 2⁻⁵⁰."""
    with np.errstate(invalid="ignore"):  # the signalling NaNs among the patterns
        X = np.concatenate([every_value(t).astype(F64) for t in SIXTEEN_BITS] + [float32_sample(5_000)])
        X = X[np.isfinite(X) & (X > 0) & (X != 1)]
    Y = np.log(X)
    worst = 0.0
    with gmpy2.context(precision=200):
        for x, y in zip(X.tolist(), Y.tolist(), strict=True):
            exact = gmpy2.log(gmpy2.mpfr(x))
            worst = max(worst, float(abs(gmpy2.mpfr(y) - exact) / abs(exact)))
    assert worst < 2.0**-50 < RELATIVE_ERROR


INSTANCES = {"Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64"}


def why3_value(literal: str) -> float:
    """A literal of formal/log.mlw's instances: (0x1.8p1:F.t), (F.neg (0.0:F.t)), an infinity."""
    negative = literal.startswith("(F.neg ")
    text = literal[len("(F.neg ") : -1] if negative else literal
    value = math.inf if "F.div" in text else float.fromhex(text.strip("()").removesuffix(":F.t"))
    return -value if negative else value


@req("LOG_S1")
def test_S1_the_values_the_formal_specification_trusts_are_mpfrs() -> None:
    """formal/log.mlw states MPFR's values at the page's inputs as axioms (Why3 has no logarithm): each is
    checked here against MPFR, independently of the reference."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "log.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Log(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        dtype = np.dtype(ml_dtypes.bfloat16) if name == "BFloat16" else np.dtype(INSTANCES[name])
        for line in body.splitlines():
            if not line.strip().startswith("log_finite ("):
                continue
            x, y = line.strip().removesuffix(" /\\").removeprefix("log_finite ").split(" = ")
            expected = correctly_rounded(dtype, "log", why3_value(x))
            assert why3_value(y) == expected and math.copysign(1, why3_value(y)) == math.copysign(1, expected)
            checked += 1
    assert checked > 20
