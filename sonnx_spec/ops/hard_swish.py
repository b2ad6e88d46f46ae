"""HardSwish (ONNX HardSwish-22 in the SONNX profile): Y[i] = X[i]·min(max(X[i] + 3, 0), 6) / 6.

The function is rational, so its exact value is computed, then rounded once (Ziv's strategy: a fast
evaluation with a proven error bound decides almost every element; the few whose rounding the bound
leaves open are computed with exact fractions):

* float16, bfloat16, float32: three float64 operations, x + 3, x·(x + 3) and ÷ 6, each with a relative
  error of at most u = 2⁻⁵³ (no float64 underflow: |r| > 2⁻¹⁵¹), so at most 2⁻⁵¹ in all. Rounding to
  the type drops the last 53 − p bits of the float64's significand: unless they lie within 16 float64
  units of the midpoint pattern 10…0 (2⁻⁵¹·|r| is at most 4 units), or the result is below the type's
  normal range, no midpoint of the type lies between the approximation and the exact value, and both
  round alike.
* float64: x + 3 and x·(x + 3) as exact pairs of float64s (Dekker's TwoSum and TwoProduct), the
  quotient by 6 with its exact remainder: a double-double within 2⁻¹⁰⁰·|r| of r, whose rounding is
  decided when its distance to the nearest midpoint of float64 exceeds that bound. Inputs below 2⁻⁴⁰⁰
  in magnitude (where the pairs would underflow) have r = x/2 + x²/6 within a quarter of a unit of x/2:
  the result is x/2, and where x/2 is itself a midpoint (x subnormal with an odd last bit), the
  neighbour above it, as x²/6 > 0.
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np

from ..checks import new_array
from ..families import UNARY, member
from ..registry import Tensor, operator
from ..rounding import rounded_to

Array = np.ndarray | np.generic

_SPLIT = 134217729.0  # 2^27 + 1: Veltkamp's constant, which splits a float64 into two halves of 26 bits
_WINDOW = 16  # float64 units around a midpoint within which the float64 evaluation is not trusted
_DOUBLE_DOUBLE_ERROR = 2.0**-98  # above the double-double's relative error, 2⁻¹⁰⁰ (the docstring)
_TINY = 2.0**-400  # below it, the double-double's partial products could underflow
_BLOCK = 1 << 15  # elements of a block: its float64 arrays stay in the cache


def hard_swish(X: Array) -> np.ndarray:
    """Element-wise hard swish: ``X[i]·min(max(X[i] + 3, 0), 6) / 6``, rounded once.

    The exact real value of ONNX's formula ``x·max(0, min(1, x/6 + 1/2))`` (with
    the real 1/6, not a floating-point one) rounded once to ``X``'s type, to
    nearest, ties to even. A NaN stays NaN, ``+inf`` gives ``+inf``, every
    ``x ≤ −3`` (``−inf`` included) gives ``−0``, and a zero result has the
    sign of ``X[i]``.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.hard_swish(np.array([-4.0, -1.5, 0.75, 1.0, 3.0], dtype=np.float32))
    array([-0.        , -0.375     ,  0.46875   ,  0.6666667 ,  3.        ], dtype=float32)
    """
    out = new_array("hard_swish", X.shape, X.dtype)  # HARDSWISH_C1, HARDSWISH_C2: X's shape, X's type
    out[...] = _float64(np.asarray(X)) if X.dtype == np.float64 else _narrow(X, X.dtype)
    return out


def _clamped(x: np.ndarray) -> np.ndarray:
    """max(x, −3) in float64, NaN kept: −∞ and every x ≤ −3 then give (−3)·0 = −0 (HARDSWISH_S3)."""
    with np.errstate(invalid="ignore"):  # NaN compares false, and is kept
        return np.where(x < -3.0, -3.0, x)


def _narrow(X: Array, dtype: np.dtype) -> np.ndarray:
    """float16, bfloat16, float32: one float64 evaluation, Ziv's test, exact fractions where it fails.

    The elements go through in blocks that stay in the processor's cache: a dozen passes over a block
    cost less than four over a large tensor."""
    flat = np.ravel(X)
    result = np.empty(flat.shape, dtype)
    size = min(flat.size, _BLOCK)
    approx, t = np.empty(size), np.empty(size)
    low, open_, below = np.empty(size, np.uint64), np.empty(size, bool), np.empty(size, bool)
    dropped = 53 - (ml_dtypes.finfo(dtype).nmant + 1)  # the float64 bits the rounding to dtype drops
    mask = np.uint64((1 << dropped) - 1)
    below_midpoint = np.uint64((1 << (dropped - 1)) - _WINDOW)
    smallest_normal = float(ml_dtypes.finfo(dtype).smallest_normal)
    for start in range(0, flat.size, _BLOCK):
        n = min(_BLOCK, flat.size - start)
        a, b, bits, doubtful, tiny = approx[:n], t[:n], low[:n], open_[:n], below[:n]
        with np.errstate(invalid="ignore"):  # NaN is a value here, and bfloat16 flags its conversion
            a[...] = flat[start : start + n]  # exact for every float type
            np.maximum(a, -3.0, out=a)  # HARDSWISH_S3: x ≤ −3 (−∞ included) as −3, whose result is −0
            np.add(a, 3.0, out=b)
            np.minimum(b, 6.0, out=b)  # x ≥ 3 (+∞ included): 6, and x·6/6 is x exactly (HARDSWISH_S2)
            np.multiply(a, b, out=a)  # within 2⁻⁵³: at most 24 + 53 bits
            np.divide(a, 6.0, out=a)  # HARDSWISH_S1: within 2⁻⁵¹ of the exact value
        result[start : start + n] = _rounded(a, dtype)  # HARDSWISH_S1: one rounding of the float64
        np.bitwise_and(a.view(np.uint64), mask, out=bits)
        np.subtract(bits, below_midpoint, out=bits)  # the distance above the window's start, or a wrap
        np.less_equal(bits, np.uint64(2 * _WINDOW), out=doubtful)  # near a midpoint of dtype
        with np.errstate(invalid="ignore"):  # a result in dtype's subnormal range (or a zero):
            np.logical_or(doubtful, np.less(np.abs(a, out=b), smallest_normal, out=tiny), out=doubtful)
        if doubtful.any():
            indices = start + np.flatnonzero(doubtful)
            x = np.asarray(flat[indices], np.float64)
            inside = np.isfinite(x) & (np.abs(x) < 3.0) & (x != 0)  # the others are exact already
            _exactly_where(inside, x, result, indices, dtype)
    return result.reshape(np.shape(X))


def _rounded(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    # float32: numpy's conversion is one IEEE rounding, done as it assigns; float16, bfloat16: one
    # rounding too, through float32 rounded to odd (rounding.py)
    return a if dtype == np.float32 else rounded_to(a, dtype)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """s, e with s = fl(a + b) and s + e = a + b exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = _SPLIT * a
    high = c - (c - a)
    return high, a - high


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """p, e with p = fl(a·b) and p + e = a·b exactly (Dekker), when no partial product underflows."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _float64(x: np.ndarray) -> np.ndarray:
    """float64: a double-double evaluation, Ziv's test, exact fractions where it fails."""
    with np.errstate(invalid="ignore", over="ignore"):
        c = _clamped(x)
        inside = (np.abs(c) < 3.0) & (np.abs(c) >= _TINY)  # HARDSWISH_S1: −3 < x < 3, not tiny
        v = np.where(inside, c, 1.0)  # the other elements are computed below
        sh, sl = _two_sum(v, np.full_like(v, 3.0))  # x + 3 exactly
        ph, pl = _two_product(v, sh)  # x·sh exactly
        pl = pl + v * sl  # x·(x + 3) = ph + pl, within 3u²
        q = ph / 6.0
        a, b = _two_product(q, np.full_like(q, 6.0))  # 6q exactly
        remainder = ((ph - a) - b) + pl  # ph − 6q is exact (Sterbenz, then a representable remainder)
        ql = remainder / 6.0  # HARDSWISH_S1: q + ql within 2⁻¹⁰⁰·|r| of r
        s, e = _two_sum(q, ql)  # s = fl(q + ql): q + ql rounded once
        magnitude = np.abs(s)
        below = magnitude - np.nextafter(magnitude, 0.0)
        above = np.spacing(magnitude)
        half_gap = np.minimum(below, above) / 2  # the nearest midpoints are at least this far from s
        open_ = inside & (np.abs(e) + _DOUBLE_DOUBLE_ERROR * magnitude >= half_gap)
        # |x| < 2⁻⁴⁰⁰: r = x/2 + x²/6 rounds as x/2, and up where x/2 is a midpoint (HARDSWISH_S1).
        half = c * 0.5
        half = np.where(half * 2.0 < c, np.nextafter(half, np.inf), half)
        outside = np.where(c >= 3.0, c, c * 0.0)  # x ≥ 3: x (HARDSWISH_S1); x ≤ −3: (−3)·0 = −0; NaN
    result = np.where(inside, s, np.where(np.abs(c) < _TINY, half, outside))
    _exactly_where(open_, x, result, np.arange(x.size).reshape(x.shape), np.dtype(np.float64))
    return result


