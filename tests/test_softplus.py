"""Softplus: one test (or more) per requirement id, named after it.

The oracle is MPFR (gmpy2), called here element by element on the exact inputs: ln(1 + e^x) evaluated once
at 300 bits over MPFR's whole exponent range (as log1p(e^x), or x + log1p(e^−x) for x > 0, an identity),
then rounded once to the type's precision, exponent range and subnormals. It shares nothing with the
reference's evaluation but the library: the reference encloses the value by directed roundings at a
precision it doubles, and takes most elements from numpy's float64 logaddexp. (A value within 2⁻³⁰⁰ of a
midpoint would be rounded twice here: softplus is transcendental, and the hardest float64 cases of such
functions are about 2⁻¹²⁰ from one.)
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
from support import FLOATS, Member, assert_same, elementwise, ieee_context, req, tensors, to_python, unchanged

from sonnx_spec import softplus
from sonnx_spec.correctly_rounded import RELATIVE_ERROR, mpfr_context, ulp_distance
from sonnx_spec.ops.softplus import SOFTPLUS

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
WIDE = gmpy2.context(precision=300, emin=gmpy2.get_emin_min(), emax=gmpy2.get_emax_max())

# Float32 inputs whose softplus, in float64 (numpy's logaddexp), lies within 64 units of its last place
# (2⁻⁴⁶ relative) of a midpoint of float32: the 35 found by scanning every float32 of 18 binades between
# 2⁻² and 2⁶ in magnitude, of both signs (the float64 value's 29 low bits against 2²⁸). The float64
# evaluation cannot decide them; MPFR must. 0.36846262 and −0.36846262 are both among them: softplus(x) −
# softplus(−x) = x, exactly in the reals.
HARD_FLOAT32 = [
    1084487816, 3202491525, 3199216941, 3239401919, 1071118004, 3207176712, 1059494947, 3232378777,
    1080893137, 3236459960, 1061028661, 3237126036, 1052550946, 3200034594, 1059868787, 1066895489,
    1079172297, 3258377396, 3217947154, 3240868701, 3207283721, 3266212149, 1089225038, 3242462457,
    3238300463, 1081859848, 1095353163, 3251552749, 1063191539, 1097393599, 1073743386, 1089103119,
    3242524470, 3243865404, 3266032724,
]  # fmt: skip


def exact(x: float) -> gmpy2.mpfr:
    """ln(1 + e^x) at 300 bits, for a finite x."""
    m = gmpy2.mpfr(x)
    if x > 0:
        return WIDE.add(m, WIDE.log1p(WIDE.exp(-m)))
    return WIDE.log1p(WIDE.exp(m))


def softplus_of(x: float, dtype: np.dtype) -> float:
    """The specification written out once more: NaN, ±∞ by SOFTPLUS_S2, the rest rounded once."""
    if math.isnan(x):
        return math.nan
    if math.isinf(x):
        return max(x, 0.0)  # +∞ for +∞, +0 for −∞
    return float(ieee_context(dtype).plus(exact(x)))


def oracle(dtype: np.dtype) -> object:
    return lambda x: softplus_of(x, dtype)


FAMILY_MEMBER = Member(
    oracle=oracle, results=("SOFTPLUS_C1", "SOFTPLUS_C2"), semantics=("SOFTPLUS_S1", "SOFTPLUS_S2")
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


def check(X: np.ndarray) -> None:
    """The reference against the oracle at every element; X unchanged, the result a new array."""
    inputs_unchanged = unchanged(X)
    Y = softplus(X)
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns: looked at, not computed with
        inputs_unchanged()
        assert_same(Y, elementwise(oracle(X.dtype), X.dtype, X))
    assert not np.shares_memory(Y, X)


def float32_sample(size: int) -> np.ndarray:
    """Random bit patterns (mostly huge or tiny values: x itself or 0 as results), random values of the
    range where softplus(x) is neither 0 nor x, and every float32 of a few short intervals."""
    rng = np.random.default_rng(22)
    patterns = rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32).view(np.float32)
    useful = rng.uniform(-104.0, 20.0, size).astype(np.float32)
    around = [
        np.float32(v).view(np.uint32) + np.arange(-200, 200, dtype=np.int64) for v in (0.5, 1.0, -87.33, 16.6)
    ]
    neighbours = np.concatenate(around).astype(np.uint32).view(np.float32)
    return np.concatenate([patterns, useful, neighbours])


@req("SOFTPLUS_S1", "SOFTPLUS_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns against MPFR: subnormal results, underflow to 0, NaNs, infinities included."""
    check(every_value(dtype))


