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

import ml_dtypes
import numpy as np

from ..checks import new_array
from ..errors import SonnxError
from ..rounding import rounded_to
from .accumulation import SCALE, decided, exact_matmul, gamma
from .axes import normalized_axis, repeated_axis
from .movement import int_values

Array = np.ndarray | np.generic


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    """The shape of a reduction of ``shape`` along ``axes`` (normalized, each once): the reduced axes
    kept with size 1 if ``keepdims``, left out otherwise."""
    return tuple(1 if a in axes else n for a, n in enumerate(shape) if keepdims or a not in axes)


def reduced_axes(
    op: str, X: Array, A: Array, keepdims: int, noop_with_empty_axes: int, ids: tuple[str, str, str, str]
) -> tuple[int, ...]:
    """The axes of X a reduction (ReduceSum, ReduceMean) sums over, counted from 0, after the checks
    whose ids the operator gives, in this order: each axis of A an axis of X; none named twice; keepdims
    0 or 1; noop_with_empty_axes 0 or 1. An empty A names every axis of X, or none where
    noop_with_empty_axes is 1."""
    outside_rule, repeated_rule, keepdims_rule, noop_rule = ids
    rank = np.ndim(X)
    given = int_values(A)
    axes = tuple(normalized_axis(a, rank) for a in given)
    if None in axes:
        outside = given[axes.index(None)]
        problem = f"{op}: A holds {outside}, outside [{-rank}, {rank - 1}] for X of rank {rank}"
        raise SonnxError(outside_rule, problem)
    twice = repeated_axis(axes)
    if twice is not None:
        raise SonnxError(repeated_rule, f"{op}: A = {list(given)} names axis {twice} of X more than once")
    if keepdims not in (0, 1):
        raise SonnxError(keepdims_rule, f"{op}: keepdims is {keepdims}, not 0 or 1")
    if noop_with_empty_axes not in (0, 1):
        problem = f"{op}: noop_with_empty_axes is {noop_with_empty_axes}, not 0 or 1"
        raise SonnxError(noop_rule, problem)
    if not axes and not noop_with_empty_axes:
        return tuple(range(rank))  # no axis named: every axis reduced
    return axes  # type: ignore[return-value]  (no None left)


def bound_axes(Y: np.ndarray, X: np.ndarray, A: np.ndarray) -> tuple[int, ...]:
    """The axes of X a reduction's result Y was computed along, from X, A and Y's shape (the attributes are
    not among a bound's arguments): A's axes; for an empty A, none where Y has X's shape
    (noop_with_empty_axes 1, or every axis of size 1: one term per element either way), every axis
    otherwise."""
    rank = np.ndim(X)
    axes = tuple(sorted({int(a) % rank for a in np.ravel(A)})) if rank else ()
    if not axes and np.size(A) == 0 and np.shape(Y) != np.shape(X):
        axes = tuple(range(rank))
    return axes


def sum_error(Y: np.ndarray, X: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """The bound on an engine's distance from the exact sum of X along ``axes`` at each element of Y
    (float64): γₙ₋₁·Σ|x|, n the count of terms; +∞ (any value) where (n − 1)·u ≥ 1 or Σ|x| passes the
    type's largest value. Σ|x| is bounded above: numpy's float64 sum of the magnitudes, raised by 4(n + 1)
    float64 units (its sum errs by less); the product is raised by 2⁻⁵⁰ and one float64 step (0 stays 0),
    for γ's rounding and its own. One term (n = 1) or none gives 0: only the exact sum, the term itself,
    conforms (a zero of either sign where Σ|x| = 0: the judge widens the bound by the reference's own
    rounding, η at zero)."""
    info = ml_dtypes.finfo(Y.dtype)
    n = math.prod(np.shape(X)[a] for a in axes)
    m = max(n - 1, 0)
    u = 2.0 ** -(info.nmant + 1)
    if m * u >= 1:
        return np.full(Y.shape, np.inf)
    gamma = m * u / (1 - m * u)
    with np.errstate(over="ignore", invalid="ignore"):  # beyond float64's range; 0·∞ for one infinite term
        magnitudes = np.abs(np.asarray(X, np.float64)).sum(axis=axes).reshape(Y.shape)
        magnitudes *= 1 + 4 * (n + 1) * 2.0**-53
        error = np.asarray(gamma * magnitudes * (1 + 2.0**-50))
        error[error > 0] = np.nextafter(error[error > 0], np.inf)  # 0 stays 0: one term, or only zeros
        error[magnitudes > float(info.max)] = np.inf
    return error


def mean_error(Y: np.ndarray, X: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """The bound on an engine's distance from the exact mean M of X along ``axes`` at each element of Y
    (float64): γₙ₊₁·Σ|x|/n + η, n the count of terms (η the type's smallest subnormal); +∞ (any value)
    where (n + 1)·u ≥ 1 or Σ|x| passes the type's largest value. Σ|x| is bounded above: numpy's float64 sum
    of the magnitudes, raised by 4(n + 1) float64 units (its sum errs by less); the total is raised by 2⁻⁵⁰
    and one float64 step, for the roundings of γ, of its product, quotient and sum, and its own."""
    info = ml_dtypes.finfo(Y.dtype)
    n = math.prod(np.shape(X)[a] for a in axes)
    k = n + 1
    u = 2.0 ** -(info.nmant + 1)
    if k * u >= 1 or n == 0:  # n = 0: no mean (the operators refuse it); no element either
        return np.full(Y.shape, np.inf)
    gamma = k * u / (1 - k * u)
    eta = float(info.smallest_subnormal)
    with np.errstate(over="ignore"):  # magnitudes beyond float64's range: any value, as for an infinite one
        magnitudes = np.abs(np.asarray(X, np.float64)).sum(axis=axes).reshape(Y.shape)
        magnitudes *= 1 + 4 * (n + 1) * 2.0**-53
        error = np.asarray(np.nextafter((gamma * magnitudes / n + eta) * (1 + 2.0**-50), np.inf))
        error[magnitudes > float(info.max)] = np.inf
    return error


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
