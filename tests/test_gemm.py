"""Gemm: one test (or more) per rule id, named after it.

The oracles are independent of numpy's kernels and of the reference's route: Python integers reduced
modulo 2^n for the integers; for the floating-point types, the exact sum of the exact products and of C's
element in fractions.Fraction, rounded once to the type by MPFR (gmpy2), with IEEE 754's special cases
written out here. GEMM_P1, the engines' bound, is checked in exact rationals against simulated engines
that sum in every order the rule admits, C added first, last or between.
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

from sonnx_spec import gemm, matmul
from sonnx_spec.accuracy import judge

NAN, INF = math.nan, math.inf
PLAIN = {"alpha_ab": 1.0, "beta_c": 1.0, "trans_a": 0, "trans_b": 0}


def call(A: np.ndarray, B: np.ndarray, C: np.ndarray) -> np.ndarray:
    return gemm(A, B, C, **PLAIN)


# -- the oracles ---------------------------------------------------------------------------------------------


def dot_plus(a: list, b: list, c: int | float, dtype: np.dtype) -> int | float:
    """Σ a[k]·b[k] + c as GEMM_S2 to GEMM_S6 define it, for Python values of ``dtype``."""
    if dtype.kind in "iu":
        return wrapped(sum(x * y for x, y in zip(a, b, strict=True)) + c, dtype)
    terms = [(x, y) for x, y in zip(a, b, strict=True)] + [(c, 1.0)]  # c is the product c·1
    special = [x * y for x, y in terms if not (math.isfinite(x) and math.isfinite(y))]  # IEEE's
    if any(math.isnan(p) for p in special) or {INF, -INF} <= set(special):
        return NAN
    if special:
        return special[0]
    exact = sum((Fraction(x) * Fraction(y) for x, y in terms), Fraction(0))
    if exact == 0:
        every_negative = all(math.copysign(1, x) != math.copysign(1, y) for x, y in terms)
        return -0.0 if every_negative else 0.0
    with ieee_context(dtype):
        return float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator)))


def expected(A: np.ndarray, B: np.ndarray, C: np.ndarray) -> np.ndarray:
    """Y element by element, by :func:`dot_plus` over Python's indexing."""
    out = np.empty((A.shape[0], B.shape[1]), A.dtype)
    for i, j in np.ndindex(out.shape):
        row = [to_python(v) for v in A[i]]
        column = [to_python(B[k, j]) for k in range(B.shape[0])]
        out[i, j] = dot_plus(row, column, to_python(C[i, j]), A.dtype)
    return out


