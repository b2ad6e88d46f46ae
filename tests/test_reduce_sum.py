"""ReduceSum: one test (or more) per rule id, named after it.

The oracle restates the rules in plain Python: the terms of each element of Y gathered by Python indexing
(the reduced axes found from A by hand), integers summed as Python integers and reduced modulo 2^n, floats
summed as fractions (exact rationals) and rounded once to the type by MPFR (gmpy2), IEEE 754's special
cases written out.
"""

from __future__ import annotations

import math
import re
import warnings
from fractions import Fraction
from itertools import product
from pathlib import Path

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
    assert_same,
    ieee_context,
    raises_req,
    req,
    shapes,
    tensors,
    to_python,
    unchanged,
    wrapped,
)

from sonnx_spec import reduce_sum

I64 = np.dtype(np.int64)
UNIT_ROUNDOFF = {"float16": Fraction(1, 2**11), "bfloat16": Fraction(1, 2**8), "float32": Fraction(1, 2**24)}
UNIT_ROUNDOFF["float64"] = Fraction(1, 2**53)


def axes_of(A: list[int], rank: int, noop: int) -> list[int]:
    """REDUCESUM_S1's R: A's axes counted from 0, or every axis (none with noop) where A is empty."""
    if not A:
        return [] if noop else list(range(rank))
    return [a % rank for a in A]


def terms_and_shape(X: np.ndarray, R: list[int], keepdims: int) -> tuple[tuple, dict]:
    """Y's shape, and for each index of Y the list of its terms as Python values."""
    shape = tuple(1 if p in R else d for p, d in enumerate(X.shape) if keepdims or p not in R)
    kept = [p for p in range(X.ndim) if p not in R]
    terms = {}
    for outer in product(*(range(X.shape[p]) for p in kept)):
        at = dict(zip(kept, outer, strict=True))
        line = []
        for inner in product(*(range(X.shape[p]) for p in R)):
            at.update(zip(R, inner, strict=True))
            line.append(to_python(X[tuple(at[p] for p in range(X.ndim))]))
        index = tuple(at[p] if p not in R else 0 for p in range(X.ndim) if keepdims or p not in R)
        terms[index] = line
    return shape, terms


def ieee_total(terms: list[float], dtype: np.dtype) -> float:
    """REDUCESUM_S3 and REDUCESUM_S4 on Python floats."""
    if any(map(math.isnan, terms)) or {math.inf, -math.inf} <= set(terms):
        return math.nan
    if math.inf in terms or -math.inf in terms:
        return next(t for t in terms if math.isinf(t))
    exact = sum(map(Fraction, terms), Fraction(0))
    if exact == 0:  # x + (−x) is +0, −0 + −0 is −0, the empty sum +0
        return -0.0 if terms and all(math.copysign(1, t) < 0 for t in terms) else 0.0
    with ieee_context(dtype):
        return float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator)))


def expected(X: np.ndarray, A: list[int], keepdims: int, noop: int) -> np.ndarray:
    shape, terms = terms_and_shape(X, axes_of(A, X.ndim, noop), keepdims)
    out = np.empty(shape, X.dtype)
    for index, line in terms.items():
        if X.dtype.kind in "iu":
            out[index] = wrapped(sum(line), X.dtype)
        else:
            out[index] = ieee_total(line, X.dtype)
    return out


def call(X: np.ndarray, A: list[int], keepdims: int = 0, noop: int = 0) -> np.ndarray:
    return reduce_sum(X, np.array(A, I64), keepdims=keepdims, noop_with_empty_axes=noop)


@st.composite
def calls(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list[int], int, int]:
    """X of any shape and values; some of its axes once each, in any order, some counted from the end;
    keepdims and noop_with_empty_axes."""
    X = draw(tensors(dtype, draw(shapes(max_dims=3))))
    chosen = draw(st.permutations(range(X.ndim)))[: draw(st.integers(0, X.ndim))]
    A = [a - X.ndim if draw(st.booleans()) else a for a in chosen]
    return X, A, draw(st.sampled_from([0, 1])), draw(st.sampled_from([0, 1]))


