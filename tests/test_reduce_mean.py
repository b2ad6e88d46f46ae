"""ReduceMean: one test (or more) per rule id, named after it.

The oracle restates the rules in plain Python: the terms of each element of Y gathered by Python indexing
(tests/test_reduce_sum.py), an integer mean as the exact fraction sum/n truncated by Python's int(), a
floating-point mean as the exact fraction (Σ x)/n rounded once to the type by MPFR (gmpy2), IEEE 754's
special cases written out.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    INTS,
    SIGNED_INTS,
    assert_same,
    ieee_context,
    raises_req,
    req,
    shapes,
    tensors,
    unchanged,
)
from test_reduce_sum import UNIT_ROUNDOFF, axes_of, gamma, in_type_left_to_right, terms_and_shape

from sonnx_spec import reduce_mean

I64 = np.dtype(np.int64)


def ieee_mean(terms: list[float], dtype: np.dtype) -> float:
    """REDUCEMEAN_S3 and REDUCEMEAN_S4 on Python floats."""
    if any(map(math.isnan, terms)) or {math.inf, -math.inf} <= set(terms):
        return math.nan
    if math.inf in terms or -math.inf in terms:
        return next(t for t in terms if math.isinf(t))
    exact = sum(map(Fraction, terms), Fraction(0)) / len(terms)
    if exact == 0:
        return -0.0 if all(math.copysign(1, t) < 0 for t in terms) else 0.0
    with ieee_context(dtype):  # a nonzero mean that underflows keeps its sign: MPFR's −0
        return float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator)))


def expected(X: np.ndarray, A: list[int], keepdims: int, noop: int) -> np.ndarray:
    shape, terms = terms_and_shape(X, axes_of(A, X.ndim, noop), keepdims)
    out = np.empty(shape, X.dtype)
    for index, line in terms.items():
        if X.dtype.kind in "iu":
            out[index] = int(Fraction(sum(line), len(line)))  # int() truncates toward zero
        else:
            out[index] = ieee_mean(line, X.dtype)
    return out


def call(X: np.ndarray, A: list[int], keepdims: int = 0, noop: int = 0) -> np.ndarray:
    return reduce_mean(X, np.array(A, I64), keepdims=keepdims, noop_with_empty_axes=noop)


@st.composite
def calls(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list[int], int, int]:
    """X with no empty dimension, any values; some of its axes once each, in any order, some counted from
    the end; keepdims and noop_with_empty_axes."""
    shape = tuple(max(d, 1) for d in draw(shapes(max_dims=3)))
    X = draw(tensors(dtype, shape))
    chosen = draw(st.permutations(range(X.ndim)))[: draw(st.integers(0, X.ndim))]
    A = [a - X.ndim if draw(st.booleans()) else a for a in chosen]
    return X, A, draw(st.sampled_from([0, 1])), draw(st.sampled_from([0, 1]))


@req("REDUCEMEAN_S1", "REDUCEMEAN_S2", "REDUCEMEAN_S3", "REDUCEMEAN_S4")
@ALL
@given(data=st.data())
def test_S1_to_S4_every_element_of_Y_against_the_oracle(dtype: np.dtype, data: st.DataObject) -> None:
    X, A, keepdims, noop = data.draw(calls(dtype))
    inputs_unchanged = unchanged(X)
    Y = call(X, A, keepdims, noop)
    inputs_unchanged()
    assert not np.shares_memory(Y, X) and Y.flags.writeable
    assert_same(Y, expected(X, A, keepdims, noop))


@req("REDUCEMEAN_S1")
@pytest.mark.parametrize(
    ("shape", "A", "keepdims", "noop", "result"),
    [
        ((2, 3, 4), [1], 0, 0, (2, 4)),
        ((2, 3, 4), [2, 0], 1, 0, (1, 3, 1)),
        ((2, 3, 4), [], 0, 0, ()),
        ((2, 3, 4), [], 1, 1, (2, 3, 4)),
        ((), [], 1, 0, ()),
        ((3, 0), [0], 1, 0, (1, 0)),  # no mean at all: nothing refused
    ],
)
@ALL
def test_S1_the_shape_of_Y(
    dtype: np.dtype, shape: tuple, A: list, keepdims: int, noop: int, result: tuple
) -> None:
    X = (
        np.arange(math.prod(shape)).reshape(shape).astype(dtype)
        if dtype.itemsize > 1
        else np.ones(shape, dtype)
    )
    Y = call(X, A, keepdims, noop)
    assert Y.shape == result and Y.dtype == dtype
    assert_same(Y, expected(X, A, keepdims, noop))


@req("REDUCEMEAN_S2")
@SIGNED_INTS
def test_S2_truncated_toward_zero(dtype: np.dtype) -> None:
    X = np.array([[-7, 0], [7, 0], [-3, 0], [-1, -1], [5, 4]], dtype)
    assert call(X, [1]).tolist() == [-3, 3, -1, -1, 4]
    X = np.array([-3, 0, 0, 0], dtype)
    assert call(X, [0]).tolist() == 0  # −3/4 is −0.75: toward zero, 0 (floor would give −1)


@req("REDUCEMEAN_S2")
@INTS
def test_S2_the_exact_sum_never_wraps(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    top, low = int(info.max), int(info.min)
    X = np.array([[top, top, top], [top, top - 1, top - 2], [low, low, low], [top, low, 0]], dtype)
    means = [top, top - 1, low, int(Fraction(top + low, 3))]
    assert call(X, [-1]).tolist() == means


@req("REDUCEMEAN_S3")
@FLOATS
def test_S3_the_exact_sum_divided_once(dtype: np.dtype) -> None:
    big = float(ml_dtypes.finfo(dtype).max) / 4
    X = np.array([[big, 1.0, -big], [1.0, 2.0, 4.0], [big, big, big]], dtype)
    with ieee_context(dtype):
        third = float(gmpy2.mpfr(gmpy2.mpq(1, 3)))
        seven_thirds = float(gmpy2.mpfr(gmpy2.mpq(7, 3)))
    assert_same(call(X, [1]), np.array([third, seven_thirds, big], dtype))  # no overflow on the way


@req("REDUCEMEAN_S3")
@FLOATS
def test_S3_subnormal_means_and_the_sign_of_zero(dtype: np.dtype) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    X = np.array(
        [
            [tiny, 0.0, 0.0, 0.0],
            [tiny, tiny, tiny, 0.0],
            [-tiny, 0.0, 0.0, 0.0],
            [3 * tiny, 0.0, 0.0, tiny],
            [-0.0, -0.0, -0.0, -0.0],
            [-0.0, 0.0, -0.0, -0.0],
            [1.0, -1.0, 0.5, -0.5],
            [2 * tiny, tiny, 0.0, tiny],
        ],
        dtype,
    )
    # tiny/4 rounds to +0; 3·tiny/4 to tiny; −tiny/4 to −0 (its sign kept); 4·tiny/4 is tiny exactly.
    expected_means = [0.0, tiny, -0.0, tiny, -0.0, 0.0, 0.0, tiny]
    assert_same(call(X, [1]), np.array(expected_means, dtype))
    ties = np.array(
        [[tiny, 0.0], [3 * tiny, 0.0], [-tiny, 0.0]], dtype
    )  # tiny/2 to 0, 3tiny/2 to 2tiny (even)
    assert_same(call(ties, [1]), np.array([0.0, 2 * tiny, -0.0], dtype))


@req("REDUCEMEAN_S3")
@FLOATS
def test_S3_a_mean_float64_cannot_decide(dtype: np.dtype) -> None:
    """Means of [1, eps/2, ±tiny]: (1 + eps/2 ± tiny)/3, the sum a tie of the type moved by far less than
    float64 holds at 1. And means of two terms that are ties of the type exactly: to even."""
    eps = float(ml_dtypes.finfo(dtype).eps)
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    X = np.array([[1.0, eps / 2, tiny], [1.0, eps / 2, 0.0], [1.0, eps / 2, -tiny]], dtype)
    assert_same(call(X, [1]), np.array([ieee_mean(list(map(float, r)), dtype) for r in X.tolist()], dtype))
    halves = np.array([[2.0, eps], [2.0 + 2 * eps, eps]], dtype)  # (2 + eps)/2 = 1 + eps/2: a tie, to 1
    assert_same(call(halves, [1]), np.array([1.0, 1.0 + 2 * eps], dtype))


@req("REDUCEMEAN_S4")
@FLOATS
def test_S4_nan_and_infinities(dtype: np.dtype) -> None:
    inf, nan, top = math.inf, math.nan, float(ml_dtypes.finfo(dtype).max)
    rows = [([nan, 1.0, 2.0], nan), ([inf, -inf, 0.0], nan), ([1.0, -inf, 2.0], -inf), ([inf, top, top], inf)]
    X = np.array([r for r, _ in rows], dtype)
    assert_same(call(X, [-1]), np.array([e for _, e in rows], dtype))


@req("REDUCEMEAN_C1")
@ALL
def test_C1_an_axis_outside_X_is_refused(dtype: np.dtype) -> None:
    for A in ([2], [0, -3]):
        with raises_req("REDUCEMEAN_C1") as info:
            call(np.zeros((2, 3), dtype), A)
        outside = next(a for a in A if not -2 <= a < 2)
        assert info.value.problem == f"reduce_mean: A holds {outside}, outside [-2, 1] for X of rank 2"


@req("REDUCEMEAN_C2")
@pytest.mark.parametrize(("A", "axis"), [([1, 1], 1), ([-1, 0, 2], 2)])
def test_C2_an_axis_named_twice_is_refused(A: list[int], axis: int) -> None:
    with raises_req("REDUCEMEAN_C2") as info:
        call(np.zeros((2, 3, 4), np.int32), A)
    assert info.value.problem == f"reduce_mean: A = {A} names axis {axis} of X more than once"


@req("REDUCEMEAN_C3")
@pytest.mark.parametrize("keepdims", [-1, 2])
def test_C3_keepdims_other_than_0_or_1_is_refused(keepdims: int) -> None:
    with raises_req("REDUCEMEAN_C3") as info:
        call(np.zeros(3, np.int8), [0], keepdims)
    assert info.value.problem == f"reduce_mean: keepdims is {keepdims}, not 0 or 1"


@req("REDUCEMEAN_C4")
@pytest.mark.parametrize("noop", [-1, 2])
def test_C4_noop_with_empty_axes_other_than_0_or_1_is_refused(noop: int) -> None:
    with raises_req("REDUCEMEAN_C4") as info:
        call(np.zeros(3, np.float32), [0], 1, noop)
    assert info.value.problem == f"reduce_mean: noop_with_empty_axes is {noop}, not 0 or 1"


@req("REDUCEMEAN_C5")
@pytest.mark.parametrize("A", [np.array(0, I64), np.zeros((1, 1), I64)], ids=["0-d", "rank 2"])
def test_C5_A_is_a_vector(A: np.ndarray) -> None:
    with raises_req("REDUCEMEAN_C5"):
        reduce_mean(np.zeros((2, 3), np.float32), A, keepdims=0, noop_with_empty_axes=0)


@req("REDUCEMEAN_C6")
@ALL
def test_C6_a_mean_of_no_term_is_refused(dtype: np.dtype) -> None:
    with raises_req("REDUCEMEAN_C6") as info:
        call(np.zeros((2, 0, 3), dtype), [2, 1])
    assert info.value.problem == "reduce_mean: X has shape (2, 0, 3), no element along axis 1: a mean of none"
    with raises_req("REDUCEMEAN_C6"):
        call(np.zeros((0, 3), dtype), [], 1, 0)  # every axis
    assert call(np.zeros((0, 3), dtype), [1], 1, 0).shape == (0, 1)  # an empty Y: no mean taken


@req("GEN_E1")
def test_GEN_E1_a_result_too_large_for_memory_is_refused() -> None:
    huge = np.broadcast_to(np.ones((1, 1, 1), np.float32), (2**30, 2**30, 1))
    with raises_req("GEN_E1"):
        call(huge, [2])
    with raises_req("GEN_E1"):
        call(np.broadcast_to(np.ones((1, 1, 1), np.int8), (2**30, 2**30, 1)), [2])


@req("REDUCEMEAN_P1")
@FLOATS
def test_P1_the_reference_and_an_engine_meet_the_bound(dtype: np.dtype) -> None:
    """Random finite terms: the reference's mean (the exact mean rounded once) and an engine's (the terms
    added left to right in the type, then divided by n in the type) both lie within
    γ_{n+1}·Σ|x|/n + η of the exact mean."""
    rng = np.random.default_rng(18)
    u = UNIT_ROUNDOFF[dtype.name]
    eta = Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal))
    for n in (1, 2, 3, 10, 64):
        X = (rng.standard_normal((30, n)) * 2.0 ** rng.integers(-6, 6, (30, n))).astype(dtype)
        Y = call(X, [1])
        for row, y in zip(X.tolist(), Y.tolist(), strict=True):
            terms = [float(t) for t in row]
            exact = sum(map(Fraction, terms), Fraction(0)) / n
            bound = gamma(n + 1, u) * sum(abs(Fraction(t)) for t in terms) / n + eta
            with ieee_context(dtype):
                engine = float(gmpy2.mpfr(in_type_left_to_right(terms, dtype)) / n)
            assert abs(Fraction(float(y)) - exact) <= bound
            assert abs(Fraction(engine) - exact) <= bound


@req("REDUCEMEAN_P1")
@FLOATS
@pytest.mark.parametrize("n", [1, 2, 16, 200])
def test_P1_the_judging_bound_is_the_rule_s_widened_by_its_float64_margin(dtype: np.dtype, n: int) -> None:
    """The bound engines are judged by (engine_error, declared with the operator), against the rule's in
    exact rationals: at least γₙ₊₁·Σ|x|/n + η, and above it by no more than the widening its docstring
    states (4(n + 1) float64 units of Σ|x|, 2⁻⁵⁰, one step)."""
    from sonnx_spec.accuracy import Within, engine_bound
    from sonnx_spec.ops.reduce_mean import engine_error

    assert engine_bound("reduce_mean") == Within("REDUCEMEAN_P1", engine_error, of_exact=True)
    X = (np.random.default_rng(n).integers(-63, 64, (3, n)) / 8).astype(dtype)  # float64 sums them exactly
    error = engine_error(call(X, [1]), X, np.array([1], I64))
    assert error.shape == (3,) and error.dtype == np.float64
    u, eta = UNIT_ROUNDOFF[dtype.name], Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal))
    widening = (1 + Fraction(4 * (n + 1), 2**53)) * (1 + Fraction(1, 2**50)) * (1 + Fraction(1, 2**51))
    for row, allowed in zip(X.tolist(), error.tolist(), strict=True):
        relative = gamma(n + 1, u) * sum(abs(Fraction(t)) for t in row) / n
        rule = relative + eta
        assert rule <= Fraction(allowed) <= rule * widening, (row, allowed)
        if n >= 16:  # the margin for numpy's float64 sum of the magnitudes is there, not just the rule
            assert Fraction(allowed) >= relative * (1 + Fraction(4 * (n + 1), 2**53)) + eta, (row, allowed)


@req("REDUCEMEAN_P1")
def test_P1_the_bound_is_any_value_where_n_plus_1_times_u_reaches_1_or_the_magnitudes_overflow() -> None:
    """bfloat16 (u = 2⁻⁸): 254 terms, (n + 1)·u < 1: a bound; 255: none (+∞). Σ|x| beyond the largest
    value: any value, though the mean itself is in range."""
    from sonnx_spec.ops.reduce_mean import engine_error

    b = np.dtype(ml_dtypes.bfloat16)
    for n, finite in ((254, True), (255, False)):
        X = np.ones((2, n), b)
        assert np.isfinite(engine_error(call(X, [1]), X, np.array([1], I64))).all() == finite, n
    for dtype in (np.dtype(np.float32), np.dtype(np.float64)):  # float64: Σ|x| beyond float64's range too
        top = float(ml_dtypes.finfo(dtype).max)
        X = np.array([[top / 2, top / 2, top / 4], [top / 2, -top / 4, 1.0]], dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            error = engine_error(call(X, [1]), X, np.array([1], I64))
        assert np.isinf(error[0]) and np.isfinite(error[1]), dtype
    top64 = np.float64(np.finfo(np.float64).max)  # raised by 4(n + 1) = 8 units, Σ|x| reaches it: a bound
    below = top64
    for _ in range(8):
        below = np.nextafter(below, 0.0)
    X = np.array([[below]], np.float64)
    assert np.isfinite(engine_error(call(X, [1]), X, np.array([1], I64))[0])


@req("REDUCEMEAN_P1")
def test_P1_the_bound_has_y_s_shape_with_keepdims() -> None:
    from sonnx_spec.ops.reduce_mean import engine_error

    X = np.full((2, 3), 2.0, np.float32)
    for A, keepdims in (([1], 1), ([], 1), ([0], 0)):
        Y = reduce_mean(X, np.array(A, I64), keepdims=keepdims, noop_with_empty_axes=0)
        assert engine_error(Y, X, np.array(A, I64)).shape == Y.shape


@req("REDUCEMEAN_P1")
def test_P1_engines_are_judged_by_the_bound() -> None:
    """A mean within γₙ₊₁·Σ|x|/n + η of the exact one conforms; one beyond it (and the reference's own
    rounding) is outside. Noop: each element its own mean, within γ₂·|x| + η."""
    from sonnx_spec.accuracy import judge

    X, A = np.array([[3.0, 3.0, 3.0, 3.0]], np.float32), np.array([1], I64)
    Y = call(X, [1])  # 3, exact; the bound γ₅·12/4 ≈ 7.5·2⁻²³, the reference's rounding 2⁻²³ (steps of 2⁻²²)
    assert judge("reduce_mean", Y + np.float32(6 * 2.0**-23), Y, [X, A]).verdict == "conforms"
    assert judge("reduce_mean", Y + np.float32(10 * 2.0**-23), Y, [X, A]).verdict == "outside"
    empty = np.array([], I64)
    Y1 = reduce_mean(X, empty, keepdims=0, noop_with_empty_axes=1)  # X itself: n = 1, γ₂·3 ≈ 3·2⁻²³
    assert judge("reduce_mean", np.nextafter(Y1, np.float32(4)), Y1, [X, empty]).verdict == "conforms"
    assert judge("reduce_mean", Y1 + np.float32(6 * 2.0**-23), Y1, [X, empty]).verdict == "outside"


@req("REDUCEMEAN_S3")
def test_S3_a_term_float64_cannot_hold_decides_the_rounding() -> None:
    """[2, 2⁻²³, 2⁻¹⁰⁰, 0] in float32: the mean is 1/2 + 2⁻²⁵ + 2⁻¹⁰², just above the midpoint of 1/2 and
    1/2 + 2⁻²⁴, so it rounds up. numpy's float64 sum loses 2⁻¹⁰⁰ and lands on the midpoint, a tie that
    rounds down to 1/2: the bound must send this row to the exact path."""
    X = np.array([[2.0, 2.0**-23, 2.0**-100, 0.0], [2.0, 2.0**-23, -(2.0**-100), 0.0]], np.float32)
    assert_same(call(X, [1]), np.array([0.5 + 2.0**-24, 0.5], np.float32))


@req("REDUCEMEAN_S3")
def test_S3_a_bfloat16_mean_on_the_exact_path_is_rounded_once() -> None:
    """[2, 2⁻⁷, ±2⁻¹⁰⁰, 0] in bfloat16: the mean is 1/2 + 2⁻⁹ ± 2⁻¹⁰², either side of the midpoint of 1/2 and
    1/2 + 2⁻⁸. float64 loses 2⁻¹⁰⁰ (the exact path); the exact mean rounded to odd in float64 is then
    rounded once more, to bfloat16: ml_dtypes' own cast of a float64 goes through float32 to nearest, which
    would land on the midpoint and round the first to even, 1/2."""
    b = np.dtype(ml_dtypes.bfloat16)
    X = np.array([[2.0, 2.0**-7, 2.0**-100, 0.0], [2.0, 2.0**-7, -(2.0**-100), 0.0]], b)
    assert_same(call(X, [1]), np.array([0.5 + 2.0**-8, 0.5], b))


@req("REDUCEMEAN_S3")
@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)])
def test_S3_most_means_are_decided_in_float64(dtype: np.dtype, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random rows of finite terms: the float64 evaluation decides every rounding, and no row takes the
    exact path (the reference is fast); rows of zeros, NaN or infinities always take it."""
    from sonnx_spec.families import reduction

    exact_rows = []
    original = reduction._exact_mean

    def counted(terms: list[float], count: int, to_odd: bool) -> float:
        exact_rows.append(terms)
        return original(terms, count, to_odd)

    monkeypatch.setattr(reduction, "_exact_mean", counted)
    X = np.random.default_rng(7).uniform(1, 2, (200, 5)).astype(dtype)
    assert_same(call(X, [1]), expected(X, [1], 0, 0))
    assert exact_rows == []
    special = np.array([[0.0, -0.0], [np.nan, 1.0], [np.inf, 1.0]], dtype)
    assert_same(call(special, [1]), np.array([0.0, np.nan, np.inf], dtype))
    assert len(exact_rows) == 3


