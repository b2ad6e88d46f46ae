"""Exp (ONNX Exp-13 in the SONNX profile): Y[i] = e^X[i], correctly rounded, for the floating-point types."""

from __future__ import annotations

import numpy as np

from ..accuracy import Ulps, engines_within
from ..correctly_rounded import Elementary, rounded
from ..families import UNARY, member
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def _float64_exp(out: np.ndarray, X: np.ndarray) -> None:
    # EXP_S2: numpy's float64 exp gives IEEE 754's special values: exp(NaN) = NaN, exp(−∞) = +0, exp(+∞) = +∞.
    np.exp(X, out=out, dtype=np.float64)


EXP = Elementary("exp", float64=_float64_exp, mpfr=lambda context, x: context.exp(x))
"""The exponential, as sonnx_spec.correctly_rounded evaluates it."""


def exp(X: Array) -> np.ndarray:
    """Element-wise exponential of a floating-point tensor, correctly rounded.

    Each element is the exact value of e^X[i] rounded once to X's type, to nearest with ties to even, a
    subnormal or an overflow to +∞ included: ``exp(−∞) = +0``, ``exp(+∞) = +∞``, ``exp(NaN) = NaN``.
    Integer tensors are refused (GEN_C1): ONNX Exp-13 has no integer type.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.exp(np.array([0.0, 1.0, -np.inf], dtype=np.float32))
    array([1.       , 2.7182817, 0.       ], dtype=float32)
    """
    # EXP_C1, EXP_C2: X's shape alone, X's type. EXP_S1: e^X[i] rounded once (Ziv: float64, else MPFR).
    return rounded("exp", EXP, X)


exp = operator(
    exp,
    onnx="Exp",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the exponential of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, exp)
# EXP_P2: an engine gives the correctly rounded result or one of its neighbours
engines_within(exp, Ulps(1, "EXP_P2"))
