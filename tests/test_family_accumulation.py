"""The accumulating operators' shared piece (MatMul, Gemm, Conv and the reductions to come): a sum of
products computed exactly and rounded once, whatever the order an engine would sum in.

The oracles: the exact rational sum of the exact products (fractions), rounded once to the type by MPFR
(gmpy2), with IEEE 754's special cases written out here; for the decision, float64 values and bounds built
by hand around the midpoints of a type.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FLOATS, assert_same, ieee_context, raises_req, tensors, to_python, unchanged

from sonnx_spec.families.accumulation import UNIT_ROUNDOFF, decided, exact_matmul, gamma, step_down

NARROW = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)]


def exact_dot(a: list[float], b: list[float], dtype: np.dtype) -> float:
    """Σ a[k]·b[k] rounded once to ``dtype``; IEEE 754's products and sum for the special cases."""
    products = [
        x * y if not (math.isfinite(x) and math.isfinite(y)) else None for x, y in zip(a, b, strict=True)
    ]
    special = [p for p in products if p is not None]
    if any(map(math.isnan, special)) or {math.inf, -math.inf} <= set(special):
        return math.nan
    if special:
        return special[0]
    exact = sum((Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True)), Fraction(0))
    if exact == 0:  # x + (−x) is +0; −0 + −0 is −0; the empty sum is +0
        negative = [math.copysign(1, x) * math.copysign(1, y) < 0 for x, y in zip(a, b, strict=True)]
        return -0.0 if negative and all(negative) else 0.0
    with ieee_context(dtype):
        return float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator)))


def expected_matmul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """numpy's matmul shapes, each element by :func:`exact_dot` over Python's indexing."""
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    out = np.empty((*batch, A.shape[-2], B.shape[-1]), A.dtype)
    A, B = np.broadcast_to(A, (*batch, *A.shape[-2:])), np.broadcast_to(B, (*batch, *B.shape[-2:]))
    for index in np.ndindex(out.shape):
        *at, i, j = index
        row = [to_python(v) for v in A[(*at, i)]]
        column = [to_python(B[(*at, k, j)]) for k in range(B.shape[-2])]
        out[index] = exact_dot(row, column, A.dtype)
    return out