@req("SOFTPLUS_S1")
def test_S1_a_float32_sample() -> None:
    check(float32_sample(20_000))


def binade_edges(dtype: np.dtype, exponents: range) -> np.ndarray:
    """The values of the type next to each x with softplus(x) = 2^k: x = ln(e^(2^k) − 1), where the result
    changes binade (two values of the type on each side of it)."""
    found = []
    for k in exponents:
        with gmpy2.context(precision=300, emin=gmpy2.get_emin_min(), emax=gmpy2.get_emax_max()):
            x = float(gmpy2.log(gmpy2.expm1(gmpy2.mpfr(2) ** k)))
        near = np.array(x, dtype)
        words = np.dtype(f"u{dtype.itemsize}")
        step = np.array(near).view(words).astype(np.int64) + np.array([-2, -1, 0, 1, 2]) * np.sign(x)
        found.append(step.astype(words).view(dtype))
    return np.concatenate(found)


@req("SOFTPLUS_S1")
def test_S1_float32_hard_to_round_cases_and_thresholds() -> None:
    """The cases the float64 evaluation cannot decide; inputs next to where the result changes binade (from
    2⁻¹²⁶ to 2¹²⁷: 2⁻¹²⁶ is the smallest normal result); tiny inputs (ln 2 and next to it); the thresholds of
    zero (−103.97…) and of subnormal results (−87.33…); the largest values, which stay finite."""
    edges = [-87.33654022216797, -87.33655548095703, -103.97207641601562, -103.97208404541016]
    edges += [-103.27892303466797, -103.27893829345703, 1e-45, -1e-45, 2.0**-24, -(2.0**-24), 2.0**-23]
    edges += [3.4028234663852886e38, -3.4028234663852886e38, 16.635532, 16.635533, 17.0, 1e4, 2.0**24]
    X = np.concatenate([
        np.array(HARD_FLOAT32, np.uint32).view(F32), np.array(edges, F32), binade_edges(F32, range(-126, 128))
    ])  # fmt: skip
    check(X)


@req("SOFTPLUS_S1")
def test_S1_the_binade_edges_of_the_16_bit_types() -> None:
    check(binade_edges(np.dtype(np.float16), range(-14, 16)))
    check(binade_edges(np.dtype(ml_dtypes.bfloat16), range(-126, 128)))


@req("SOFTPLUS_S1")
def test_S1_a_float64_sample() -> None:
    """float64 results all come from MPFR; the oracle here is MPFR too, called independently."""
    rng = np.random.default_rng(14)
    sample = [
        rng.uniform(-746.0, 40.0, 1_500),
        rng.standard_normal(1_000) * 4,
        np.ldexp(rng.uniform(-1, 1, 300), rng.integers(-1074, 1024, 300)),
        np.array([5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308, 36.7368005696771]),
        binade_edges(F64, range(-1022, 1024, 37)),
    ]
    check(np.concatenate(sample))


@req("SOFTPLUS_S1")
@FLOATS
def test_S1_no_finite_input_overflows(dtype: np.dtype) -> None:
    """softplus(x) < x + 2^(−x) for x > 0: at the largest finite value it is below the midpoint to the next
    power of two by almost half a unit, and rounds to the largest value itself."""
    info = ml_dtypes.finfo(dtype)
    X = np.array([info.max, np.nextafter(np.float64(info.max), 0).astype(dtype)], dtype)
    assert_same(softplus(X), X)