@req("REDUCEMEAN_S4")
def test_S4_signalling_nans_of_bfloat16_are_nans() -> None:
    """A signalling NaN of bfloat16 (0x7F81) flags 'invalid' when numpy widens it, which the tests make an
    error: it is read quietly, as the NaN it is."""
    X = np.array([[0x7F81, 0x3F80]], np.uint16).view(ml_dtypes.bfloat16)
    assert np.isnan(call(X, [1]).astype(np.float32)).all()


@req("REDUCEMEAN_S2")
def test_S2_sums_beyond_int64() -> None:
    """Sums no int64 holds, of both signs: the mean is exact (float64 would round 2^63 − 1)."""
    top, low = 2**63 - 1, -(2**63)
    X = np.array([[top, top, top - 1], [low, low, low + 3], [low, low + 1, 0]], np.int64)
    assert call(X, [1]).tolist() == [top - 1, low + 1, int(Fraction(2 * low + 1, 3))]
    U = np.array([[2**64 - 1, 0], [2**64 - 1, 2**64 - 2]], np.uint64)
    assert call(U, [1]).tolist() == [2**63 - 1, 2**64 - 2]


@req("GEN_E1")
@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float32)], ids=["int8", "float32"])
def test_GEN_E1_names_the_operator(dtype: np.dtype) -> None:
    huge = np.broadcast_to(np.ones((1, 1, 1), dtype), (2**30, 2**30, 1))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        call(huge, [2])
    assert info.value.problem == (
        f"reduce_mean: a result of shape (1073741824, 1073741824) and type {dtype} "
        "does not fit in this machine's memory"
    )


def odd_neighbour(exact: Fraction) -> float:
    """The float64 next to ``exact`` whose last bit is 1 (``exact`` itself if float64 holds it)."""
    nearest = float(exact)  # Fraction's float(): correctly rounded
    if Fraction(nearest) == exact or np.float64(nearest).view(np.uint64) & 1:
        return nearest
    return math.nextafter(nearest, math.inf if exact > nearest else -math.inf)


@req("REDUCEMEAN_S3")
@pytest.mark.parametrize("count", [3, 5, 7, 10])
def test_S3_the_exact_path_rounds_to_odd_in_float64_first(count: int) -> None:
    """The exact path of a float16, bfloat16 or float32 mean rounds the exact quotient to odd in float64,
    so that the rounding to the type is the only one: 1/3's float64 neighbour is odd, 1/5's even (its odd
    neighbour is one step down)."""
    from sonnx_spec.families.reduction import _exact_mean

    terms = [1.0] + [0.0] * (count - 1)
    assert _exact_mean(terms, count, True) == odd_neighbour(Fraction(1, count))
    assert _exact_mean(terms, count, False) == 1 / count
    negative = [-2.0] + [0.0] * (count - 1)
    assert _exact_mean(negative, count, True) == odd_neighbour(Fraction(-2, count))
