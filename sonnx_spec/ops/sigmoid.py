"""Sigmoid (ONNX Sigmoid-13 in the SONNX profile): Y[i] = 1/(1 + e^−X[i]), correctly rounded.

The function is a formula: its exact value rounded once, by sonnx_spec.correctly_rounded (Ziv's strategy).
For float16, bfloat16 and float32, the float64 evaluation e^−x, 1 + ·, 1/· has a relative error below
2⁻³⁹: numpy's exp is trusted within ε = 2⁻⁴⁰ (the module's bound, RELATIVE_ERROR), which 1 + e^−x keeps
(e^−x/(1 + e^−x) < 1; where e^−x is a float64 subnormal, x > 708.39, its absolute error is nothing against
1), and the sum and the quotient round once each, within u = 2⁻⁵³: y = σ(x)(1 + δ₃)/((1 + δ₁)(1 + δ₂)),
|δ₁| ≤ ε, |δ₂|, |δ₃| ≤ u, so |y/σ(x) − 1| ≤ (1 + u)/((1 − ε)(1 − u)) − 1 < 2⁻⁴⁰ + 2⁻⁵¹ < 2⁻³⁹, a margin of
almost 2. Where e^−x overflows (x < −709.78) or the quotient is a float64 subnormal (x < −708.39), the
bound fails, but σ(x) is then far below every target's smallest subnormal: y is +0 or below float32's
smallest normal value, which goes to MPFR. The elements the float64 evaluation
leaves undecided (near a midpoint, in the subnormal range) and every float64 element are computed by MPFR
with directed roundings, at a precision doubled until both bounds round alike (Ziv's loop).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..accuracy import Ulps, engines_within
from ..correctly_rounded import RELATIVE_ERROR, Elementary, rounded
from ..families import UNARY, member
from ..registry import Tensor, operator

if TYPE_CHECKING:
    import gmpy2

Array = np.ndarray | np.generic

FLOAT64_ERROR = 2 * RELATIVE_ERROR
"""The relative error of the float64 evaluation (2⁻³⁹): numpy's exp within 2⁻⁴⁰, then two roundings of
2⁻⁵³ each (the module's docstring derives it)."""

GUARD_BITS = 16
"""The bits MPFR's first attempt computes beyond the target's precision; each further attempt doubles it."""


def _float64_sigmoid(out: np.ndarray, X: np.ndarray) -> None:
    # SIGMOID_S2: −∞ gives 1/(1 + ∞) = +0, +∞ gives 1/(1 + 0) = 1, NaN gives NaN (IEEE 754, C99 Annex F)
    np.negative(X, out=out)  # exact, in X's type or in float64
    np.exp(out, out=out)  # within 2⁻⁴⁰ of e^−x; +∞ from −x > 709.78, where σ(x) < 2⁻¹⁰²⁴
    np.add(out, 1.0, out=out)  # within 2⁻⁵³
    np.divide(1.0, out, out=out)  # SIGMOID_S1: within 2⁻³⁹ of σ(x), normal results


def _mpfr_sigmoid(context: gmpy2.context, x: gmpy2.mpfr) -> gmpy2.mpfr:
    """σ(x) rounded once in ``context``: a lower and an upper bound of σ(x) computed with directed roundings,
    at a precision doubled until both round alike in ``context`` (Ziv's loop). σ(x) is irrational for every
    rational x but 0 (e^−x is, by Lindemann), so it is never a midpoint and the loop ends; σ(0) = 1/2."""
    import gmpy2  # imported by correctly_rounded before this runs, and only then (its docstring says why)

    if gmpy2.is_nan(x):  # SIGMOID_S2: NaN gives NaN; ±∞ go through the formula: e^+∞ = +∞, e^−∞ = +0
        return x
    precision = context.precision + GUARD_BITS
    while True:
        low, high = (context.plus(bound) for bound in _bounds(x, precision))
        if low == high:  # SIGMOID_S1: σ(x) lies between them, and rounding keeps the order
            return low
        precision *= 2


def _bounds(x: gmpy2.mpfr, precision: int) -> tuple[gmpy2.mpfr, gmpy2.mpfr]:
    """A lower and an upper bound of σ(x) = 1/(1 + e^−x) at ``precision`` bits: the lower one rounds the
    denominator up and the quotient down, the upper one the other way. In MPFR's default exponent range,
    e^−x overflows (to +∞ rounded up, to the largest number rounded down) only where σ(x) < 2^−(2³⁰):
    both bounds then round to +0 in every target."""
    import gmpy2

    down = gmpy2.context(precision=precision, round=gmpy2.RoundDown)
    up = gmpy2.context(precision=precision, round=gmpy2.RoundUp)
    return down.div(1, up.add(1, up.exp(-x))), up.div(1, down.add(1, down.exp(-x)))


SIGMOID = Elementary("sigmoid", float64=_float64_sigmoid, mpfr=_mpfr_sigmoid, error=FLOAT64_ERROR)
"""The logistic sigmoid, as sonnx_spec.correctly_rounded evaluates it."""


def sigmoid(X: Array) -> np.ndarray:
    """Element-wise logistic sigmoid ``1/(1 + e^−X[i])`` of a floating-point tensor, correctly rounded.

    Each element is the exact real value of ``1/(1 + e^−X[i])`` rounded once to X's type, to nearest with
    ties to even, a subnormal or a zero included (σ(x) is about e^x for a large negative x):
    ``sigmoid(−∞) = +0``, ``sigmoid(+∞) = 1``, ``sigmoid(NaN) = NaN``; no result is negative or above 1.
    Integer tensors are refused (GEN_C1): ONNX Sigmoid-13 has no integer type.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.sigmoid(np.array([0.0, 1.0, -20.0, -np.inf], dtype=np.float32))
    array([5.0000000e-01, 7.3105860e-01, 2.0611537e-09, 0.0000000e+00],
          dtype=float32)
    """
    # SIGMOID_C1, SIGMOID_C2: X's shape alone, X's type. SIGMOID_S1: σ(X[i]) rounded once (Ziv).
    return rounded("sigmoid", SIGMOID, X)


sigmoid = operator(
    sigmoid,
    onnx="Sigmoid",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the sigmoid of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, sigmoid)
# SIGMOID_P2: an engine gives the correctly rounded result or one of its neighbours
engines_within(sigmoid, Ulps(1, "SIGMOID_P2"))