@st.composite
def operands(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A (m, n), B (n, p) and C (m, p) of ``dtype``, any values (any bit pattern)."""
    m, n, p = (draw(st.integers(0, 4)) for _ in range(3))
    return draw(tensors(dtype, (m, n))), draw(tensors(dtype, (n, p))), draw(tensors(dtype, (m, p)))


def values(dtype: np.dtype, rows: list) -> np.ndarray:
    return np.array(rows, dtype=dtype)


def column(dtype: np.dtype, n: int) -> np.ndarray:
    return np.ones((n, 1), dtype)


# -- constraints ---------------------------------------------------------------------------------------------


@req("GEMM_C1")
@ALL
def test_C1_every_operand_is_a_matrix(dtype: np.dtype) -> None:
    matrix = np.ones((2, 2), dtype)
    for low in (np.ones(2, dtype), np.ones((), dtype), np.ones((1, 2, 2), dtype)):
        for position, name in enumerate("ABC"):
            operands = [matrix, matrix, matrix]
            operands[position] = low
            with raises_req("GEMM_C1") as info:
                call(*operands)
            assert (info.value.operator, info.value.tensor) == ("gemm", name)
            assert info.value.problem == f"gemm: {name} has shape {low.shape}, not rank 2"


@req("GEMM_C2")
@ALL
def test_C2_the_columns_of_A_are_the_rows_of_B(dtype: np.dtype) -> None:
    for a, b in (((2, 3), (2, 3)), ((2, 3), (4, 2)), ((1, 0), (1, 1)), ((1, 1), (0, 1))):
        with raises_req("GEMM_C2") as info:
            call(np.ones(a, dtype), np.ones(b, dtype), np.ones((a[0], b[1]), dtype))
        assert (info.value.operator, info.value.tensor) == ("gemm", "B")
        assert info.value.problem == f"gemm: A has {a[1]} columns and B {b[0]} rows (shapes {a} and {b})"


@req("GEMM_C3")
@ALL
def test_C3_C_is_not_broadcast(dtype: np.dtype) -> None:
    A, B = np.ones((2, 3), dtype), np.ones((3, 4), dtype)
    for c in ((1, 4), (2, 1), (1, 1), (4, 2), (2, 5), (0, 4)):
        with raises_req("GEMM_C3") as info:
            call(A, B, np.ones(c, dtype))
        assert (info.value.operator, info.value.tensor) == ("gemm", "C")
        assert info.value.problem == (
            f"gemm: C has shape {c}, not A·B's (2, 4): Gemm does not broadcast C; a model makes the broadcast"
            " explicit with Expand"
        )


@req("GEMM_C4", "GEMM_C7")
@ALL
@given(data=st.data())
def test_C4_C7_shape_and_type_of_Y(dtype: np.dtype, data: st.DataObject) -> None:
    A, B, C = data.draw(operands(dtype))
    Y = call(A, B, C)
    assert Y.shape == (A.shape[0], B.shape[1]) == C.shape
    assert Y.dtype == dtype


@req("GEMM_C5")
@pytest.mark.parametrize("dtype", [np.dtype(np.int32), np.dtype(np.float32)], ids=["int32", "float32"])
@pytest.mark.parametrize(
    ("name", "onnx_name", "operand"), [("alpha_ab", "alpha", "A·B"), ("beta_c", "beta", "C")]
)
@pytest.mark.parametrize("value", [2.0, 0.0, -1.0, 0.5, NAN, INF, 1.0000001])
def test_C5_alpha_and_beta_are_1(
    dtype: np.dtype, name: str, onnx_name: str, operand: str, value: float
) -> None:
    ones = np.ones((1, 1), dtype)
    with raises_req("GEMM_C5") as info:
        gemm(ones, ones, ones, **{**PLAIN, name: value})
    assert (info.value.operator, info.value.tensor) == ("gemm", name)
    assert info.value.problem == (
        f"gemm: {onnx_name} is {value!r}; the profile's Gemm takes {onnx_name} = 1.0 only: a model scales"
        f" {operand} by a Mul node of its own"
    )
    assert call(ones, ones, ones).tolist() == [[2]]  # 1.0 itself is taken


@req("GEMM_C6")
@pytest.mark.parametrize("dtype", [np.dtype(np.int32), np.dtype(np.float32)], ids=["int32", "float32"])
@pytest.mark.parametrize(
    ("name", "onnx_name", "operand"), [("trans_a", "transA", "A"), ("trans_b", "transB", "B")]
)
@pytest.mark.parametrize("value", [1, -1, 2])
def test_C6_transA_and_transB_are_0(
    dtype: np.dtype, name: str, onnx_name: str, operand: str, value: int
) -> None:
    square = np.ones((2, 2), dtype)  # transposed or not, the shapes fit: only the attribute is refused
    with raises_req("GEMM_C6") as info:
        gemm(square, square, square, **{**PLAIN, name: value})
    assert (info.value.operator, info.value.tensor) == ("gemm", name)
    assert info.value.problem == (
        f"gemm: {onnx_name} is {value!r}; the profile's Gemm takes {onnx_name} = 0 only: a model transposes"
        f" {operand} by a Transpose node (perm = [1, 0]) of its own"
    )


@req("GEMM_C5", "GEMM_C6")
def test_C5_C6_the_attributes_are_checked_before_the_shapes_alpha_first() -> None:
    A, B, C = np.ones((2, 3)), np.ones((2, 3)), np.ones((1, 1))  # GEMM_C2 and GEMM_C3 would refuse them
    with raises_req("GEMM_C5") as info:
        gemm(A, B, C, alpha_ab=2.0, beta_c=2.0, trans_a=1, trans_b=1)
    assert info.value.tensor == "alpha_ab"
    with raises_req("GEMM_C5") as info:
        gemm(A, B, C, alpha_ab=1.0, beta_c=2.0, trans_a=1, trans_b=1)
    assert info.value.tensor == "beta_c"
    with raises_req("GEMM_C6") as info:
        gemm(A, B, C, alpha_ab=1.0, beta_c=1.0, trans_a=1, trans_b=1)
    assert info.value.tensor == "trans_a"
    with raises_req("GEMM_C6") as info:
        gemm(A, B, C, alpha_ab=1.0, beta_c=1.0, trans_a=0, trans_b=1)
    assert info.value.tensor == "trans_b"
    with raises_req("GEMM_C2"):
        call(A, B, C)


# -- semantics -----------------------------------------------------------------------------------------------


@req("GEMM_S1", "GEMM_S2", "GEMM_S3", "GEMM_S4", "GEMM_S5", "GEMM_S6")
@ALL
@settings(max_examples=60)
@given(data=st.data())
def test_S1_every_element_is_the_sum_of_products_plus_C_in_every_type(
    dtype: np.dtype, data: st.DataObject
) -> None:
    A, B, C = data.draw(operands(dtype))
    inputs_unchanged = unchanged(A, B, C)
    Y = call(A, B, C)
    inputs_unchanged()
    assert not any(np.shares_memory(Y, X) for X in (A, B, C))
    assert_same(Y, expected(A, B, C))


@req("GEMM_S1")
@ALL
def test_S1_the_pages_examples(dtype: np.dtype) -> None:
    A, B, C = (
        values(dtype, [[1, 2], [3, 4]]),
        values(dtype, [[5, 6], [7, 8]]),
        values(dtype, [[1, 0], [2, 1]]),
    )
    assert call(A, B, C).tolist() == [[20, 22], [45, 51]]
    A, B = values(dtype, [[1, 2], [3, 4], [5, 6]]), values(dtype, [[7, 8, 9], [10, 11, 12]])
    C = values(dtype, [[1, 1, 1], [2, 2, 2], [0, 0, 0]])
    assert call(A, B, C).tolist() == [[28, 31, 34], [63, 70, 77], [95, 106, 117]]


@req("GEMM_S2")
@INTS
def test_S2_the_sum_wraps_modulo_2n_whatever_its_partial_sums(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    high, low, n = int(info.max), int(info.min), 8 * dtype.itemsize
    A = values(dtype, [[high, high], [high, 0], [0, 0]])
    B = values(dtype, [[1], [1]])
    C = values(dtype, [[high], [1], [high]])
    # 3·high modulo 2^n; high + 1 is low (signed) or 0 (unsigned); C alone.
    assert call(A, B, C).ravel().tolist() == [wrapped(3 * high, dtype), wrapped(high + 1, dtype), high]
    if low:  # signed: a partial sum out of range, the final one in range, C bringing it back
        A = values(dtype, [[high, high], [low, -1]])
        C = values(dtype, [[-high], [1]])
        assert call(A, column(dtype, 2), C).ravel().tolist() == [high, low]
    big = values(dtype, [[2 ** (n // 2)]])
    assert call(big, big, values(dtype, [[1]])).tolist() == [[wrapped(2**n + 1, dtype)]] == [[1]]


@req("GEMM_S2")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S2_64_bit_sums_are_exact_where_a_double_is_not(dtype: np.dtype) -> None:
    A = values(dtype, [[2**32 + 1, 2**31 + 1]])
    B = values(dtype, [[2**32 - 1], [2**31 + 3]])
    C = values(dtype, [[2**53 + 1]])
    exact = (2**64 - 1) + (2**62 + 2**33 + 3) + (2**53 + 1)
    assert call(A, B, C).tolist() == [[wrapped(exact, dtype)]]
    assert call(
        values(dtype, [[4294967297]]), values(dtype, [[4294967295]]), values(dtype, [[1]])
    ).tolist() == [[0]]


@req("GEMM_S3")
def test_S3_the_cancellation_example_is_exactly_1_in_float32() -> None:
    A = np.array([[1e8, 1.0]], np.float32)
    C = np.array([[-1e8]], np.float32)
    assert call(A, np.ones((2, 1), np.float32), C).tolist() == [[1.0]]
    product = np.float32(np.float32(1e8) + np.float32(1.0))  # the product first, in float32: 1e8
    assert np.float32(product + C[0, 0]) == 0.0


@req("GEMM_S3")
@FLOATS
def test_S3_one_rounding_not_two(dtype: np.dtype) -> None:
    """1 + eps/2 is a tie, rounded to 1; with C = eps/4 the exact sum is above it: 1 + eps. MatMul then Add
    (two roundings) gives 1."""
    eps = float(ml_dtypes.finfo(dtype).eps)
    A, B, C = values(dtype, [[1.0, eps / 2]]), column(dtype, 2), values(dtype, [[eps / 4]])
    assert_same(call(A, B, C), values(dtype, [[1 + eps]]))
    twice = (matmul(A, B).astype(np.float64) + C.astype(np.float64)).astype(dtype)  # exact, rounded again
    assert_same(twice, values(dtype, [[1.0]]))
    assert_same(call(A, B, -C), values(dtype, [[1.0]]))  # below the tie: down


@req("GEMM_S3")
@FLOATS
@pytest.mark.parametrize("n", [1, 2])
def test_S3_a_tie_of_the_products_that_only_C_breaks(dtype: np.dtype, n: int) -> None:
    """(1 + 2⁻ⁱ)(1 + 2⁻ʲ) with i + j = p, the type's precision, is 1 + 2⁻ⁱ + 2⁻ʲ + 2⁻ᵖ: a tie between two
    values of the type. C = ± the smallest subnormal breaks it, far below any float64 sum's precision: the
    result is the value above or below, never the even one a float64 evaluation would give. With n = 2 a
    zero product is added."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    i, j = p // 2, p - p // 2
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    a, b = 1 + 2.0**-i, 1 + 2.0**-j
    A, B = values(dtype, [[a, 0.0][:n]]), values(dtype, [[b], [3.0]][:n])
    below, above = 1 + 2.0**-i + 2.0**-j, 1 + 2.0**-i + 2.0**-j + 2.0 ** (1 - p)
    assert Fraction(a) * Fraction(b) == (Fraction(below) + Fraction(above)) / 2  # the tie
    assert_same(call(A, B, values(dtype, [[tiny]])), values(dtype, [[above]]))
    assert_same(call(A, B, values(dtype, [[-tiny]])), values(dtype, [[below]]))
    # With C = +0 the tie goes to the even one: below, whose last bit, 2⁻ʲ·2ʲ⁻¹ of the unit 2¹⁻ᵖ, is 0.
    assert_same(call(A, B, values(dtype, [[0.0]])), values(dtype, [[below]]))


@req("GEMM_S3")
@FLOATS
def test_S3_cancellation_against_C_in_every_type(dtype: np.dtype) -> None:
    big = float(ml_dtypes.finfo(dtype).max) / 4
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = values(dtype, [[big, 1.0], [2.0, tiny], [big, big], [-big, tiny]])
    C = values(dtype, [[-big], [-2.0], [-big], [big]])
    assert_same(call(A, column(dtype, 2), C), values(dtype, [[1.0], [tiny], [big], [tiny]]))


@req("GEMM_S3")
@FLOATS
def test_S3_subnormal_results_are_kept(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    normal, tiny = float(info.smallest_normal), float(info.smallest_subnormal)
    A = values(dtype, [[normal], [3 * tiny], [tiny], [normal], [tiny]])
    half = values(dtype, [[0.5]])
    C = values(dtype, [[0.0], [0.0], [0.0], [-normal / 2], [tiny]])
    # normal/2 exact; 3tiny/2 a tie: to 2tiny (even); tiny/2 a tie: to +0 (even); normal/2 − normal/2 = +0;
    # tiny/2 + tiny = 3tiny/2, a tie: to 2tiny.
    wanted = values(dtype, [[normal / 2], [2 * tiny], [0.0], [0.0], [2 * tiny]])
    assert_same(call(A, half, C), wanted)


@req("GEMM_S3")
@FLOATS
def test_S3_overflow_is_decided_by_the_exact_sum(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    A = values(dtype, [[top, top], [top, top], [-top, -top], [top, 2.0]])
    C = values(dtype, [[0.0], [-top], [1.0], [-top]])
    assert_same(call(A, column(dtype, 2), C), values(dtype, [[INF], [top], [-INF], [2.0]]))
    assert_same(
        call(values(dtype, [[top]]), values(dtype, [[1.0]]), values(dtype, [[top]])), values(dtype, [[INF]])
    )


@req("GEMM_S3")
def test_S3_float64_sums_are_exact_beyond_any_double_accumulator() -> None:
    A = np.array([[1.0, 2.0**-60, 2.0**-120, 2.0**-1074]])
    Y = call(A, np.ones((4, 1)), np.array([[-1.0]]))
    assert Y.tolist() == [[2.0**-60 + 2.0**-120]]  # exact in float64: the tiny terms below its precision
    A = np.array([[1.0, 2.0**-53]])  # 1 + u is a tie; C's subnormal breaks it upward
    assert call(A, np.ones((2, 1)), np.array([[2.0**-1074]])).tolist() == [[1.0 + 2.0**-52]]


@req("GEMM_S4")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "c", "result"),
    [
        ([1.0, 2.0], [1.0, 1.0], NAN, NAN),
        ([INF, 1.0], [0.0, 5.0], 1.0, NAN),
        ([NAN, 0.0], [0.0, 0.0], 0.0, NAN),
        ([INF, 1.0], [1.0, 1.0], -INF, NAN),
        ([1.0, -INF], [1.0, 1.0], INF, NAN),
        ([1.0, 2.0], [1.0, 1.0], INF, INF),
        ([1.0, 2.0], [1.0, 1.0], -INF, -INF),
        ([INF, 1.0], [1.0, 1.0], INF, INF),
        ([INF, 1.0], [-2.0, 3.0], -INF, -INF),
        ([INF, -INF], [-1.0, 1.0], 1.0, -INF),
        ([INF, -INF], [1.0, 1.0], 1.0, NAN),
    ],
)
def test_S4_nan_and_infinities(dtype: np.dtype, a: list, b: list, c: float, result: float) -> None:
    Y = call(values(dtype, [a]), values(dtype, b).reshape(2, 1), values(dtype, [[c]]))
    assert_same(Y, values(dtype, [[result]]))


@req("GEMM_S4")
@FLOATS
def test_S4_infinities_of_C_in_a_larger_product(dtype: np.dtype) -> None:
    A = values(dtype, [[1.0, 2.0], [INF, 1.0], [1.0, 2.0], [1.0, 1.0]])
    B = values(dtype, [[1.0, -1.0], [1.0, 1.0]])
    C = values(dtype, [[NAN, 0.0], [-INF, 3.0], [INF, -INF], [0.0, 0.0]])
    Y = values(dtype, [[NAN, 1.0], [NAN, -INF], [INF, -INF], [2.0, 0.0]])
    assert_same(call(A, B, C), Y)


@req("GEMM_S5")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "c", "result"),
    [
        ([-0.0, 0.0], [1.0, -1.0], -0.0, -0.0),
        ([-0.0, 0.0], [1.0, -1.0], 0.0, 0.0),
        ([-0.0, 0.0], [1.0, 1.0], -0.0, 0.0),
        ([-0.0, -0.0], [-0.0, 0.0], -0.0, 0.0),
        ([3.0, -3.0], [1.0, 1.0], -0.0, 0.0),
        ([3.0, 0.0], [1.0, 1.0], -3.0, 0.0),
        ([-3.0, -0.0], [1.0, 1.0], 3.0, 0.0),
        ([-1.0, -0.0], [0.0, 2.0], -0.0, -0.0),
    ],
)
def test_S5_the_sign_of_an_exact_zero(dtype: np.dtype, a: list, b: list, c: float, result: float) -> None:
    Y = call(values(dtype, [a]), values(dtype, b).reshape(2, 1), values(dtype, [[c]]))
    assert_same(Y, values(dtype, [[result]]))


