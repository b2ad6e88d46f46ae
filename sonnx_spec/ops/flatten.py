"""Flatten (ONNX Flatten-25 in the SONNX profile): X's elements, in row-major order, in a matrix whose rows
are X's axes before ``axis`` and whose columns are those from ``axis`` on."""

from __future__ import annotations

import math

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import rearranged
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def output_shape(X: Array, axis: int) -> tuple[int, int]:
    """The shape of Y: the product of X's dimensions before ``axis`` (counted from the back when negative),
    and the product of the others."""
    rank = np.ndim(X)
    if not -rank <= axis <= rank:
        problem = f"flatten: axis is {axis}, outside [{-rank}, {rank}] for X of rank {rank}"
        raise SonnxError("FLATTEN_C1", problem)
    dims = np.shape(X)
    # FLATTEN_S1: a negative axis counts from the back, as a slice's bound does; 1 for no dimension
    return math.prod(dims[:axis]), math.prod(dims[axis:])


def flatten(X: Array, *, axis: int) -> np.ndarray:
    """The elements of ``X``, in row-major order, in a matrix of ``X``'s axes before ``axis`` by those from
    ``axis`` on.

    ``axis`` is in [−r, r] for ``X`` of rank r; a negative ``axis`` counts from the back (``axis + r``).
    The rows of ``Y`` are the product of ``X``'s dimensions before it, its columns the product of the
    others (1 where there is none: ``axis`` 0 gives one row, ``axis`` r one column). Every element is copied
    bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.flatten(np.arange(6, dtype=np.int8).reshape(1, 2, 3), axis=2)
    array([[0, 1, 2],
           [3, 4, 5]], dtype=int8)
    """
    shape = output_shape(X, axis)  # FLATTEN_C1, FLATTEN_S1
    return rearranged(X, shape)  # FLATTEN_S2: row-major order kept, bits copied


flatten = operator(
    flatten,
    onnx="Flatten",
    version=25,
    inputs=(Tensor("X", "input", "T", doc="the elements to flatten"),),
    attributes=(
        Attribute("axis", "axis", "int", doc="X's axes before it make the rows of Y, the others its columns"),
    ),
    outputs=(Tensor("Y", "output", "T", doc="X's elements in row-major order, as a matrix"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, flatten)
