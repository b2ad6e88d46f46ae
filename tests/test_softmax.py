"""Softmax: one test (or more) per requirement id, named after it.

The oracle is MPFR (gmpy2), called here slice by slice on the exact inputs, with a formula the reference does
not use: q_i = 1 / Σ_j e^(x_j − x_i), each difference exact (2200 bits hold the difference of any two
float64), evaluated to nearest at 300 bits and again at 600 bits in MPFR's widest exponent range, each
rounded once to the type, the two required to agree. NaN, +∞ and a slice of −∞ only are written out from the
rules. The reference shifts by the slice's maximum, evaluates in float64 and decides, or encloses with
directed roundings: nothing but the library is shared.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction
from pathlib import Path

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FLOATS, assert_same, ieee_context, raises_req, req, tensors, unchanged

from sonnx_spec import softmax
from sonnx_spec.accuracy import judge
from sonnx_spec.correctly_rounded import RELATIVE_ERROR, mpfr_context, ulp_distance
from sonnx_spec.ops.softmax import (
    BASE_ERROR,
    SUM_ERROR,
    _mpfr_slice,
    engine_error,
    error_bound,
    quotient_bounds,
    undecided_roundings,
)

F16, BF16, F32, F64 = (np.dtype(t) for t in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64))
SIXTEEN_BITS = [F16, BF16]
EXACT = gmpy2.context(precision=2200, emin=gmpy2.get_emin_min(), emax=gmpy2.get_emax_max())


def quotients(line: list[float], precision: int) -> list[gmpy2.mpfr | None]:
    """1 / Σ_j e^(x_j − x_i) to nearest at ``precision`` bits for each finite x_i of a slice whose
    maximum is finite (None at a −∞ element)."""
    wide = gmpy2.context(precision=precision, emin=gmpy2.get_emin_min(), emax=gmpy2.get_emax_max())
    values = [gmpy2.mpfr(x, 1) for x in line]
    result: list[gmpy2.mpfr | None] = []
    for xi in values:
        if gmpy2.is_infinite(xi):
            result.append(None)
            continue
        total = wide.fsum([wide.exp(EXACT.sub(xj, xi)) for xj in values])
        result.append(wide.div(1, total))
    return result


def softmax_of_slice(line: list[float], dtype: np.dtype) -> list[float]:
    """The spec written out once more, for one slice: SOFTMAX_S2, SOFTMAX_S3, else SOFTMAX_S1."""
    if any(math.isnan(x) or x == math.inf for x in line) or all(x == -math.inf for x in line):
        return [math.nan] * len(line)
    context = ieee_context(dtype)
    first, second = quotients(line, 300), quotients(line, 600)
    out = []
    for a, b in zip(first, second, strict=True):
        if a is None:
            out.append(0.0)
            continue
        low, high = float(context.plus(a)), float(context.plus(b))
        assert low == high, line  # 300 bits decide every rounding here
        out.append(low)
    return out


def oracle(X: np.ndarray, axis: int) -> np.ndarray:
    """Every slice of X along ``axis`` by :func:`softmax_of_slice`, in a new array of X's type."""
    moved = np.moveaxis(X.astype(np.float64), axis, -1)
    lines = moved.reshape(-1, moved.shape[-1]) if moved.size else moved.reshape(0, 0)
    Y = np.array([softmax_of_slice(line, X.dtype) for line in lines.tolist()], np.float64).reshape(
        moved.shape
    )
    return np.moveaxis(Y, -1, axis).astype(X.dtype)


def check(X: np.ndarray, axis: int) -> np.ndarray:
    inputs_unchanged = unchanged(X)
    Y = softmax(X, axis=axis)
    inputs_unchanged()
    assert Y is not X and not np.shares_memory(Y, X)
    assert_same(Y, oracle(X, axis))
    return Y


def random_slices(
    rng: np.random.Generator, dtype: np.dtype, shape: tuple[int, ...], scale: float
) -> np.ndarray:
    with np.errstate(over="ignore"):
        return (rng.standard_normal(shape) * scale).astype(dtype)


# -- SOFTMAX_C1, C2, C3: the axis, the shape and the type ----------------------------------------------------


