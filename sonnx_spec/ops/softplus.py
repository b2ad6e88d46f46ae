"""Softplus (ONNX Softplus-22 in the SONNX profile): Y[i] = ln(1 + e^X[i]), correctly rounded.

The function is a formula of two elementary functions: its exact value rounded once, by
sonnx_spec.correctly_rounded (Ziv's strategy). For float16, bfloat16 and float32, the float64 evaluation is
numpy's ``logaddexp(0, x)``, which computes ``max(x, 0) + log1p(exp(−|x|))`` (``0 − x`` exact; ``x = 0``
gives the correctly rounded ln 2). With t = e^(−|x|) ≤ 1 computed within δ and log1p within δ (each of
numpy's float64 functions, trusted within 2⁻⁴², measured below 2⁻⁵⁰), log1p's argument error moves its result
by at most δ·t/((1 + t)·log1p(t)) ≤ δ relative (ln(1 + t) ≥ t/(1 + t)); adding max(x, 0) ≥ 0, a sum of two
non-negative terms, keeps that relative error and rounds once more (2⁻⁵³): within 2δ + 2⁻⁵³ + δ² < 2⁻⁴⁰ of
the exact value, the module's trusted bound, wherever e^(−|x|) is a normal float64 (|x| < 708): beyond it,
for x > 0 the term is below 2⁻¹⁰²¹ of a result above 708; for x < 0 the result is below the smallest normal
value of every type but float64, which MPFR computes anyway. No cancellation: both terms are non-negative, and
where the result is small (x very negative) it is log1p(e^x), whose relative error stays δ + δ.
The elements it leaves undecided (near a midpoint, in the subnormal range) and every float64 element are
enclosed by MPFR with directed roundings, at twice the type's precision, doubled until both ends round alike
(Ziv's loop).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..accuracy import Ulps, engines_within
from ..correctly_rounded import Elementary, rounded
from ..families import UNARY, member
from ..registry import Tensor, operator

if TYPE_CHECKING:
    import gmpy2

Array = np.ndarray | np.generic


def _float64_softplus(out: np.ndarray, X: np.ndarray) -> None:
    # SOFTPLUS_S1: max(x, 0) + log1p(exp(−|x|)), within 2δ + 2⁻⁵³ of the exact value (the module's docstring).
    # SOFTPLUS_S2: logaddexp(0, NaN) = NaN, logaddexp(0, −∞) = 0 + log1p(0) = +0, logaddexp(0, +∞) = +∞.
    np.logaddexp(0.0, X, out=out, dtype=np.float64)


def _mpfr_softplus(context: gmpy2.context, x: gmpy2.mpfr) -> gmpy2.mpfr:
    """ln(1 + e^x) rounded once in ``context``: an enclosure [lo, hi] of the exact value, max(x, 0) +
    log1p(e^(−|x|)) with every step rounded down for lo and up for hi, at twice the context's precision,
    doubled until lo and hi round alike in ``context``. The exact value is never a midpoint (it is
    transcendental for every finite x, by Lindemann–Weierstrass), so the loop ends."""
    import gmpy2  # imported by correctly_rounded before this runs, and only then (its docstring says why)

    if gmpy2.is_nan(x):  # SOFTPLUS_S2
        return x
    positive = max(x, 0)  # x or the integer 0
    precision = context.precision
    while True:
        precision *= 2  # twice the type's bits first: all but about one element in 2^p decided at once
        # MPFR's default exponent range, ±2³⁰: e^(−|x|) ≤ 1 never overflows, and underflows only for
        # |x| > 7·10⁸, where lo and hi both round to +0 (x < 0) or to x itself (x > 0), as the exact value
        lo, hi = (gmpy2.context(precision=precision, round=way) for way in (gmpy2.RoundDown, gmpy2.RoundUp))
        negative = lo.minus(lo.abs(x))  # −|x|, exact at this precision
        low = lo.add(positive, lo.log1p(lo.exp(negative)))  # SOFTPLUS_S1: below the exact value
        high = hi.add(positive, hi.log1p(hi.exp(negative)))  # SOFTPLUS_S1: above it
        result = context.plus(low)
        if result == context.plus(high):
            return result


SOFTPLUS = Elementary("softplus", float64=_float64_softplus, mpfr=_mpfr_softplus)
"""The softplus function, as sonnx_spec.correctly_rounded evaluates it."""


def softplus(X: Array) -> np.ndarray:
    """Element-wise softplus, ``ln(1 + e^X[i])``, correctly rounded.

    Each element is the exact value of ln(1 + e^X[i]) rounded once to X's type, to nearest with ties to even,
    a subnormal or an underflow to +0 (X[i] very negative, where the value is about e^X[i]) included; the
    result is never negative: ``softplus(−∞) = +0``, ``softplus(+∞) = +∞``, ``softplus(NaN) = NaN``. Integer
    tensors are refused (GEN_C1): ONNX Softplus-22 has no integer type.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.softplus(np.array([0.0, 1.0, -20.0, -np.inf], dtype=np.float32))
    array([6.9314718e-01, 1.3132616e+00, 2.0611537e-09, 0.0000000e+00],
          dtype=float32)
    """
    # SOFTPLUS_C1, SOFTPLUS_C2: X's shape alone, X's type. SOFTPLUS_S1: ln(1 + e^X[i]) rounded once.
    return rounded("softplus", SOFTPLUS, X)


softplus = operator(
    softplus,
    onnx="Softplus",
    version=22,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the softplus of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, softplus)
# SOFTPLUS_P2: an engine gives the correctly rounded result or one of its neighbours
engines_within(softplus, Ulps(1, "SOFTPLUS_P2"))
