"""HardSwish: one test (or more) per requirement id, named after it.

The oracle is exact: h(x) = x·min(max(x + 3, 0), 6)/6 in Python fractions, rounded once by MPFR (gmpy2) in
the type's precision and exponent range, subnormals included.
"""

from __future__ import annotations

import math
from fractions import Fraction

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import FLOATS, Member, assert_same, elementwise, ieee_context, req, tensors, to_python, unchanged

from sonnx_spec import hard_swish
from sonnx_spec.ops.hard_swish import meets_accuracy

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)


def exact(x: float) -> Fraction:
    v = Fraction(x)
    return v * min(max(v + 3, Fraction(0)), Fraction(6)) / 6


def ulp(v: Fraction, dtype: np.dtype) -> Fraction:
    """The spacing of the type at the real |v|, from MPFR: |v| rounded down in the type's precision and
    lowest exponent (and no highest one), and the next value above it."""
    ieee = ieee_context(dtype)
    context = gmpy2.context(precision=ieee.precision, emin=ieee.emin, emax=4096, subnormalize=True)
    context.round = gmpy2.RoundDown
    below = context.div(gmpy2.mpz(abs(v.numerator)), gmpy2.mpz(v.denominator))
    return Fraction(*context.next_above(below).as_integer_ratio()) - Fraction(*below.as_integer_ratio())


def hard_swish_of(x: float, dtype: np.dtype) -> float:
    """The spec written out once more: NaN, +∞ and −∞ by HARDSWISH_S2 and S3, the rest exact and rounded."""
    if math.isnan(x):
        return math.nan
    if x == math.inf:
        return math.inf
    if x <= -3:  # −∞ included: −0
        return -0.0
    value = exact(x)
    rounded = float(ieee_context(dtype).div(gmpy2.mpz(value.numerator), gmpy2.mpz(value.denominator)))
    return math.copysign(rounded, x) if rounded == 0 else rounded  # a zero has X's sign


def oracle(dtype: np.dtype) -> object:
    return lambda x: hard_swish_of(x, dtype)


