"""Gemm's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty sums",
    "scaling",
    "transposition",
    "bias broadcasting",
    "integer overflow",
    "summation order",
    "extreme values",
    "overflow to infinity",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

PLAIN = {"alpha_ab": 1.0, "beta_c": 1.0, "trans_a": 0, "trans_b": 0}
"""The only attributes the profile's Gemm takes (GEMM_C5, GEMM_C6)."""


def numpy(
    A: np.ndarray, B: np.ndarray, C: np.ndarray, *, alpha_ab: float, beta_c: float, trans_a: int, trans_b: int
):
    """ONNX's formula as a developer writes it: alpha·A'·B' + beta·C, the factors in the operands' type."""
    a = A.T if trans_a else A
    b = B.T if trans_b else B
    scale = A.dtype.type
    return np.matmul(a, b) * scale(alpha_ab) + C * scale(beta_c)


SAMPLE_FROM_CASES = True
"""The general rules' sample call takes the first case: A, B and C of one shape (2, 3) do not fit, and the
sample's attributes (0.5, 1) are refused (GEMM_C5, GEMM_C6)."""
BENCH_LIMIT = 60.0
"""MatMul's limit: the same two float64 matmuls, the addition of C, the rounding decided element by element
and the exact sums of the few elements left undecided."""


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """Two 256×256 matrices of the bench's standard normal values, and a third as C."""
    size = 256 * 256
    A, B, C = (X[k * size : (k + 1) * size].reshape(256, 256).copy() for k in range(3))
    return [A, B, C], dict(PLAIN)


def rows(v: Values) -> list[tuple]:
    plain = dict(PLAIN)
    rows = [
        (
            "draft's formula, 2 × 2",
            ORDINARY,
            (v([[1, 2], [3, 4]]), v([[5, 6], [7, 8]]), v([[1, 0], [2, 1]])),
            plain,
        ),
        (
            "(3, 2) times (2, 3) plus C",
            ORDINARY,
            (v([[1, 2], [3, 4], [5, 6]]), v([[7, 8, 9], [10, 11, 12]]), v([[1, 1, 1], [2, 2, 2], [0, 0, 0]])),
            plain,
        ),
        (
            "n = 0: Y is C",
            "empty sums",
            (v(np.zeros((2, 0))), v(np.zeros((0, 3))), v([[1, 2, 3], [4, 5, 6]])),
            plain,
        ),
        (
            "transB = 1",
            "transposition",
            (v([[1, 2]]), v([[3, 4], [5, 6]]), v([[1, 1]])),
            {**plain, "trans_b": 1},
        ),
        (
            "transA = 1",
            "transposition",
            (v([[1, 2], [3, 4]]), v([[1], [1]]), v([[0], [0]])),
            {**plain, "trans_a": 1},
        ),
        ("alpha = 2", "scaling", (v([[1, 2]]), v([[1], [1]]), v([[1]])), {**plain, "alpha_ab": 2.0}),
        ("beta = 0", "scaling", (v([[1, 2]]), v([[1], [1]]), v([[7]])), {**plain, "beta_c": 0.0}),
        (
            "C of shape (1, 2)",
            "bias broadcasting",
            (v([[1, 2], [3, 4]]), v([[1, 0], [0, 1]]), v([[1, 2]])),
            plain,
        ),
        (
            "C of shape (2,)",
            "bias broadcasting",
            (v([[1, 2], [3, 4]]), v([[1, 0], [0, 1]]), v([1, 2])),
            plain,
        ),
        (
            "times one and zero",
            "extreme values",
            (v([[v.highest, v.lowest]]), v([[1], [0]]), v([[0]])),
            plain,
        ),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([[-3, 2, -1]]), v([[-1], [-5], [4]]), v([[-2]])), plain))
    if not v.is_float:
        rows.append(("past the highest", "integer overflow", (v([[v.highest]]), v([[1]]), v([[1]])), plain))
        if v.signed:
            rows.append(
                (
                    "out of range, then back",
                    "integer overflow",
                    (v([[v.highest, 1]]), v([[1], [1]]), v([[-1]])),
                    plain,
                )
            )
        return rows
    nan, inf, tiny = math.nan, math.inf, float(v.subnormal)
    big = float(np.array(2.0 ** (ml_dtypes.finfo(v.dtype).nmant + 3), v.dtype))  # 1 is below its ulp
    normal = float(ml_dtypes.finfo(v.dtype).smallest_normal)
    return [
        *rows,
        ("fractions", ORDINARY, (v([[0.5, -2.5]]), v([[0.25], [1.5]]), v([[0.125]])), plain),
        ("big + 1 − big", "summation order", (v([[big, 1.0]]), v([[1.0], [1.0]]), v([[-big]])), plain),
        (
            "max + max − max",
            "overflow to infinity",
            (v([[v.highest, v.highest]]), v([[1], [1]]), v([[v.lowest]])),
            plain,
        ),
        ("max · 2 − max", "overflow to infinity", (v([[v.highest]]), v([[2]]), v([[v.lowest]])), plain),
        ("−0 terms", "signed zero", (v([[-0.0], [3.0]]), v([[1.0]]), v([[-0.0], [-3.0]])), plain),
        ("a NaN in C", "NaN", (v([[1.0, 2.0]]), v([[1.0], [1.0]]), v([[nan]])), plain),
        ("+∞ product, −∞ in C", "NaN", (v([[inf, 1.0]]), v([[1.0], [1.0]]), v([[-inf]])), plain),
        ("+∞ in C", "infinity", (v([[1.0, 2.0]]), v([[1.0], [1.0]]), v([[inf]])), plain),
        ("subnormal sums", "subnormal", (v([[tiny], [normal]]), v([[0.5]]), v([[tiny / 2], [0.0]])), plain),
    ]


