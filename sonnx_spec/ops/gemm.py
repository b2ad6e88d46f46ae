"""Gemm (ONNX Gemm-13 in the SONNX profile): Y[i, j] = Σₖ A[i, k] × B[k, j] + C[i, j], exact."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from ..accuracy import Within, engines_within
from ..checks import new_array
from ..errors import SonnxError
from ..families.accumulation import exact_matmul
from ..registry import Attribute, Tensor, operator
from ..types import FLOAT_TYPES

Array = np.ndarray | np.generic


def check_attributes(alpha_ab: float, beta_c: float, trans_a: int, trans_b: int) -> None:
    """GEMM_C5, GEMM_C6: the attributes at the values that leave A·B + C as it is."""
    for name, onnx_name, value, operand in (
        ("alpha_ab", "alpha", alpha_ab, "A·B"),
        ("beta_c", "beta", beta_c, "C"),
    ):
        if value != 1.0:
            problem = (
                f"gemm: {onnx_name} is {value!r}; the profile's Gemm takes {onnx_name} = 1.0 only: a model"
                f" scales {operand} by a Mul node of its own"
            )
            raise SonnxError("GEMM_C5", problem, operator="gemm", tensor=name)
    for name, onnx_name, value, operand in (
        ("trans_a", "transA", trans_a, "A"),
        ("trans_b", "transB", trans_b, "B"),
    ):
        if value != 0:
            problem = (
                f"gemm: {onnx_name} is {value!r}; the profile's Gemm takes {onnx_name} = 0 only: a model"
                f" transposes {operand} by a Transpose node (perm = [1, 0]) of its own"
            )
            raise SonnxError("GEMM_C6", problem, operator="gemm", tensor=name)


def output_shape(A: Array, B: Array, C: Array) -> tuple[int, int]:
    """Y's shape, (m, p), once A (m, n), B (n, p) and C (m, p) are known to fit together (all of rank 2:
    GEMM_C1, checked with the general rules)."""
    if np.shape(A)[1] != np.shape(B)[0]:
        problem = (
            f"gemm: A has {np.shape(A)[1]} columns and B {np.shape(B)[0]} rows"
            f" (shapes {np.shape(A)} and {np.shape(B)})"
        )
        raise SonnxError("GEMM_C2", problem, operator="gemm", tensor="B")
    shape = (np.shape(A)[0], np.shape(B)[1])  # GEMM_C4
    if np.shape(C) != shape:
        problem = (
            f"gemm: C has shape {np.shape(C)}, not A·B's {shape}: Gemm does not broadcast C; a model"
            " makes the broadcast explicit with Expand"
        )
        raise SonnxError("GEMM_C3", problem, operator="gemm", tensor="C")
    return shape


def gemm(
    A: Array, B: Array, C: Array, *, alpha_ab: float, beta_c: float, trans_a: int, trans_b: int
) -> np.ndarray:
    """Matrix product of A and B plus C: exact sums of exact products and of C, rounded once.

    ``A`` has shape (m, n), ``B`` (n, p) and ``C`` (m, p), all three of rank 2
    (GEMM_C1, GEMM_C2): C is not broadcast (GEMM_C3). ``Y`` has shape (m, p).
    ``alpha_ab`` and ``beta_c`` are 1.0 and ``trans_a`` and ``trans_b`` are 0 (ONNX's
    alpha, beta, transA and transB), the values at which ONNX's Gemm is A·B + C (GEMM_C5,
    GEMM_C6); every attribute is given (GR4). Integers: the exact sum modulo
    2^n. Floating point: the exact real Σₖ A[i, k]·B[k, j] + C[i, j] rounded
    once to the type (to nearest, ties to even), whatever order an engine
    sums in; NaN and infinities as IEEE 754 gives them for any order; an exact
    zero is −0 only if every product and C[i, j] are −0; n = 0 gives C. An
    engine need not give this value: GEMM_P1 bounds how far from the exact
    sum its result may be.

    Returns a new array of the type of A, B and C.

    >>> import numpy as np, sonnx_spec
    >>> A = np.array([[1e8, 1.0]], dtype=np.float32)
    >>> B = np.ones((2, 1), dtype=np.float32)
    >>> C = np.array([[-1e8]], dtype=np.float32)
    >>> sonnx_spec.gemm(A, B, C, alpha_ab=1.0, beta_c=1.0, trans_a=0, trans_b=0)
    array([[1.]], dtype=float32)
    """
    check_attributes(alpha_ab, beta_c, trans_a, trans_b)  # GEMM_C5, GEMM_C6
    shape = output_shape(A, B, C)  # GEMM_C2, GEMM_C3; GEMM_C4: Y's shape
    dtype = np.asarray(A).dtype  # GEMM_C7: Y has the type of A, B and C
    if dtype in FLOAT_TYPES:
        # GEMM_S1, GEMM_S3, GEMM_S4, GEMM_S5: the exact sum of the exact products and of C, rounded once;
        # IEEE 754's NaN and infinities; the sign of an exact zero; n = 0 gives C (GEMM_S6).
        return exact_matmul("gemm", A, B, C)
    # GEMM_S1, GEMM_S2: integers, the sum modulo 2^n, made in the unsigned type of the width, whose machine
    # arithmetic is modulo 2^n (the bits of a two's complement value are its residue). n = 0 gives C.
    out = new_array("gemm", shape, dtype)
    words = np.dtype(f"u{dtype.itemsize}")
    np.matmul(np.asarray(A).view(words), np.asarray(B).view(words), out=out.view(words))
    np.add(out.view(words), np.asarray(C).view(words), out=out.view(words))
    return out


gemm = operator(
    gemm,
    onnx="Gemm",
    version=13,
    inputs=(
        Tensor("A", "A", "T", rank=2, rank_rule="GEMM_C1", doc="the left factor, a matrix of shape (m, n)"),
        Tensor("B", "B", "T", rank=2, rank_rule="GEMM_C1", doc="the right factor, a matrix of shape (n, p)"),
        Tensor("C", "C", "T", rank=2, rank_rule="GEMM_C1", doc="the addend, a matrix of shape (m, p)"),
    ),
    attributes=(
        Attribute("alpha_ab", "alpha", "float", doc="the factor of A·B: 1.0 only (GEMM_C5)"),
        Attribute("beta_c", "beta", "float", doc="the factor of C: 1.0 only (GEMM_C5)"),
        Attribute("trans_a", "transA", "int", doc="whether A is transposed first: 0 only (GEMM_C6)"),
        Attribute("trans_b", "transB", "int", doc="whether B is transposed first: 0 only (GEMM_C6)"),
    ),
    outputs=(Tensor("Y", "Y", "T", doc="A·B + C, of shape (m, p)"),),
    types={"T": ("int", "float")},
)


def engine_error(
    Y: np.ndarray, A: np.ndarray, B: np.ndarray, C: np.ndarray, *attributes: object
) -> np.ndarray:
    """GEMM_P1's bound on an engine's distance from the exact sum S at each element of Y (float64): MatMul's
    bound for n + 1 terms, the n products and C's element, γₙ₊₂·S⁺ + 2(n + 2)·η; +∞ (any value) where
    2(n + 2)·u > 1 or (1 + γₙ₊₂)·S⁺ passes the type's largest value. S⁺ = Σₖ |A·B| + |C| is bounded above:
    numpy's float64 sum of the magnitudes, raised by 4(n + 2) float64 units (its products and sums err by
    less); the total is raised by one float64 step, for the rounding of its last sum. Where S⁺ = 0 the
    rule asks for a zero of either sign: the bound there is η, which the judge widens by the reference's
    own rounding."""
    info = ml_dtypes.finfo(Y.dtype)
    n = A.shape[1]
    k = n + 2
    u = 2.0 ** -(info.nmant + 1)
    if 2 * k * u > 1:
        return np.full(Y.shape, np.inf)
    gamma = k * u / (1 - k * u)
    with np.errstate(over="ignore", invalid="ignore"):  # an infinite term: its element is exact anyway
        magnitudes = np.matmul(np.abs(np.asarray(A, np.float64)), np.abs(np.asarray(B, np.float64)))
        magnitudes += np.abs(np.asarray(C, np.float64))
        magnitudes *= 1 + 4 * k * 2.0**-53
        error = gamma * magnitudes + 2 * k * (float(info.smallest_subnormal) / 2)
        error = np.nextafter(error, np.inf)  # the sum rounded to nearest may lie below the exact one
        error[magnitudes == 0] = float(info.smallest_subnormal) / 2
        error[(1 + gamma) * magnitudes > float(info.max)] = np.inf
    return error


engines_within(gemm, Within("GEMM_P1", engine_error, of_exact=True))
