"""MatMul's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty sums",
    "a vector operand",
    "batch broadcasting",
    "integer overflow",
    "summation order",
    "extreme values",
    "overflow to infinity",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

numpy = np.matmul
SAMPLE_FROM_CASES = True
"""The general rules' sample call takes the first case (tests/support.py's places_elements, with the
change proposed for MatMul): A and B of one shape (2, 3) do not multiply."""
BENCH_LIMIT = 60.0
"""A guard on the measured 33x to 44x numpy's float32 matmul of 256×256×256 (CPU time, one thread): two
float64 matmuls (the values and their magnitudes), the rounding decided element by element, the exact sums
of the few elements left undecided. Issue 22's target, 10x, is not met (the page says why)."""


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """Two 256×256 matrices of the bench's standard normal values."""
    size = 256 * 256
    return [X[:size].reshape(256, 256).copy(), X[size : 2 * size].reshape(256, 256).copy()], {}


def rows(v: Values) -> list[tuple]:
    rows = [
        ("draft, example 1", ORDINARY, (v([[1, 2], [3, 4]]), v([[5, 6], [7, 8]]))),
        ("draft, example 2", ORDINARY, (v([[1, 2], [3, 4], [5, 6]]), v([[7, 8, 9], [10, 11, 12]]))),
        ("a stack of two", ORDINARY, (v([[[1, 0], [0, 1]], [[2, 1], [1, 1]]]), v([[[3], [4]], [[5], [6]]]))),
        ("n = 0: empty sums", "empty sums", (v(np.zeros((2, 0))), v(np.zeros((0, 3))))),
        ("a vector A", "a vector operand", (v([1, 2]), v([[1, 2], [3, 4]]))),
        ("batch axes broadcast", "batch broadcasting", (v([[[1, 2]], [[3, 4]]]), v([[1], [1]]))),
        ("times one and zero", "extreme values", (v([[v.highest, v.lowest]]), v([[1], [0]]))),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([[-3, 2, -1]]), v([[-1], [-5], [4]]))))
    if not v.is_float:
        rows.append(("past the highest", "integer overflow", (v([[v.highest, v.highest]]), v([[1], [1]]))))
        if v.signed:
            rows.append(
                ("out of range, then back", "integer overflow", (v([[v.highest, 1, -1]]), v([[1], [1], [1]])))
            )
        return rows
    nan, inf, tiny = math.nan, math.inf, float(v.subnormal)
    big = float(np.array(2.0 ** (ml_dtypes.finfo(v.dtype).nmant + 3), v.dtype))  # 1 is below its ulp
    normal = float(ml_dtypes.finfo(v.dtype).smallest_normal)
    return [
        *rows,
        ("fractions", ORDINARY, (v([[0.5, -2.5]]), v([[0.25], [1.5]]))),
        ("[big, 1, −big]·[1, 1, 1]", "summation order", (v([[big, 1.0, -big]]), v([[1.0], [1.0], [1.0]]))),
        (
            "max + max − max",
            "overflow to infinity",
            (v([[v.highest, v.highest, v.lowest]]), v([[1], [1], [1]])),
        ),
        ("max · 2", "overflow to infinity", (v([[v.highest]]), v([[2]]))),
        ("−0 products", "signed zero", (v([[-0.0, 0.0], [3.0, -3.0]]), v([[1.0], [-1.0]]))),
        (
            "NaN and 0·∞ (draft, example 2)",
            "NaN",
            (v([[inf, -inf, nan], [nan, inf, -inf]]), v([[1, 2], [4, 5], [7, 8]])),
        ),
        ("∞ (draft, example 3)", "infinity", (v([[inf, inf], [nan, inf]]), v([[1, 2, 3, 4], [4, 5, 6, 7]]))),
        ("+∞ and −∞", "NaN", (v([[inf, -1.0]]), v([[1.0], [inf]]))),
        (
            "subnormal sums",
            "subnormal",
            (v([[normal, 0.0], [tiny, tiny], [3 * tiny, 0.0]]), v([[0.5], [0.5]])),
        ),
    ]


