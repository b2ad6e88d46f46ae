"""MatMul (ONNX MatMul-13 in the SONNX profile): Y[…, i, j] = Σₖ A[…, i, k] × B[…, k, j], exact."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from ..accuracy import Within, engines_within
from ..checks import new_array
from ..errors import SonnxError
from ..families.accumulation import exact_matmul
from ..registry import Tensor, operator
from ..types import FLOAT_TYPES

Array = np.ndarray | np.generic


def output_shape(A: Array, B: Array) -> tuple[int, ...]:
    """Y's shape, (…, m, p), once A (…, m, n) and B (…, n, p) are known to fit together."""
    for name, X in (("A", A), ("B", B)):
        if np.ndim(X) < 2:
            problem = (
                f"matmul: {name} has rank {np.ndim(X)}; MatMul takes matrices (rank 2) or stacks of them"
                " (rank 3 or more): a vector is made a matrix by Unsqueeze or Reshape first"
            )
            raise SonnxError("MATMUL_C1", problem, operator="matmul", tensor=name)
    if np.shape(A)[:-2] != np.shape(B)[:-2]:
        problem = (
            f"matmul: A has shape {np.shape(A)} and B {np.shape(B)}: their batch axes (all but the last two)"
            " differ; MatMul does not broadcast them"
        )
        raise SonnxError("MATMUL_C2", problem, operator="matmul", tensor="B")
    if np.shape(A)[-1] != np.shape(B)[-2]:
        problem = (
            f"matmul: A has {np.shape(A)[-1]} columns and B {np.shape(B)[-2]} rows"
            f" (shapes {np.shape(A)} and {np.shape(B)})"
        )
        raise SonnxError("MATMUL_C3", problem, operator="matmul", tensor="B")
    return (*np.shape(A)[:-1], np.shape(B)[-1])  # MATMUL_C4


def matmul(A: Array, B: Array) -> np.ndarray:
    """Matrix product of A and B, or of each pair of matrices of two stacks: exact sums of exact products.

    ``A`` has shape (…, m, n) and ``B`` (…, n, p), both of rank 2 or more with
    the same leading (batch) dimensions: MatMul neither promotes a vector to a
    matrix nor broadcasts the batch axes, as numpy and ONNX do (MATMUL_C1,
    MATMUL_C2). ``Y`` has shape (…, m, p). Integers: the exact sum of the
    products, modulo 2^n. Floating point: the exact real sum of the exact
    products, rounded once to the type (to nearest, ties to even), whatever
    order an engine sums in; NaN and infinities as IEEE 754 gives them for
    any order; an exact zero is −0 only if every product is −0; n = 0 gives
    +0. An engine need not give this value: MATMUL_P1 bounds how far from
    the exact sum its result may be.

    Returns a new array of the type of A and B.

    >>> import numpy as np, sonnx_spec
    >>> A = np.array([[1e8, 1.0, -1e8]], dtype=np.float32)
    >>> sonnx_spec.matmul(A, np.ones((3, 1), dtype=np.float32))
    array([[1.]], dtype=float32)
    """
    shape = output_shape(A, B)  # MATMUL_C1, MATMUL_C2, MATMUL_C3; MATMUL_C4: Y's shape
    dtype = np.asarray(A).dtype  # MATMUL_C5: Y has the type of A and B
    if dtype in FLOAT_TYPES:
        # MATMUL_S1, MATMUL_S3, MATMUL_S4, MATMUL_S5: the exact sum of the exact products, rounded once;
        # IEEE 754's NaN and infinities; the sign of an exact zero; the empty sum +0 (MATMUL_S6).
        return exact_matmul("matmul", A, B)
    # MATMUL_S1, MATMUL_S2: integers, the sum of the products modulo 2^n, made in the unsigned type of
    # the width, whose machine arithmetic is modulo 2^n (the bits of a two's complement value are its
    # residue); numpy's integer matmul multiplies and adds in the type itself. n = 0 gives 0 (MATMUL_S6).
    out = new_array("matmul", shape, dtype)
    words = np.dtype(f"u{dtype.itemsize}")
    np.matmul(np.asarray(A).view(words), np.asarray(B).view(words), out=out.view(words))
    return out


matmul = operator(
    matmul,
    onnx="MatMul",
    version=13,
    inputs=(
        Tensor("A", "A", "T", doc="the left factor, of shape (…, m, n), rank 2 or more"),
        Tensor("B", "B", "T", doc="the right factor, of shape (…, n, p), with A's batch dimensions"),
    ),
    outputs=(Tensor("Y", "Y", "T", doc="the product, of shape (…, m, p)"),),
    types={"T": ("int", "float")},
)


def engine_error(Y: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """MATMUL_P1's bound on an engine's distance from the exact sum S at each element of Y (float64):
    γₙ₊₁·S⁺ + 2(n + 1)·η; +∞ (any value) where 2(n + 1)·u > 1 or (1 + γₙ₊₁)·S⁺ passes the type's largest
    value. S⁺ = Σₖ |A·B| is bounded above: numpy's float64 sum of the magnitudes, raised by 4(n + 1)
    float64 units (its products and sums err by less); the total is raised by one float64 step, for the
    rounding of its last sum. Where S⁺ = 0 the rule asks for a zero of either sign: the bound there is η,
    which the judge widens by the reference's own rounding (η at zero), so both zeros conform, ± the
    smallest subnormal is undecided and anything larger outside (for float64, η = 2⁻¹⁰⁷⁵ is 0 in
    float64: the smallest subnormal is outside)."""
    info = ml_dtypes.finfo(Y.dtype)
    n = A.shape[-1]
    k = n + 1
    u = 2.0 ** -(info.nmant + 1)
    if 2 * k * u > 1:
        return np.full(Y.shape, np.inf)
    gamma = k * u / (1 - k * u)
    with np.errstate(over="ignore", invalid="ignore"):  # an infinite factor: its element is exact anyway
        magnitudes = np.matmul(np.abs(A.astype(np.float64)), np.abs(B.astype(np.float64)))
        magnitudes *= 1 + 4 * k * 2.0**-53
        error = gamma * magnitudes + 2 * k * (float(info.smallest_subnormal) / 2)
        error = np.nextafter(error, np.inf)  # the sum rounded to nearest may lie below the exact one
        error[magnitudes == 0] = float(info.smallest_subnormal) / 2
        error[(1 + gamma) * magnitudes > float(info.max)] = np.inf
    return error


engines_within(matmul, Within("MATMUL_P1", engine_error, of_exact=True))
