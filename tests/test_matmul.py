"""MatMul: one test (or more) per rule id, named after it.

The oracles are independent of numpy's kernels and of the reference's route: Python integers reduced
modulo 2^n for the integers; for the floating-point types, the exact sum of the exact products in
fractions.Fraction, rounded once to the type by MPFR (gmpy2), with IEEE 754's special cases written out
here. MATMUL_P1, the engines' bound, is checked in exact rationals against simulated engines that sum in
every order the rule admits.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    INTS,
    assert_same,
    ieee_context,
    raises_req,
    req,
    tensors,
    to_python,
    unchanged,
    wrapped,
)

from sonnx_spec import matmul
from sonnx_spec.accuracy import judge

NAN, INF = math.nan, math.inf


# -- the oracles ---------------------------------------------------------------------------------------------


def dot(a: list, b: list, dtype: np.dtype) -> int | float:
    """Σ a[k]·b[k] as MATMUL_S2 to MATMUL_S6 define it, for Python values of ``dtype``."""
    if dtype.kind in "iu":
        return wrapped(sum(x * y for x, y in zip(a, b, strict=True)), dtype)
    products = [(x, y) for x, y in zip(a, b, strict=True)]
    special = [x * y for x, y in products if not (math.isfinite(x) and math.isfinite(y))]  # IEEE's
    if any(math.isnan(p) for p in special) or {INF, -INF} <= set(special):
        return NAN
    if special:
        return special[0]
    exact = sum((Fraction(x) * Fraction(y) for x, y in products), Fraction(0))
    if exact == 0:
        every_negative = bool(products) and all(
            math.copysign(1, x) != math.copysign(1, y) for x, y in products
        )
        return -0.0 if every_negative else 0.0
    with ieee_context(dtype):
        return float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator)))


def expected(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Y element by element, by :func:`dot` over Python's indexing."""
    out = np.empty((*A.shape[:-1], B.shape[-1]), A.dtype)
    for index in np.ndindex(out.shape):
        *batch, i, j = index
        row = [to_python(v) for v in A[(*batch, i)]]
        column = [to_python(B[(*batch, k, j)]) for k in range(B.shape[-2])]
        out[index] = dot(row, column, A.dtype)
    return out


