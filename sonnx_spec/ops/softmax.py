"""Softmax (ONNX Softmax-13 in the SONNX profile): e^X[i] / Σ_j e^X[j] along an axis, correctly rounded.

Each slice of X along the axis (the elements whose indices differ at the axis only) is normalised on its own.
Where the slice's maximum M is finite, each element is the exact real quotient e^(x_i − M) / Σ_j e^(x_j − M)
(the same number as e^x_i / Σ_j e^x_j) rounded once to X's type; a −∞ element contributes e^−∞ = 0 and gets
+0. A slice whose maximum is NaN (it holds a NaN) or +∞ (it holds a +∞) gives NaN at every element
(SOFTMAX_S2); a slice of −∞ only, 0/0, gives NaN too (SOFTMAX_S3).

**How, fast.** For float16, bfloat16 and float32 the quotient is evaluated in float64 (M exact; d = x − M,
t = exp(d), S = Σ t in numpy's order, y = t / S) within a relative error E(n) = 2⁻³⁸ + n·2⁻⁵² of the exact
value, n the length of a slice (the page derives it step by step, :data:`BASE_ERROR`). An element is decided
where y·(1 − 2E) and y·(1 + 2E) round alike in X's type: the exact value lies between them and rounding keeps
the order. The others, and every float64 element, are computed by MPFR (gmpy2), slice by slice: every term
e^(x_j − M) enclosed with directed roundings, their sum enclosed, each pending quotient enclosed, at 16 bits
more than the type, then twice as many, until both ends of a quotient round alike (Ziv's loop). It ends: the
quotient is 1/n where every element of the slice is equal (never a midpoint: a power of two, or not a dyadic
number at all), and transcendental otherwise (Lindemann–Weierstrass: e^d for distinct rational d are
linearly independent over the algebraic numbers).
"""

from __future__ import annotations

import importlib
from typing import Any

import ml_dtypes
import numpy as np

from ..accuracy import Within, engines_within, half_spacing
from ..checks import new_array
from ..correctly_rounded import mpfr_context
from ..errors import SonnxError
from ..families.axes import normalized_axis
from ..registry import Attribute, Tensor, operator
from ..rounding import rounded_to

Array = np.ndarray | np.generic

BASE_ERROR = 2.0**-38
"""The part of the float64 evaluation's relative error that does not grow with the slice: numpy's exp within
ε = 2⁻⁴⁰ (RELATIVE_ERROR), the subtraction x − M within 709·2⁻⁵³ < 2⁻⁴³·⁴ of d where e^d is a normal float64
(moved into e^d: a relative 2⁻⁴³·⁴), once in the numerator and once in the sum, and the division's 2⁻⁵³:
2·(2⁻⁴⁰ + 2⁻⁴³·⁴) + 2⁻⁵³ < 2.2·2⁻⁴⁰, bounded by 4·2⁻⁴⁰."""

SUM_ERROR = 2.0**-52
"""The part per element of the slice: a float64 sum of n non-negative terms in any order is within
γ(n−1) = (n−1)u/(1 − (n−1)u) ≤ 2(n−1)u of the exact sum of the terms (u = 2⁻⁵³): at most n·2⁻⁵²."""

GUARD_BITS = 16
"""The bits MPFR's first attempt computes beyond the type's precision; each further attempt doubles them."""


def _gmpy2() -> Any:
    """gmpy2, imported when MPFR is first needed (sonnx_spec.correctly_rounded says why)."""
    return importlib.import_module("gmpy2")


def error_bound(n: int) -> float:
    """E(n): the relative error of the float64 evaluation of a slice of n elements, where e^(x_i − M) is a
    normal float64 (the page's derivation)."""
    return BASE_ERROR + n * SUM_ERROR