@req("GEMM_S5")
@FLOATS
def test_S5_terms_too_small_for_the_type_keep_the_sign_of_their_exact_sum(dtype: np.dtype) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = values(dtype, [[-tiny], [tiny], [-tiny]])
    B = values(dtype, [[tiny]])
    C = values(dtype, [[0.0], [-0.0], [-0.0]])
    # −tiny² rounds to −0 (a non-zero exact sum, rounded), C's +0 or −0 aside; +tiny² to +0.
    assert_same(call(A, B, C), values(dtype, [[-0.0], [0.0], [-0.0]]))


@req("GEMM_S6")
@ALL
def test_S6_no_column_gives_C_bit_for_bit(dtype: np.dtype) -> None:
    C = values(dtype, [[1, 2, 3], [4, 5, 6]])
    if dtype.kind == "f" or dtype.name == "bfloat16":
        C = values(dtype, [[-0.0, 0.0, NAN], [INF, -INF, -2.5]])
    inputs_unchanged = unchanged(C)
    Y = call(np.ones((2, 0), dtype), np.ones((0, 3), dtype), C)
    inputs_unchanged()
    assert Y.shape == (2, 3) and Y.dtype == dtype and not np.shares_memory(Y, C)
    assert_same(Y, C)
    assert call(np.ones((0, 2), dtype), np.ones((2, 3), dtype), np.ones((0, 3), dtype)).shape == (0, 3)
    assert call(np.ones((2, 2), dtype), np.ones((2, 0), dtype), np.ones((2, 0), dtype)).shape == (2, 0)


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float32)], ids=["int8", "float32"])
def test_a_result_too_large_for_memory_is_refused(dtype: np.dtype) -> None:
    ones = np.broadcast_to(np.ones((1, 1), dtype), (2**30, 1))  # a view: no memory of its own
    C = np.broadcast_to(np.ones((1, 1), dtype), (2**30, 2**30))
    with raises_req("GEN_E1") as info:
        call(ones, ones.T, C)
    assert info.value.problem == (
        f"gemm: a result of shape (1073741824, 1073741824) and type {dtype} does not fit in this machine's"
        " memory"
    )