@st.composite
def operands(draw: st.DrawFn, dtype: np.dtype, max_batch: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """A (…, m, n) and B (…, n, p) of ``dtype`` with one batch shape, any values (any bit pattern)."""
    batch = tuple(draw(st.lists(st.integers(0, 3), max_size=max_batch)))
    m, n, p = (draw(st.integers(0, 4)) for _ in range(3))
    return draw(tensors(dtype, (*batch, m, n))), draw(tensors(dtype, (*batch, n, p)))


def values(dtype: np.dtype, rows: list) -> np.ndarray:
    return np.array(rows, dtype=dtype)


def column(dtype: np.dtype, n: int) -> np.ndarray:
    return np.ones((n, 1), dtype)


# -- constraints ---------------------------------------------------------------------------------------------


@req("MATMUL_C1")
@ALL
def test_C1_a_vector_or_a_scalar_is_refused(dtype: np.dtype) -> None:
    matrix = np.ones((3, 3), dtype)
    for low in (np.ones(3, dtype), np.ones((), dtype)):
        for A, B, name in ((low, matrix, "A"), (matrix, low, "B")):
            with raises_req("MATMUL_C1") as info:
                matmul(A, B)
            assert (info.value.operator, info.value.tensor) == ("matmul", name)
            assert info.value.problem == (
                f"matmul: {name} has rank {low.ndim}; MatMul takes matrices (rank 2) or stacks of them"
                " (rank 3 or more): a vector is made a matrix by Unsqueeze or Reshape first"
            )


@req("MATMUL_C2")
@ALL
def test_C2_batch_axes_are_not_broadcast(dtype: np.dtype) -> None:
    # Each pair is one numpy's matmul broadcasts; the profile refuses it.
    pairs = [((2, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((2, 1, 2, 3), (2, 5, 3, 4)), ((1, 2, 3), (4, 3, 2))]
    for a, b in pairs:
        A, B = np.ones(a, dtype), np.ones(b, dtype)
        np.broadcast_shapes(a[:-2], b[:-2])  # numpy would broadcast them
        with raises_req("MATMUL_C2") as info:
            matmul(A, B)
        assert (info.value.operator, info.value.tensor) == ("matmul", "B")
        assert info.value.problem == (
            f"matmul: A has shape {a} and B {b}: their batch axes (all but the last two) differ;"
            " MatMul does not broadcast them"
        )


@req("MATMUL_C3")
@ALL
def test_C3_the_columns_of_A_are_the_rows_of_B(dtype: np.dtype) -> None:
    for a, b in (((2, 3), (2, 3)), ((2, 3), (4, 2)), ((5, 2, 3), (5, 2, 3)), ((1, 0), (1, 1))):
        with raises_req("MATMUL_C3") as info:
            matmul(np.ones(a, dtype), np.ones(b, dtype))
        assert (info.value.operator, info.value.tensor) == ("matmul", "B")
        assert info.value.problem == f"matmul: A has {a[-1]} columns and B {b[-2]} rows (shapes {a} and {b})"


@req("MATMUL_C4", "MATMUL_C5")
@ALL
@given(data=st.data())
def test_C4_C5_shape_and_type_of_Y(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(operands(dtype, max_batch=3))
    Y = matmul(A, B)
    assert Y.shape == (*A.shape[:-1], B.shape[-1])
    assert Y.dtype == dtype


# -- semantics -----------------------------------------------------------------------------------------------


@req("MATMUL_S1", "MATMUL_S2", "MATMUL_S3", "MATMUL_S4", "MATMUL_S5", "MATMUL_S6")
@ALL
@settings(max_examples=60)
@given(data=st.data())
def test_S1_every_element_is_the_sum_of_products_in_every_type(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(operands(dtype))
    inputs_unchanged = unchanged(A, B)
    Y = matmul(A, B)
    inputs_unchanged()
    assert not np.shares_memory(Y, A) and not np.shares_memory(Y, B)
    assert_same(Y, expected(A, B))


@req("MATMUL_S1")
@ALL
def test_S1_the_drafts_examples(dtype: np.dtype) -> None:
    A, B = values(dtype, [[1, 2], [3, 4]]), values(dtype, [[5, 6], [7, 8]])
    assert matmul(A, B).tolist() == [[19, 22], [43, 50]]
    A, B = values(dtype, [[1, 2], [3, 4], [5, 6]]), values(dtype, [[7, 8, 9], [10, 11, 12]])
    assert matmul(A, B).tolist() == [[27, 30, 33], [61, 68, 75], [95, 106, 117]]


@req("MATMUL_S1")
@ALL
def test_S1_each_matrix_of_a_stack_is_multiplied_by_its_own(dtype: np.dtype) -> None:
    A = values(dtype, [[[1, 0], [0, 1]], [[2, 1], [1, 1]]])
    B = values(dtype, [[[3], [4]], [[5], [6]]])
    assert matmul(A, B).tolist() == [[[3], [4]], [[16], [11]]]


@req("MATMUL_S2")
@INTS
def test_S2_the_sum_wraps_modulo_2n_whatever_its_partial_sums(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    high, low, n = int(info.max), int(info.min), 8 * dtype.itemsize
    A = values(dtype, [[high, high, 0], [high, 1, 0], [high, high, high]])
    B = values(dtype, [[1], [1], [1]])
    # high + high overflows; 3·high modulo 2^n; high + 1 is low (signed) or 0 (unsigned).
    expected_sums = [wrapped(2 * high, dtype), wrapped(high + 1, dtype), wrapped(3 * high, dtype)]
    assert matmul(A, B).ravel().tolist() == expected_sums
    if low:  # signed: a partial sum out of range, a final one in range
        A = values(dtype, [[high, high, -high], [low, -1, 1]])
        assert matmul(A, column(dtype, 3)).ravel().tolist() == [high, low]
    big = values(dtype, [[2 ** (n // 2)]])
    assert matmul(big, big).tolist() == [[wrapped(2**n, dtype)]] == [[0]]


@req("MATMUL_S2")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S2_64_bit_sums_are_exact_where_a_double_is_not(dtype: np.dtype) -> None:
    A = values(dtype, [[2**32 + 1, 2**31 + 1, 1]])
    B = values(dtype, [[2**32 - 1], [2**31 + 3], [2**53 + 1]])
    exact = (2**64 - 1) + (2**62 + 2**33 + 3) + (2**53 + 1)
    assert matmul(A, B).tolist() == [[wrapped(exact, dtype)]]


@req("MATMUL_S3")
def test_S3_the_cancellation_example_is_exactly_1_in_float32() -> None:
    A = np.array([[1e8, 1.0, -1e8]], np.float32)
    B = np.ones((3, 1), np.float32)
    assert matmul(A, B).tolist() == [[1.0]]
    naive = np.float32(0)
    for a in A[0]:  # left to right in float32: 1e8 + 1 is 1e8
        naive = np.float32(naive + a)
    assert naive == 0.0


@req("MATMUL_S3")
@FLOATS
def test_S3_cancellation_in_every_type(dtype: np.dtype) -> None:
    big = float(ml_dtypes.finfo(dtype).max) / 4
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = values(dtype, [[big, 1.0, -big], [2.0, tiny, -2.0], [big, big, -big], [-big, tiny, big]])
    assert_same(matmul(A, column(dtype, 3)), values(dtype, [[1.0], [tiny], [big], [tiny]]))


@req("MATMUL_S3")
@FLOATS
def test_S3_ties_go_to_even_and_one_small_term_decides(dtype: np.dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = values(
        dtype, [[1.0, eps / 2, 0.0], [1.0, eps / 2, tiny], [1.0, eps / 2, -tiny], [1 + eps, eps / 2, 0.0]]
    )
    # 1 + eps/2 is a tie: to 1 (even); tiny above it: up; tiny below it: down; 1 + 3eps/2: to 1 + 2eps.
    assert_same(matmul(A, column(dtype, 3)), values(dtype, [[1.0], [1 + eps], [1.0], [1 + 2 * eps]]))


@req("MATMUL_S3")
@FLOATS
def test_S3_subnormal_results_are_kept(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    normal, tiny = float(info.smallest_normal), float(info.smallest_subnormal)
    A = values(dtype, [[normal, 0.0], [3 * tiny, 0.0], [tiny, tiny], [normal, -normal], [tiny, 0.0]])
    halves = values(dtype, [[0.5], [0.5]])
    # normal/2, a subnormal, exact; 3tiny/2 a tie: to 2tiny (even); tiny/2 + tiny/2 = tiny exactly, though
    # each product alone would round to 0; normal/2 − normal/2 = +0; tiny/2 a tie: to +0 (even).
    wanted = values(dtype, [[normal / 2], [2 * tiny], [tiny], [0.0], [0.0]])
    assert_same(matmul(A, halves), wanted)


@req("MATMUL_S3")
@FLOATS
def test_S3_overflow_is_decided_by_the_exact_sum(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    A = values(dtype, [[top, top, 0.0], [top, top, -top], [-top, -top, 1.0], [top, 2.0, -top]])
    assert_same(matmul(A, column(dtype, 3)), values(dtype, [[INF], [top], [-INF], [2.0]]))


@req("MATMUL_S3")
def test_S3_float64_sums_are_exact_beyond_any_double_accumulator() -> None:
    A = np.array([[1.0, 2.0**-60, -1.0, 2.0**-120, 2.0**-1074]])
    Y = matmul(A, np.ones((5, 1)))
    assert Y.tolist() == [[2.0**-60 + 2.0**-120]]  # exact in float64: the tiny terms below its precision
    A = np.array([[1.0, 2.0**-53, 2.0**-1074]])  # 1 + u is a tie; the subnormal breaks it upward
    assert matmul(A, np.ones((3, 1))).tolist() == [[1.0 + 2.0**-52]]


@req("MATMUL_S4")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ([INF, 1.0], [0.0, 5.0], NAN),
        ([0.0, 2.0], [-INF, 1.0], NAN),
        ([NAN, 0.0], [0.0, 0.0], NAN),
        ([1.0, 1.0], [NAN, 0.0], NAN),
        ([INF, 1.0], [-2.0, 3.0], -INF),
        ([-INF, -1.0], [-INF, 3.0], INF),
        ([INF, 1.0], [1.0, INF], INF),
        ([INF, -1.0], [1.0, INF], NAN),
        ([-INF, 2.0], [2.0, -INF], -INF),
        ([INF, -INF], [-1.0, 1.0], -INF),
    ],
)
def test_S4_nan_and_infinities(dtype: np.dtype, a: list, b: list, result: float) -> None:
    Y = matmul(values(dtype, [a]), values(dtype, b).reshape(2, 1))
    assert_same(Y, values(dtype, [[result]]))


@req("MATMUL_S4")
@FLOATS
def test_S4_the_drafts_examples_with_nan_and_infinities(dtype: np.dtype) -> None:
    A = values(dtype, [[INF, -INF, NAN], [NAN, INF, -INF]])
    B = values(dtype, [[1.0, 2.0], [4.0, 5.0], [7.0, 8.0]])
    assert np.isnan(matmul(A, B).astype(np.float64)).all()
    A = values(dtype, [[INF, INF], [NAN, INF]])
    B = values(dtype, [[1.0, 2.0, 3.0, 4.0], [4.0, 5.0, 6.0, 7.0]])
    assert_same(matmul(A, B), values(dtype, [[INF] * 4, [NAN] * 4]))


@req("MATMUL_S5")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ([-0.0, 0.0], [1.0, -1.0], -0.0),
        ([-0.0, 0.0], [1.0, 1.0], 0.0),
        ([-0.0, -0.0], [-0.0, 0.0], 0.0),
        ([3.0, -3.0], [1.0, 1.0], 0.0),
        ([-3.0, 3.0], [1.0, 1.0], 0.0),
        ([-1.0, -0.0], [0.0, 2.0], -0.0),
    ],
)
def test_S5_the_sign_of_an_exact_zero(dtype: np.dtype, a: list, b: list, result: float) -> None:
    Y = matmul(values(dtype, [a]), values(dtype, b).reshape(2, 1))
    assert_same(Y, values(dtype, [[result]]))


@req("MATMUL_S5")
@FLOATS
def test_S5_products_too_small_for_the_type_keep_the_sign_of_their_exact_sum(dtype: np.dtype) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = values(dtype, [[-tiny, -tiny], [-tiny, tiny]])
    B = values(dtype, [[tiny], [tiny]])
    # −2tiny² rounds to −0 (a non-zero exact sum, rounded); tiny² − tiny² is exactly 0: +0.
    assert_same(matmul(A, B), values(dtype, [[-0.0], [0.0]]))


@req("MATMUL_S6")
@ALL
def test_S6_empty_sums_and_empty_results(dtype: np.dtype) -> None:
    Y = matmul(np.ones((2, 0), dtype), np.ones((0, 3), dtype))
    assert Y.shape == (2, 3) and Y.dtype == dtype
    assert_same(Y, np.zeros((2, 3), dtype))  # +0 for floating point
    assert matmul(np.ones((4, 0, 2), dtype), np.ones((4, 2, 3), dtype)).shape == (4, 0, 3)
    assert matmul(np.ones((0, 2, 2), dtype), np.ones((0, 2, 5), dtype)).shape == (0, 2, 5)
    assert matmul(np.ones((2, 2), dtype), np.ones((2, 0), dtype)).shape == (2, 0)


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float32)], ids=["int8", "float32"])
def test_a_result_too_large_for_memory_is_refused(dtype: np.dtype) -> None:
    ones = np.broadcast_to(np.ones((1, 1), dtype), (2**31, 1))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        matmul(ones, ones.T)
    assert info.value.problem == (
        f"matmul: a result of shape (2147483648, 2147483648) and type {dtype} does not fit in this machine's"
        " memory"
    )


# -- MATMUL_P1: the engines' bound ---------------------------------------------------------------------------


def unit(dtype: np.dtype) -> Fraction:
    return Fraction(1, 2 ** (ml_dtypes.finfo(dtype).nmant + 1))


def eta(dtype: np.dtype) -> Fraction:
    return Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal)) / 2


def within_bound(a: list[float], b: list[float], engine: float, dtype: np.dtype) -> bool:
    """MATMUL_P1 for one element, in exact rationals: the engine's result meets the rule."""
    n = len(a)
    if not all(math.isfinite(x) for x in a + b):
        return math.isnan(engine) if math.isnan(dot(a, b, dtype)) else engine == dot(a, b, dtype)
    products = [Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True)]
    exact, magnitudes = sum(products, Fraction(0)), sum(map(abs, products), Fraction(0))
    if magnitudes == 0:
        return engine == 0
    u = unit(dtype)
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    if 2 * (n + 1) * u > 1 or (1 + gamma) * magnitudes > Fraction(float(ml_dtypes.finfo(dtype).max)):
        return True
    if not math.isfinite(engine):
        return False
    return abs(Fraction(engine) - exact) <= gamma * magnitudes + 2 * (n + 1) * eta(dtype)


def engine_sum(a: list[float], b: list[float], dtype: np.dtype, order: list[int], wide: np.dtype) -> float:
    """An engine the rule admits: products rounded to the accumulator ``wide`` (at least as precise and
    wide as ``dtype``), summed left to right in ``order``, each sum rounded to ``wide``, the total rounded
    once to ``dtype``."""
    total = np.zeros((), wide)[()]
    with np.errstate(all="ignore"):
        for k in order:
            product = (np.array(a[k], wide) * np.array(b[k], wide))[()]
            total = (np.array(total, wide) + product)[()]
        return float(np.array(total, wide).astype(dtype))


def pairwise(terms: list) -> object:
    """A tree of sums: how a blocked or vectorised kernel adds."""
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i] for i in range(0, len(terms), 2)]
    return terms[0]


@req("MATMUL_P1")
@FLOATS
@pytest.mark.parametrize("seed", range(4))
def test_P1_every_admitted_order_and_accumulator_meets_the_bound(dtype: np.dtype, seed: int) -> None:
    rng = random.Random(seed)
    accumulators = [
        t for t in (dtype, np.dtype(np.float32), np.dtype(np.float64)) if t.itemsize >= dtype.itemsize
    ]
    for _ in range(30):
        n = rng.randint(1, 24)
        normal = float(ml_dtypes.finfo(dtype).smallest_normal)
        scale = [  # magnitudes from 2^-8 to 2^8, some about the smallest normal value: underflow
            normal * 2.0 ** rng.randint(-3, 3) if rng.random() < 0.2 else 2.0 ** rng.randint(-8, 8)
            for _ in range(n)
        ]
        a = [float(np.array(rng.gauss(0, 1) * s, dtype)) for s in scale]
        b = [float(np.array(rng.gauss(0, 1), dtype)) for _ in range(n)]
        if rng.random() < 0.5:  # cancellation: a pair of terms that cancel, a small one between
            a[0], b[0], a[-1], b[-1] = a[-1], b[-1], -a[-1], b[-1]
        for wide in accumulators:
            order = list(range(n))
            rng.shuffle(order)
            assert within_bound(a, b, engine_sum(a, b, dtype, order, wide), dtype)
        tree = pairwise([np.array(x, dtype) * np.array(y, dtype) for x, y in zip(a, b, strict=True)])
        assert within_bound(a, b, float(np.asarray(tree, dtype)), dtype)
        assert within_bound(a, b, dot(a, b, dtype), dtype)  # the reference's result


@req("MATMUL_P1")
@FLOATS
def test_P1_the_bound_admits_the_naive_sum_of_the_cancellation_and_refuses_more(dtype: np.dtype) -> None:
    big = float(np.array(2.0**10, dtype))
    a, b = [big, 1.0, -big], [1.0, 1.0, 1.0]
    naive = engine_sum(a, b, dtype, [0, 1, 2], dtype)
    assert within_bound(a, b, naive, dtype)  # 0 or 1 whatever the type: both within γ₄·(2·big + 1)
    u = unit(dtype)
    bound = 4 * u / (1 - 4 * u) * (2 * big + 1) + 8 * eta(dtype)
    beyond = float(np.array(float(1 + 2 * bound), dtype))
    assert Fraction(beyond) - 1 > bound
    assert not within_bound(a, b, beyond, dtype)
    assert not within_bound(a, b, NAN, dtype) and not within_bound(a, b, INF, dtype)


@req("MATMUL_P1")
@FLOATS
def test_P1_zero_sums_special_values_and_overflow(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    assert within_bound([0.0, -0.0], [1.0, 1.0], 0.0, dtype) and within_bound([0.0], [-1.0], 0.0, dtype)
    assert not within_bound([0.0], [1.0], float(ml_dtypes.finfo(dtype).smallest_subnormal), dtype)
    assert within_bound([INF, 1.0], [1.0, 1.0], INF, dtype) and not within_bound([INF], [1.0], top, dtype)
    assert within_bound([NAN], [1.0], NAN, dtype) and not within_bound([INF], [0.0], 0.0, dtype)
    assert within_bound([top, top, -top], [1.0, 1.0, 1.0], NAN, dtype)  # S⁺ overflows: any value


# -- MATMUL_P2 ---------------------------------------------------------------------------------------------


@req("MATMUL_P2")
@ALL
@given(data=st.data())
def test_P2_the_transpose_of_the_product_is_the_product_of_the_transposes(
    dtype: np.dtype, data: st.DataObject
) -> None:
    A, B = data.draw(operands(dtype))
    left = np.swapaxes(matmul(A, B), -1, -2)
    right = matmul(np.swapaxes(B, -1, -2).copy(), np.swapaxes(A, -1, -2).copy())
    assert_same(left, right)


@req("MATMUL_P1")
@FLOATS
def test_P1_the_declared_bound_agrees_with_the_rule_in_exact_rationals(dtype: np.dtype) -> None:
    """The bound engines are judged by (sonnx-spec compare --by-node, the suite) says "outside" only where
    the rule, in exact rationals, is broken, and "conforms" only where it is met; undecided elsewhere."""
    rng = random.Random(7)
    verdicts = set()
    for _ in range(60):
        n = rng.randint(1, 12)
        a = [float(np.array(rng.gauss(0, 1) * 2.0 ** rng.randint(-6, 6), dtype)) for _ in range(n)]
        b = [float(np.array(rng.gauss(0, 1), dtype)) for _ in range(n)]
        A, B = np.array([a], dtype), np.array([b], dtype).T
        reference = matmul(A, B)
        exact = dot(a, b, dtype)
        engines = [np.array([[exact]], dtype)]
        for sign in (1, -1):  # 1 to 3 steps of the type from the exact sum, or 1/16 of it
            engine = engines[0]
            for _ in range(3):
                engine = np.nextafter(engine, np.array(sign * np.inf, dtype))
                engines.append(engine)
            engines.append(np.array([[exact * (1 + sign / 16)]], dtype))
        for engine in engines:
            judged = judge("matmul", engine, reference, [A, B])
            verdicts.add(judged.verdict)
            within = within_bound(a, b, float(engine[0, 0]), dtype)
            assert judged.rule == "MATMUL_P1"
            assert judged.verdict != "outside" or not within
            assert judged.verdict != "conforms" or within
    assert verdicts >= {"conforms", "outside"}
    zeros = np.array([[0.0, 1.0]], dtype), np.array([[0.0], [0.0]], dtype)
    assert judge("matmul", np.array([[-0.0]], dtype), matmul(*zeros), zeros).verdict == "conforms"
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    # η and the margin are float64 numbers: for float64 both are 2⁻¹⁰⁷⁵, 0 in float64, and it is decided
    undecided = "outside" if dtype == np.float64 else "undecided"
    assert judge("matmul", np.array([[tiny]], dtype), matmul(*zeros), zeros).verdict == undecided
    assert judge("matmul", np.array([[-2 * tiny]], dtype), matmul(*zeros), zeros).verdict == "outside"


def rule_bound(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """γₙ₊₁·S⁺ + 2(n + 1)·η of every element, in exact rationals (an array of Fractions)."""
    u, n = unit(A.dtype), A.shape[-1]
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    out = np.empty((*A.shape[:-1], B.shape[-1]), object)
    for index in np.ndindex(out.shape):
        *batch, i, j = index
        row, column = A[(*batch, i)], B[(*batch, slice(None), j)]
        magnitudes = sum(
            (abs(Fraction(float(x)) * Fraction(float(y))) for x, y in zip(row, column, strict=True))
        )
        out[index] = gamma * magnitudes + 2 * (n + 1) * eta(A.dtype)
    return out


def dyadic(rng: np.random.Generator, shape: tuple[int, ...], scale: int, dtype: np.dtype) -> np.ndarray:
    """Integers from −8 to 8 times 2^scale: values of every float type, whose products and sums of up to 64
    products float64 holds exactly, so that the bound's S⁺ is exact."""
    return np.ldexp(rng.integers(-8, 9, shape).astype(np.float64), scale).astype(dtype)


@req("MATMUL_P1")
@FLOATS
@pytest.mark.parametrize("tiny", [False, True], ids=["S+", "eta"])
def test_P1_the_judging_bound_is_the_rule_s_widened_by_4_n_plus_1_float64_units(
    dtype: np.dtype, tiny: bool
) -> None:
    """The bound engines are judged by, against the rule's in exact rationals, where float64 sums S⁺ exactly:
    at least the rule's, and above it by the 4(n + 1) float64 units of S⁺ its docstring states, to 8 units of
    its own float64 rounding. Products near the smallest subnormal make 2(n + 1)·η the greater term (not for
    float64, whose η is below float64's own smallest subnormal)."""
    from sonnx_spec.ops.matmul import engine_error

    if tiny and dtype == np.float64:
        return
    rng = np.random.default_rng(5)
    n = 64
    exponent = int(math.log2(float(ml_dtypes.finfo(dtype).smallest_subnormal))) if tiny else 0
    A = dyadic(rng, (2, 3, n), exponent // 2, dtype)  # batched: n is the last axis, not the second
    B = dyadic(rng, (2, n, 4), exponent - exponent // 2, dtype)
    error = engine_error(matmul(A, B), A, B)
    rule = rule_bound(A, B)
    k, float64_unit = n + 1, Fraction(1, 2**53)
    for index in np.ndindex(error.shape):
        bound = Fraction(float(error[index]))
        assert bound >= rule[index], index
        stated = rule[index] + (rule[index] - 2 * k * eta(dtype)) * 4 * k * float64_unit
        assert abs(bound - stated) <= 8 * float64_unit * stated, (index, float(bound), float(stated))


@req("MATMUL_P1")
def test_P1_the_bound_is_any_value_from_2_n_plus_1_u_above_1() -> None:
    """bfloat16 (u = 2⁻⁸): n = 127: 2(n + 1)·u = 1, still a bound (γ = 1); n = 128 passes 1: any value."""
    from sonnx_spec.ops.matmul import engine_error

    b = np.dtype(ml_dtypes.bfloat16)
    for n, finite in ((127, True), (128, False)):
        A, B = np.ones((2, n), b), np.ones((n, 3), b)
        error = engine_error(matmul(A, B), A, B)
        assert error.shape == (2, 3)
        assert np.all(np.isfinite(error)) == finite and np.all(np.isinf(error)) != finite, n
    assert float(engine_error(*(3 * [np.ones((1, 1), b)]))[0, 0]) == pytest.approx(
        1 / 127
    )  # γ₂ = 2u / (1 − 2u)


@req("MATMUL_P1")
@FLOATS
def test_P1_near_the_largest_value_the_bound_is_any_value(dtype: np.dtype) -> None:
    """Where (1 + γ)·S⁺ passes the type's largest value the rule bounds nothing (an engine may overflow);
    0.625 of it still has a bound. Infinite and zero factors (inf·0 in S⁺) and an S⁺ beyond float64's range
    give no warning."""
    from sonnx_spec.ops.matmul import engine_error

    big = float(ml_dtypes.finfo(dtype).max)
    A = np.array([[big / 2, big / 2], [big / 2, 0.0], [INF, 1.0]], dtype)
    B = np.array([[2.0], [1.25]], dtype).astype(dtype)
    Y = matmul(np.array([[0.0, 0.0]] * 3, dtype), B)  # Y's type and shape; the bound reads A and B only
    error = engine_error(Y, A, B)
    assert np.isinf(error[0, 0]) and error[0, 0] > 0  # S⁺ = 1.625·max (beyond float64's for float64)
    B2 = np.array([[1.25], [1.25]], dtype)
    error2 = engine_error(Y, A, B2)
    assert np.isfinite(error2[1, 0]) and error2[1, 0] > 0  # S⁺ = 0.625·max: (1 + γ)·S⁺ is below max
    A3 = np.array([[big, 0.0]], dtype)
    assert np.isinf(engine_error(Y[:1], A3, np.array([[1.0], [0.0]], dtype))[0, 0])  # (1 + γ)·max > max
    A4 = np.array([[INF, 1.0]], dtype)
    engine_error(Y[:1], A4, np.array([[0.0], [1.0]], dtype))  # inf·0 in S⁺: no warning (an error here)