def within_bound(A: np.ndarray, B: np.ndarray, C: np.ndarray, Y: np.ndarray) -> bool:
    """Whether every element of Y meets GEMM_P1 (finite terms, 2(n + 2)u ≤ 1): exact rationals."""
    dtype = np.asarray(A).dtype
    n = A.shape[-1]
    u = Fraction(1, 2 ** (ml_dtypes.finfo(dtype).nmant + 1))
    eta = Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal)) / 2
    gamma = (n + 2) * u / (1 - (n + 2) * u)
    for i, j in np.ndindex(Y.shape):
        terms = [Fraction(float(A[i, k])) * Fraction(float(B[k, j])) for k in range(n)]
        terms.append(Fraction(float(C[i, j])))
        exact, magnitudes = sum(terms, Fraction(0)), sum(map(abs, terms), Fraction(0))
        if abs(Fraction(float(Y[i, j])) - exact) > gamma * magnitudes + 2 * (n + 2) * eta:
            return False
    return True


_DEFAULTS = (
    "ONNX's case leaves attributes at their defaults; the profile requires every attribute (GR4), and alpha, "
    "beta, transA and transB at 1.0, 1.0, 0 and 0."
)
_BROADCAST = "ONNX's case broadcasts C to A·B's shape; the profile requires C of that shape."
_SCALED = "alpha or beta other than 1.0: the profile's Gemm does not scale; a model uses Mul."
_TRANSPOSED = "transA or transB is 1: the profile's Gemm does not transpose; a model uses Transpose."
BACKEND_DIVERGENCES = {
    "test_gemm_all_attributes": Divergence("GEMM_C5", _SCALED),
    "test_gemm_alpha": Divergence("GR4", f"{_DEFAULTS} {_SCALED}"),
    "test_gemm_beta": Divergence("GR4", f"{_DEFAULTS} {_SCALED}"),
    "test_gemm_transposeA": Divergence("GR4", f"{_DEFAULTS} {_TRANSPOSED}"),
    "test_gemm_transposeB": Divergence("GR4", f"{_DEFAULTS} {_TRANSPOSED}"),
    **{
        f"test_gemm_default_{name}": Divergence("GR4", _DEFAULTS)
        for name in (
            "matrix_bias",
            "no_bias",
            "scalar_bias",
            "single_elem_vector_bias",
            "vector_bias",
            "zero_bias",
        )
    },
}
BACKEND_RULES: dict = {}
SEMANTICS = "GEMM_S3"

EXPLAINED = {
    "scaling": Explanation(
        "GEMM_C5",
        "ONNX's Gemm multiplies A·B by alpha and C by beta, and the engines do; the profile refuses any "
        "value but 1.0: a model states the scaling with a Mul node.",
    ),
    "transposition": Explanation(
        "GEMM_C6",
        "ONNX's Gemm transposes A where transA is 1 and B where transB is 1, and the engines do; the profile "
        "refuses any value but 0: a model states the transposition with a Transpose node.",
    ),
    "bias broadcasting": Explanation(
        "GEMM_C3",
        "ONNX's Gemm broadcasts C to (M, N) unidirectionally, and the engines do; the profile requires C of "
        "that shape (a C of rank 1 is refused as no matrix, GEMM_C1): a model makes the broadcast explicit "
        "with Expand.",
    ),
    "integer overflow": Explanation(
        "GEMM_S2",
        "The sum wraps modulo 2^n; the ONNX reference computes A·B in the type (wrapping), multiplies it by "
        "alpha, a Python float, which makes it float64, adds C in float64 and converts back to the type: C's "
        "addition does not wrap (int32's out-of-range values become the lowest one), and int64 sums beyond "
        "2^53 are rounded.",
    ),
    "extreme values": Explanation(
        "GEMM_S1",
        "C's element is a term of the exact sum. For integers the ONNX reference adds C in float64 and "
        "converts back, without wrapping (GEMM_S2); for floating point an engine rounds the product max·2 to "
        "+∞ before adding C = −max, where the exact sum max·2 − max is max (GEMM_S3), which GEMM_P1 admits: "
        "the sum of the magnitudes overflows.",
    ),
    "summation order": Explanation(
        "GEMM_S3",
        "The exact sum big + 1 − big is 1; an engine adding in the type, C last, loses the 1 to big and "
        "gives 0, which GEMM_P1's bound admits (the reference gives the exact sum rounded once).",
    ),
    "overflow to infinity": Explanation(
        "GEMM_S3",
        "The exact sum is max; an engine summing in the type overflows to +∞ before adding C, which GEMM_P1 "
        "admits: the sum of the magnitudes overflows.",
    ),
    "subnormal": Explanation(
        "GEMM_S3",
        "An engine that rounds the product tiny·0.5 to the type first rounds it to 0, a tie; the exact sum "
        "tiny/2 + tiny/2 is tiny. GEMM_P1's absolute term, 2(n + 2)·η, admits the difference.",
    ),
    "signed zero": Explanation(
        "GEMM_S5",
        "The product −0 and C's −0 give −0 exactly; an engine whose accumulator starts at +0 gives +0, which "
        "GEMM_P1 admits (a zero of either sign).",
    ),
}