@req("REDUCESUM_S1", "REDUCESUM_S2", "REDUCESUM_S3", "REDUCESUM_S4")
@ALL
@given(data=st.data())
def test_S1_to_S4_every_element_of_Y_against_the_oracle(dtype: np.dtype, data: st.DataObject) -> None:
    X, A, keepdims, noop = data.draw(calls(dtype))
    inputs_unchanged = unchanged(X)
    Y = call(X, A, keepdims, noop)
    inputs_unchanged()
    assert not np.shares_memory(Y, X) and Y.flags.writeable
    assert_same(Y, expected(X, A, keepdims, noop))


@req("REDUCESUM_S1")
@pytest.mark.parametrize(
    ("shape", "A", "keepdims", "noop", "result"),
    [
        ((2, 3, 4), [1], 0, 0, (2, 4)),
        ((2, 3, 4), [1], 1, 0, (2, 1, 4)),
        ((2, 3, 4), [2, 0], 1, 0, (1, 3, 1)),
        ((2, 3, 4), [-1, 0], 0, 0, (3,)),
        ((2, 3, 4), [], 0, 0, ()),  # every axis
        ((2, 3, 4), [], 1, 0, (1, 1, 1)),
        ((2, 3, 4), [], 0, 1, (2, 3, 4)),  # none
        ((2, 3, 4), [], 1, 1, (2, 3, 4)),
        ((), [], 0, 0, ()),  # a 0-d X: no axis to reduce
        ((0, 3), [0], 0, 0, (3,)),  # empty sums
        ((3, 0), [0], 1, 0, (1, 0)),  # no sum at all
    ],
)
@ALL
def test_S1_the_shape_of_Y(
    dtype: np.dtype, shape: tuple, A: list, keepdims: int, noop: int, result: tuple
) -> None:
    Y = call(np.ones(shape, dtype), A, keepdims, noop)
    assert Y.shape == result and Y.dtype == dtype
    count = math.prod(shape) // max(math.prod(result), 1) if math.prod(result) else 0
    assert (Y == count).all()  # each element counts its terms: a sum of ones


@req("REDUCESUM_S1")
@ALL
def test_S1_an_empty_A_with_noop_leaves_X_as_it_is(dtype: np.dtype) -> None:
    values = [-0.0, 1.5, -2.0] if dtype.kind == "f" or dtype.name == "bfloat16" else [0, 1, 2]
    X = np.array(values, dtype).reshape(3, 1)
    assert_same(call(X, [], 1, 1), X)
    assert_same(call(X, [], 0, 0), np.array(sum(values), dtype))