@st.composite
def operands(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """A (…, m, n) and B (…, n, p) of ``dtype``, batch axes that broadcast, any values."""
    m, n, p = (draw(st.integers(0, 4)) for _ in range(3))
    batch = draw(st.sampled_from([((), ()), ((2,), ()), ((), (3,)), ((2, 1), (3,)), ((1,), (2,))]))
    return draw(tensors(dtype, (*batch[0], m, n))), draw(tensors(dtype, (*batch[1], n, p)))


@FLOATS
@settings(max_examples=60)
@given(data=st.data())
def test_each_element_is_the_exact_sum_of_products_rounded_once(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(operands(dtype))
    inputs_unchanged = unchanged(A, B)
    Y = exact_matmul("matmul", A, B)
    inputs_unchanged()
    assert not np.shares_memory(Y, A) and not np.shares_memory(Y, B)
    assert_same(Y, expected_matmul(A, B))


@FLOATS
def test_random_products_of_every_magnitude(dtype: np.dtype) -> None:
    """Larger products than hypothesis draws, of finite values: mostly decided in float64, all exact."""
    rng = np.random.default_rng(22)
    scale = 2.0 ** rng.integers(-12, 12, (6, 40))
    A = (rng.standard_normal((6, 40)) * scale).astype(dtype)
    B = rng.standard_normal((40, 5)).astype(dtype)
    assert_same(exact_matmul("matmul", A, B), expected_matmul(A, B))


@FLOATS
def test_cancellation_is_exact(dtype: np.dtype) -> None:
    """[big, 1, −big]·[1, 1, 1] is exactly 1: summed left to right in the type it is 0."""
    big = float(ml_dtypes.finfo(dtype).max) / 4
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = np.array([[big, 1.0, -big], [2.0, tiny, -2.0], [big, big, -big]], dtype)
    expected = np.array([[1.0], [tiny], [big]], dtype)  # a subnormal left alone; no overflow on the way
    assert_same(exact_matmul("matmul", A, np.ones((3, 1), dtype)), expected)


def test_rounding_to_odd_in_float64_keeps_an_odd_neighbour_of_a_midpoint() -> None:
    """Sums within a float64 step of a float32 midpoint m: rounded to odd in float64 first, they stay on
    their side of m, and float32 rounds them as their exact value. 1 + 2⁻²⁴ + 2⁻⁵² − 2⁻⁶⁰ lies above the
    midpoint 1 + 2⁻²⁴ (a tie would go down, to 1): 1 + 2⁻²³. 1 + 3·2⁻²⁴ − 2⁻⁵² + 2⁻⁶⁰ lies below the
    midpoint 1 + 3·2⁻²⁴ (a tie would go up, to 1 + 2⁻²²): 1 + 2⁻²³. The nearest float64 of each is odd."""
    A = np.array(
        [[1.0, 2.0**-24, 2.0**-52, -(2.0**-60)], [1.0, 3 * 2.0**-24, -(2.0**-52), 2.0**-60]], np.float32
    )
    expected = np.array([[1 + 2.0**-23], [1 + 2.0**-23]], np.float32)
    assert_same(exact_matmul("matmul", A, np.ones((4, 1), np.float32)), expected)


@FLOATS
def test_ties_and_the_smallest_term_decide_the_rounding(dtype: np.dtype) -> None:
    """1 + eps/2 is a tie (to 1, even); a term far below float64's precision at 1 moves it either way."""
    eps = float(ml_dtypes.finfo(dtype).eps)
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = np.array(
        [[1.0, eps / 2, 0.0], [1.0, eps / 2, tiny], [1.0, eps / 2, -tiny], [1.0 + eps, eps / 2, 0.0]], dtype
    )
    # The tie to 1 (even), above it by tiny to 1 + eps, below it to 1; 1 + 3eps/2, a tie, to 1 + 2eps (even).
    expected = np.array([[1.0], [1 + eps], [1.0], [1 + 2 * eps]], dtype)
    assert_same(exact_matmul("matmul", A, np.ones((3, 1), dtype)), expected)


@FLOATS
def test_overflow_is_decided_by_the_exact_sum(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    A = np.array([[top, top, 0.0], [top, top, -top], [-top, -top, 1.0]], dtype)
    expected = np.array([[math.inf], [top], [-math.inf]], dtype)
    assert_same(exact_matmul("matmul", A, np.ones((3, 1), dtype)), expected)


@FLOATS
def test_special_products(dtype: np.dtype) -> None:
    inf, nan = math.inf, math.nan
    rows = [  # a, b, Σ a·b
        ([inf, 1.0], [0.0, 5.0], nan),  # ∞·0
        ([0.0, 2.0], [-inf, 1.0], nan),  # 0·∞
        ([nan, 0.0], [0.0, 0.0], nan),
        ([1.0, 1.0], [nan, 0.0], nan),
        ([inf, 1.0], [-2.0, 3.0], -inf),
        ([-inf, -1.0], [-inf, 3.0], inf),  # ∞·∞
        ([inf, 1.0], [1.0, inf], inf),
        ([inf, -1.0], [1.0, inf], nan),  # +∞ and −∞
        ([-inf, 2.0], [2.0, -inf], -inf),
        ([-0.0, 0.0], [1.0, -1.0], -0.0),  # every product −0
        ([-0.0, 0.0], [1.0, 1.0], 0.0),
        ([-0.0, -0.0], [-0.0, 0.0], 0.0),  # (−0)·(−0) is +0
        ([3.0, -3.0], [1.0, 1.0], 0.0),  # x + (−x)
    ]
    for a, b, expected in rows:
        Y = exact_matmul("matmul", np.array([a], dtype), np.array(b, dtype).reshape(2, 1))
        assert_same(Y, np.array([[expected]], dtype))


@FLOATS
def test_an_empty_sum_is_positive_zero(dtype: np.dtype) -> None:
    assert_same(
        exact_matmul("matmul", np.zeros((2, 0), dtype), np.zeros((0, 3), dtype)), np.zeros((2, 3), dtype)
    )


def test_a_result_too_large_for_memory_is_refused() -> None:
    column = np.broadcast_to(np.ones((1, 1), np.float32), (2**31, 1))  # views: no memory of their own
    with raises_req("GEN_E1") as info:
        exact_matmul("matmul", column, column.T)
    assert info.value.problem.startswith("matmul: a result of shape (2147483648, 2147483648)")


SPECIAL_FACTORS = [math.inf, -math.inf, 2.0, -2.0, 0.0, -0.0, math.nan]


@FLOATS
def test_every_special_product_alone_and_in_pairs(dtype: np.dtype) -> None:
    """Each pair of factors alone (its sign, 0·∞, a NaN), then each pair of such terms: every way a NaN or
    an infinity of either sign arises, and how two terms combine, in one batched call each."""
    single = list(product(SPECIAL_FACTORS, repeat=2))
    A = np.array([[[a]] for a, _ in single], dtype)
    B = np.array([[[b]] for _, b in single], dtype)
    assert_same(exact_matmul("matmul", A, B), expected_matmul(A, B))
    factors = [math.inf, -math.inf, 1.0, -1.0, 0.0, math.nan]
    pairs = list(product(factors, repeat=4))
    A = np.array([[[a0, a1]] for a0, a1, _, _ in pairs], dtype)
    B = np.array([[[b0], [b1]] for _, _, b0, b1 in pairs], dtype)
    assert_same(exact_matmul("matmul", A, B), expected_matmul(A, B))


def test_signalling_nans_of_bfloat16_are_nans() -> None:
    """A signalling NaN of bfloat16 (0x7F81) flags 'invalid' when numpy widens it, which the tests make an
    error: it is read quietly, as the NaN it is."""
    snan = np.array([[0x7F81, 0x3F80]], np.uint16).view(ml_dtypes.bfloat16)
    one = np.ones((2, 1), ml_dtypes.bfloat16)
    assert np.isnan(exact_matmul("matmul", snan, one).astype(np.float32)).all()
    assert_same(exact_matmul("matmul", one.T, one), np.array([[2.0]], ml_dtypes.bfloat16))


# -- the decision -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 256, 10**6, 2**40])
def test_the_bound_covers_any_order_of_summation(n: int) -> None:
    """c·Ŝ·(1 − u) ≥ γₙ₋₁/(1 − γₙ₋₁)·Ŝ, exactly (γₖ = k·u/(1 − k·u)); and c is no more than twice that."""
    u = Fraction(UNIT_ROUNDOFF)
    g = (n - 1) * u / (1 - (n - 1) * u)
    needed = g / (1 - g)
    c = Fraction(gamma(n))
    assert c * (1 - u) >= needed
    assert c <= 2 * n * u


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=40))
def test_a_step_down_is_numpys_nextafter_toward_minus_infinity(words: list[int]) -> None:
    x = np.array(words, np.uint64).view(np.float64)
    edges = np.array(
        [0.0, -0.0, 5e-324, -5e-324, 2.0**-1022, -(2.0**-1022), 1.0, -1.0, 1.7976931348623157e308]
    )
    x = np.concatenate([x, edges])
    before = x.copy()
    with np.errstate(over="ignore"):  # −max steps to −∞
        expected = np.nextafter(x, -np.inf)
    got, number = step_down(x), ~np.isnan(x)
    assert got.view(np.uint64)[number].tolist() == expected.view(np.uint64)[number].tolist()
    assert np.isnan(got[~number]).all()  # a NaN stays a NaN (its payload one off, as nothing reads it)
    assert np.array_equal(x.view(np.uint64), before.view(np.uint64))  # x is not written


@pytest.mark.parametrize("dtype", NARROW, ids=[t.name for t in NARROW])
def test_an_interval_without_a_midpoint_is_decided(dtype: np.dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)
    midpoint = 1 + eps / 2  # between 1 and 1 + eps; exact in float64
    step = 2.0**-52  # float64's spacing at 1
    approx = np.array(
        [midpoint - 4 * step, midpoint - 4 * step, midpoint + 4 * step, midpoint + 4 * step, midpoint]
    )
    bound = np.array([2 * step, 4 * step, 2 * step, 4 * step, 0.0])
    rounded, ok = decided(approx, bound, dtype)
    # The interval reaches the midpoint (one float64 step more, outward) only with the larger bounds.
    assert ok.tolist() == [True, False, True, False, True]
    assert rounded.astype(np.float64).tolist() == [1.0, 1.0, 1 + eps, 1 + eps, 1.0]  # the tie: to even


@pytest.mark.parametrize("dtype", NARROW, ids=[t.name for t in NARROW])
def test_the_ends_are_moved_one_float64_step_outward(dtype: np.dtype) -> None:
    """An end one float64 step inside a midpoint whose tie rounds toward the other end: moved outward it
    reaches the midpoint, so the two ends round apart (the float64 addition of the bound may round by
    up to half a step, and the step covers it)."""
    eps = float(ml_dtypes.finfo(dtype).eps)
    step = 2.0**-52  # float64's spacing in [1, 2)
    down, up = 1 + eps / 2, 1 + 3 * eps / 2  # ties: to 1 (even) and to 1 + 2eps (even)
    approx = np.array([down + 2 * step, up - 2 * step, down + 3 * step, up - 3 * step])
    _, ok = decided(approx, np.full(4, step), dtype)
    assert ok.tolist() == [False, False, True, True]


@pytest.mark.parametrize("dtype", NARROW, ids=[t.name for t in NARROW])
def test_zeros_of_both_signs_in_an_interval_are_undecided(dtype: np.dtype) -> None:
    rounded, ok = decided(np.array([0.0, -0.0, 1e-300]), np.array([1e-300, 0.0, 1e-300]), dtype)
    assert ok.tolist() == [False, True, False]
    assert np.signbit(rounded[1])


def test_a_float64_result_is_decided_only_where_exact() -> None:
    _, ok = decided(np.array([1.0, 1.0, np.inf]), np.array([0.0, 2.0**-60, 0.0]), np.dtype(np.float64))
    assert ok.tolist() == [True, False, True]


@pytest.mark.parametrize("dtype", NARROW, ids=[t.name for t in NARROW])
def test_the_overflow_threshold_is_a_midpoint(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    top = 2.0 ** (info.maxexp - 1)  # 2^emax
    threshold = 2 * top - float(info.eps) / 2 * top  # halfway between max = (2 − eps)·2^emax and 2^(emax+1)
    rounded, ok = decided(
        np.array([threshold, threshold]), np.array([0.0, float(info.max) * 2.0**-40]), dtype
    )
    assert ok.tolist() == [True, False]
    assert rounded[0] == np.inf