# -- GEMM_P2 ---------------------------------------------------------------------------------------------


@req("GEMM_P2")
@ALL
@given(data=st.data())
def test_P2_a_C_of_negative_zeros_makes_Gemm_MatMul(dtype: np.dtype, data: st.DataObject) -> None:
    A, B, _ = data.draw(operands(dtype))
    zeros = np.full((A.shape[0], B.shape[1]), -0.0 if dtype.kind not in "iu" else 0, dtype)
    if A.shape[1] or dtype.kind in "iu":
        assert_same(call(A, B, zeros), matmul(A, B))
    else:  # no column: MatMul's empty sum is +0, Gemm gives C (GEMM_S6)
        assert_same(call(A, B, zeros), zeros)
        assert_same(matmul(A, B), np.zeros_like(zeros))


@req("GEMM_P2")
@FLOATS
def test_P2_a_positive_zero_would_not_do(dtype: np.dtype) -> None:
    A, B = values(dtype, [[-0.0]]), values(dtype, [[1.0]])
    assert_same(matmul(A, B), values(dtype, [[-0.0]]))
    assert_same(call(A, B, values(dtype, [[-0.0]])), values(dtype, [[-0.0]]))
    assert_same(call(A, B, values(dtype, [[0.0]])), values(dtype, [[0.0]]))


