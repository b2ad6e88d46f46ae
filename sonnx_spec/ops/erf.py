"""Erf (ONNX Erf-13 in the SONNX profile): Y[i] = erf X[i], correctly rounded, for the float types.

numpy has no error function. The float64 evaluation of sonnx_spec.correctly_rounded is Python's standard
``math.erf`` (the C library's erf), element by element: like numpy's exp, it is not correctly rounded, and is
trusted within the module's relative error, RELATIVE_ERROR = 2⁻⁴⁰, 2¹³ times a unit of float64's last place;
the tests measure it against MPFR on every float16 and bfloat16 value and a float32 sample. MPFR's erf,
correctly rounded, gives every float64 result and the results the float64 evaluation leaves undecided.
"""

from __future__ import annotations

import math

import numpy as np

from ..correctly_rounded import Elementary, rounded
from ..families import UNARY, member
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def _float64_erf(out: np.ndarray, X: np.ndarray) -> None:
    # ERF_S2: the C library's erf gives C99 Annex F's special values: erf(±0) = ±0, erf(±∞) = ±1, NaN.
    out[...] = list(map(math.erf, X.tolist()))  # Python floats: every value of X's type exactly


ERF = Elementary("erf", float64=_float64_erf, mpfr=lambda context, x: context.erf(x))
"""The error function, as sonnx_spec.correctly_rounded evaluates it."""


def erf(X: Array) -> np.ndarray:
    """Element-wise error function of a floating-point tensor, correctly rounded.

    Each element is the exact value of erf X[i] = (2/√π)·∫₀^X[i] e^(−t²) dt rounded once to X's type, to
    nearest with ties to even, a subnormal result included: ``erf(±0) = ±0``, ``erf(±∞) = ±1``,
    ``erf(NaN) = NaN``. Integer tensors are refused (GEN_C1), although ONNX Erf-13 lists integer types: the
    profile gives them no rounding rule.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.erf(np.array([0.0, 1.0, -np.inf], dtype=np.float32))
    array([ 0.       ,  0.8427008, -1.       ], dtype=float32)
    """
    # ERF_C1, ERF_C2: X's shape alone, X's type. ERF_S1: erf X[i] rounded once (Ziv: float64, else MPFR).
    return rounded("erf", ERF, X)


erf = operator(
    erf,
    onnx="Erf",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the error function of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, erf)
