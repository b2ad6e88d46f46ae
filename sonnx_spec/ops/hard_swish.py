"""HardSwish (ONNX HardSwish-22 in the SONNX profile): Y[i] = X[i]·min(max(X[i] + 3, 0), 6) / 6.

The function is rational: its exact value rounded once, by sonnx_spec.correctly_rounded (Ziv's strategy).
For float16, bfloat16 and float32, the float64 evaluation max(x, −3), + 3, min(·, 6), ×, ÷ 6 rounds three
times, each within 2⁻⁵³ (no float64 underflow: |h(x)| > 2⁻¹⁵¹; no overflow), so within 2⁻⁵¹ of the
exact value, inside the module's trusted bound. The elements it leaves undecided (near a midpoint, in the
subnormal range) and every float64 element are computed in exact rationals and rounded once by MPFR.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np

from ..correctly_rounded import Elementary, rounded
from ..families import UNARY, member
from ..registry import Tensor, operator

if TYPE_CHECKING:
    import gmpy2

Array = np.ndarray | np.generic


def _float64_hard_swish(out: np.ndarray, X: np.ndarray) -> None:
    out[...] = X  # exact for every float type
    np.maximum(out, -3.0, out=out)  # HARDSWISH_S3: x ≤ −3 (−∞ included) as −3, whose result is −0; NaN kept
    np.multiply(out, np.minimum(out + 3.0, 6.0), out=out)  # x ≥ 3 (+∞ included): x·6 (HARDSWISH_S2)
    np.divide(out, 6.0, out=out)  # HARDSWISH_S1: within 2⁻⁵¹ of the exact value


def _mpfr_hard_swish(context: gmpy2.context, x: gmpy2.mpfr) -> gmpy2.mpfr:
    """h(x) in exact rationals, rounded once in ``context``; a zero result has x's sign."""
    import gmpy2  # imported by correctly_rounded before this runs, and only then (its docstring says why)

    c = max(x, -3)  # HARDSWISH_S3: x ≤ −3 (−∞ included) as −3; NaN kept, as −3 > NaN is false
    if not gmpy2.is_finite(c):  # HARDSWISH_S2: NaN, +∞
        return c
    q = gmpy2.mpq(c)
    h = q * min(q + 3, 6) / 6  # HARDSWISH_S1: exact
    return gmpy2.copy_sign(context.div(h.numerator, h.denominator), x)


HARD_SWISH = Elementary("hard_swish", float64=_float64_hard_swish, mpfr=_mpfr_hard_swish)
"""The hard swish, as sonnx_spec.correctly_rounded evaluates it."""


def hard_swish(X: Array) -> np.ndarray:
    """Element-wise hard swish: ``X[i]·min(max(X[i] + 3, 0), 6) / 6``, rounded once.

    The exact real value of ONNX's formula ``x·max(0, min(1, x/6 + 1/2))`` (with
    the real 1/6, not a floating-point one) rounded once to ``X``'s type, to
    nearest, ties to even. A NaN stays NaN, ``+inf`` gives ``+inf``, every
    ``x ≤ −3`` (``−inf`` included) gives ``−0``, and a zero result has the
    sign of ``X[i]``.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.hard_swish(np.array([-4.0, -1.5, 0.75, 1.0, 3.0], dtype=np.float32)).tolist()
    [-0.0, -0.375, 0.46875, 0.6666666865348816, 3.0]
    """
    # HARDSWISH_C1, HARDSWISH_C2: X's shape, X's type. HARDSWISH_S1: h(X[i]) rounded once.
    return rounded("hard_swish", HARD_SWISH, X)


def exact(x: float) -> Fraction:
    """h(x) = x·min(max(x + 3, 0), 6)/6 for a finite x, exactly."""
    v = Fraction(x)
    return v * min(max(v + 3, Fraction(0)), Fraction(6)) / 6


def ulp(v: Fraction, dtype: np.dtype) -> Fraction:
    """The spacing of ``dtype``'s values at the real |v|: 2^(e − p + 1) for 2^e ≤ |v| < 2^(e+1), e taken at
    least the lowest normal exponent: the smallest subnormal below the normal range."""
    info = ml_dtypes.finfo(dtype)
    v = abs(v)
    e = v.numerator.bit_length() - v.denominator.bit_length()  # the exponent, or one more
    if Fraction(2) ** e > v:
        e -= 1
    return Fraction(2) ** (max(e, info.minexp) - info.nmant)


def meets_accuracy(X: Array, Y: Array) -> np.ndarray:
    """Whether an engine's result ``Y`` for ``X`` (of one shape and one float type) meets the accuracy the
    profile requires of HardSwish, at each index (HARDSWISH_P2): for a finite X[i], Y[i] finite and
    within 2·ulp(h) + ulp(X[i]) of the exact h(X[i]); NaN for NaN, +∞ for +∞, a zero for −∞. Exact."""
    X, Y = np.asarray(X), np.asarray(Y)
    ok = np.empty(X.shape, bool)
    for index in np.ndindex(ok.shape):
        ok[index] = _meets(float(X[index]), float(Y[index]), X.dtype)
    return ok


def _meets(x: float, y: float, dtype: np.dtype) -> bool:
    if math.isnan(x):
        return math.isnan(y)
    if math.isinf(x):
        return y == max(x, 0.0)  # +∞ for +∞, a zero (either) for −∞
    if not math.isfinite(y):
        return False
    h = exact(x)  # HARDSWISH_P2: the bound, in exact rationals
    return abs(Fraction(y) - h) <= 2 * ulp(h, dtype) + ulp(Fraction(x), dtype)


hard_swish = operator(
    hard_swish,
    onnx="HardSwish",
    version=22,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the hard swish of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, hard_swish)