# -- GEMM_P1: the engines' bound -----------------------------------------------------------------------------


def unit(dtype: np.dtype) -> Fraction:
    return Fraction(1, 2 ** (ml_dtypes.finfo(dtype).nmant + 1))


def eta(dtype: np.dtype) -> Fraction:
    return Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal)) / 2


def within_bound(a: list[float], b: list[float], c: float, engine: float, dtype: np.dtype) -> bool:
    """GEMM_P1 for one element, in exact rationals: the engine's result meets the rule."""
    n = len(a)
    if not all(math.isfinite(x) for x in [*a, *b, c]):
        exact = dot_plus(a, b, c, dtype)
        return math.isnan(engine) if math.isnan(exact) else engine == exact
    terms = [Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True)] + [Fraction(c)]
    exact, magnitudes = sum(terms, Fraction(0)), sum(map(abs, terms), Fraction(0))
    if magnitudes == 0:
        return engine == 0
    u = unit(dtype)
    gamma = (n + 2) * u / (1 - (n + 2) * u)
    if 2 * (n + 2) * u > 1 or (1 + gamma) * magnitudes > Fraction(float(ml_dtypes.finfo(dtype).max)):
        return True
    if not math.isfinite(engine):
        return False
    return abs(Fraction(engine) - exact) <= gamma * magnitudes + 2 * (n + 2) * eta(dtype)


