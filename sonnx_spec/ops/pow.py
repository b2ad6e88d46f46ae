"""Pow (ONNX Pow-15 in the SONNX profile): Z[i] = X[i] ^ Y[i], for X and Y of one type and one shape:
correctly rounded for the floating-point types, exact modulo 2^n for int32 and int64."""

from __future__ import annotations

import numpy as np

from ..accuracy import Ulps, engines_within
from ..checks import first_index, same_shape
from ..correctly_rounded import Elementary, rounded
from ..errors import SonnxError
from ..families.elementwise import arithmetic
from ..registry import Tensor, operator
from ..types import FLOAT_TYPES

Array = np.ndarray | np.generic


def _float64_pow(out: np.ndarray, X: np.ndarray, Y: np.ndarray) -> None:
    # POW_S3, POW_S4, POW_S5, POW_S6, POW_S7: numpy's float64 power is the C library's pow, whose special
    # values are C99's Annex F, IEEE 754's 9.2.1: pow(NaN, ±0) = 1, pow(+1, NaN) = 1, pow(−0, −1) = −∞.
    np.power(X, Y, out=out, dtype=np.float64)


POW = Elementary("pow", float64=_float64_pow, mpfr=lambda context, x, y: context.pow(x, y))
"""The power function, as sonnx_spec.correctly_rounded evaluates it: MPFR's pow has IEEE 754's special values
too, and rounds its exact value once."""


def pow(X: Array, Y: Array) -> np.ndarray:  # noqa: A001 - the operator's name
    """Element-wise power X[i] ^ Y[i] of two tensors of one type and one shape.

    Floating point: the exact value of X[i] raised to Y[i] rounded once to the type, to nearest with ties to
    even, with IEEE 754's special values (``pow(x, ±0) = 1`` for every x, NaN included; ``pow(+1, y) = 1``
    for every y; ``pow(−0, −1) = −∞``; a negative finite base with a finite non-integer exponent gives
    NaN). int32 and int64: the exact integer power wrapped modulo 2^n, as Mul wraps its products, with
    ``0 ^ 0 = 1``; a negative exponent is refused (POW_E1). Tensors of different shapes are refused
    (POW_C1): ONNX broadcasts them, the profile does not.

    Returns a new array of the shape and type of X and Y.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([9.0, 4.0, -8.0, 0.0], dtype=np.float32)
    >>> sonnx_spec.pow(X, np.array([2.0, 2.5, 3.0, -1.0], dtype=np.float32))
    array([  81.,   32., -512.,   inf], dtype=float32)
    """
    same_shape("pow", "POW_C1", X=X, Y=Y)
    if X.dtype in FLOAT_TYPES:
        # POW_C2, POW_C3: a new array of the shape and the type of X and Y. POW_S1: X[i] ^ Y[i] rounded once
        # (Ziv: float64, else MPFR); POW_S3, POW_S4, POW_S5, POW_S6, POW_S7: IEEE 754's special values, from
        # both evaluations.
        return rounded("pow", POW, X, Y)
    negative = Y < 0
    if negative.any():
        index = list(first_index(np.asarray(negative)))
        raise SonnxError(
            "POW_E1",
            f"pow: Y{index} is {int(np.asarray(Y)[tuple(index)])}: an integer raised to a negative power "
            "is not an integer",
        )
    # POW_C2, POW_C3: the shape and type of X and Y. POW_S2: numpy's power of the unsigned
    # words of the width, square and multiply modulo 2^n, read back as the type: the exact power wrapped.
    return arithmetic("pow", np.power, X, Y)


pow = operator(  # noqa: A001 - the operator's name
    pow,
    onnx="Pow",
    version=15,
    inputs=(
        Tensor("X", "X", "T", doc="the base"),
        Tensor("Y", "Y", "T", doc="the exponent, of the shape and the type of X"),
    ),
    outputs=(Tensor("Z", "Z", "T", doc="X raised to the power Y, element by element"),),
    types={"T": ("int32", "int64", "float")},
)


def exact_cases(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Where POW_P2 asks engines for the reference's result itself among finite operands: POW_S3's +1 (a
    zero exponent, a base of +1), POW_S4's zero base, POW_S7's NaN (a negative base, a non-integer
    exponent)."""
    return (Y == 0) | (X == 1) | (X == 0) | ((X < 0) & (np.round(Y) != Y))


engines_within(pow, Ulps(1, "POW_P2", exact_where=exact_cases))
