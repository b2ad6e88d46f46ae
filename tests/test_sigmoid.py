"""Sigmoid: one test (or more) per requirement id, named after it.

The oracle is MPFR (gmpy2), called here element by element on the exact inputs: 1/(1 + e^−x) evaluated
to nearest at 300 bits and again at 600 bits, each rounded once to the type, the two required to agree.
It shares nothing with the reference's evaluation (a float64 one, else directed roundings at a doubling
precision) but the library.
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
from support import FLOATS, Member, assert_same, elementwise, ieee_context, req, tensors, to_python, unchanged

from sonnx_spec import sigmoid
from sonnx_spec.correctly_rounded import ulp_distance
from sonnx_spec.ops.sigmoid import FLOAT64_ERROR, SIGMOID, _bounds, _float64_sigmoid

SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)


def exact(x: float, precision: int) -> gmpy2.mpfr:
    """σ(x) to nearest at ``precision`` bits, with no exponent range to speak of."""
    wide = gmpy2.context(precision=precision, emin=gmpy2.get_emin_min(), emax=gmpy2.get_emax_max())
    return wide.div(1, wide.add(1, wide.exp(-gmpy2.mpfr(x))))


def sigmoid_of(x: float, dtype: np.dtype) -> float:
    """The spec written out once more: NaN and the infinities by SIGMOID_S2, σ(x) rounded once otherwise."""
    if math.isnan(x):
        return math.nan
    if math.isinf(x):
        return 0.0 if x < 0 else 1.0
    context = ieee_context(dtype)
    first, second = (float(context.plus(exact(x, precision))) for precision in (300, 600))
    assert first == second, x  # 300 bits decide the rounding: no input here is that close to a midpoint
    return first


def oracle(dtype: np.dtype) -> object:
    return lambda x: sigmoid_of(x, dtype)


FAMILY_MEMBER = Member(
    oracle=oracle, results=("SIGMOID_C1", "SIGMOID_C2"), semantics=("SIGMOID_S1", "SIGMOID_S2")
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def check(X: np.ndarray) -> np.ndarray:
    inputs_unchanged = unchanged(X)
    Y = sigmoid(X)
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns: looked at, not computed with
        inputs_unchanged()
        assert Y is not X and not np.shares_memory(Y, X)
        assert_same(Y, elementwise(oracle(X.dtype), X.dtype, X))
    return Y


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


def around(value: float, dtype: np.dtype, count: int) -> np.ndarray:
    """The ``count`` values of ``dtype`` each side of ``value`` (a value of the type), in order."""
    words = np.dtype(f"u{dtype.itemsize}")
    centre = int(np.array(value, dtype).view(words))
    steps = np.arange(-count, count + 1, dtype=np.int64)
    signs = -1 if value < 0 else 1
    return (centre + signs * steps).astype(words).view(dtype)


def float32_sample(size: int) -> np.ndarray:
    """Random bit patterns (mostly huge or tiny values: 0, 1/2 and 1 as results), random values of the range
    where σ is neither 0 nor 1 in float32, and every float32 of a few short intervals: where the result
    changes binade (σ = 1/4, 3/4, 1/8: x = ∓ln 3, −ln 7) and where it reaches 1 − 2⁻²⁵."""
    rng = np.random.default_rng(31)
    patterns = rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32).view(np.float32)
    useful = rng.uniform(-104.0, 18.0, size).astype(np.float32)
    edges = [-math.log(3), math.log(3), -math.log(7), 17.328679, -87.33655]
    neighbours = np.concatenate([around(v, F32, 200) for v in edges])
    return np.concatenate([patterns, useful, neighbours])


def ties(p: int, count: int) -> np.ndarray:
    """Inputs whose σ lies a hair from a midpoint of a type of p bits: σ(x) = 1/2 + x/4 − x³/48 + …, and for
    x = n·2^(1−p), n odd, 1/2 + x/4 is the midpoint 1/2 + n·2^(−p−1) (just below it: rounds down); for
    x = −n·2^−p, 1/2 − n·2^(−p−2)… is the midpoint below 1/2, where the values are twice as dense (just above
    it: rounds up)."""
    n = np.arange(1, 2 * count, 2, dtype=np.float64)
    return np.concatenate([n * 2.0 ** (1 - p), -n * 2.0**-p])


@req("SIGMOID_S1", "SIGMOID_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S2_every_value_of_the_16_bit_types(dtype: np.dtype) -> None:
    """All 65536 bit patterns against MPFR: subnormal results, underflow to 0, 1, NaNs included."""
    check(every_value(dtype))


@req("SIGMOID_S1")
def test_S1_a_float32_sample() -> None:
    check(float32_sample(10_000))


@req("SIGMOID_S1")
@pytest.mark.parametrize("dtype", [*SIXTEEN_BITS, F32, F64], ids=lambda t: t.name)
def test_S1_hard_to_round_cases_near_one_half(dtype: np.dtype) -> None:
    """σ(x) a hair (x³/48) from a midpoint: no float64 evaluation decides them; MPFR must. The rounding of
    the first ones, worked by hand: σ(2^(1−p)) is just below 1/2 + 2^(−p−1), so 1/2; σ(−2^−p) is just above
    1/2 − 2^(−p−2), so the even one of its neighbours, 1/2."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    X = ties(p, 100).astype(dtype)
    Y = check(X)
    assert Y[0] == 0.5 and Y[100] == 0.5
    assert Y[1] == 0.5 + 2.0**-p  # σ(3·2^(1−p)) is just below 1/2 + 3·2^(−p−1): rounds down to 1/2 + 2^−p
    assert Y[101] == 0.5 - 2.0 ** (-p - 1)  # σ(−3·2^−p): just above 1/2 − 3·2^(−p−2), to the even below


