"""BatchNormalization: one test (or more) per requirement id, named after it.

The oracle shares nothing with the reference's route (a float64 evaluation, else integer square roots): the
special values are written out here step by step over the extended reals (:func:`special`); a finite value
r = t/√w + b (t = s·(x − m), w = v + ε, exact fractions) is rounded by proposing a candidate from a 400-bit
MPFR approximation and proving it with exact rational comparisons: r lies strictly inside the candidate's
rounding interval when sign(t + (b − μ)·√w) is decided for each of its two midpoints μ by squaring
(:func:`sign_of`). Where w is the square of a fraction, r is a fraction, rounded exactly
(:func:`round_fraction`, ties to even).
"""

from __future__ import annotations

import math
import os
from fractions import Fraction

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FLOATS, assert_same, raises_req, req, unchanged

import sonnx_spec.ops.batch_normalization as module
from sonnx_spec import batch_normalization, mul
from sonnx_spec.accuracy import judge
from sonnx_spec.correctly_rounded import ulp_distance
from sonnx_spec.ops.batch_normalization import (
    CANCELLATION,
    SMALLEST_EPSILON,
    UNDECIDED,
    _float64_bn,
    _mpfr_bn,
    engine_error,
    stored_epsilon,
)

F16, BF16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
SIXTEEN_BITS = [F16, BF16]
EPS = float(np.float32(1e-5))
nan, inf = math.nan, math.inf
PLAIN = {"epsilon": 1e-5, "momentum": 0.9, "training_mode": 0}
MUTATION_RUN = os.environ.get("HYPOTHESIS_PROFILE") == "mutants"
"""``nox -s mutants`` runs the tests once per mutant, under hypothesis's "mutants" profile (conftest.py):
there the sweep of every 16-bit X takes a sample (:func:`every_value`); ``nox -s tests`` takes every value."""


def bn(X, s, b, m, v, **attributes):
    return batch_normalization(X, s, b, m, v, **{**PLAIN, **attributes})


# -- the oracle ----------------------------------------------------------------------------------------


Q = gmpy2.mpq
"""Exact rationals (GMP's, faster than fractions.Fraction, as exact)."""


def round_fraction(value: Q, dtype: np.dtype) -> float:
    """``value`` rounded once to ``dtype``, to nearest with ties to even, subnormals and overflow included."""
    if value == 0:
        return 0.0
    info = ml_dtypes.finfo(dtype)
    p, emin = info.nmant + 1, info.minexp - 1
    sign, magnitude = (-1.0 if value < 0 else 1.0), abs(Q(value))
    e = int(magnitude.numerator).bit_length() - int(magnitude.denominator).bit_length()
    if Q(2) ** e > magnitude:
        e -= 1
    quantum = Q(2) ** (max(e, emin + 1) - p + 1)
    scaled = magnitude / quantum
    units = int(scaled)  # positive: truncation is the floor
    rest = scaled - units
    if rest > Q(1, 2) or (rest == Q(1, 2) and units % 2 == 1):
        units += 1
    rounded = units * quantum
    if rounded > Q(float(info.max)):
        return sign * inf
    return sign * float(rounded)


def rounding_interval(dtype: np.dtype, c: float) -> tuple[Q | None, Q | None]:
    """The open interval of reals that round to ``c`` (not a tie): its two midpoints, None for no bound."""
    info = ml_dtypes.finfo(dtype)
    p, emin = info.nmant + 1, info.minexp - 1
    largest = Q(float(info.max))
    threshold = largest + Q(2) ** (info.maxexp - 1 - p)  # max + half its unit in the last place
    if math.isinf(c):
        return (threshold, None) if c > 0 else (None, -threshold)
    if c == 0:
        half = Q(float(info.smallest_subnormal)) / 2
        return -half, half
    a = abs(Q(c))
    e = int(a.numerator).bit_length() - int(a.denominator).bit_length()
    if Q(2) ** e > a:
        e -= 1
    above = Q(2) ** (max(e, emin + 1) - p + 1)
    below = above / 2 if a == Q(2) ** e and e > emin + 1 else above
    low, high = a - below / 2, (threshold if a == largest else a + above / 2)
    return (low, high) if c > 0 else (-high, -low)


def sign_of(t: Q, q: Q, w: Q) -> int:
    """The sign of t + q·√w, w > 0, decided exactly."""
    if t >= 0 and q >= 0:
        return 0 if t == 0 and q == 0 else 1
    if t <= 0 and q <= 0:
        return -1
    difference = t * t - q * q * w  # t and q of opposite signs: the larger magnitude decides
    return (1 if difference > 0 else -1 if difference < 0 else 0) * (1 if t > 0 else -1)


def rational_sqrt(w: Q) -> Q | None:
    n, d = gmpy2.isqrt(w.numerator), gmpy2.isqrt(w.denominator)
    return Q(n, d) if n * n == w.numerator and d * d == w.denominator else None


def exact_value(dtype: np.dtype, t: Q, w: Q, b: Q) -> float:
    """t/√w + b (t ≠ 0, w > 0) rounded once to ``dtype``, proved by exact comparisons."""
    root = rational_sqrt(w)
    if root is not None:
        return round_fraction(t / root + b, dtype)
    wide = gmpy2.context(precision=400)
    near = [gmpy2.mpfr(value, context=wide) for value in (t, w, b)]  # each to nearest at 400 bits
    approx = wide.add(wide.div(near[0], wide.sqrt(near[1])), near[2])
    candidate = round_fraction(Q(approx), dtype)
    low, high = rounding_interval(dtype, candidate)
    if candidate == 0:  # the interval holds both zeros: the sign of r, decided exactly, is the zero's
        assert (sign_of(t, b, w) < 0) == (math.copysign(1, candidate) < 0), "the zero's sign is not proved"
    assert low is None or sign_of(t, b - low, w) > 0, "the candidate is not proved: the oracle is wrong"
    assert high is None or sign_of(t, b - high, w) < 0, "the candidate is not proved: the oracle is wrong"
    return candidate


