"""Reductions (ReduceSum…): each element of the result computed from the elements of X along some axes.

The sums are exact: modulo 2^n for the integer types (the bits of a two's complement sum are its
residue, as in :mod:`..modular`), and for the floating-point types the exact sum of the elements,
rounded once to the type, whatever the order of its terms.
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import new_array
from ..rounding import rounded_to

Array = np.ndarray | np.generic

ULP = 2**1074
"""Every finite float64, hence every finite value of the float types, is an integer multiple of 1 / ULP."""


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
    # One row per element of the result, its terms along the reduced axes. Exactness needs Python
    # integers: a loop over the rows, each summed at once.
    rows = np.moveaxis(np.asarray(X), axes, range(-len(axes), 0)).reshape(out.size, count)
    to_odd = X.dtype != np.float64  # rounded to odd in float64, then once more: one rounding (rounding.py)
    sums = [_sum(row, to_odd) for row in rows.astype(np.float64).tolist()]
    out[...] = rounded_to(np.array(sums), X.dtype).reshape(out.shape)  # Python floats: float64
    return out


def _sum(terms: list[float], to_odd: bool) -> float:
    """The exact sum of ``terms`` rounded to float64: to nearest, ties to even, or to odd."""
    infinities = {t for t in terms if math.isinf(t)}
    if any(math.isnan(t) for t in terms) or len(infinities) == 2:
        return math.nan
    if infinities:
        return infinities.pop()
    total = sum(n * (ULP // d) for n, d in (t.as_integer_ratio() for t in terms))  # exact, in units of 1/ULP
    if total == 0:
        return -0.0 if terms and np.signbit(terms).all() else 0.0
    try:
        nearest = total / ULP  # Python's int division: correctly rounded, subnormals included
    except OverflowError:
        return math.inf if total > 0 else -math.inf  # beyond float64's range: infinite in every type
    n, d = nearest.as_integer_ratio()
    error = total - n * (ULP // d)
    if not to_odd or error == 0 or np.float64(nearest).view(np.uint64) & 1:
        return nearest
    return math.nextafter(nearest, math.inf if error > 0 else -math.inf)  # the odd one of the two around it