FAMILY_MEMBER = Member(
    oracle=oracle,
    results=("HARDSWISH_C1", "HARDSWISH_C2"),
    semantics=("HARDSWISH_S1", "HARDSWISH_S2", "HARDSWISH_S3"),
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def check(X: np.ndarray) -> None:
    inputs_unchanged = unchanged(X)
    Y = hard_swish(X)
    with np.errstate(invalid="ignore"):  # bfloat16's signalling NaNs are looked at, not computed with
        inputs_unchanged()
        assert_same(Y, elementwise(oracle(X.dtype), X.dtype, X))


@req("HARDSWISH_S1", "HARDSWISH_S2", "HARDSWISH_S3")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_S3_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns, subnormals, ties, NaNs and infinities among them."""
    check(np.arange(2**16, dtype=np.uint16).view(dtype))


def ties(p: int, e: int, count: int) -> list[float]:
    """``count`` values x = ±3n/2^e (n odd, n < 2^e) of each sign whose h(x) is a midpoint of a type of p
    bits: h(x) is ±3n(2^e ± n)/2^(2e + 1), an odd numerator over a power of 2; it is a midpoint when that
    numerator has p + 1 bits (the search starts where 3n·2^e reaches 2^p)."""
    found = []
    for sign in (1, -1):
        n, hits = (2**p // (3 * 2**e)) | 1, 0
        while hits < count and n < 2**e:
            if (3 * n * (2**e + sign * n)).bit_length() == p + 1:
                found.append(sign * 3 * n / 2**e)
                hits += 1
            n += 2
    return found


def test_the_ties_are_midpoints() -> None:
    for x in ties(24, 12, 50) + ties(53, 27, 50):
        h = exact(x)
        assert h.denominator & (h.denominator - 1) == 0  # a power of 2
        assert abs(h.numerator).bit_length() in (25, 54) and h.numerator % 2 == 1


@req("HARDSWISH_S1", "HARDSWISH_S3")
def test_S1_float32_sample_ties_and_tiny_values() -> None:
    rng = np.random.default_rng(20260521)
    sample = [
        rng.standard_normal(4000) * 2,
        rng.uniform(-3, 3, 4000),
        np.ldexp(rng.uniform(-1, 1, 2000), rng.integers(-150, 5, 2000)),  # subnormals up to 2^4
        np.array(ties(24, 12, 500)),
        np.array([k * 2.0**-149 for k in (1, 2, 3, 5, -1, -2, -3, -5)]),
        np.nextafter(np.float32(-3), np.float32(0)) + np.arange(8) * 2.0**-22,  # just above −3
    ]
    check(np.concatenate(sample).astype(F32))


@req("HARDSWISH_S1", "HARDSWISH_S3")
def test_S1_float64_sample_ties_and_tiny_values() -> None:
    rng = np.random.default_rng(20260522)
    tiny = [k * 5e-324 for k in (1, 2, 3, 5, 2**52 - 1, 2**52 + 1)]
    around_2_to_the_minus_400 = [s * 2.0**-400 * (1 + d) for s in (1, -1) for d in (-(2.0**-52), 0, 2.0**-52)]
    sample = [
        rng.standard_normal(3000) * 2,
        rng.uniform(-3, 3, 3000),
        np.ldexp(rng.uniform(-1, 1, 3000), rng.integers(-1080, 5, 3000)),
        np.array(ties(53, 27, 300)),
        np.array(tiny + [-t for t in tiny] + around_2_to_the_minus_400),
        np.nextafter(-3.0, 0.0) + np.arange(8) * 2.0**-51,
        np.nextafter(3.0, 0.0) - np.arange(8) * 2.0**-51,
    ]
    check(np.concatenate(sample))


@req("HARDSWISH_S2", "HARDSWISH_S3")
@FLOATS
def test_S2_S3_special_values(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    tiny, lowest, highest = float(info.smallest_subnormal), float(info.min), float(info.max)
    nan, inf = math.nan, math.inf
    X = np.array([nan, -nan, inf, -inf, lowest, -1000.0, -3.0, -0.0, 0.0, -tiny, 3.0, highest], dtype)
    Y = np.array([nan, nan, inf, -0.0, -0.0, -0.0, -0.0, -0.0, 0.0, -0.0, 3.0, highest], dtype)
    assert_same(hard_swish(X), Y)


@req("HARDSWISH_S1")
def test_S1_hand_worked_values() -> None:
    """1/3, 2/3 and 5/3 from their binary expansions; s/2 + s²/6 just above the midpoint s/2."""
    f16, bf16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
    X = np.array([-1.0, 1.0, 2.0, 0.75, -1.5, 2.0**-24], f16)
    assert_same(
        hard_swish(X), np.array([-1365 / 4096, 1365 / 2048, 1707 / 1024, 0.46875, -0.375, 2.0**-24], f16)
    )
    X = np.array([-1.0, 1.0, 2.0, 2.0**-133], bf16)
    assert_same(hard_swish(X), np.array([-171 / 512, 171 / 256, 213 / 128, 2.0**-133], bf16))
    assert_same(hard_swish(np.array([1.0, 2.0], F64)), np.array([2 / 3, 5 / 3]))  # Python's division
    X = np.array([-1.0, 1.0, 2.0, -2.9999998], F32)  # 1/3 = 0.0101…: float32 rounds −1/3 and 2/3 away
    Y = [-11184811 * 2.0**-25, 11184811 * 2.0**-24, 13981013 * 2.0**-23, -(2.0**-23 - 2.0**-47)]
    assert_same(hard_swish(X), np.array(Y, F32))
    # the page's float16 ties: 2475/8192 and 3003/8192 up to the even 2476 and 3004, −2205/8192 to −2204
    X = np.array([0.515625, 0.609375, -0.703125, -(2.0**-24)], f16)
    assert_same(hard_swish(X), np.array([2476 / 8192, 3004 / 8192, -2204 / 8192, -0.0], f16))


@req("HARDSWISH_P1")
@FLOATS
@given(data=st.data())
def test_P1_never_above_X_within_half_an_ulp(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    for x, y in zip(map(to_python, X.ravel()), map(to_python, hard_swish(X).ravel()), strict=True):
        if not math.isfinite(x):
            continue
        assert math.isfinite(y) and abs(y) <= abs(x)
        assert abs(Fraction(y) - exact(x)) <= ulp(exact(x), dtype) / 2


def engine_formula(X: np.ndarray) -> np.ndarray:
    """ONNX's function body as engines run it: x·max(0, min(1, x·α + β)) in X's type, α = float32(1/6)."""
    alpha, beta = np.array(np.float32(1 / 6), X.dtype), np.array(0.5, X.dtype)
    with np.errstate(all="ignore"):
        return X * np.maximum(np.array(0, X.dtype), np.minimum(np.array(1, X.dtype), X * alpha + beta))


@req("HARDSWISH_P2")
@pytest.mark.parametrize("dtype", [*SIXTEEN_BITS, F32], ids=["float16", "bfloat16", "float32"])
def test_P2_the_engines_formula_is_within_the_bound_but_for_minus_infinity(dtype: np.dtype) -> None:
    if dtype == F32:
        X = np.random.default_rng(3).uniform(-3.5, 3.5, 20000).astype(F32)
    else:
        with np.errstate(invalid="ignore"):
            X = np.arange(2**16, dtype=np.uint16).view(dtype)
            X = X[~np.isnan(X) & (X != -np.inf)]
    assert meets_accuracy(X, engine_formula(X)).all()
    assert not meets_accuracy(np.array([-np.inf], dtype), engine_formula(np.array([-np.inf], dtype)))[0]


@req("HARDSWISH_P2")
def test_P2_the_bound_is_tight_where_stated() -> None:
    """At x = 1 in float32: h = 2/3 = 0.1010…₂ rounds up by a third of its ulp u = 2⁻²⁴ to y; the bound is
    2u + ulp(1) = 4u. y + 3u (3⅓u away) and y − 4u (3⅔u) meet it, y + 4u and y − 5u do not. Near −3 the
    floor is one ulp of x; an infinity for a finite x never meets it."""
    u = 2.0**-24
    y = 0.6666666865348816  # 11184811·2⁻²⁴
    assert Fraction(y) - Fraction(2, 3) == Fraction(u) / 3
    Y = np.array([y + 3 * u, y - 4 * u, y + 4 * u, y - 5 * u], F32)
    assert meets_accuracy(np.ones(4, F32), Y).tolist() == [True, True, False, False]
    # At x = 0.625: h = 145/384 in [1/4, 1/2) and x in [1/2, 1), a bound of 2·2⁻²⁵ + 2⁻²⁴ = 4v, v = 2⁻²⁵;
    # z = h − v/3 rounded, z + 4v (3⅔v away) meets it, z + 5v (4⅔v) does not.
    z = 0.3776041567325592
    assert Fraction(z) - Fraction(145, 384) == -Fraction(2**-25) / 3
    ok = meets_accuracy(np.full(2, 0.625, F32), np.array([z + 4 * 2**-25, z + 5 * 2**-25], F32))
    assert ok.dtype == bool and ok.tolist() == [True, False]
    snan = np.array([0x7F81], np.uint16).view(ml_dtypes.bfloat16)  # a signalling NaN is a NaN
    assert meets_accuracy(snan, snan).tolist() == [True]
    # h(1.5) = 1.125 exactly, and ulp(h) = ulp(x) = 2⁻¹⁰ in float16: 3·2⁻¹⁰ away is exactly the bound.
    at_the_bound = np.array([1.125 + 3 * 2**-10, 1.125 - 3 * 2**-10, 1.125 + 4 * 2**-10], np.float16)
    assert meets_accuracy(np.full(3, 1.5, np.float16), at_the_bound).tolist() == [True, True, False]
    infinities = np.array([math.inf, -math.inf, -math.inf, -math.inf, math.inf], np.float16)
    engine_gives = np.array([math.inf, -0.0, 0.0, 2.0**-24, 65504.0], np.float16)
    assert meets_accuracy(infinities, engine_gives).tolist() == [True, True, True, False, False]
    near = np.array([-2.9999998], F32)  # h ≈ −1.2·10⁻⁷: 0 is within ulp(x) = 2⁻²², 2⁻²¹ is not
    assert meets_accuracy(near, np.array([0.0], F32))[0]
    assert not meets_accuracy(near, np.array([2.0**-21], F32))[0]
    assert not meets_accuracy(np.array([12000.0], np.float16), np.array([np.inf], np.float16))[0]