def special(x: float, s: float, b: float, m: float, v: float) -> float | None:
    """BATCHNORMALIZATION_S4 and S5: IEEE 754's steps over the extended reals where a NaN, an infinity or a
    zero product decides the result; None where BATCHNORMALIZATION_S1 rounds a value."""
    if any(map(math.isnan, (x, s, b, m, v))):
        return nan
    if math.isinf(x) and math.isinf(m):
        d: float = nan if (x > 0) == (m > 0) else x  # ∞ − ∞, or ±∞ − ∓∞ = ±∞
    elif math.isinf(x) or math.isinf(m):
        d = x if math.isinf(x) else -m
    elif x == m:
        d = -0.0 if (math.copysign(1, x) < 0 and math.copysign(1, m) > 0) else 0.0  # IEEE: x − x = +0
    else:
        d = 1.0 if x > m else -1.0  # a finite non-zero difference: only its sign matters here
    if math.isnan(d):
        return nan
    if (math.isinf(s) and d == 0) or (math.isinf(d) and s == 0):
        return nan  # 0·∞
    sign_t = math.copysign(1, s) * math.copysign(1, d)
    t_infinite, t_zero = math.isinf(s) or math.isinf(d), s == 0 or d == 0
    if t_infinite and math.isinf(v):
        return nan  # ∞/∞
    if t_infinite:
        q = math.copysign(inf, sign_t)
    elif t_zero or math.isinf(v):
        q = math.copysign(0.0, sign_t)  # a zero product, or a finite one over an infinite root
    elif math.isinf(b):
        return b  # a finite q plus an infinite b
    else:
        return None
    if math.isinf(q) and math.isinf(b) and (q > 0) != (b > 0):
        return nan
    if math.isinf(q):
        return q
    if b == 0:
        return -0.0 if (math.copysign(1, q) < 0 and math.copysign(1, b) < 0) else 0.0
    return b


def bn_of(dtype: np.dtype, x: float, s: float, b: float, m: float, v: float, eps: float = EPS) -> float:
    """The specification, element by element."""
    result = special(x, s, b, m, v)
    if result is not None:
        return result
    t = Q(s) * (Q(x) - Q(m))
    return exact_value(dtype, t, Q(v) + Q(eps), Q(b))


def oracle(X: np.ndarray, s: np.ndarray, b: np.ndarray, m: np.ndarray, v: np.ndarray, eps: float = EPS):
    dtype = X.dtype
    out = np.empty(X.shape, F64)
    with np.errstate(invalid="ignore"):
        params = [np.asarray(p, F64).tolist() for p in (s, b, m, v)]
        wide = np.asarray(X, F64)
    for index in np.ndindex(X.shape):
        c = index[1]
        out[index] = bn_of(dtype, float(wide[index]), *(p[c] for p in params), eps)
    return out.astype(dtype)  # values of the type: converted exactly


def parameters(dtype: np.dtype, *rows: list[float]) -> list[np.ndarray]:
    return [np.array(r, F64).astype(dtype) for r in rows]


def every_value(dtype: np.dtype) -> np.ndarray:
    """Every bit pattern of the 16-bit type; in a mutation run (MUTATION_RUN), every 16th one (±0, ±∞ and a
    NaN among them) and the 16 at each end of both signs' ranges (the smallest subnormals, the largest finite
    values, the NaNs), so that each mutant's run takes seconds, not a minute and a half."""
    words = np.arange(2**16, dtype=np.uint16)
    if MUTATION_RUN:
        ends = np.r_[0:16, 0x7C00 - 16 : 0x7C00 + 16, 0x7F80 - 16 : 0x7F80 + 16, 0x8000:0x8010]
        ends = np.r_[ends, ends | 0x8000, 0xFFF0:0x10000]
        words = np.unique(np.r_[words[::16], ends]).astype(np.uint16)
    return words.view(dtype)


# -- constraints ---------------------------------------------------------------------------------------


@req("BATCHNORMALIZATION_C1")
@pytest.mark.parametrize("shape", [(), (3,), (1,)])
def test_C1_X_of_rank_below_2_is_refused(shape: tuple[int, ...]) -> None:
    """A 1-D X is refused: onnxruntime reads it as one channel, the ONNX reference as size-N channels."""
    one = np.ones(1, F32)
    with raises_req("BATCHNORMALIZATION_C1") as info:
        bn(np.ones(shape, F32), one, one, one, one)
    assert (info.value.operator, info.value.tensor) == ("batch_normalization", "X")
    assert info.value.problem == (
        f"batch_normalization: X has shape {shape}; X must have rank 2 or more, (N, C, …): a model "
        "reshapes a vector to (N, 1) first"
    )


@req("BATCHNORMALIZATION_C2")
@pytest.mark.parametrize("position", range(4))
@pytest.mark.parametrize("shape", [(3,), (1,), (0,)])
def test_C2_a_parameter_of_another_size_than_C_is_refused(position: int, shape: tuple[int, ...]) -> None:
    args = [np.ones(2, F32) for _ in range(4)]
    args[position] = np.ones(shape, F32)
    with raises_req("BATCHNORMALIZATION_C2") as info:
        bn(np.ones((1, 2, 3), F32), *args)
    name = ("scale", "B", "input_mean", "input_var")[position]
    assert (info.value.operator, info.value.tensor) == ("batch_normalization", name)
    assert info.value.problem == (
        f"batch_normalization: {name} has shape {shape}, not (2,): one value per channel of X, of shape "
        "(1, 2, 3)"
    )


@req("BATCHNORMALIZATION_C2")
@pytest.mark.parametrize("position", range(4))
@pytest.mark.parametrize("shape", [(), (1, 2), (2, 1)])
def test_C2_a_parameter_of_rank_other_than_1_is_refused(position: int, shape: tuple[int, ...]) -> None:
    args = [np.ones(2, F32) for _ in range(4)]
    args[position] = np.ones(shape, F32)
    with raises_req("BATCHNORMALIZATION_C2"):
        bn(np.ones((1, 2), F32), *args)