def engine_sum(
    a: list[float], b: list[float], c: float, dtype: np.dtype, order: list[int], wide: np.dtype
) -> float:
    """An engine the rule admits: products rounded to the accumulator ``wide`` (at least as precise and
    wide as ``dtype``), summed left to right in ``order`` (C's term is position len(a)), each sum rounded
    to ``wide``, the total rounded once to ``dtype``."""
    total = np.zeros((), wide)[()]
    with np.errstate(all="ignore"):
        for k in order:
            term = np.array(c, wide)[()] if k == len(a) else (np.array(a[k], wide) * np.array(b[k], wide))[()]
            total = (np.array(total, wide) + term)[()]
        return float(np.array(total, wide).astype(dtype))


def matmul_then_add(a: list[float], b: list[float], c: float, dtype: np.dtype) -> float:
    """MatMul rounded to the type (left to right, in the type), then Add rounded to the type."""
    total = np.zeros((), dtype)[()]
    with np.errstate(all="ignore"):
        for x, y in zip(a, b, strict=True):
            total = (np.array(total, dtype) + np.array(x, dtype) * np.array(y, dtype))[()]
        return float((np.array(total, dtype) + np.array(c, dtype))[()])


@req("GEMM_P1")
@FLOATS
@pytest.mark.parametrize("seed", range(4))
def test_P1_every_admitted_order_and_accumulator_meets_the_bound(dtype: np.dtype, seed: int) -> None:
    rng = random.Random(seed)
    accumulators = [
        t for t in (dtype, np.dtype(np.float32), np.dtype(np.float64)) if t.itemsize >= dtype.itemsize
    ]
    normal = float(ml_dtypes.finfo(dtype).smallest_normal)
    for _ in range(30):
        n = rng.randint(0, 24)
        scale = [  # magnitudes from 2^-8 to 2^8, some about the smallest normal value: underflow
            normal * 2.0 ** rng.randint(-3, 3) if rng.random() < 0.2 else 2.0 ** rng.randint(-8, 8)
            for _ in range(n)
        ]
        a = [float(np.array(rng.gauss(0, 1) * s, dtype)) for s in scale]
        b = [float(np.array(rng.gauss(0, 1), dtype)) for _ in range(n)]
        c = float(np.array(rng.gauss(0, 1) * 2.0 ** rng.randint(-8, 8), dtype))
        if n and rng.random() < 0.5:  # cancellation: C cancels a term, a small one between
            c = float(np.array(-a[0] * b[0], dtype))
        for wide in accumulators:
            for order in (list(range(n + 1)), [n, *range(n)], rng.sample(range(n + 1), n + 1)):
                assert within_bound(a, b, c, engine_sum(a, b, c, dtype, order, wide), dtype)
        assert within_bound(a, b, c, matmul_then_add(a, b, c, dtype), dtype)
        assert within_bound(a, b, c, dot_plus(a, b, c, dtype), dtype)  # the reference's result


@req("GEMM_P1")
@FLOATS
def test_P1_the_bound_admits_the_naive_sum_of_the_cancellation_and_refuses_more(dtype: np.dtype) -> None:
    big = float(np.array(2.0**10, dtype))
    a, b, c = [big, 1.0], [1.0, 1.0], -big
    naive = engine_sum(a, b, c, dtype, [0, 1, 2], dtype)
    assert within_bound(a, b, c, naive, dtype)  # 0 or 1 whatever the type: both within γ₄·(2·big + 1)
    u = unit(dtype)
    bound = 4 * u / (1 - 4 * u) * (2 * big + 1) + 8 * eta(dtype)
    beyond = float(np.array(float(1 + 2 * bound), dtype))
    assert Fraction(beyond) - 1 > bound
    assert not within_bound(a, b, c, beyond, dtype)
    assert not within_bound(a, b, c, NAN, dtype) and not within_bound(a, b, c, INF, dtype)