@req("SOFTPLUS_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    info = ml_dtypes.finfo(dtype)
    X = np.array([nan, -nan, -inf, inf, info.min], dtype)
    Y = softplus(X)
    assert_same(Y, np.array([nan, nan, 0.0, inf, 0.0], dtype))
    assert math.copysign(1.0, float(Y[2])) == 1.0 and math.copysign(1.0, float(Y[4])) == 1.0  # +0, not −0


@req("SOFTPLUS_S2")
@FLOATS
def test_S2_no_element_gives_minus_zero(dtype: np.dtype) -> None:
    X = np.array([-1e4, -200.0, -120.0, -30.0, -20.0, -0.0], dtype)
    assert not np.any(np.signbit(softplus(X)))


@req("SOFTPLUS_S1")
def test_S1_hand_worked_values() -> None:
    """ln 2 = 0.10110001011100100001…₂ rounds up in float16 (11 bits) to 0.10110001100₂ = 710/1024 and down
    in bfloat16 (8 bits) to 0.10110001₂ = 177/256; e^−20 ≈ 2.0612·10⁻⁹ and softplus(−20) = e^−20 − e^−40/2
    + …: float32 rounds it to the float32 nearest e^−20. In float16 softplus(−17) ≈ 4.14·10⁻⁸ is above half
    the smallest subnormal 2⁻²⁴ and rounds to it; softplus(−18) ≈ 1.52·10⁻⁸ is below and gives +0."""
    assert_same(softplus(np.array([0.0, -0.0], np.float16)), np.array([710 / 1024] * 2, np.float16))
    assert_same(softplus(np.array([0.0], ml_dtypes.bfloat16)), np.array([177 / 256], ml_dtypes.bfloat16))
    assert_same(softplus(np.array([-17.0, -18.0], np.float16)), np.array([2.0**-24, 0.0], np.float16))
    assert float(softplus(np.array([-20.0], F32))[0]) == float(np.float32(math.exp(-20)))
    assert float(softplus(np.array([0.0], F64))[0]) == math.log(2)  # correctly rounded in CPython's libm


@req("SOFTPLUS_S1")
def test_S1_the_mpfr_path_doubles_its_precision_until_it_decides() -> None:
    """In a context of 2 bits, softplus(0) = ln 2 = 0.1011…₂ rounds to 0.11₂; in 200 bits, a first
    enclosure of 202 bits cannot decide ln 2's 200-bit rounding only rarely: both answers are MPFR's."""
    x = gmpy2.mpfr(0)
    for precision in (2, 24, 200, 2000):
        context = gmpy2.context(precision=precision)
        with gmpy2.context(precision=precision + 100):
            assert SOFTPLUS.mpfr(context, x) == context.plus(gmpy2.log(gmpy2.mpfr(2)))
    assert SOFTPLUS.mpfr(gmpy2.context(precision=2), x) == 0.75
    # 40 = 101000₂ is the midpoint of 32 and 48 in 2 bits, and softplus(40) = 40 + e⁻⁴⁰ + … lies 2⁻⁵⁷·⁷ above
    # it: 48. Enclosures of 4, 8, 16 and 32 bits hold 40 itself, which rounds to the even 32: only the fifth,
    # of 64 bits, is above 40 and decides.
    assert SOFTPLUS.mpfr(gmpy2.context(precision=2), gmpy2.mpfr(40)) == 48
    assert SOFTPLUS.mpfr(gmpy2.context(precision=2), gmpy2.mpfr(-40)) == 2.0**-58  # e⁻⁴⁰ ≈ 1.22·2⁻⁵⁸
    for value in (math.inf, -math.inf, math.nan, 1e300, -1e300, 5e-324):
        context = mpfr_context(F64)
        got = SOFTPLUS.mpfr(context, gmpy2.mpfr(value))
        assert (math.isnan(got) and math.isnan(value)) or float(got) == softplus_of(value, F64)


@req("SOFTPLUS_P1")
@FLOATS
@given(data=st.data())
def test_P1_one_rounding_a_positive_monotone_result_at_least_X(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    info = ml_dtypes.finfo(dtype)
    u = gmpy2.mpfr(2.0 ** -(info.nmant + 1))
    tiny = float(info.smallest_normal)
    for x, y in zip(map(to_python, X.ravel()), map(to_python, softplus(X).ravel()), strict=True):
        if not math.isfinite(x):
            continue
        assert y >= 0 and y >= x and not math.isnan(y) and math.isfinite(y)
        value = exact(x)
        if value >= tiny:
            assert abs(gmpy2.mpfr(y) - value) <= u * value
        else:
            assert abs(gmpy2.mpfr(y) - value) <= gmpy2.mpfr(float(info.smallest_subnormal)) / 2
    with np.errstate(invalid="ignore"):  # bfloat16's isnan flags a signalling NaN
        ordered = np.sort(X.ravel()[~np.isnan(X.ravel())])
    Y = softplus(ordered).astype(np.float64)
    assert np.all(Y[1:] >= Y[:-1])


@req("SOFTPLUS_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # float32 values beyond float16: ±∞ there
        X = float32_sample(500).astype(dtype)
        assert np.all(ulp_distance(softplus(X), elementwise(oracle(dtype), dtype, X)) == 0)


@req("SOFTPLUS_P2")
def test_P2_a_one_unit_error_meets_the_bound_two_do_not() -> None:
    """Hand-made, in float16: softplus(0) = 1420/2048; 1419/2048 and 1421/2048 are its neighbours (1
    unit: 2⁻¹¹ in [1/2, 1)), 1418/2048 is 2 units away; near zero the unit is the smallest subnormal:
    softplus(−17) = 2⁻²⁴, +0 and 2⁻²³ are 1 away (the floor), 3·2⁻²⁴ is 2; NaN for a number is no distance."""
    f16 = np.float16
    Y = np.array([710 / 1024] * 3 + [2.0**-24] * 3 + [1.0], f16)
    engine = np.array([1419 / 2048, 1421 / 2048, 1418 / 2048, 0.0, 2.0**-23, 3 * 2.0**-24, math.nan], f16)
    assert (ulp_distance(engine, Y) <= 1).tolist() == [True, True, False, True, True, False, False]


@req("SOFTPLUS_S1")
def test_S1_numpy_float64_logaddexp_is_well_within_the_trusted_bound() -> None:
    """The bound the fast path trusts (2⁻⁴⁰ relative; the module derives 2δ + 2⁻⁵³, δ the error of each numpy
    function) against numpy's float64 logaddexp(0, x), on every float16 and bfloat16 value and on the float32
    sample, where the float64 result is normal: measured against MPFR at 300 bits, it stays below 2⁻⁴⁹."""
    with np.errstate(invalid="ignore"):  # the signalling NaNs among the patterns
        X = np.concatenate([every_value(t).astype(F64) for t in SIXTEEN_BITS] + [float32_sample(5_000)])
    X = X[np.isfinite(X) & (X > -708.0)]  # where float64's e^x is normal
    Y = np.logaddexp(0.0, X)
    worst = 0.0
    for x, y in zip(X.tolist(), Y.tolist(), strict=True):
        value = exact(x)
        worst = max(worst, float(abs(gmpy2.mpfr(y) - value) / value))
    assert worst < 2.0**-49 < 2 * 2.0**-42 + 2.0**-53 < RELATIVE_ERROR


INSTANCES = {"Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64"}


def why3_value(literal: str) -> float:
    """A literal of formal/softplus.mlw's instances: (0x1.8p1:F.t), (F.neg (0.0:F.t)), an infinity."""
    negative = literal.startswith("(F.neg ")
    text = literal[len("(F.neg ") : -1] if negative else literal
    value = math.inf if "F.div" in text else float.fromhex(text.strip("()").removesuffix(":F.t"))
    return -value if negative else value


@req("SOFTPLUS_S1")
def test_S1_the_values_the_formal_specification_trusts_are_mpfrs() -> None:
    """formal/softplus.mlw states MPFR's values at the page's inputs as axioms (Why3 evaluates no
    exponential): each is checked here against MPFR, independently of the reference."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "softplus.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Softplus(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        dtype = np.dtype(ml_dtypes.bfloat16) if name == "BFloat16" else np.dtype(INSTANCES[name])
        for line in body.splitlines():
            if not line.strip().startswith("softplus_finite ("):
                continue
            x, y = line.strip().removesuffix(" /\\").removeprefix("softplus_finite ").split(" = ")
            expected = softplus_of(why3_value(x), dtype)
            assert why3_value(y) == expected and math.copysign(1, why3_value(y)) == math.copysign(1, expected)
            checked += 1
    assert checked > 20