@req("BATCHNORMALIZATION_C3", "BATCHNORMALIZATION_C4")
@FLOATS
@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (0, 2), (2, 0), (2, 2, 0), (2, 3, 2, 2), (1, 2, 1, 1, 3)])
def test_C3_C4_a_new_array_of_the_shape_and_type_of_X(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    C = shape[1]
    X = np.full(shape, 3, dtype)
    s, b, m, v = (np.full(C, k, dtype) for k in (2, 1, 1, 3))
    inputs_unchanged = unchanged(X, s, b, m, v)
    Y = batch_normalization(X, s, b, m, v, epsilon=1.0, momentum=0.9, training_mode=0)
    inputs_unchanged()
    assert type(Y) is np.ndarray and Y.shape == shape and Y.dtype == dtype and Y.flags.writeable
    assert not any(np.shares_memory(Y, a) for a in (X, s, b, m, v))
    assert np.all(Y == np.full(shape, 3, dtype))  # 2·(3 − 1)/√(3 + 1) + 1


@req("GEN_E1")
def test_GEN_E1_a_result_beyond_memory_is_refused_naming_batch_normalization() -> None:
    """Broadcast views of 2⁴² elements (no memory of their own): a float32 result of 16 TiB is refused."""
    C = 2**21
    X = np.broadcast_to(np.ones(1, F32), (C, C))
    one = np.broadcast_to(np.ones(1, F32), (C,))
    with raises_req("GEN_E1") as info:
        bn(X, one, one, one, one)
    assert info.value.problem == (
        "batch_normalization: a result of shape (2097152, 2097152) and type float32 does not fit in this "
        "machine's memory"
    )


@req("GR3")
@pytest.mark.parametrize("position", range(5))
def test_GR3_the_five_tensors_have_one_type(position: int) -> None:
    """ONNX-15 lets X, (scale, B) and (mean, var) have three types; the profile takes one (the page says
    why)."""
    args: list[np.ndarray] = [np.ones((1, 2), F32)] + [np.ones(2, F32) for _ in range(4)]
    args[position] = args[position].astype(F16)
    with raises_req("GR3"):
        bn(*args)


@req("BATCHNORMALIZATION_C5")
@pytest.mark.parametrize("epsilon", [0.0, -0.0, -1e-5, nan, inf, -inf, 1e-50, 1e39, np.float64(1e-46)])
def test_C5_epsilon_not_positive_and_finite_as_a_float32_is_refused(epsilon: float) -> None:
    one = np.ones(1, F32)
    with raises_req("BATCHNORMALIZATION_C5") as info:
        bn(np.ones((1, 1), F32), one, one, one, one, epsilon=epsilon)
    with np.errstate(over="ignore"):
        stored = np.float32(epsilon)
    assert (info.value.operator, info.value.tensor) == ("batch_normalization", "epsilon")
    assert info.value.problem == (
        f"batch_normalization: epsilon is {epsilon!r}, stored by ONNX as the float32 {stored}: it must be "
        "positive and finite"
    )


@req("BATCHNORMALIZATION_C5", "BATCHNORMALIZATION_S2")
def test_C5_S2_the_smallest_and_largest_epsilons_are_taken() -> None:
    assert stored_epsilon(1e-45) == 2.0**-149 == SMALLEST_EPSILON
    assert stored_epsilon(3.4028235e38) == float(np.finfo(F32).max)
    assert stored_epsilon(np.float16(0.5)) == 0.5


@req("BATCHNORMALIZATION_C6")
@pytest.mark.parametrize("mode", [1, -1, 2])
def test_C6_training_mode_other_than_0_is_refused(mode: int) -> None:
    one = np.ones(1, F32)
    with raises_req("BATCHNORMALIZATION_C6") as info:
        bn(np.ones((1, 1), F32), one, one, one, one, training_mode=mode)
    assert (info.value.operator, info.value.tensor) == ("batch_normalization", "training_mode")
    assert info.value.problem == (
        f"batch_normalization: training_mode is {mode}; the profile specifies inference only "
        "(training_mode = 0)"
    )


@req("BATCHNORMALIZATION_E1")
@FLOATS
@pytest.mark.parametrize("variance", [-1.0, -inf, "−min subnormal"])
def test_E1_a_negative_variance_is_refused(dtype: np.dtype, variance: float | str) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    value = -tiny if isinstance(variance, str) else variance
    v = np.array([1.0, value], F64).astype(dtype)
    one = np.ones(2, dtype)
    with raises_req("BATCHNORMALIZATION_E1") as info:
        bn(np.ones((1, 2), dtype), one, one, one, v)
    assert (info.value.operator, info.value.tensor) == ("batch_normalization", "input_var")
    assert info.value.problem == f"batch_normalization: input_var[1] is {v[1]}: a variance is never negative"


@req("BATCHNORMALIZATION_E1", "BATCHNORMALIZATION_S4")
@FLOATS
def test_E1_S4_a_zero_of_either_sign_and_a_NaN_variance_are_taken(dtype: np.dtype) -> None:
    X = np.full((1, 3), 2.0, dtype)
    one = np.ones(3, dtype)
    Y = batch_normalization(
        X, one, one * 0, one, np.array([0.0, -0.0, nan], dtype), epsilon=0.25, momentum=0.9, training_mode=0
    )
    assert_same(Y, np.array([[2.0, 2.0, nan]], dtype))  # (2 − 1)/√0.25


# -- the semantics -----------------------------------------------------------------------------------


def sixteen_bit_parameter_sets(dtype: np.dtype) -> list[list[np.ndarray]]:
    """Channels that make X's every value exercise rounding, cancellation against B, overflow, subnormals."""
    info = ml_dtypes.finfo(dtype)
    tiny, big = float(info.smallest_subnormal), float(info.max)
    rows = [
        # scale, B, mean, var per channel
        ([1.0, -3.0, 0.1, 7.0], [0.0, 1.5, -2.0, 0.25], [0.0, 1.0, 0.3, -5.0], [1.0, 0.5, 3.0, 0.0]),
        ([big, 1e-3, -0.7, 2.0], [-1.0, 0.0, 100.0, -0.0], [2.0, -0.0, 50.0, 1e-3], [0.0, tiny, 2.0, 10.0]),
        ([-0.0, 3.0, 0.5, 1.0], [inf, -inf, 1.0, 1.0], [1.0, 1.0, inf, 0.0], [1.0, 1.0, 1.0, inf]),
    ]
    return [parameters(dtype, *r) for r in rows]


@req("BATCHNORMALIZATION_S1", "BATCHNORMALIZATION_S4", "BATCHNORMALIZATION_S5")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
@pytest.mark.parametrize("row", range(3))
def test_S1_S4_S5_every_16_bit_X_in_four_channels(dtype: np.dtype, row: int) -> None:
    """Every bit pattern as X, NaNs and subnormals included, in each of four channels."""
    s, b, m, v = sixteen_bit_parameter_sets(dtype)[row]
    X = np.repeat(every_value(dtype).reshape(-1, 1), 4, axis=1)
    inputs_unchanged = unchanged(X, s, b, m, v)
    Y = bn(X, s, b, m, v)
    with np.errstate(invalid="ignore"):
        inputs_unchanged()
    assert_same(Y, oracle(X, s, b, m, v))


@req("BATCHNORMALIZATION_S1")
@pytest.mark.parametrize("dtype", [*SIXTEEN_BITS, F32], ids=lambda t: t.name)
def test_S1_cancellation_against_B(dtype: np.dtype) -> None:
    """q = s·(x − m)/√w close to −B: the float64 evaluation sends these to the exact one; results far below
    q's magnitude, and exact zeros (+0)."""
    rng = np.random.default_rng(7)
    C = 64
    s, m = rng.uniform(0.5, 2, C).astype(dtype), rng.uniform(-1, 1, C).astype(dtype)
    v = rng.uniform(0, 4, C).astype(dtype)
    X = rng.uniform(-8, 8, (50, C)).astype(dtype)
    q = s.astype(F64) * (X[0].astype(F64) - m) / np.sqrt(v.astype(F64) + EPS)
    b = (-q).astype(dtype)  # B ≈ −q for the first row: a cancellation of almost every bit
    Y = bn(X, s, b, m, v)
    assert_same(Y, oracle(X, s, b, m, v))
    square = parameters(dtype, [1.0], [-1.0], [0.0], [0.75])  # √(0.75 + 0.25) = 1: x − 1 exactly
    X1 = np.array([[1.0], [2.0], [0.5]], dtype)
    assert_same(bn(X1, *square, epsilon=0.25), np.array([[0.0], [1.0], [-0.5]], dtype))


@req("BATCHNORMALIZATION_S1")
def test_S1_a_float32_sample() -> None:
    rng = np.random.default_rng(32)
    C = 16
    X = np.concatenate(
        [
            rng.integers(0, 2**32, (200, C), dtype=np.uint64).astype(np.uint32).view(F32),
            rng.normal(0, 4, (300, C)).astype(F32),
            np.exp2(rng.uniform(-140, 120, (100, C))).astype(F32),
        ]
    )
    s = (rng.normal(0, 2, C) * np.exp2(rng.integers(-60, 60, C))).astype(F32)
    b = rng.normal(0, 3, C).astype(F32)
    m = rng.normal(0, 3, C).astype(F32)
    v = np.abs(rng.normal(0, 3, C) * np.exp2(rng.integers(-100, 60, C))).astype(F32)
    v[0] = 0.0
    assert_same(bn(X, s, b, m, v), oracle(X, s, b, m, v))


@req("BATCHNORMALIZATION_S1")
def test_S1_a_float64_sample() -> None:
    """Every float64 element is evaluated exactly (integer square roots)."""
    rng = np.random.default_rng(64)
    C = 6
    X = np.concatenate([rng.normal(0, 5, (60, C)), np.exp(rng.uniform(-700, 700, (20, C)))])
    s, b, m = rng.normal(0, 2, C), rng.normal(0, 2, C), rng.normal(0, 2, C)
    v = np.abs(rng.normal(0, 2, C))
    b[1] = -s[1] * (X[0, 1] - m[1]) / math.sqrt(v[1] + EPS)  # a cancellation
    X[0, 2] = m[2]  # a zero product: B exactly
    v[3], m[3] = 0.0, -1e300  # a difference beyond float64's range, divided by √ε: overflows to +∞
    assert_same(bn(X, s, b, m, v), oracle(X, s, b, m, v))


@req("BATCHNORMALIZATION_S1")
@FLOATS
def test_S1_overflow_and_subnormal_results(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    big, tiny = float(info.max), float(info.smallest_subnormal)
    X = np.array([[big, tiny, tiny, -big]], dtype)
    s, b, m, v = parameters(
        dtype, [1.0, 1.0, 3.0, 1.0], [0.0, 0.0, 0.0, 0.0], [-big, 0.0, 0.0, big], [0.0] * 4
    )
    Y = batch_normalization(X, s, b, m, v, epsilon=1.0, momentum=0.0, training_mode=0)
    assert_same(Y, np.array([[inf, tiny, 3 * tiny, -inf]], dtype))
    Y = batch_normalization(X, s, b, m, v, epsilon=4.0, momentum=0.0, training_mode=0)  # halves: ties
    assert_same(Y, np.array([[big, 0.0, 2 * tiny, -big]], dtype))


@req("BATCHNORMALIZATION_S1", "BATCHNORMALIZATION_S4", "BATCHNORMALIZATION_S5")
@FLOATS
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_S1_S4_S5_random_tensors(dtype: np.dtype, data: st.DataObject) -> None:
    shape = data.draw(st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(0, 3)))
    C = shape[1]
    words = np.dtype(f"u{dtype.itemsize}")
    patterns = st.integers(0, 2 ** (8 * dtype.itemsize) - 1)

    def draw(n: int) -> np.ndarray:
        bits = data.draw(st.lists(patterns, min_size=n, max_size=n))
        return np.array(bits, np.uint64).astype(words).view(dtype)

    X = draw(int(np.prod(shape))).reshape(shape)
    s, b, m, v = draw(C), draw(C), draw(C), draw(C)
    with np.errstate(invalid="ignore"):
        v = np.where(v < 0, -v, v).astype(dtype)  # E1: no negative variance
    eps = data.draw(st.sampled_from([1e-5, 1e-3, 0.5, 1e-45]))
    assert_same(bn(X, s, b, m, v, epsilon=eps), oracle(X, s, b, m, v, float(np.float32(eps))))


@req("BATCHNORMALIZATION_S2")
@pytest.mark.parametrize("dtype", [F32, F64], ids=lambda t: t.name)
def test_S2_epsilon_is_the_float32_ONNX_stores(dtype: np.dtype) -> None:
    """With var = 0 the result is (x − m)/√ε: 1e-5 (a float64) and float32's 0x3727C5AC give the same Y,
    and it is not the one of ε = 1e-5 taken as a float64."""
    X = np.array([[1.0]], dtype)
    zero, one = np.zeros(1, dtype), np.ones(1, dtype)
    Y = bn(X, one, zero, zero, zero, epsilon=1e-5)
    assert_same(Y, bn(X, one, zero, zero, zero, epsilon=np.float32(1e-5)))
    assert_same(Y, np.array([[bn_of(dtype, 1.0, 1.0, 0.0, 0.0, 0.0, EPS)]], dtype))
    if dtype == F64:
        assert Y[0, 0] != bn_of(dtype, 1.0, 1.0, 0.0, 0.0, 0.0, 1e-5)


@req("BATCHNORMALIZATION_S3")
@FLOATS
@pytest.mark.parametrize("momentum", [0.0, 1.0, -7.5, nan, inf, 1e300])
def test_S3_momentum_has_no_effect(dtype: np.dtype, momentum: float) -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(0, 2, (3, 2, 2)).astype(dtype)
    s, b, m, v = (rng.uniform(0.1, 2, 2).astype(dtype) for _ in range(4))
    assert_same(bn(X, s, b, m, v, momentum=momentum), bn(X, s, b, m, v))


SPECIAL_CASES = [  # x, s, b, m, v: each written from IEEE 754's steps (BATCHNORMALIZATION_S4, S5)
    (nan, 1.0, 0.0, 0.0, 1.0, nan),
    (1.0, nan, 0.0, 0.0, 1.0, nan),
    (1.0, 1.0, nan, 0.0, 1.0, nan),
    (1.0, 1.0, 0.0, nan, 1.0, nan),
    (1.0, 1.0, 0.0, 0.0, nan, nan),
    (inf, 1.0, 0.0, 0.0, 1.0, inf),
    (inf, -1.0, 0.0, 0.0, 1.0, -inf),
    (inf, 0.0, 0.0, 0.0, 1.0, nan),
    (inf, 1.0, 0.0, inf, 1.0, nan),
    (-inf, 1.0, 0.0, inf, 1.0, -inf),
    (1.0, 1.0, 0.0, -inf, 1.0, inf),
    (1.0, inf, 0.0, 0.0, 1.0, inf),
    (1.0, -inf, 5.0, 1.0, 1.0, nan),
    (2.0, 1.0, 3.0, 0.0, inf, 3.0),
    (2.0, -1.0, 0.0, 0.0, inf, 0.0),  # −0 + (+0) = +0
    (2.0, -1.0, -0.0, 0.0, inf, -0.0),
    (2.0, 1.0, -0.0, 0.0, inf, 0.0),
    (inf, 1.0, 0.0, 0.0, inf, nan),
    (1.0, 1.0, inf, 0.0, 1.0, inf),
    (1.0, 1.0, -inf, 0.0, 1.0, -inf),
    (inf, 1.0, -inf, 0.0, 1.0, nan),
    (-inf, 1.0, -inf, 0.0, 1.0, -inf),
    (0.0, 1.0, 0.0, 0.0, 1.0, 0.0),
    (-0.0, 1.0, -0.0, 0.0, 1.0, -0.0),
    (-0.0, 1.0, -0.0, -0.0, 1.0, 0.0),
    (0.0, 1.0, -0.0, -0.0, 1.0, 0.0),
    (1.0, -1.0, -0.0, 1.0, 1.0, -0.0),
    (1.0, -1.0, 0.0, 1.0, 1.0, 0.0),
    (5.0, -0.0, -0.0, 1.0, 1.0, -0.0),
    (-5.0, -0.0, -0.0, 1.0, 1.0, 0.0),
    (5.0, 0.0, 2.5, 1.0, 1.0, 2.5),
]


@req("BATCHNORMALIZATION_S4", "BATCHNORMALIZATION_S5")
@FLOATS
@pytest.mark.parametrize(("x", "s", "b", "m", "v", "y"), SPECIAL_CASES)
def test_S4_S5_special_values(
    dtype: np.dtype, x: float, s: float, b: float, m: float, v: float, y: float
) -> None:
    X = np.array([[x]], dtype)
    params = parameters(dtype, [s], [b], [m], [v])
    assert_same(bn(X, *params), np.array([[y]], dtype))
    assert_same(np.array([[special(x, s, b, m, v)]], dtype), np.array([[y]], dtype))  # the oracle agrees


@req("BATCHNORMALIZATION_S4")
def test_S4_float64_infinite_operands_beside_huge_finite_ones() -> None:
    """MPFR's range: (max − lowest)·2 is finite there, so B = −∞ decides (−∞), where float64 would give
    +∞ − ∞ = NaN; and +0·(max − lowest) is +0, where float64 would give 0·∞ = NaN."""
    big = float(np.finfo(F64).max)
    X = np.array([[big, big]])
    params = parameters(F64, [2.0, 0.0], [-inf, -0.0], [-big, -big], [0.0, 0.0])
    assert_same(bn(X, *params, epsilon=1.0), np.array([[-inf, 0.0]]))  # +0·(2·max) + (−0) = +0


@req("BATCHNORMALIZATION_S1")
def test_S1_the_float64_evaluation_marks_cancellations_and_keeps_its_bound() -> None:
    """The float64 evaluation, within 2⁻⁴⁰ of the exact value where it does not mark the element; its
    error measured against a 400-bit value on a float32 sample, and the mark checked."""
    rng = np.random.default_rng(40)
    n = 4000
    x, s, b, m = (rng.normal(0, 4, n).astype(F32) for _ in range(4))
    v = np.abs(rng.normal(0, 4, n)).astype(F32)
    b[:100] = (-(s[:100].astype(F64) * (x[:100] - m[:100].astype(F64)) / np.sqrt(v[:100] + EPS))).astype(F32)
    out = np.empty(n)
    _float64_bn(out, x, s, b, m, v, epsilon=EPS)
    marked = out == UNDECIDED
    assert 50 < marked.sum() <= 100 + 5
    wide = gmpy2.context(precision=400)
    worst = 0.0
    for k in np.flatnonzero(~marked):
        t = Fraction(float(s[k])) * (Fraction(float(x[k])) - Fraction(float(m[k])))
        q = wide.div(gmpy2.mpq(t), wide.sqrt(gmpy2.mpq(Fraction(float(v[k])) + Fraction(EPS))))
        exact = wide.add(q, gmpy2.mpfr(float(b[k])))
        assert abs(float(q)) <= CANCELLATION * abs(float(exact)) * 1.01
        worst = max(worst, abs(float((out[k] - exact) / exact)))
    assert worst < 2.0**-40  # RELATIVE_ERROR, the bound the module derives


@req("BATCHNORMALIZATION_S1")
def test_S1_the_exact_evaluation_rounds_ties_of_rational_values() -> None:
    """w a square: the value is rational and may be a midpoint; the tie goes to the even neighbour. In
    float16, 1 + 2⁻¹¹ rounds to 1 and 1 + 3·2⁻¹¹ to 1 + 2⁻⁹."""
    context = gmpy2.context(precision=11, emin=-23, emax=16, subnormalize=True)
    mp = lambda value: gmpy2.mpfr(value, 53)  # noqa: E731
    tie = _mpfr_bn(context, mp(1 + 2**-11), mp(1.0), mp(0.0), mp(0.0), mp(0.75), epsilon=0.25)
    assert float(tie) == 1.0
    tie = _mpfr_bn(context, mp(1 + 3 * 2**-11), mp(1.0), mp(0.0), mp(0.0), mp(0.75), epsilon=0.25)
    assert float(tie) == 1 + 2**-9


ZERO_BY_CANCELLATION = [  # float16 s, x, m with s·(x − m)/√2 − 1 within 2⁻³⁰ of 0, below it
    (1.0419921875, 1.357421875, 0.0002009868621826172),
    (1.0625, 1.3310546875, 3.0159950256347656e-05),
    (1.4130859375, 1.0009765625, 0.0001785755157470703),
    (1.4833984375, 0.953125, -0.00023555755615234375),
    (1.5146484375, 0.93359375, -9.721517562866211e-05),
    (1.6953125, 0.833984375, -0.00020611286163330078),
]


@req("BATCHNORMALIZATION_S1")
def test_S1_a_value_that_rounds_to_zero_gives_the_zero_of_its_sign() -> None:
    """B = −1 cancels q = s·(x − m)/√2 (var 1, ε 1) down to −6.5·10⁻¹⁰ or so, below half of float16's
    smallest subnormal: −0. The first bracket of √2 (27 bits) leaves the value's interval across 0, its ends
    rounding to −0 and +0, equal as numbers: the loop must go on until the signs agree too."""
    s, x, m = (np.array(column, F16) for column in zip(*ZERO_BY_CANCELLATION, strict=True))
    X = np.diag(x)  # channel c holds its x at [c, c]; the other elements are 0, far from any cancellation
    one = np.ones(len(x), F16)
    Y = batch_normalization(X, s, -one, m, one, epsilon=1.0, momentum=0.9, training_mode=0)
    assert_same(Y, oracle(X, s, -one, m, one, eps=1.0))
    assert np.signbit(np.diag(Y)).all() and (np.diag(Y) == 0).all()


def deep_case(dtype: np.dtype, k: int) -> tuple[list[np.ndarray], float]:
    """x − m = 2ᵏ ± 2⁻ᵏ⁻¹ (x = 2ᵏ, m = ∓2⁻ᵏ⁻¹), w = 2²ᵏ + 1 (var 2²ᵏ, ε = 1), s = 1: since √w = 2ᵏ + 2⁻ᵏ⁻¹ −
    2⁻³ᵏ⁻³ + …, q = (x − m)/√w is 1 + 2⁻⁴ᵏ⁻³ or so in the first channel, 1 − 2⁻²ᵏ or so in the second, and
    B = 2⁻ᵖ puts the value that close above (below) the midpoint between 1 and 1 + 2¹⁻ᵖ: it rounds to
    1 + 2¹⁻ᵖ (to 1)."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    X = np.array([[2.0**k, 2.0**k]], dtype)
    s, b, m, v = parameters(
        dtype, [1.0, 1.0], [2.0**-p, 2.0**-p], [-(2.0 ** (-k - 1)), 2.0 ** (-k - 1)], [4.0**k] * 2
    )
    return [X, s, b, m, v], 1 + 2.0 ** (1 - p)


@req("BATCHNORMALIZATION_S1")
@pytest.mark.parametrize(("dtype", "k"), [(F32, 60), (F64, 500)], ids=["float32", "float64"])
def test_S1_values_within_2_to_the_minus_4k_of_a_midpoint_are_decided(dtype: np.dtype, k: int) -> None:
    """Values 2⁻²⁴³ (float32) and 2⁻²⁰⁰³ (float64) above a midpoint: the first bracket of √w, at p + 16 bits
    (beyond √w's 2ᵏ), is far too wide; Ziv's loop doubles it to 320 and 2208 bits, the fourth and sixth
    attempts. The expected results are proved by the value's expansion (:func:`deep_case`)."""
    operands, up = deep_case(dtype, k)
    Y = batch_normalization(*operands, epsilon=1.0, momentum=0.9, training_mode=0)
    assert_same(Y, np.array([[up, 1.0]], dtype))
    if dtype == F32:  # within the oracle's 400 bits: proved by it too
        assert_same(Y, oracle(*operands, eps=1.0))


@req("BATCHNORMALIZATION_S1")
def test_S1_the_loop_stops_after_its_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    """ATTEMPTS bounds Ziv's loop: where fewer attempts than a value needs are allowed, the loop raises an
    internal error instead of running on (the sixth attempt decides the float64 case; five are allowed)."""
    operands, _ = deep_case(F64, 500)
    monkeypatch.setattr(module, "ATTEMPTS", 5)
    with pytest.raises(
        ArithmeticError, match=r"^batch_normalization: Ziv's loop undecided after 5 attempts \(a fault\)$"
    ):
        batch_normalization(*operands, epsilon=1.0, momentum=0.9, training_mode=0)
    monkeypatch.setattr(module, "ATTEMPTS", 6)
    assert_same(
        batch_normalization(*operands, epsilon=1.0, momentum=0.9, training_mode=0),
        np.array([[1 + 2.0**-52, 1.0]]),
    )


@req("BATCHNORMALIZATION_S1", "BATCHNORMALIZATION_S5")
def test_S1_S5_the_caller_s_gmpy2_context_changes_nothing() -> None:
    """Every float64 element goes through MPFR: B itself where the product is zero (S5), a rational value
    rounded once (w = 1) and an irrational one (w = 2), all the same under a caller's context of 2 bits
    rounding toward zero as under gmpy2's default."""
    X = np.array([[1.0, 0.1, 0.1]])
    s, b, m, v = parameters(F64, [0.0, 1.0, 3.0], [0.1, 1 / 3, -0.7], [0.0, 0.0, 0.3], [0.75, 0.75, 1.75])
    expected = oracle(X, s, b, m, v, eps=0.25)
    with gmpy2.context(gmpy2.get_context(), precision=2, round=gmpy2.RoundToZero):
        Y = batch_normalization(X, s, b, m, v, epsilon=0.25, momentum=0.9, training_mode=0)
    assert_same(Y, expected)
    assert Y[0, 0] == 0.1


@req("BATCHNORMALIZATION_P1")
@pytest.mark.parametrize("dtype", [F16, F32, F64], ids=lambda t: t.name)
def test_P1_within_half_a_unit_of_the_exact_value(dtype: np.dtype) -> None:
    rng = np.random.default_rng(11)
    C = 5
    X = rng.normal(0, 3, (40, C)).astype(dtype)
    s, b, m = (rng.normal(0, 2, C).astype(dtype) for _ in range(3))
    v = np.abs(rng.normal(0, 2, C)).astype(dtype)
    Y = bn(X, s, b, m, v)
    info = ml_dtypes.finfo(dtype)
    u, eta = Fraction(1, 2 ** (info.nmant + 1)), Fraction(float(info.smallest_subnormal)) / 2
    wide = gmpy2.context(precision=400)
    for n, c in np.ndindex(X.shape):
        t = Fraction(float(s[c])) * (Fraction(float(X[n, c])) - Fraction(float(m[c])))
        w = Fraction(float(v[c])) + Fraction(EPS)
        exact = wide.add(wide.div(gmpy2.mpq(t), wide.sqrt(gmpy2.mpq(w))), gmpy2.mpq(Fraction(float(b[c]))))
        r = Fraction(*exact.as_integer_ratio())
        assert abs(Fraction(float(Y[n, c])) - r) <= max(u * abs(r), eta) * (1 + Fraction(1, 2**300))


# -- engines ----------------------------------------------------------------------------------------------


def developer_formula(
    X: np.ndarray, s: np.ndarray, b: np.ndarray, m: np.ndarray, v: np.ndarray
) -> np.ndarray:
    """ONNX's formula in the type, the per-channel factor first: what onnxruntime's kernel computes."""
    dtype = X.dtype.type
    a = s / np.sqrt(v + dtype(EPS))
    return (X * a.reshape(1, -1) + (b - m * a).reshape(1, -1)).astype(X.dtype)


@req("BATCHNORMALIZATION_P2")
@FLOATS
def test_P2_the_reference_and_the_engines_formulas_conform(dtype: np.dtype) -> None:
    rng = np.random.default_rng(21)
    C = 8
    X = rng.normal(0, 3, (300, C)).astype(dtype)
    s, b, m = (rng.normal(0, 2, C).astype(dtype) for _ in range(3))
    v = np.abs(rng.normal(1, 2, C)).astype(dtype)
    Y = bn(X, s, b, m, v)
    inputs = [X, s, b, m, v]
    assert judge("batch_normalization", Y.copy(), Y, inputs).verdict == "conforms"
    with np.errstate(all="ignore"):
        fused = developer_formula(X, s, b, m, v)
        plain = ((X - m) * s / np.sqrt(v + dtype.type(EPS)) + b).astype(dtype)
    assert judge("batch_normalization", fused, Y, inputs).verdict in ("conforms", "undecided")
    assert judge("batch_normalization", plain, Y, inputs).verdict in ("conforms", "undecided")
    assert ulp_distance(fused.ravel(), Y.ravel()).max() >= 1 or dtype in (F16, BF16)


@req("BATCHNORMALIZATION_P2")
def test_P2_the_bound_and_what_it_refuses() -> None:
    X = np.array([[1.0, 2.0], [inf, 4.0]], F32)
    s, b, m, v = parameters(F32, [1.0, 2.0], [0.5, 1e30], [0.0, 1.0], [3.0, 0.0])
    Y = bn(X, s, b, m, v)
    error = engine_error(Y, X, s, b, m, v)
    u = 2.0**-24
    expected = 8 * u * (1 * (1 + 0) / math.sqrt(3 + 2.0**-149) + 0.5)
    assert expected <= error[0, 0] <= expected * (1 + 2.0**-40)
    assert math.isnan(error[1, 0])  # an infinite X: the reference's result exactly
    assert error[0, 1] >= 8 * u * 1e30  # B's magnitude
    huge = engine_error(Y, X, *parameters(F32, [3e38, 1.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]))
    assert math.isinf(huge[0, 0])  # 9u·M beyond float32's largest value: any result
    wrong = Y.copy()
    wrong[0, 0] = np.nextafter(Y[0, 0], np.float32(inf)) * 2
    assert judge("batch_normalization", wrong, Y, [X, s, b, m, v]).outside == 1
    nan_for_inf = Y.copy()
    nan_for_inf[1, 0] = nan
    assert judge("batch_normalization", nan_for_inf, Y, [X, s, b, m, v]).outside == 1


def test_the_docstring_example_is_mul_of_a_difference() -> None:
    """A check of the page's first example by another operator: (X − 2)·(1/2) with var = 3, ε = 1."""
    X = np.array([[1.0, 2.0], [3.0, 4.0]], F32)
    one = np.ones(2, F32)
    Y = batch_normalization(X, one, one * 0, one * 2, one * 3, epsilon=1.0, momentum=0.9, training_mode=0)
    assert_same(Y, mul(X - np.float32(2), np.full((2, 2), 0.5, F32)))


@req("BATCHNORMALIZATION_S1")
def test_S1_the_float64_evaluation_trusts_up_to_2_to_the_10_of_cancellation() -> None:
    """|q̂| = 1000·|ŷ| and 1024·|ŷ| are trusted, 1500·|ŷ| is not: the bound 2⁻⁴⁰ is derived for a ratio of
    2¹⁰ at most."""
    x = np.array([1.0, 1.0, 1.0], F32)  # s = 1, m = 0, v + ε = 1: q = 1, b = −1 + 1/ratio
    b = np.array([-1 + 1 / 1000, -1 + 1 / 1500, -1 + 2.0**-10], F64).astype(F32)
    out = np.empty(3)
    _float64_bn(out, x, np.ones(3, F32), b, np.zeros(3, F32), np.full(3, 0.75, F32), epsilon=0.25)
    ratios = 1 / np.abs(1 + b.astype(F64))
    assert 900 < ratios[0] < CANCELLATION < ratios[1] < 2 * CANCELLATION and ratios[2] == CANCELLATION
    assert out[0] == 1 + float(b[0]) and out[1] == UNDECIDED and out[2] == 2.0**-10


@req("BATCHNORMALIZATION_P2")
def test_P2_the_bound_is_any_value_once_nine_units_of_M_overflow() -> None:
    """9u·M beyond float32's largest value: any result; just below: the bound is finite."""
    u, largest = 2.0**-24, float(np.finfo(F32).max)
    s = np.array([2.0**100], F32)
    zero, one = np.zeros(1, F32), np.ones(1, F32)
    for ratio, infinite in ((9.5, False), (8.5, True)):
        X = np.array([[largest / (ratio * u) / 2.0**100]], F32)
        error = engine_error(X, X, s, zero, zero, one)
        assert math.isinf(error[0, 0]) is infinite, ratio


@req("BATCHNORMALIZATION_P2")
@pytest.mark.parametrize("position", range(5))
@pytest.mark.parametrize("x", [2.0, 0.0])
def test_P2_an_element_with_a_non_finite_operand_must_be_the_reference_s(position: int, x: float) -> None:
    """x = 0 with an infinite scale: 0·∞ in the bound's own arithmetic, without a warning."""
    args = [np.array([[x]], F32), *parameters(F32, [1.0], [0.5], [0.0], [3.0])]
    args[position] = np.full_like(args[position], inf if position != 4 else nan)
    error = engine_error(args[0], *args)
    assert math.isnan(error[0, 0])


@req("BATCHNORMALIZATION_P2")
@pytest.mark.parametrize("dtype", [F16, F32], ids=lambda t: t.name)
def test_P2_where_every_term_is_zero_the_bound_is_8_eta(dtype: np.dtype) -> None:
    X = np.zeros((1, 1), dtype)
    error = engine_error(X, X, *parameters(dtype, [1.0], [0.0], [0.0], [1.0]))
    eta = float(ml_dtypes.finfo(dtype).smallest_subnormal) / 2
    assert 8 * eta <= error[0, 0] <= np.nextafter(8 * eta, inf)


@req("BATCHNORMALIZATION_P2")
@pytest.mark.parametrize("dtype", [F16, BF16], ids=lambda t: t.name)
def test_P2_the_bound_per_channel_of_a_rank_4_X(dtype: np.dtype) -> None:
    """8u·M + 8η at every element, M taken from the element's channel and computed here at 200 bits:
    the reference's bound is at least it and within a few float64 units of it."""
    rng = np.random.default_rng(4)
    X = rng.normal(0, 300, (2, 3, 2, 5)).astype(dtype)
    s, b, m = (rng.normal(0, 50, 3).astype(dtype) for _ in range(3))
    v = rng.uniform(0, 40, 3).astype(dtype)
    error = engine_error(X, X, s, b, m, v)
    info = ml_dtypes.finfo(dtype)
    u, eta = 2.0 ** -(info.nmant + 1), float(info.smallest_subnormal) / 2
    wide = gmpy2.context(precision=200)
    for index in np.ndindex(X.shape):
        c = index[1]
        x, sc, bc, mc, vc = (float(a) for a in (X[index], s[c], b[c], m[c], v[c]))
        root = wide.sqrt(wide.add(gmpy2.mpfr(vc), gmpy2.mpfr(2.0**-149)))
        M = wide.add(wide.div(abs(sc) * wide.add(abs(x), abs(mc)), root), abs(bc))
        bound = float(wide.add(wide.mul(8 * u, M), 8 * eta))
        assert bound <= error[index] <= bound * (1 + 2.0**-45), index
