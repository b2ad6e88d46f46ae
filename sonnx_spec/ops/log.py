"""Log (ONNX Log-13 in the SONNX profile): Y[i] = ln X[i], correctly rounded, for the floating-point types."""

from __future__ import annotations

import numpy as np

from ..accuracy import Ulps, engines_within
from ..correctly_rounded import Elementary, rounded
from ..families import UNARY, member
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def _float64_log(out: np.ndarray, X: np.ndarray) -> None:
    # The logarithm of |X[i]|: numpy's float64 log of a negative value takes a slow path (several times the
    # operator's time); _nan_below_minus_zero gives those elements their NaN.
    np.log(np.abs(X), out=out, dtype=np.float64)  # LOG_S2: log(±0) = −∞, log(+∞) = +∞, log(NaN) = NaN


def _nan_below_minus_zero(Y: np.ndarray, X: np.ndarray) -> None:
    """NaN in Y where X[i] < 0, on the bits (a masked write costs ten times more where signs are mixed):
    X + 0 turns −0 into +0, so that the sign bit is set exactly below −0 (and for a NaN with its sign bit,
    whose result is NaN anyway); a quiet NaN's bits, OR-ed into Y[i] there, make it a NaN."""
    words = np.dtype(f"i{X.dtype.itemsize}")
    quiet_nan = np.array(np.nan, X.dtype).view(words)
    below = np.signbit(X + X.dtype.type(0))
    np.bitwise_or(Y.view(words), below * quiet_nan, out=Y.view(words))  # LOG_S2: NaN below −0, −∞ included


LOG = Elementary(
    "log",
    float64=_float64_log,
    mpfr=lambda context, x: context.log(x),
    special=_nan_below_minus_zero,
)
"""The natural logarithm, as sonnx_spec.correctly_rounded evaluates it."""


def log(X: Array) -> np.ndarray:
    """Element-wise natural logarithm of a floating-point tensor, correctly rounded.

    Each element is the exact value of ln X[i] rounded once to X's type, to nearest with ties to even, for
    X[i] > 0; ``log(±0) = −∞``, ``log(+∞) = +∞``, and the logarithm of NaN or of any value below −0 is NaN.
    Integer tensors are refused (GEN_C1): ONNX Log-13 has no integer type.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.log(np.array([1.0, 2.0, 0.0, -1.0], dtype=np.float32))
    array([0.       , 0.6931472,      -inf,       nan], dtype=float32)
    """
    # LOG_C1, LOG_C2: X's shape alone, X's type. LOG_S1: ln X[i] rounded once (Ziv: float64, else MPFR).
    return rounded("log", LOG, X)


log = operator(
    log,
    onnx="Log",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the natural logarithm of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, log)
# LOG_P2: one step from the correctly rounded result; ln(±0) = −∞, ln 1 = +0 and NaN below −0 exactly
engines_within(log, Ulps(1, "LOG_P2", exact_where=lambda X: (X <= 0) | (X == 1)))