@req("SOFTMAX_C1")
@FLOATS
def test_C1_an_axis_outside_the_rank_is_refused(dtype: np.dtype) -> None:
    X = np.ones((2, 3), dtype)
    for axis in (2, 3, -3, -100):
        with raises_req("SOFTMAX_C1"):
            softmax(X, axis=axis)
    with raises_req("SOFTMAX_C1") as info:
        softmax(X, axis=-3)
    assert info.value.problem == "softmax: axis is -3, outside [-2, 1] for X of rank 2"
    with raises_req("SOFTMAX_C1"):  # a 0-d X has no axis at all
        softmax(np.array(1.0, dtype), axis=0)
    with raises_req("SOFTMAX_C1"):
        softmax(np.array(1.0, dtype), axis=-1)


@req("SOFTMAX_C1", "SOFTMAX_S1")
@FLOATS
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_C1_S1_every_axis_of_a_rank_3_tensor(dtype: np.dtype, axis: int) -> None:
    """Each axis, negative ones counting from the end: the slices are the ones along that axis only."""
    rng = np.random.default_rng(axis + 7)
    check(random_slices(rng, dtype, (3, 4, 5), 3.0), axis)


@req("SOFTMAX_C2", "SOFTMAX_C3")
@FLOATS
def test_C2_C3_shape_and_type_of_X_in_a_new_array(dtype: np.dtype) -> None:
    X = np.arange(24, dtype=np.float64).reshape(2, 3, 4).astype(dtype)
    for axis in range(-3, 3):
        Y = softmax(X, axis=axis)
        assert Y.shape == X.shape and Y.dtype == X.dtype and type(Y) is np.ndarray
        assert not np.shares_memory(X, Y)


@req("SOFTMAX_C2", "SOFTMAX_S1")
@FLOATS
def test_C2_S1_an_empty_axis_or_an_empty_X_gives_an_empty_Y(dtype: np.dtype) -> None:
    for shape, axis in (((2, 0, 3), 1), ((2, 0, 3), 0), ((0,), 0), ((3, 0), -1), ((0, 4), 1)):
        Y = softmax(np.zeros(shape, dtype), axis=axis)
        assert Y.shape == shape and Y.dtype == dtype and Y.size == 0


@req("SOFTMAX_C2", "SOFTMAX_C3", "SOFTMAX_S1")
def test_C2_C3_a_non_contiguous_input_is_read_not_modified() -> None:
    X = np.arange(40, dtype=np.float32).reshape(5, 8)[:, ::2].T  # a strided, transposed view
    Y = check(X, 0)
    assert Y.flags.c_contiguous


# -- SOFTMAX_S1: the correctly rounded quotient ------------------------------------------------------------


@req("SOFTMAX_S1")
@FLOATS
@pytest.mark.parametrize("scale", [0.5, 4.0, 40.0])
def test_S1_random_slices(dtype: np.dtype, scale: float) -> None:
    rng = np.random.default_rng(int(scale * 10) + dtype.itemsize)
    check(random_slices(rng, dtype, (60, 7), scale), 1)
    check(random_slices(rng, dtype, (5, 30), scale), 0)


@req("SOFTMAX_S1")
def test_S1_a_long_slice() -> None:
    """100 elements: the float64 evaluation's bound grows with n (its sum); still correctly rounded."""
    rng = np.random.default_rng(300)
    for dtype in (F32, BF16):
        check(random_slices(rng, dtype, (1, 100), 2.0), 1)


@req("SOFTMAX_S1")
@FLOATS
def test_S1_a_huge_spread(dtype: np.dtype) -> None:
    """The largest and lowest values of the type, tiny ones and 0 in one slice: e^(x − M) from 1 down to
    far below every subnormal."""
    info = ml_dtypes.finfo(dtype)
    big, tiny = float(info.max), float(info.smallest_subnormal)
    X = np.array(
        [[big, -big, 0.0, tiny, big], [0.0, -tiny, tiny, -0.0, 1.0], [-big, -big, -big / 2, -big, -1.0]],
        dtype,
    )
    Y = check(X, 1)
    assert Y[0].tolist() == [0.5, 0.0, 0.0, 0.0, 0.5]
    assert Y[2, 4] == 1 and Y[2, :4].tolist() == [0, 0, 0, 0]


@req("SOFTMAX_S1")
@FLOATS
@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 10, 64, 100])
def test_S1_equal_elements_give_one_over_n_rounded_once(dtype: np.dtype, n: int) -> None:
    """All equal: the quotient is exactly 1/n, rounded once by MPFR from the rational number itself."""
    expected = float(ieee_context(dtype).div(1, n))
    for value in (0.0, -3.5, 1000.0 if dtype.itemsize > 2 else 100.0):
        Y = softmax(np.full((2, n), value, dtype), axis=1)
        assert Y.tolist() == [[expected] * n] * 2