def within_bound(A: np.ndarray, B: np.ndarray, Y: np.ndarray) -> bool:
    """Whether every element of Y meets MATMUL_P1 (finite products, 2(n + 1)u ≤ 1): exact rationals."""
    dtype = np.asarray(A).dtype
    n = A.shape[-1]
    u = Fraction(1, 2 ** (ml_dtypes.finfo(dtype).nmant + 1))
    eta = Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal)) / 2
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    for index in np.ndindex(Y.shape):
        *batch, i, j = index
        products = [Fraction(float(A[(*batch, i, k)])) * Fraction(float(B[(*batch, k, j)])) for k in range(n)]
        exact, magnitudes = sum(products, Fraction(0)), sum(map(abs, products), Fraction(0))
        if abs(Fraction(float(Y[index])) - exact) > gamma * magnitudes + 2 * (n + 1) * eta:
            return False
    return True


def _backend_within(inputs: tuple, expected: tuple) -> bool:
    return within_bound(inputs[0], inputs[1], np.asarray(expected[0]))


_SUMMED = (
    "ONNX's expected output is numpy's float32 matmul, summed in float32 in its BLAS's order: it differs "
    "from the correctly rounded exact sum in a last bit, within MATMUL_P1's bound."
)
_VECTOR = "A 1-D operand is promoted to a matrix by ONNX, as numpy does; the profile refuses it."
BACKEND_DIVERGENCES = {
    **{
        f"test_matmul_{rank}d": Divergence("MATMUL_P1", _SUMMED, within=_backend_within) for rank in (2, 3, 4)
    },
    "test_matmul_1d_1d": Divergence("MATMUL_C1", _VECTOR),
    "test_matmul_1d_3d": Divergence("MATMUL_C1", _VECTOR),
    "test_matmul_4d_1d": Divergence("MATMUL_C1", _VECTOR),
    "test_matmul_bcast": Divergence(
        "MATMUL_C2",
        "Batch axes (3, 1) and (1, 2) are broadcast to (3, 2); the profile requires one batch shape.",
    ),
}
BACKEND_RULES: dict = {}
SEMANTICS = "MATMUL_S3"

EXPLAINED = {
    "empty sums": Explanation(
        "MATMUL_S6",
        "A of shape (2, 0) times B of (0, 3) is a (2, 3) tensor of zeros, the empty sums; onnxruntime's "
        "uint32 and uint64 MatMul kernels fail on it (an error from its tensor allocation), where its other "
        "kernels, numpy and the ONNX reference give the zeros.",
    ),
    "a vector operand": Explanation(
        "MATMUL_C1",
        "ONNX's MatMul behaves as numpy.matmul: a 1-D operand is made a matrix (and the added axis removed "
        "from the result), and the engines do so; the profile refuses it: a model makes it explicit with "
        "Unsqueeze or Reshape.",
    ),
    "batch broadcasting": Explanation(
        "MATMUL_C2",
        "ONNX's MatMul broadcasts the batch axes as numpy.matmul does, and the engines do; the profile "
        "requires one batch shape: a model makes the broadcast explicit with Expand.",
    ),
    "summation order": Explanation(
        "MATMUL_S3",
        "The exact sum is 1; an engine summing in the type in another order may lose the 1 to the large "
        "terms and give 0, which MATMUL_P1's bound admits (the reference gives the exact sum rounded once).",
    ),
    "overflow to infinity": Explanation(
        "MATMUL_S3",
        "The exact sum max + max − max is max; an engine summing left to right in the type overflows to +∞ "
        "on the way, which MATMUL_P1 admits: the sum of the magnitudes overflows.",
    ),
    "subnormal": Explanation(
        "MATMUL_S3",
        "An engine that rounds each product to the type first rounds tiny·0.5 to 0, a tie; the exact sum "
        "tiny/2 + tiny/2 is tiny. MATMUL_P1's absolute term, 2(n + 1)·η, admits the difference.",
    ),
    "signed zero": Explanation(
        "MATMUL_S5",
        "Every product −0 gives −0 exactly; an engine whose accumulator starts at +0 gives +0, which "
        "MATMUL_P1 admits (a zero of either sign).",
    ),
}