@req("GEMM_P1")
@FLOATS
def test_P1_zero_sums_special_values_and_overflow(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    assert within_bound([0.0], [1.0], -0.0, 0.0, dtype) and within_bound([0.0], [-1.0], 0.0, -0.0, dtype)
    assert not within_bound([0.0], [1.0], 0.0, float(ml_dtypes.finfo(dtype).smallest_subnormal), dtype)
    assert within_bound([1.0], [1.0], INF, INF, dtype) and not within_bound([1.0], [1.0], INF, top, dtype)
    assert within_bound([1.0], [1.0], NAN, NAN, dtype) and not within_bound([INF], [0.0], 0.0, 0.0, dtype)
    assert within_bound([top, top], [1.0, 1.0], -top, NAN, dtype)  # S⁺ overflows: any value


@req("GEMM_P1")
@FLOATS
def test_P1_the_declared_bound_agrees_with_the_rule_in_exact_rationals(dtype: np.dtype) -> None:
    """The bound engines are judged by says "outside" only where the rule, in exact rationals, is broken,
    and "conforms" only where it is met; undecided elsewhere."""
    rng = random.Random(7)
    verdicts = set()
    for _ in range(60):
        n = rng.randint(0, 12)
        a = [float(np.array(rng.gauss(0, 1) * 2.0 ** rng.randint(-6, 6), dtype)) for _ in range(n)]
        b = [float(np.array(rng.gauss(0, 1), dtype)) for _ in range(n)]
        c = float(np.array(rng.gauss(0, 1) * 2.0 ** rng.randint(-6, 6), dtype))
        A, B, C = (
            np.array([a], dtype).reshape(1, n),
            np.array([b], dtype).reshape(n, 1),
            np.array([[c]], dtype),
        )
        reference = call(A, B, C)
        exact = dot_plus(a, b, c, dtype)
        engines = [np.array([[exact]], dtype)]
        for sign in (1, -1):  # 1 to 3 steps of the type from the exact sum, or 1/16 of it
            engine = engines[0]
            for _ in range(3):
                engine = np.nextafter(engine, np.array(sign * np.inf, dtype))
                engines.append(engine)
            engines.append(np.array([[exact * (1 + sign / 16)]], dtype))
        for engine in engines:
            judged = judge("gemm", engine, reference, [A, B, C])
            verdicts.add(judged.verdict)
            within = within_bound(a, b, c, float(engine[0, 0]), dtype)
            assert judged.rule == "GEMM_P1"
            assert judged.verdict != "outside" or not within
            assert judged.verdict != "conforms" or within
    assert verdicts >= {"conforms", "outside"}
    zeros = np.array([[0.0, 1.0]], dtype), np.array([[0.0], [0.0]], dtype), np.array([[-0.0]], dtype)
    assert judge("gemm", np.array([[0.0]], dtype), call(*zeros), zeros).verdict == "conforms"
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    undecided = "outside" if dtype == np.float64 else "undecided"  # η is 0 in float64 for float64
    assert judge("gemm", np.array([[tiny]], dtype), call(*zeros), zeros).verdict == undecided
    assert judge("gemm", np.array([[-2 * tiny]], dtype), call(*zeros), zeros).verdict == "outside"


def rule_bound(A: np.ndarray, B: np.ndarray, C: np.ndarray) -> np.ndarray:
    """γₙ₊₂·S⁺ + 2(n + 2)·η of every element, in exact rationals (an array of Fractions)."""
    u, n = unit(A.dtype), A.shape[1]
    gamma = (n + 2) * u / (1 - (n + 2) * u)
    out = np.empty((A.shape[0], B.shape[1]), object)
    for i, j in np.ndindex(out.shape):
        magnitudes = sum(
            (abs(Fraction(float(x)) * Fraction(float(y))) for x, y in zip(A[i], B[:, j], strict=True)),
            abs(Fraction(float(C[i, j]))),
        )
        out[i, j] = gamma * magnitudes + 2 * (n + 2) * eta(A.dtype)
    return out


def dyadic(rng: np.random.Generator, shape: tuple[int, ...], scale: int, dtype: np.dtype) -> np.ndarray:
    """Integers from −8 to 8 times 2^scale: values of every float type, whose products and sums of up to 64
    terms float64 holds exactly, so that the bound's S⁺ is exact."""
    return np.ldexp(rng.integers(-8, 9, shape).astype(np.float64), scale).astype(dtype)


@req("GEMM_P1")
@FLOATS
@pytest.mark.parametrize("tiny", [False, True], ids=["S+", "eta"])
def test_P1_the_judging_bound_is_the_rule_s_widened_by_4_n_plus_2_float64_units(
    dtype: np.dtype, tiny: bool
) -> None:
    """The bound engines are judged by, against the rule's in exact rationals, where float64 sums S⁺
    exactly: at least the rule's, and above it by the 4(n + 2) float64 units of S⁺ its docstring states, to
    8 units of its own float64 rounding."""
    from sonnx_spec.ops.gemm import engine_error

    if tiny and dtype == np.float64:
        return
    rng = np.random.default_rng(5)
    n = 62
    exponent = int(math.log2(float(ml_dtypes.finfo(dtype).smallest_subnormal))) if tiny else 0
    A = dyadic(rng, (3, n), exponent // 2, dtype)
    B = dyadic(rng, (n, 4), exponent - exponent // 2, dtype)
    C = dyadic(rng, (3, 4), exponent, dtype)
    error = engine_error(call(A, B, C), A, B, C)
    rule = rule_bound(A, B, C)
    k, float64_unit = n + 2, Fraction(1, 2**53)
    for index in np.ndindex(error.shape):
        bound = Fraction(float(error[index]))
        assert bound >= rule[index], index
        stated = rule[index] + (rule[index] - 2 * k * eta(dtype)) * 4 * k * float64_unit
        assert abs(bound - stated) <= 8 * float64_unit * stated, (index, float(bound), float(stated))


@req("GEMM_P1")
def test_P1_the_bound_is_any_value_from_2_n_plus_2_u_above_1() -> None:
    """bfloat16 (u = 2⁻⁸): n = 126: 2(n + 2)·u = 1, still a bound (γ = 1); n = 127 passes 1: any value."""
    from sonnx_spec.ops.gemm import engine_error

    b = np.dtype(ml_dtypes.bfloat16)
    for n, finite in ((126, True), (127, False)):
        A, B, C = np.ones((2, n), b), np.ones((n, 3), b), np.ones((2, 3), b)
        error = engine_error(call(A, B, C), A, B, C)
        assert error.shape == (2, 3)
        assert np.all(np.isfinite(error)) == finite and np.all(np.isinf(error)) != finite, n
    one = np.ones((1, 1), b)
    gamma_2 = 2 / 256 / (1 - 2 / 256)  # n = 0: C alone, γ₂·|C| + 4η, widened by float64 steps
    assert float(engine_error(one, np.ones((1, 0), b), np.ones((0, 1), b), one)[0, 0]) == pytest.approx(
        gamma_2
    )


@req("GEMM_P1")
@FLOATS
def test_P1_near_the_largest_value_the_bound_is_any_value(dtype: np.dtype) -> None:
    """Where (1 + γ)·S⁺ passes the type's largest value the rule bounds nothing; 0.625 of it still has a
    bound. C's magnitude counts in S⁺; infinite terms give no warning."""
    from sonnx_spec.ops.gemm import engine_error

    big = float(ml_dtypes.finfo(dtype).max)
    A = np.array([[big / 2], [big / 2], [INF]], dtype)
    B = np.array([[1.25]], dtype)
    Y = np.zeros((3, 1), dtype)  # Y's type and shape; the bound reads A, B and C only
    error = engine_error(Y, A, B, np.array([[big / 2], [0.0], [1.0]], dtype))
    assert np.isinf(error[0, 0]) and error[0, 0] > 0  # S⁺ = 1.125·max: C's half counted
    assert np.isfinite(error[1, 0]) and error[1, 0] > 0  # S⁺ = 0.625·max
    top = np.array([[big]], dtype)  # S⁺ = max: (1 + γ)·max passes it, (1 − γ)·max would not
    assert np.isinf(engine_error(Y[:1], top, np.array([[1.0]], dtype), np.array([[0.0]], dtype))[0, 0])
    assert np.isinf(engine_error(Y[:1], np.array([[0.0]], dtype), np.array([[1.0]], dtype), top)[0, 0])
    engine_error(Y, A, np.array([[0.0]], dtype), np.array([[INF], [0.0], [1.0]], dtype))  # inf·0, C = ∞


# -- in a model ----------------------------------------------------------------------------------------------


def gemm_model(**attributes: float | int) -> object:
    """A one-node model: Gemm of a (2, 3) input X, a (3, 4) weight W and a (2, 4) bias, opset 13."""
    from onnx import TensorProto, helper, numpy_helper

    weight_shape = (4, 3) if attributes.get("transB") else (3, 4)
    initializers = [
        numpy_helper.from_array(np.ones(weight_shape, np.float32), "W"),
        numpy_helper.from_array(np.zeros((2, 4), np.float32), "bias"),
    ]
    node = helper.make_node("Gemm", ["X", "W", "bias"], ["Y"], **attributes)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 4])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@req("GEMM_C5", "GEMM_C6", "GR4")
def test_C5_C6_in_a_model_the_checker_names_the_rule_and_the_rewrite() -> None:
    from sonnx_spec.models.check import check_model

    plain = {"alpha": 1.0, "beta": 1.0, "transA": 0, "transB": 0}
    assert check_model(gemm_model(**plain)).findings == []
    for attribute, value, rule, rewrite in (
        ("transB", 1, "GEMM_C6", "a Transpose node (perm = [1, 0])"),
        ("alpha", 0.5, "GEMM_C5", "a Mul node"),
        ("beta", 2.0, "GEMM_C5", "a Mul node"),
    ):
        findings = check_model(gemm_model(**{**plain, attribute: value})).findings
        refused = [f for f in findings if f.rule == rule]
        assert len(refused) == 1 and rewrite in refused[0].message, findings
        assert f"{attribute} is {value!r}" in refused[0].message
    findings = check_model(gemm_model(alpha=1.0, beta=1.0, transB=0)).findings  # transA left out
    assert [f.rule for f in findings if "transA" in f.message] == ["GR4"]