@req("SOFTMAX_S1")
@FLOATS
def test_S1_ties_of_equal_greatest_elements(dtype: np.dtype) -> None:
    """Several elements at the maximum share the mass equally; the others get the same tiny results."""
    X = np.array([[2.0, 2.0, -1.0, 2.0, -1.0], [-1.0, 0.5, 0.5, -1.0, -7.0]], dtype)
    Y = check(X, 1)
    assert Y[0, 0] == Y[0, 1] == Y[0, 3] and Y[0, 2] == Y[0, 4]


def ties(p: int, count: int) -> np.ndarray:
    """Slices [0, x] whose second result σ(x) = 1/(1 + e^−x) lies a hair from a midpoint of a type of p
    bits: σ(x) = 1/2 + x/4 − x³/48 + …, and x = k·2^(1−p), k odd, puts 1/2 + x/4 on the midpoint
    1/2 + k·2^(−p−1), σ(x) just below it (so it rounds down)."""
    k = np.arange(1, 2 * count, 2, dtype=np.float64)
    x = k * 2.0 ** (1 - p)
    return np.stack([np.zeros_like(x), x], axis=1)


@req("SOFTMAX_S1")
@FLOATS
def test_S1_hard_to_round_quotients_near_one_half(dtype: np.dtype) -> None:
    """No float64 evaluation decides these (the quotient is within x³/48 of a midpoint): MPFR must. The
    first one worked by hand: σ(2^(1−p)) is just below 1/2 + 2^(−p−1): 1/2; and 1 − σ for the other."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    X = ties(p, 40).astype(dtype)
    Y = check(X, 1)
    assert Y[0, 1] == 0.5 and Y[1, 1] == 0.5 + 2.0**-p


@req("SOFTMAX_S1")
@FLOATS
def test_S1_subnormal_results_and_underflow_to_zero(dtype: np.dtype) -> None:
    """[0, −d]: the second result is about e^−d, a normal value, a subnormal, then 0 once below half the
    smallest subnormal."""
    info = ml_dtypes.finfo(dtype)
    normal, tiny = math.log(float(info.smallest_normal)), math.log(float(info.smallest_subnormal))
    ds = np.linspace(-normal - 3, -tiny + 3, 40)
    X = np.stack([np.zeros_like(ds), -ds], axis=1).astype(dtype)
    Y = check(X, 1)
    second = Y[:, 1].astype(np.float64)
    assert second[0] >= float(info.smallest_normal) and second[-1] == 0
    assert np.any((second > 0) & (second < float(info.smallest_normal)))
    assert np.all(second[1:] <= second[:-1])


@req("SOFTMAX_S1")
@FLOATS
def test_S1_minus_infinity_among_finite_elements_gives_plus_zero(dtype: np.dtype) -> None:
    inf = math.inf
    X = np.array([[1.0, -inf, 3.0], [-inf, 0.0, -inf], [-inf, -inf, -2.0]], dtype)
    Y = check(X, 1)
    assert Y[1].tolist() == [0.0, 1.0, 0.0] and Y[2].tolist() == [0.0, 0.0, 1.0]
    assert not np.signbit(Y.astype(np.float64)).any()


@req("SOFTMAX_S1")
def test_S1_a_float64_sample() -> None:
    """Every float64 result comes from MPFR (Ziv's loop); here against MPFR at fixed precisions."""
    rng = np.random.default_rng(64)
    check(rng.standard_normal((40, 6)) * 20, 1)
    check(np.array([[0.0, -745.0, -744.0, 5e-324], [1e300, -1e300, 1e300, 0.0]]), 1)


@req("SOFTMAX_S1")
def test_S1_the_mpfr_loop_alone_rounds_correctly() -> None:
    """_mpfr_slice, which takes every float64 element and the undecided ones, asked directly for every
    position of a few slices of each type (the fast path decides most of them otherwise)."""
    rng = np.random.default_rng(5)
    for dtype in (F16, BF16, F32, F64):
        for line in ([0.0, 1.0, 2.0], [-3.0, -3.0], [7.25], [0.0, -20.0, -math.inf, 3.5]):
            values = np.array(line, dtype).astype(np.float64).tolist()
            got = _mpfr_slice(values, list(range(len(values))), mpfr_context(dtype))
            assert got == softmax_of_slice(values, dtype)
        values = np.array(rng.standard_normal(9) * 5, dtype).astype(np.float64).tolist()
        assert _mpfr_slice(values, [3, 1], mpfr_context(dtype)) == [
            softmax_of_slice(values, dtype)[i] for i in (3, 1)
        ]


@req("SOFTMAX_S1")
def test_S1_the_float64_evaluation_is_well_within_its_bound() -> None:
    """The bound the fast path trusts, E(n) = 2⁻³⁸ + n·2⁻⁵² (the page derives it): the float64 quotient
    x − M, exp, sum, divide, against MPFR at 300 bits on float32 slices of several lengths and spreads,
    where e^(x − M) is a normal float64: below 2⁻⁴⁸, far within it."""
    rng = np.random.default_rng(48)
    worst = Fraction(0)
    for n, rows, scale in ((2, 20, 1.0), (8, 20, 30.0), (50, 4, 3.0), (200, 1, 0.3)):
        X = random_slices(rng, F32, (rows, n), scale).astype(np.float64)
        shifted = X - X.max(axis=1, keepdims=True)
        terms = np.exp(shifted)
        Y = terms / terms.sum(axis=1, keepdims=True)
        for line, computed in zip(X.tolist(), Y.tolist(), strict=True):
            for value, y in zip(quotients(line, 300), computed, strict=True):
                exact = Fraction(*value.as_integer_ratio())
                if y > 2.0**-1000:
                    worst = max(worst, abs(Fraction(y) - exact) / exact)
    assert worst < Fraction(1, 2**48) < Fraction(error_bound(2))
    assert error_bound(10) == BASE_ERROR + 10 * SUM_ERROR == 2.0**-38 + 10 * 2.0**-52
    # the derivation: numpy's exp within 2⁻⁴⁰ (RELATIVE_ERROR), x − M's rounding moved into e^d (709·2⁻⁵³),
    # in the numerator and in the sum, one rounding of the quotient: within BASE_ERROR, with a margin
    epsilon = Fraction(RELATIVE_ERROR)
    term = epsilon + 709 * Fraction(1, 2**53) * (1 + epsilon)
    assert 2 * term + Fraction(1, 2**53) < Fraction(22, 10) * epsilon < Fraction(BASE_ERROR)


@req("SOFTMAX_S1")
@pytest.mark.parametrize("n", [1, 10, 2**16])
def test_S1_the_decision_window_is_twice_the_derived_bound(n: int) -> None:
    """undecided_roundings sends to MPFR a float64 value within 2E(n) of a midpoint, relatively, and decides
    one beyond: around the midpoint 1 + 2⁻²⁴ of float32 (between 1 and 1 + 2⁻²³) and the midpoint of the
    subnormals 3·2⁻¹⁵⁰, from each side."""
    E = BASE_ERROR + n * SUM_ERROR
    for midpoint in (1 + 2.0**-24, 3 * 2.0**-150):
        inside = np.array([midpoint * (1 + 1.9 * E), midpoint * (1 - 1.9 * E)])
        outside = np.array([midpoint * (1 + 2.2 * E), midpoint * (1 - 2.2 * E)])
        for y, expected in ((inside, [True, True]), (outside, [False, False])):
            assert undecided_roundings(y, y.astype(np.float32), n).tolist() == expected, (midpoint, n)
    exact = np.array([1.0, 0.5, 0.0, 2.0**-149])  # values of the type, far from any midpoint
    assert not undecided_roundings(exact, exact.astype(np.float32), n).any()


@req("SOFTMAX_S1")
@pytest.mark.parametrize("precision", [8, 24, 60])
def test_S1_the_mpfr_bounds_enclose_the_quotient(precision: int) -> None:
    """Ziv's loop is correct because each attempt's two values bound the quotient: at any precision, against
    the oracle's 300 bits, on slices of every scale; and their ratio is within e^((2·spread + 8)·2^−precision)
    (x − M rounded, amplified by the exponential; then a few directed roundings), so that the loop ends."""
    rng = np.random.default_rng(precision)
    for scale, n in ((1.0, 2), (10.0, 5), (100.0, 8), (0.01, 3)):
        for line in [*(rng.standard_normal((12, n)) * scale).tolist(), [0.0, -800.0, -math.inf]]:
            values = [gmpy2.mpfr(x, 1) for x in line]
            finite = [i for i, x in enumerate(line) if math.isfinite(x)]
            bounds = quotient_bounds(values, finite, precision)
            for i, (low, high) in zip(finite, bounds, strict=True):
                value = quotients(line, 300)[i]
                assert low <= value <= high and low.precision == high.precision == precision, line
                top = max(line)
                spread = abs(line[i] - top) + max(abs(x - top) for x in line if math.isfinite(x))
                wide = gmpy2.context(precision=300)  # x − M, exp, sums, quotient:
                limit = wide.exp(wide.mul(2 * spread + 8, wide.pow(2, -precision)))
                assert high <= wide.mul(low, limit) or value < 2.0**-1000, line


@req("GEN_E1")
def test_GEN_E1_a_result_too_large_for_memory_is_refused() -> None:
    huge = np.broadcast_to(np.ones((1, 1), np.float32), (2**30, 2**30))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        softmax(huge, axis=1)
    assert info.value.problem == (
        "softmax: a result of shape (1073741824, 1073741824) and type float32 "
        "does not fit in this machine's memory"
    )


# -- SOFTMAX_S2, S3: NaN, +∞, a slice of −∞ only ---------------------------------------------------------


@req("SOFTMAX_S2")
@FLOATS
def test_S2_a_nan_or_plus_infinity_makes_its_slice_nan(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    X = np.array(
        [
            [1.0, nan, 3.0],
            [4.0, 5.0, inf],
            [inf, inf, 0.0],
            [inf, nan, -inf],
            [-nan, 0.0, 0.0],
            [1.0, 2.0, 3.0],
        ],
        dtype,
    )
    Y = check(X, 1)
    assert np.isnan(Y[:5].astype(np.float64)).all() and not np.isnan(Y[5].astype(np.float64)).any()
    Y0 = check(X[[1, 5]], 0)  # along the columns: only the column holding +∞ is NaN
    assert np.isnan(Y0[:, 2].astype(np.float64)).all() and not np.isnan(Y0[:, :2].astype(np.float64)).any()


@req("SOFTMAX_S3")
@FLOATS
def test_S3_a_slice_of_minus_infinity_only_is_nan(dtype: np.dtype) -> None:
    inf = math.inf
    X = np.array([[-inf, -inf, -inf], [-inf, -inf, 0.0]], dtype)
    Y = check(X, 1)
    assert np.isnan(Y[0].astype(np.float64)).all() and Y[1].tolist() == [0.0, 0.0, 1.0]
    assert np.isnan(softmax(np.array([-inf], dtype), axis=0).astype(np.float64)).all()


# -- SOFTMAX_P1: the page's properties ---------------------------------------------------------------------


def finite_slices(dtype: np.dtype) -> st.SearchStrategy[np.ndarray]:
    """Tensors of rank 1 to 3 of any finite values (−∞ too) of the type."""
    return tensors(dtype).filter(lambda X: X.ndim >= 1)


@req("SOFTMAX_P1")
@FLOATS
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_P1_bounds_sum_and_order_on_any_tensor(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(finite_slices(dtype))
    axis = data.draw(st.integers(-X.ndim, X.ndim - 1))
    Y = softmax(X, axis=axis)
    info = ml_dtypes.finfo(dtype)
    u, tiny = Fraction(2) ** -(info.nmant + 1), Fraction(float(info.smallest_subnormal))
    with np.errstate(invalid="ignore"):  # the signalling NaNs among the patterns
        moved_x = np.moveaxis(X.astype(np.float64), axis, -1)
    moved_y = np.moveaxis(Y.astype(np.float64), axis, -1)
    n = moved_x.shape[-1]
    for line, result in zip(
        moved_x.reshape(-1, n).tolist() if n else [],
        moved_y.reshape(-1, n).tolist() if n else [],
        strict=True,
    ):
        finite_max = math.isfinite(max(line)) and not any(math.isnan(x) for x in line)
        if not finite_max:
            assert all(math.isnan(y) for y in result)  # SOFTMAX_S2, SOFTMAX_S3
            continue
        assert all(0 <= y <= 1 for y in result)
        assert abs(sum(map(Fraction, result)) - 1) <= u + n * tiny / 2
        order = sorted(range(n), key=lambda j: line[j])
        assert all(result[a] <= result[b] for a, b in itertools.pairwise(order))


@req("SOFTMAX_P1")
@FLOATS
def test_P1_the_sum_of_a_slice_is_within_n_halves_units_of_1(dtype: np.dtype) -> None:
    """Against the exact bound u + n·tiny/2 (≤ n/2 units in the last place of 1), on long slices."""
    rng = np.random.default_rng(11)
    info = ml_dtypes.finfo(dtype)
    u, tiny = Fraction(2) ** -(info.nmant + 1), Fraction(float(info.smallest_subnormal))
    for n, scale in ((1000, 1.0), (50, 10.0), (3, 100.0)):
        Y = softmax(random_slices(rng, dtype, (4, n), scale), axis=-1)
        for result in Y.astype(np.float64).tolist():
            error = abs(sum(map(Fraction, result)) - 1)
            assert error <= u + n * tiny / 2 <= Fraction(n, 2) * 2 * u


@req("SOFTMAX_P1")
@FLOATS
def test_P1_one_element_gives_1(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    values = [0.0, -0.0, 1.0, -1.0, float(info.max), float(info.min), float(info.smallest_subnormal)]
    Y = softmax(np.array(values, dtype).reshape(-1, 1), axis=1)
    assert Y.ravel().tolist() == [1.0] * len(values)


@req("SOFTMAX_P1")
@FLOATS
def test_P1_adding_a_constant_exactly_changes_nothing(dtype: np.dtype) -> None:
    """Small integers plus an integer constant: every sum exact in each type (at most 8 significant bits)."""
    rng = np.random.default_rng(3)
    X = rng.integers(-20, 20, (30, 6)).astype(dtype)
    reference = softmax(X, axis=1)
    for c in (1.0, -7.0, 64.0, -100.0):
        shifted = (X.astype(np.float64) + c).astype(dtype)
        assert np.array_equal(shifted.astype(np.float64) - c, X.astype(np.float64))  # exact
        assert_same(softmax(shifted, axis=1), reference)


# -- SOFTMAX_P2: the engines' bound -------------------------------------------------------------------------


def meets_P2(engine: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """SOFTMAX_P2 element by element: within 4 units in the last place of Y, or within 4u absolutely."""
    p = ml_dtypes.finfo(Y.dtype).nmant + 1
    error = np.abs(engine.astype(np.float64) - Y.astype(np.float64))
    nan = np.isnan(Y.astype(np.float64))
    return (
        (ulp_distance(engine, Y) <= 4) | (error <= 4 * 2.0**-p) | (nan & np.isnan(engine.astype(np.float64)))
    )


@req("SOFTMAX_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    rng = np.random.default_rng(2)
    X = random_slices(rng, dtype, (30, 8), 6.0)
    assert np.all(ulp_distance(softmax(X, axis=1), oracle(X, 1)) == 0)


@req("SOFTMAX_P2")
def test_P2_the_judge_on_the_formula_engines_use() -> None:
    """exp(x − max)/sum in float32 itself: tiny results off by tens of units (x − M rounded, then e^·
    amplifies it) but within the absolute floor; a result flushed to 0 from 0.01, or NaN for a number, is
    not within the bound."""
    rng = np.random.default_rng(4)
    X = random_slices(rng, F32, (50, 10), 30.0)
    terms = np.exp(X - X.max(axis=1, keepdims=True))
    naive = terms / terms.sum(axis=1, keepdims=True)
    Y = softmax(X, axis=1)
    assert meets_P2(naive, Y).all() and ulp_distance(naive, Y).max() > 4
    wrong = np.array([0.0, np.nan, 0.5], np.float32)
    right = np.array([0.01, 0.5, 0.5], np.float32)
    assert meets_P2(wrong, right).tolist() == [False, False, True]
    assert meets_P2(np.array([0.5 + 4 * 2.0**-24], np.float32), np.array([0.5], np.float32)).all()
    assert not meets_P2(np.array([0.5 + 6 * 2.0**-24], np.float32), np.array([0.5], np.float32)).any()


# -- the values the formal specification trusts -------------------------------------------------------------

INSTANCES = {"Float16": F16, "BFloat16": BF16, "Float32": F32, "Float64": F64}


def why3_value(literal: str) -> float:
    """A literal of formal/softmax.mlw's instances, as formal/harness/examples.py writes them: (0x1.8p-1:F.t),
    (0.0:F.t), (F.neg …), +∞ as (F.div F.RNE (1.0:F.t) (0.0:F.t))."""
    literal = literal.strip()
    if literal.startswith("(F.neg "):
        return -why3_value(literal.removeprefix("(F.neg ").removesuffix(")"))
    if literal == "(F.div F.RNE (1.0:F.t) (0.0:F.t))":
        return math.inf
    return float.fromhex(literal.strip("()").removesuffix(":F.t"))


def first_term(text: str) -> tuple[str, str]:
    """The parenthesised term ``text`` starts with, and what follows it."""
    depth = 0
    for end, character in enumerate(text):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth == 0:
            return text[: end + 1], text[end + 1 :]
    raise ValueError(text)


def why3_line(text: str) -> list[float]:
    """The elements of a Why3 list of the instances, (ECons a (ECons b ENil))."""
    values = []
    while text.startswith("(ECons "):
        literal, text = first_term(text.removeprefix("(ECons "))
        values.append(why3_value(literal))
        text = text.strip()
    assert text.startswith("ENil"), text
    return values


@req("SOFTMAX_S1")
def test_S1_the_values_the_formal_specification_trusts_are_mpfrs() -> None:
    """formal/softmax.mlw states MPFR's quotients at the page's slices as axioms (Why3 cannot evaluate
    e^x): each is checked here against the oracle, independently of the reference; and its axiom that a
    slice of one finite element gives 1, on the special values of each type."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "softmax.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Softmax(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        dtype = INSTANCES[name]
        assert "quotient (ECons x ENil) 0 = (1.0: F.t)" in body
        info = ml_dtypes.finfo(dtype)
        for x in (float(info.min), -1.0, -0.0, float(info.smallest_subnormal), float(info.max)):
            assert softmax_of_slice([x], dtype) == [1.0]
        for line in body.splitlines():
            line = line.strip().removesuffix("/\\").strip()
            if not line.startswith("quotient (ECons "):
                continue
            elements, rest = first_term(line.removeprefix("quotient "))
            position, value = rest.split(" = ")
            assert why3_value(value) == softmax_of_slice(why3_line(elements), dtype)[int(position)], line
            checked += 1
    assert checked >= 50


@req("SOFTMAX_P2")
def test_P2_is_the_bound_engines_are_judged_by() -> None:
    """The bound the module declares (sonnx-spec compare --by-node, the suite) is the rule's: the float32
    formula engines use is within it everywhere; a value 5 units of 2⁻²⁴ from 0.5, a flush to 0 and a NaN
    are outside; one exactly 4u from 0.5 is within."""
    rng = np.random.default_rng(4)
    X = random_slices(rng, F32, (50, 10), 30.0)
    terms = np.exp(X - X.max(axis=1, keepdims=True))
    naive = terms / terms.sum(axis=1, keepdims=True)
    Y = softmax(X, axis=1)
    judged = judge("softmax", naive, Y, [X])
    assert judged.rule == "SOFTMAX_P2" and judged.verdict == "conforms" and judged.distance.max() > 4
    reference = np.array([0.5, 0.5, 0.01, 0.5, 1.0], np.float32)
    engine = np.array([0.5 + 4 * 2.0**-24, 0.5 + 5 * 2.0**-24, 0.0, np.nan, 1 - 4 * 2.0**-24], np.float32)
    inputs = [np.zeros(5, np.float32)]
    assert judge("softmax", engine, reference, inputs).outside_at.tolist() == [False, True, True, True, False]
    assert meets_P2(engine, reference).tolist() == [True, False, False, False, True]


@req("SOFTMAX_P2")
def test_P2_the_bound_in_numbers() -> None:
    """max(4 ulp(Y), 4u): at 1, 4 ulp(1) (2⁻²¹ in float32, 2⁻⁸ in float16); far below 1, the floor 4u
    (2⁻²² and 2⁻⁹), at 2⁻² too, where 4 ulp(2⁻²) is half of it."""
    for dtype, ulp_1, u in ((np.float32, 2.0**-23, 2.0**-24), (np.float16, 2.0**-10, 2.0**-11)):
        Y = np.array([1.0, 2.0**-10, 0.0, 0.25], dtype)
        assert engine_error(Y, Y).tolist() == [4 * ulp_1, 4 * u, 4 * u, 4 * u]
