"""Reductions (ReduceSum…): each element of the result computed from the elements of X along some axes.

The sums are exact: modulo 2^n for the integer types (the bits of a two's complement sum are its
residue, as in :mod:`..modular`), and for the floating-point types the exact sum of the elements,
rounded once to the type, whatever the order of its terms (:mod:`.accumulation`).
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import new_array
from .accumulation import exact_matmul

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
    rows = np.moveaxis(np.asarray(X), axes, range(-len(axes), 0)).reshape(out.size, 1, count)
    out[...] = exact_matmul(operator, rows, np.ones((count, 1), X.dtype)).reshape(out.shape)
    return out