def softmax(X: Array, *, axis: int) -> np.ndarray:
    """Softmax of a floating-point tensor along ``axis``, each element correctly rounded.

    ``axis`` is in [−r, r − 1] for ``X`` of rank r ≥ 1 (a negative axis counts from the end). Each element
    is the exact value of e^X[i] divided by the sum of e^X[j] over the slice through i along the axis,
    rounded once to X's type, to nearest with ties to even: a slice of one finite element gives 1, a −∞
    element among finite ones gives +0. A slice holding a NaN or a +∞, or made of −∞ only, gives NaN at
    every element. An axis of length 0 gives an empty result.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.softmax(np.array([[1.0, 2.0, 3.0], [0.0, 0.0, -np.inf]], np.float32), axis=1)
    array([[0.09003057, 0.24472848, 0.66524094],
           [0.5       , 0.5       , 0.        ]], dtype=float32)
    """
    a = normalized_axis(axis, np.ndim(X))
    if a is None:
        rank = np.ndim(X)
        problem = f"softmax: axis is {axis}, outside [{-rank}, {rank - 1}] for X of rank {rank}"
        raise SonnxError("SOFTMAX_C1", problem)
    out = new_array("softmax", X.shape, X.dtype)  # SOFTMAX_C2, SOFTMAX_C3: X's shape and type, new
    if out.size == 0:  # SOFTMAX_S1: no slice, or slices of no element: nothing to compute
        return out
    moved = np.moveaxis(np.asarray(X), a, -1)  # a view: each slice along the last axis
    n = moved.shape[-1]
    lines = moved.reshape(-1, n).astype(np.float64)  # a new array; exact: float64 holds every value
    result = np.empty(lines.shape, X.dtype)
    with np.errstate(all="ignore"):  # a NaN, an infinity or an underflow is a specified result
        M = lines.max(axis=1, keepdims=True)  # NaN with a NaN, +∞ with a +∞, −∞ for −∞ only
        undefined = ~np.isfinite(M[:, 0])  # SOFTMAX_S2 (NaN, +∞), SOFTMAX_S3 (−∞ only): NaN
        terms = np.exp(lines - M)  # e^d, d = x − M within 2⁻⁵³·|d|, e^d within 2⁻⁴⁰; a −∞ element: 0
        y = terms / terms.sum(axis=1, keepdims=True)  # SOFTMAX_S1: within E(n) where e^d is normal
        if X.dtype == np.float64:  # a float64 evaluation cannot decide a float64 rounding: MPFR for all
            undecided = np.ones(lines.shape, bool)
        else:
            result[...] = rounded_to(y, X.dtype)
            undecided = undecided_roundings(y, result, n)
        undecided[undefined] = False
    result[undefined] = np.nan  # SOFTMAX_S2, SOFTMAX_S3: every element of such a slice
    rows = np.flatnonzero(undecided.any(axis=1))
    if rows.size:
        context = mpfr_context(X.dtype)
        for row in rows.tolist():
            columns = np.flatnonzero(undecided[row]).tolist()
            result[row, columns] = _mpfr_slice(lines[row].tolist(), columns, context)
    np.moveaxis(out, a, -1)[...] = result.reshape(moved.shape)
    return out


def undecided_roundings(y: np.ndarray, rounded: np.ndarray, n: int) -> np.ndarray:
    """Where the float64 values ``y`` of slices of n elements, ``rounded`` to the type, may not be the
    correctly rounded quotients: where y·(1 − 2E(n)) or y·(1 + 2E(n)) rounds otherwise. The exact quotient
    lies between them (each within 2⁻⁵³ of its product, with E(n) ≥ 2⁻³⁸), and rounding is monotone."""
    width = 2 * error_bound(n)
    below = rounded_to(y * (1 - width), rounded.dtype) != rounded
    return below | (rounded_to(y * (1 + width), rounded.dtype) != rounded)


def quotient_bounds(values: list[Any], columns: list[int], precision: int) -> list[tuple[Any, Any]]:
    """For each i of ``columns``, a lower and an upper bound at ``precision`` bits of the quotient
    e^(x_i − M) / Σ_j e^(x_j − M) of the slice ``values`` (gmpy2 numbers, their maximum M finite): every
    step rounded down for the lower one (the denominator up), up for the upper one."""
    gmpy2 = _gmpy2()
    down = gmpy2.context(precision=precision, round=gmpy2.RoundDown)
    up = gmpy2.context(precision=precision, round=gmpy2.RoundUp)
    top = max(values)
    low = [down.exp(down.sub(x, top)) for x in values]  # below e^(x − M); 0 for −∞
    high = [up.exp(up.sub(x, top)) for x in values]  # above it
    low_sum, high_sum = down.fsum(low), up.fsum(high)  # MPFR's exact sums, rounded down, up
    return [(down.div(low[i], high_sum), up.div(high[i], low_sum)) for i in columns]


def _mpfr_slice(line: list[float], columns: list[int], context: Any) -> list[float]:
    """The quotients at ``columns`` of one slice (Python floats, its maximum finite), each rounded once in
    ``context``: Ziv's loop, their bounds at 16 bits more than the type, then at twice as many bits, until
    both bounds of each round alike."""
    mpfr = _gmpy2().mpfr
    values = [mpfr(x, 1) for x in line]  # precision 1: each float exactly
    found: dict[int, float] = {}
    pending = list(columns)
    precision = context.precision + GUARD_BITS
    while pending:
        for i, (low, high) in zip(pending, quotient_bounds(values, pending, precision), strict=True):
            lower = context.plus(low)  # SOFTMAX_S1: the quotient lies between low and high
            if lower == context.plus(high):
                found[i] = float(lower)
        pending = [i for i in pending if i not in found]
        precision *= 2
    return [found[i] for i in columns]


softmax = operator(
    softmax,
    onnx="Softmax",
    version=13,
    inputs=(Tensor("X", "input", "T", doc="the input tensor"),),
    attributes=(Attribute("axis", "axis", "int", doc="the axis along which the slices are normalised"),),
    outputs=(Tensor("Y", "output", "T", doc="the softmax of X along axis"),),
    types={"T": ("float",)},
)


def engine_error(Y: np.ndarray, X: np.ndarray) -> np.ndarray:
    """SOFTMAX_P2's bound on an engine's error at each element: max(4 ulp(Y[i]), 4u), u = 2⁻ᵖ, the ulp
    taken as the step from |Y[i]| away from zero (float64, exact)."""
    u = 2.0 ** -(ml_dtypes.finfo(Y.dtype).nmant + 1)
    return np.maximum(8 * half_spacing(Y), 4 * u)


engines_within(softmax, Within("SOFTMAX_P2", engine_error))