@req("SIGMOID_S1")
@FLOATS
def test_S1_tiny_inputs_give_one_half(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    tiny, normal = float(info.smallest_subnormal), float(info.smallest_normal)
    X = np.array([tiny, -tiny, 3 * tiny, -3 * tiny, normal, -normal, -0.0, 0.0], dtype)
    assert_same(sigmoid(X), np.full(8, 0.5, dtype))


@req("SIGMOID_S1")
@FLOATS
def test_S1_the_threshold_of_underflow(dtype: np.dtype) -> None:
    """σ(x) = t exactly at x = ln(t/(1 − t)); with t half the smallest subnormal, the last input below it
    gives +0 and the next one the smallest subnormal. No value of the type is that x (it is irrational)."""
    info = ml_dtypes.finfo(dtype)
    tiny = float(info.smallest_subnormal)
    with gmpy2.context(precision=300):
        t = gmpy2.mpfr(tiny) / 2
        threshold = gmpy2.log(t / (1 - t))
        last = np.array(float(threshold), np.float64).astype(dtype)[()]  # a value of the type near it
        while gmpy2.mpfr(float(last)) > threshold:
            last = _down(last)
        while gmpy2.mpfr(float(_up(last))) < threshold:
            last = _up(last)
    X = np.array([_down(last), last, _up(last), _up(_up(last))], dtype)
    Y = sigmoid(X)
    assert Y.tolist()[:2] == [0.0, 0.0] and Y.tolist()[2:] == [tiny, tiny]


def _step(x: np.generic, by: int) -> np.generic:
    """The value ``by`` places further from zero than x in its type."""
    bits = np.dtype(f"u{x.dtype.itemsize}")
    return np.array(int(np.array(x).view(bits)) + by, bits).view(x.dtype)[()]


def _down(x: np.generic) -> np.generic:
    return _step(x, 1)  # x is negative: one place further from zero is one value lower


def _up(x: np.generic) -> np.generic:
    return _step(x, -1)


@req("SIGMOID_S1")
@FLOATS
def test_S1_the_threshold_of_one(dtype: np.dtype) -> None:
    """σ(x) rounds to 1 from where it reaches the midpoint 1 − 2^(−p−1) below 1: x = ln((1 − t)/t), t =
    2^(−p−1); the value of the type just below gives the largest value below 1."""
    info = ml_dtypes.finfo(dtype)
    p = info.nmant + 1
    with gmpy2.context(precision=300):
        t = gmpy2.mpfr(2) ** (-p - 1)
        threshold = gmpy2.log((1 - t) / t)
        first = np.array(float(threshold), np.float64).astype(dtype)[()]
        while gmpy2.mpfr(float(first)) < threshold:
            first = _step(first, 1)
        while gmpy2.mpfr(float(_step(first, -1))) > threshold:
            first = _step(first, -1)
    Y = sigmoid(np.array([_step(first, -1), first, _step(first, 1)], dtype))
    assert Y.tolist() == [1 - 2.0**-p, 1.0, 1.0]


@req("SIGMOID_S1")
def test_S1_float32_underflow_and_the_value_onnxruntime_gives_0() -> None:
    """σ(−20) = 2.06·10⁻⁹, a normal float32 (onnxruntime gives 0); σ(−100) a subnormal, σ(−104) zero."""
    Y = check(np.array([-20.0, -17.0, -88.0, -100.0, -103.0, -104.0, -1e30, -3.4e38], F32))
    assert 2.061e-9 < Y[0] < 2.062e-9 and 0 < Y[3] < 1.2e-38 and Y[5] == 0 and Y[7] == 0


@req("SIGMOID_S1")
def test_S1_a_float64_sample() -> None:
    """float64 results all come from MPFR (Ziv's loop); the oracle here is MPFR at fixed precisions."""
    rng = np.random.default_rng(13)
    X = np.concatenate(
        [
            rng.uniform(-746.0, 40.0, 1_000),
            rng.standard_normal(1_000) * 4,
            np.ldexp(rng.uniform(-1, 1, 300), rng.integers(-1074, 2, 300)),
            [-745.0, -745.2, -709.8, -708.4, 36.7, 37.5, 1e300, -1e300, 5e-324],
        ]
    )
    check(X)


@req("SIGMOID_S2")
@FLOATS
def test_S2_special_values(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    X = np.array([nan, -nan, -inf, inf], dtype)
    Y = sigmoid(X)
    assert_same(Y, np.array([nan, nan, 0.0, 1.0], dtype))
    assert math.copysign(1.0, float(Y[2])) == 1.0  # +0, not −0


@req("SIGMOID_P1")
@FLOATS
@given(data=st.data())
def test_P1_one_rounding_in_zero_one_monotone(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    info = ml_dtypes.finfo(dtype)
    u = gmpy2.mpfr(2.0 ** -(info.nmant + 1))
    tiny = gmpy2.mpfr(float(info.smallest_normal))
    half_subnormal = gmpy2.mpfr(float(info.smallest_subnormal)) / 2
    with gmpy2.context(precision=300, emin=-100_000, emax=100_000):
        for x, y in zip(map(to_python, X.ravel()), map(to_python, sigmoid(X).ravel()), strict=True):
            if not math.isfinite(x):
                continue
            assert 0 <= y <= 1
            value = exact(x, 300)
            assert abs(gmpy2.mpfr(y) - value) <= (u * value if value >= tiny else half_subnormal)
    with np.errstate(invalid="ignore"):  # bfloat16's isnan flags a signalling NaN
        ordered = np.sort(X.ravel()[~np.isnan(X.ravel())])
    Y = sigmoid(ordered).astype(np.float64)
    assert np.all(Y[1:] >= Y[:-1])


@req("SIGMOID_P1")
@FLOATS
def test_P1_range_and_order_over_the_whole_line(dtype: np.dtype) -> None:
    """From the lowest value to the highest, through 0: never negative, never above 1, never decreasing."""
    info = ml_dtypes.finfo(dtype)
    X = np.concatenate([np.linspace(float(info.min), -200.0, 50), np.linspace(-120.0, 60.0, 3000)])
    X = np.concatenate([X, np.linspace(60.0, float(info.max), 50)]).astype(dtype)
    X = np.sort(X)
    Y = sigmoid(X).astype(np.float64)
    assert Y.min() == 0 and Y.max() == 1 and np.all(Y[1:] >= Y[:-1])


@req("SIGMOID_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # float32 values beyond float16: ±∞ there
        X = float32_sample(300).astype(dtype)
        assert np.all(ulp_distance(sigmoid(X), elementwise(oracle(dtype), dtype, X)) == 0)


@req("SIGMOID_P2")
def test_P2_the_judge_and_the_engines_formula() -> None:
    """Hand-made: 1/(1 + e^−x) in float32 gives 0 from x = −88.73 (e^88.73 overflows), where σ is a
    subnormal of about 2²¹ units: not within one unit. At x = −20 it is within it."""
    X = np.array([-20.0, -89.0], F32)
    with np.errstate(over="ignore"):
        naive = (1 / (1 + np.exp(-X))).astype(F32)
    distance = ulp_distance(naive, sigmoid(X))
    assert distance[0] <= 1 and naive[1] == 0 and distance[1] > 2**20
    half = np.array([0.5, 0.5, 0.5], np.float16)
    neighbours = np.array([0.5, 0.50048828125, 0.499755859375], np.float16)  # 1/2 + 2⁻¹¹, 1/2 − 2⁻¹²
    assert ulp_distance(half, neighbours).tolist() == [0, 1, 1]


@req("SIGMOID_S1")
def test_S1_the_float64_evaluation_is_well_within_its_bound() -> None:
    """The bound the fast path trusts of 1/(1 + e^−x) in float64, FLOAT64_ERROR = 2⁻³⁹ (numpy's exp
    within 2⁻⁴⁰, two roundings), against MPFR at 300 bits on every float16 and bfloat16 value and on the
    float32 sample, where the float64 result is normal: it stays below 2⁻⁵⁰."""
    with np.errstate(invalid="ignore"):  # the signalling NaNs among the patterns
        X = np.concatenate([every_value(t).astype(F32) for t in SIXTEEN_BITS] + [float32_sample(5_000)])
    X = X[np.isfinite(X) & (X > -708.0)]  # where float64's result is normal
    Y = np.empty(X.size)
    with np.errstate(all="ignore"):
        _float64_sigmoid(Y, X)
    worst = Fraction(0)
    for x, y in zip(X.tolist(), Y.tolist(), strict=True):
        value = Fraction(*exact(x, 300).as_integer_ratio())
        worst = max(worst, abs(Fraction(y) - value) / value)
    assert worst < Fraction(1, 2**50) < Fraction(FLOAT64_ERROR) == Fraction(1, 2**39)
    assert SIGMOID.error == FLOAT64_ERROR  # the bound the fast path's window is made of: the derived one


@req("SIGMOID_S1")
@pytest.mark.parametrize("precision", [8, 24, 60])
def test_S1_the_mpfr_bounds_enclose_sigma(precision: int) -> None:
    """Ziv's loop is correct because each attempt's two values are a lower and an upper bound of σ(x): at
    any precision, against σ at 300 bits, on inputs of every scale. They are also within 2⁴ units 2^−precision
    of σ(x) of each other (three directed roundings each), so that the loop ends."""
    rng = np.random.default_rng(precision)
    X = np.concatenate(
        [rng.standard_normal(300) * 8, np.ldexp(rng.uniform(-1, 1, 100), rng.integers(-60, 10, 100))]
    )
    for x in [*X.tolist(), -745.0, 40.0, -1e30]:
        low, high = _bounds(gmpy2.mpfr(x), precision)
        value = exact(x, 300)
        assert low <= value <= high and low.precision == high.precision == precision, x
        assert high - low <= value * 2 ** (4 - precision) or value < 2**-1000, x
        assert low > 0 or x < -700, x


INSTANCES = {"Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64"}


def why3_value(literal: str) -> float:
    """A literal of formal/sigmoid.mlw's instances: (0x1.8p-1:F.t), (F.neg (0.0:F.t))."""
    negative = literal.startswith("(F.neg ")
    text = literal[len("(F.neg ") : -1] if negative else literal
    value = float.fromhex(text.strip("()").removesuffix(":F.t"))
    return -value if negative else value


@req("SIGMOID_S1")
def test_S1_the_values_the_formal_specification_trusts_are_mpfrs() -> None:
    """formal/sigmoid.mlw states MPFR's values at the page's inputs as axioms (Why3 cannot evaluate e^x):
    each is checked here against MPFR, independently of the reference."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "sigmoid.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Sigmoid(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        dtype = np.dtype(ml_dtypes.bfloat16) if name == "BFloat16" else np.dtype(INSTANCES[name])
        for line in body.splitlines():
            if not line.strip().startswith("sigmoid_finite ("):
                continue
            x, y = line.strip().removesuffix(" /\\").removeprefix("sigmoid_finite ").split(" = ")
            expected = sigmoid_of(why3_value(x), dtype)
            assert why3_value(y) == expected and math.copysign(1, why3_value(y)) == 1
            checked += 1
    assert checked > 20
