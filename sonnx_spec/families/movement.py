"""Data movement (Reshape, Transpose, Concat…): every element of a result is an element of an input,
chosen by index arithmetic alone and copied bit for bit; nothing is computed on the values.

The inputs that say where elements go (a shape, axes, starts, indices) are int64 tensors of rank 1
or 0; an operator reads them as Python integers with :func:`int_values`, and builds its result as a
new array with :func:`copied`, never a view of an input (GEN_P2).
"""

from __future__ import annotations

import numpy as np

from ..checks import new_array

Array = np.ndarray | np.generic


def int_values(tensor: Array) -> tuple[int, ...]:
    """The elements of an int64 tensor (a shape, axes, indices) as exact Python integers, in row-major
    order."""
    return tuple(int(v) for v in np.asarray(tensor).reshape(-1).tolist())


def copied(operator: str, elements: Array, shape: tuple[int, ...]) -> np.ndarray:
    """A new array of ``shape`` and of the type of ``elements``, holding ``elements`` (of that shape, or a
    view of an input arranged in it) copied bit for bit: NaN payloads and the sign of zero included."""
    result = new_array(operator, shape, np.asarray(elements).dtype)
    np.copyto(result, elements)  # one type: a copy of the bits, never a conversion
    return result
