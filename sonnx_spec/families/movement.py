"""Data movement (Reshape, Transpose, Concat…): every element of a result is an element of an input,
chosen by index arithmetic alone and copied bit for bit; nothing is computed on the values.

The inputs that say where elements go (a shape, axes, starts, indices) are int64 tensors of rank 1
or 0; an operator reads them as Python integers with :func:`int_values`, and builds its result as a
new array with :func:`copied`, never a view of an input (GEN_P2).
"""

from __future__ import annotations

import numpy as np

from ..checks import allocated

Array = np.ndarray | np.generic


def int_values(tensor: Array) -> tuple[int, ...]:
    """The elements of an int64 tensor (a shape, axes, indices) as exact Python integers, in row-major
    order."""
    return tuple(int(v) for v in np.ravel(tensor).tolist())


def copied(elements: Array, shape: tuple[int, ...]) -> np.ndarray:
    """A new array of ``shape`` and of the type of ``elements``, holding ``elements`` (of that shape, or a
    view of an input arranged in it) copied bit for bit: NaN payloads and the sign of zero included.
    A result too large for memory is GEN_E1, reported by the registry under the operator's name."""
    result = allocated(shape, np.asarray(elements).dtype)
    np.copyto(result, elements)  # one type: a copy of the bits, never a conversion
    return result


def rearranged(X: Array, shape: tuple[int, ...]) -> np.ndarray:
    """A new array of ``shape`` holding ``X``'s elements in row-major order, copied bit for bit: Reshape,
    Flatten, Squeeze and Unsqueeze, which change the shape and nothing else."""
    result = allocated(shape, X.dtype)
    np.copyto(result.reshape(X.shape), X)  # a view of the new, contiguous result: no temporary copy
    return result