@req("REDUCESUM_S2")
@INTS
def test_S2_integer_sums_wrap_modulo_2_to_the_n(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([[info.max, 1, info.max], [info.min, info.min, 127], [info.max, info.min, 0]], dtype)
    expected_rows = [2 * int(info.max) + 1, 2 * int(info.min) + 127, int(info.max) + int(info.min)]
    assert call(X, [1]).tolist() == [wrapped(s, dtype) for s in expected_rows]
    assert call(np.zeros((0, 2), dtype), [0]).tolist() == [0, 0]  # the empty sum


@req("REDUCESUM_S3")
@FLOATS
def test_S3_cancellation_is_exact(dtype: np.dtype) -> None:
    """[big, 1, −big] sums to 1 exactly; added left to right in the type it gives 0 (1e8 in float32)."""
    big = float(ml_dtypes.finfo(dtype).max) / 4
    X = np.array([[big, 1.0, -big], [1.0, big, -big], [-big, big, 1.0]], dtype)
    assert_same(call(X, [1]), np.array([1.0, 1.0, 1.0], dtype))
    if dtype == np.float32:
        X = np.array([1e8, 1.0, -1e8], dtype)
        assert X.cumsum()[-1] == 0  # the naive sum: numpy's, in float32
        assert_same(call(X, [0]), np.array(1.0, dtype))


@req("REDUCESUM_S3")
@FLOATS
def test_S3_subnormal_sums(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    tiny, normal = float(info.smallest_subnormal), float(info.smallest_normal)
    X = np.array([[tiny, tiny, tiny], [2.0, tiny, -2.0], [normal, -tiny, 0.0], [-tiny, -tiny, tiny]], dtype)
    assert_same(call(X, [1]), np.array([3 * tiny, tiny, normal - tiny, -tiny], dtype))


@req("REDUCESUM_S3")
@FLOATS
def test_S3_rounded_once_not_term_by_term(dtype: np.dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    # 1 + eps/2 is a tie, to 1 (even); eps/4 more, or the smallest subnormal more, is above it: 1 + eps.
    X = np.array(
        [[1.0, eps / 2, eps / 4], [1.0, eps / 2, 0.0], [1.0, eps / 2, tiny], [eps / 2, 1.0 + eps, 0.0]], dtype
    )
    assert_same(call(X, [1]), np.array([1 + eps, 1.0, 1 + eps, 1 + 2 * eps], dtype))


@req("REDUCESUM_S3")
@FLOATS
def test_S3_overflow_and_the_sign_of_zero(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    X = np.array(
        [
            [top, top, 0.0],
            [top, top, -top],
            [-top, -top, 1.0],
            [-0.0, -0.0, -0.0],
            [-0.0, 0.0, -0.0],
            [1.0, -1.0, -0.0],
        ],
        dtype,
    )
    assert_same(call(X, [1]), np.array([math.inf, top, -math.inf, -0.0, 0.0, 0.0], dtype))
    assert_same(call(np.zeros((0, 2), dtype), [0], 1), np.zeros((1, 2), dtype))  # empty: +0


@req("REDUCESUM_S4")
@FLOATS
def test_S4_nan_and_infinities(dtype: np.dtype) -> None:
    inf, nan, top = math.inf, math.nan, float(ml_dtypes.finfo(dtype).max)
    rows = [
        ([nan, 1.0, 2.0], nan),
        ([inf, -inf, 0.0], nan),
        ([inf, nan, inf], nan),
        ([1.0, -inf, 2.0], -inf),
        ([inf, top, top], inf),
        ([-top, inf, inf], inf),
    ]
    X = np.array([r for r, _ in rows], dtype)
    assert_same(call(X, [-1]), np.array([e for _, e in rows], dtype))


@req("REDUCESUM_C1")
@ALL
def test_C1_an_axis_outside_X_is_refused(dtype: np.dtype) -> None:
    for A in ([2], [0, -3], [7]):
        with raises_req("REDUCESUM_C1") as info:
            call(np.zeros((2, 3), dtype), A)
        outside = next(a for a in A if not -2 <= a < 2)
        assert info.value.problem == f"reduce_sum: A holds {outside}, outside [-2, 1] for X of rank 2"
    with raises_req("REDUCESUM_C1") as info:
        call(np.array(5, dtype), [0])  # a 0-d X has no axis
    assert info.value.problem == "reduce_sum: A holds 0, outside [0, -1] for X of rank 0"


@req("REDUCESUM_C2")
@pytest.mark.parametrize(("A", "axis"), [([1, 1], 1), ([0, -3], 0), ([-1, 0, 2], 2), ([2, 0, -3], 0)])
def test_C2_an_axis_named_twice_is_refused(A: list[int], axis: int) -> None:
    with raises_req("REDUCESUM_C2") as info:
        call(np.zeros((2, 3, 4), np.float32), A)
    assert info.value.problem == f"reduce_sum: A = {A} names axis {axis} of X more than once"


@req("REDUCESUM_C3")
@pytest.mark.parametrize("keepdims", [-1, 2, 10])
def test_C3_keepdims_other_than_0_or_1_is_refused(keepdims: int) -> None:
    with raises_req("REDUCESUM_C3") as info:
        call(np.zeros(3, np.int8), [0], keepdims)
    assert info.value.problem == f"reduce_sum: keepdims is {keepdims}, not 0 or 1"


@req("REDUCESUM_C4")
@pytest.mark.parametrize("noop", [-1, 2, 10])
def test_C4_noop_with_empty_axes_other_than_0_or_1_is_refused(noop: int) -> None:
    with raises_req("REDUCESUM_C4") as info:
        call(np.zeros(3, np.float32), [0], 1, noop)
    assert info.value.problem == f"reduce_sum: noop_with_empty_axes is {noop}, not 0 or 1"


@req("REDUCESUM_C5")
@pytest.mark.parametrize("A", [np.array(0, I64), np.zeros((1, 1), I64)], ids=["0-d", "rank 2"])
def test_C5_A_is_a_vector(A: np.ndarray) -> None:
    with raises_req("REDUCESUM_C5"):
        reduce_sum(np.zeros((2, 3), np.float32), A, keepdims=0, noop_with_empty_axes=0)


@req("GEN_E1")
def test_GEN_E1_a_result_too_large_for_memory_is_refused() -> None:
    huge = np.broadcast_to(np.ones((1, 1, 1), np.float32), (2**30, 2**30, 1))  # a view: no memory of its own
    with raises_req("GEN_E1"):
        call(huge, [2])


@req("GEN_E1")
@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float32)], ids=["int8", "float32"])
def test_GEN_E1_names_the_operator(dtype: np.dtype) -> None:
    """The integer path (wrapped_sum) and the floating-point path (exact_sum) both name reduce_sum."""
    huge = np.broadcast_to(np.ones((1, 1, 1), dtype), (2**30, 2**30, 1))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        call(huge, [2])
    assert info.value.problem == (
        f"reduce_sum: a result of shape (1073741824, 1073741824) and type {dtype} "
        "does not fit in this machine's memory"
    )


# -- REDUCESUM_P1: the engines' bound -------------------------------------------------------------------


def gamma(m: int, u: Fraction) -> Fraction:
    return m * u / (1 - m * u)


def in_type_left_to_right(terms: list[float], dtype: np.dtype) -> float:
    """An engine: the terms added one after the other, each sum rounded to the type (MPFR)."""
    total = 0.0
    with ieee_context(dtype):
        for t in terms:
            total = float(gmpy2.mpfr(total) + gmpy2.mpfr(t))
    return total


@req("REDUCESUM_P1")
@FLOATS
def test_P1_the_reference_and_a_left_to_right_engine_meet_the_bound(dtype: np.dtype) -> None:
    """Random finite terms, cancellation among them: the exact sum rounded once (the reference) and the sum
    added left to right in the type both lie within γ_{n−1}·Σ|x| of the exact sum; the second is not the
    first everywhere, which the bound allows."""
    rng = np.random.default_rng(22)
    u = UNIT_ROUNDOFF[dtype.name]
    differ = 0
    for n in (1, 2, 3, 17, 64):
        X = (rng.standard_normal((40, n)) * 2.0 ** rng.integers(-6, 6, (40, n))).astype(dtype)
        Y = call(X, [1])
        for row, y in zip(X.tolist(), Y.tolist(), strict=True):
            terms = [float(t) for t in row]
            exact = sum(map(Fraction, terms), Fraction(0))
            bound = gamma(n - 1, u) * sum(abs(Fraction(t)) for t in terms)
            engine = in_type_left_to_right(terms, dtype)
            assert abs(Fraction(float(y)) - exact) <= bound
            assert abs(Fraction(engine) - exact) <= bound
            differ += engine != float(y)
    assert differ > 0


@req("REDUCESUM_P1")
@FLOATS
def test_P1_the_bound_is_needed_whole(dtype: np.dtype) -> None:
    """[1, eps/2, …, eps/2] (n − 1 halves of eps) added left to right stays 1 at every step: its error,
    (n − 1)·eps/2 = (n − 1)·u, is within γ_{n−1}·Σ|x| and more than half of it: the bound is tight to a
    factor below 2, not loose by orders of magnitude."""
    u = UNIT_ROUNDOFF[dtype.name]
    n = 9
    terms = [1.0] + [float(u)] * (n - 1)
    exact = sum(map(Fraction, terms), Fraction(0))
    bound = gamma(n - 1, u) * exact
    error = abs(Fraction(in_type_left_to_right(terms, dtype)) - exact)
    assert bound / 2 < error <= bound
    assert_same(call(np.array(terms, dtype), [0]), np.array(1 + 8 * float(u), dtype))  # exact, representable


def dyadic_rows(dtype: np.dtype, n: int, seed: int) -> np.ndarray:
    """Three rows of n multiples of 1/8 in (−8, 8), held exactly by every float type, whose float64 sums
    of magnitudes are exact."""
    return (np.random.default_rng(seed).integers(-63, 64, (3, n)) / 8).astype(dtype)


@req("REDUCESUM_P1")
@FLOATS
@pytest.mark.parametrize("n", [1, 2, 16, 200])
def test_P1_the_judging_bound_is_the_rule_s_widened_by_its_float64_margin(dtype: np.dtype, n: int) -> None:
    """The bound engines are judged by (engine_error, declared with the operator), against the rule's in
    exact rationals: at least γₙ₋₁·Σ|x|, and above it by no more than the widening its docstring states
    (4(n + 1) float64 units of Σ|x|, 2⁻⁵⁰, one step). One term: 0, only the term itself conforms."""
    from sonnx_spec.accuracy import Within, engine_bound
    from sonnx_spec.ops.reduce_sum import engine_error

    assert engine_bound("reduce_sum") == Within("REDUCESUM_P1", engine_error, of_exact=True)
    X, A = dyadic_rows(dtype, n, n), np.array([1], I64)
    error = engine_error(call(X, [1]), X, A)
    assert error.shape == (3,) and error.dtype == np.float64
    u = UNIT_ROUNDOFF[dtype.name]
    widening = (1 + Fraction(4 * (n + 1), 2**53)) * (1 + Fraction(1, 2**50)) * (1 + Fraction(1, 2**51))
    for row, allowed in zip(X.tolist(), error.tolist(), strict=True):
        rule = gamma(n - 1, u) * sum(abs(Fraction(t)) for t in row)
        assert rule <= Fraction(allowed) <= rule * widening, (row, allowed)
        if n >= 16:  # the margin for numpy's float64 sum of the magnitudes is there, not just the rule
            assert Fraction(allowed) >= rule * (1 + Fraction(4 * (n + 1), 2**53)), (row, allowed)
    if n == 1:
        assert not error.any()


@req("REDUCESUM_P1")
def test_P1_the_bound_is_any_value_where_n_minus_1_times_u_reaches_1_or_the_magnitudes_overflow() -> None:
    """bfloat16 (u = 2⁻⁸): 256 terms, (n − 1)·u < 1: a bound; 257: none (+∞). Σ|x| beyond the largest
    value (two halves of max and a third): any value; infinite terms raise no warning."""
    from sonnx_spec.ops.reduce_sum import engine_error

    b = np.dtype(ml_dtypes.bfloat16)
    for n, finite in ((256, True), (257, False)):
        X = np.ones((2, n), b)
        assert np.isfinite(engine_error(call(X, [1]), X, np.array([1], I64))).all() == finite, n
    for dtype in (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)):
        top = float(ml_dtypes.finfo(dtype).max)
        X = np.array([[top / 2, top / 2, top / 4], [top / 2, -top / 4, 1.0], [math.inf, 1.0, 1.0]], dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            error = engine_error(call(X, [1]), X, np.array([1], I64))
        assert np.isinf(error[0]) and np.isfinite(error[1]) and np.isinf(error[2]), dtype
    one = np.array([[math.inf], [2.0]], np.float32)  # one term: γ₀ = 0, and 0·∞ raises no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        error = engine_error(call(one, [1]), one, np.array([1], I64))
    assert error[1] == 0 and error.shape == (2,)


@req("REDUCESUM_P1")
def test_P1_magnitudes_that_reach_the_largest_value_once_raised_still_bound() -> None:
    """Σ|x| eight float64 steps below float64's largest value, raised by its 4(n + 1) = 8 units, is the
    largest value itself: not beyond it, so the rule still bounds the (single) term: 0, exact."""
    from sonnx_spec.ops.reduce_sum import engine_error

    top = np.float64(np.finfo(np.float64).max)
    below = top
    for _ in range(8):
        below = np.nextafter(below, 0.0)
    assert below * (1 + 8 * 2.0**-53) == top
    X = np.array([[below]], np.float64)
    assert engine_error(call(X, [1]), X, np.array([1], I64))[0] == 0


@req("REDUCESUM_P1")
@pytest.mark.parametrize(
    ("A", "keepdims", "noop", "n"),
    [([], 1, 0, 6), ([], 0, 0, 6), ([], 0, 1, 1), ([0], 1, 0, 2), ([-1], 0, 0, 3)],
)
def test_P1_the_bound_counts_the_terms_from_A_and_Y_s_shape(
    A: list, keepdims: int, noop: int, n: int
) -> None:
    """The attributes are not a bound's arguments: an empty A reduces every axis unless Y has X's shape."""
    from sonnx_spec.ops.reduce_sum import engine_error

    X = np.full((2, 3), 2.0, np.float32)
    Y = call(X, A, keepdims, noop)
    error = engine_error(Y, X, np.array(A, I64))
    assert error.shape == Y.shape
    assert np.all(Fraction(float(e)) >= gamma(n - 1, UNIT_ROUNDOFF["float32"]) * 2 * n for e in error.flat)
    assert np.all(error <= float(gamma(n - 1, UNIT_ROUNDOFF["float32"]) * 2 * n) * (1 + 2.0**-40))


@req("REDUCESUM_P1")
def test_P1_engines_are_judged_by_the_bound() -> None:
    """A result within γₙ₋₁·Σ|x| of the exact sum conforms, one beyond it is outside, and a single term
    one step off is outside (its bound is 0)."""
    from sonnx_spec.accuracy import judge

    X, A = np.array([[1.0, 2.0**-24, 2.0**-24, 1.0]], np.float32), np.array([1], I64)
    Y = call(X, [1])  # 2 + 2⁻²³: a tie, to even, 2
    inside = np.nextafter(Y, np.float32(3))  # one step of 2 (2⁻²²): within γ₃·2 ≈ 3·2⁻²³ less a margin
    far = Y + np.float32(4 * 2.0**-22)  # 2⁻²⁰: beyond γ₃·2 and the reference's own rounding (2⁻²³)
    assert judge("reduce_sum", inside, Y, [X, A]).verdict == "conforms"
    assert judge("reduce_sum", far, Y, [X, A]).verdict == "outside"
    single = np.array([[1.5]], np.float32)
    Y1 = call(single, [1])
    assert judge("reduce_sum", np.nextafter(Y1, np.float32(2)), Y1, [single, A]).verdict == "outside"


# -- the Why3 specification's trusted roundings ---------------------------------------------------------

WHY3_TYPES = {
    "Float16": np.dtype(np.float16),
    "BFloat16": np.dtype(ml_dtypes.bfloat16),
    "Float32": np.dtype(np.float32),
    "Float64": np.dtype(np.float64),
}


def trusted_values(path: Path) -> list[tuple[str, Fraction, float]]:
    """(instance, exact real, its stated rounding) of every ``round_exact r = (v:F.t)`` (ReduceSum: the
    exact sum r) and ``round_mean s n = (v:F.t)`` (ReduceMean: the exact mean s / n) in the axioms
    ``…_trusted_values`` of the instances of a Why3 file."""
    found = []
    for module, body in re.findall(
        r"module Reduce(?:Sum|Mean)(Float16|BFloat16|Float32|Float64)\n(.*?)\nend", path.read_text(), re.S
    ):
        axiom = re.search(
            r"_trusted_values:\n(.*?)\n(?:\n|  \(\*)", body, re.S
        )  # to a blank line or a comment
        pattern = r"round_(?:exact|mean) \(?([^=]*?)\)? = \(([^:]+):F\.t\)"
        for real, value in re.findall(pattern, axiom.group(1)):
            sum_, *count = real.split()  # round_mean: the sum, then the count
            exact = Fraction(float.fromhex(sum_) if "x" in sum_ else sum_) / Fraction(
                count[0] if count else 1
            )
            found.append((module, exact, float.fromhex(value) if "x" in value else float(value)))
    return found


@req("REDUCESUM_S3")
@pytest.mark.parametrize("op", ["reduce_sum", "reduce_mean"])
def test_S3_the_why3_trusted_roundings_are_mpfrs(op: str) -> None:
    """formal/<op>.mlw trusts the rounding of the exact sums (means) of its examples: each is MPFR's."""
    values = trusted_values(Path(__file__).parents[1] / "formal" / f"{op}.mlw")
    assert {module for module, _, _ in values} == set(WHY3_TYPES)
    for module, exact, stated in values:
        with ieee_context(WHY3_TYPES[module]):
            assert float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator))) == stated, (module, exact)
