"""Reductions (ReduceSum, ReduceMean…): each element of the result computed from the elements of X along
some axes.

The sums are exact: modulo 2^n for the integer types (the bits of a two's complement sum are its
residue, as in :mod:`..modular`), and for the floating-point types the exact sum of the elements,
rounded once to the type, whatever the order of its terms (:mod:`.accumulation`). The means are
exact too: of integers, the exact sum divided by the count and truncated toward zero; of floating-point
values, the exact sum divided exactly by the count, rounded once.
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import new_array
from ..rounding import rounded_to
from .accumulation import SCALE, decided, exact_matmul, gamma

Array = np.ndarray | np.generic


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    """The shape of a reduction of ``shape`` along ``axes`` (normalized, each once): the reduced axes
    kept with size 1 if ``keepdims``, left out otherwise."""
    return tuple(1 if a in axes else n for a, n in enumerate(shape) if keepdims or a not in axes)


def wrapped_sum(operator: str, X: Array, axes: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """The sum of the elements of the integer tensor X along ``axes``, modulo 2^n, in a new array of
    X's type: summed in ``out``'s unsigned view, of X's width, whose machine arithmetic is modulo 2^n."""
    bits = np.dtype(f"u{X.dtype.itemsize}")
    out = new_array(operator, reduced_shape(X.shape, axes, keepdims), X.dtype)
    np.sum(np.asarray(X).view(bits), axis=axes, keepdims=keepdims, out=out.view(bits))  # in out's type
    return out


def exact_sum(operator: str, X: Array, axes: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """The sum of the elements of the floating-point tensor X along ``axes``, computed exactly and
    rounded once to X's type, in a new array.

    IEEE 754's special cases: a NaN, or both infinities, give NaN; one infinity gives itself; an exact
    zero is −0 only if every term is −0; an empty sum is +0.
    """
    out = new_array(operator, reduced_shape(X.shape, axes, keepdims), X.dtype)
    count = math.prod(X.shape[a] for a in axes)
    # One row per element of the result, its terms along the reduced axes, times a column of ones: each
    # term the product x·1, exactly x (−0 for −0), summed as accumulation.py sums products.
    rows = _rows(X, axes, out.size, count)
    column = np.ones_like(rows, shape=(count, 1))
    out[...] = exact_matmul(operator, rows, column).reshape(out.shape)
    return out


def truncated_mean(operator: str, X: Array, axes: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """The mean of the elements of the integer tensor X along ``axes`` (at least one element each): their
    exact sum (Python integers, never wrapped) divided by their count, truncated toward zero, in a new
    array of X's type; it always fits, lying between the least and the greatest element."""
    out = new_array(operator, reduced_shape(X.shape, axes, keepdims), X.dtype)
    count = math.prod(X.shape[a] for a in axes)
    sums = _rows(X, axes, out.size, count).astype(object).sum(axis=1)  # Python integers: exact
    out[...] = (np.sign(sums) * (np.abs(sums) // count)).reshape(out.shape)  # |sum| // count: toward zero
    return out


def exact_mean(operator: str, X: Array, axes: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """The mean of the elements of the floating-point tensor X along ``axes`` (at least one element
    each): their exact sum divided exactly by their count, rounded once to X's type, in a new array.

    IEEE 754's special cases, as for :func:`exact_sum`: a NaN, or both infinities, give NaN; one infinity
    gives itself; an exact zero is −0 only if every term is −0.

    How (Ziv's strategy, as :mod:`.accumulation`): for float16, bfloat16 and float32, numpy's float64 sum
    Ŝ of a row is within B = 2n·u·Σ|x| of the exact sum S, whatever its order (accumulation.gamma), and
    the float64 quotient Ŝ/n within u·|Ŝ|/n of Ŝ/n (u = 2⁻⁵³; no float64 underflow: every term is a
    multiple of 2⁻¹⁴⁹, n < 2⁶³). So S/n lies within (B + u·|Ŝ|)/n of the computed mean. The bound computed
    below, 2(n + 2)·u·Σ|x|/n, is (B + 4u·Σ|x|)/n, and |Ŝ| ≤ (1 + 2γ)·Σ|x|: it exceeds the error despite
    its own roundings (gamma's factor 2 covers them, as in accumulation). Where the interval rounds to one
    value (accumulation.decided) that is the mean's rounding; elsewhere, and for float64, the exact sum in
    Python integers is divided by n once.
    """
    out = new_array(operator, reduced_shape(X.shape, axes, keepdims), X.dtype)
    count = math.prod(X.shape[a] for a in axes)
    with np.errstate(invalid="ignore"):  # bfloat16 flags its signalling NaNs: they are NaNs here
        rows = np.asarray(_rows(X, axes, out.size, count), np.float64)
    flat = out.reshape(-1)
    undecided = np.ones(out.size, bool)
    if X.dtype != np.float64:  # a float64 evaluation decides no float64 rounding: every element exact
        finite = np.isfinite(rows)
        terms = np.where(finite, rows, 0.0)
        total, magnitude = terms.sum(axis=1), np.abs(terms).sum(axis=1)
        bound = magnitude * gamma(count + 2) / count  # (B + 4u·|Ŝ|)/n at least: |Ŝ| ≤ (1 + 2γ)·Σ|x|
        flat[...], ok = decided(total / count, bound, X.dtype)
        undecided = ~ok | ~finite.all(axis=1) | (magnitude == 0)  # NaN, ±∞, zeros: the exact path
    if undecided.any():
        to_odd = X.dtype != np.float64  # to odd in float64, then once to the type: one rounding
        means = [_exact_mean(row, count, to_odd) for row in rows[undecided].tolist()]
        flat[undecided] = rounded_to(np.array(means), X.dtype)  # Python floats: float64
    return out


def _rows(X: Array, axes: tuple[int, ...], size: int, count: int) -> np.ndarray:
    """One row per element of the result, its terms along the reduced axes."""
    return np.moveaxis(np.asarray(X), axes, range(-len(axes), 0)).reshape(size, count)


def _exact_mean(terms: list[float], count: int, to_odd: bool) -> float:
    """The exact sum of ``terms`` divided by ``count``, rounded to float64: to nearest, ties to even, or to
    odd; IEEE 754's special cases as :func:`exact_mean` says."""
    infinities = {t for t in terms if math.isinf(t)}
    if any(math.isnan(t) for t in terms) or len(infinities) == 2:
        return math.nan
    if infinities:
        return infinities.pop()
    total = sum(n * (SCALE // d) for n, d in (t.as_integer_ratio() for t in terms))  # in units of 1/SCALE
    if total == 0:
        return -0.0 if np.signbit(terms).all() else 0.0
    scale = count * SCALE
    nearest = total / scale  # Python's int division: correctly rounded; |mean| ≤ max |term|: no overflow
    n, d = nearest.as_integer_ratio()
    error = total * d - n * scale  # the sign of exact − nearest, times d·scale
    if not to_odd or error == 0 or np.float64(nearest).view(np.uint64) & 1:
        return nearest
    return math.nextafter(nearest, math.inf if error > 0 else -math.inf)  # the odd one of the two around it
