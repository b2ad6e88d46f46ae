"""Tanh (ONNX Tanh-13 in the SONNX profile): Y[i] = tanh X[i], correctly rounded, for the float types."""

from __future__ import annotations

import numpy as np

from ..accuracy import Ulps, engines_within
from ..correctly_rounded import Elementary, rounded
from ..families import UNARY, member
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def _float64_tanh(out: np.ndarray, X: np.ndarray) -> None:
    # TANH_S2: numpy's float64 tanh gives IEEE 754's special values: tanh(±0) = ±0, tanh(±∞) = ±1, NaN.
    np.tanh(X, out=out, dtype=np.float64)


TANH = Elementary("tanh", float64=_float64_tanh, mpfr=lambda context, x: context.tanh(x))
"""The hyperbolic tangent, as sonnx_spec.correctly_rounded evaluates it."""


def tanh(X: Array) -> np.ndarray:
    """Element-wise hyperbolic tangent of a floating-point tensor, correctly rounded.

    Each element is the exact value of tanh X[i] rounded once to X's type, to nearest with ties to even, a
    subnormal result included: ``tanh(±0) = ±0``, ``tanh(±∞) = ±1``, ``tanh(NaN) = NaN``. Integer tensors
    are refused (GEN_C1): ONNX Tanh-13 has no integer type.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.tanh(np.array([0.0, 1.0, -np.inf], dtype=np.float32))
    array([ 0.       ,  0.7615942, -1.       ], dtype=float32)
    """
    # TANH_C1, TANH_C2: X's shape alone, X's type. TANH_S1: tanh X[i] rounded once (Ziv: float64, else MPFR).
    return rounded("tanh", TANH, X)


tanh = operator(
    tanh,
    onnx="Tanh",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the hyperbolic tangent of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, tanh)
# TANH_P2: one step from the correctly rounded result; tanh(±0) = ±0 exactly
engines_within(tanh, Ulps(1, "TANH_P2", exact_where=lambda X: X == 0))