def _exactly_where(
    open_: np.ndarray, x: np.ndarray, result: np.ndarray, indices: np.ndarray, dtype: np.dtype
) -> None:
    """Each element of ``x`` where ``open_`` holds, computed exactly into ``result`` (flat) at its index
    in ``indices`` (HARDSWISH_S1)."""
    flat = result.reshape(-1)
    for value, index in zip(x[open_].tolist(), indices[open_].tolist(), strict=True):
        flat[index] = _exact(value, dtype)


def _exact(x: float, dtype: np.dtype) -> np.generic:
    """HardSwish of a finite x with −3 < x < 3, x ≠ 0, exactly, rounded once to ``dtype``."""
    value = Fraction(x) * (Fraction(x) + 3) / 6
    nearest = float(value)  # Python's exact rational to float64: correctly rounded, subnormals included
    if dtype == np.float64:
        return np.float64(nearest)
    if Fraction(nearest) != value and int(np.float64(nearest).view(np.uint64)) % 2 == 0:
        # to odd in float64 (53 ≥ p + 2 bits), which the rounding below makes the only rounding
        nearest = float(np.nextafter(nearest, np.inf if value > Fraction(nearest) else -np.inf))
    return rounded_to(np.array(nearest), dtype)[()]


def exact(x: float) -> Fraction:
    """h(x) = x·min(max(x + 3, 0), 6)/6 for a finite x, exactly."""
    v = Fraction(x)
    return v * min(max(v + 3, Fraction(0)), Fraction(6)) / 6


def ulp(v: Fraction, dtype: np.dtype) -> Fraction:
    """The spacing of ``dtype``'s values at the real |v|: 2^(e − p + 1) for 2^e ≤ |v| < 2^(e+1), and the
    smallest subnormal below the normal range."""
    info = ml_dtypes.finfo(dtype)
    v = abs(v)
    if v < Fraction(float(info.smallest_normal)):
        return Fraction(float(info.smallest_subnormal))
    e = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** e > v:
        e -= 1
    return Fraction(2) ** (e - info.nmant)


def meets_accuracy(X: Array, Y: Array) -> np.ndarray:
    """Whether an engine's result ``Y`` for ``X`` (of one shape and one float type) meets the accuracy the
    profile requires of HardSwish, at each index (HARDSWISH_P2): for a finite X[i], Y[i] finite and
    within 2·ulp(h) + ulp(X[i]) of the exact h(X[i]); NaN for NaN, +∞ for +∞, a zero for −∞. Exact."""
    ok = np.empty(np.shape(X), bool)
    with np.errstate(invalid="ignore"):  # bfloat16 flags a signalling NaN as it converts
        xs, ys = np.asarray(X, np.float64), np.asarray(Y, np.float64)
    for index in np.ndindex(ok.shape):
        ok[index] = _meets(float(xs[index]), float(ys[index]), np.asarray(X).dtype)
    return ok


def _meets(x: float, y: float, dtype: np.dtype) -> bool:
    if math.isnan(x):
        return math.isnan(y)
    if math.isinf(x):
        return y == (x if x > 0 else 0.0)
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
