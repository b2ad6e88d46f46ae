"""Expand (ONNX Expand-13 in the SONNX profile): X broadcast to the shape it has in common with S."""

from __future__ import annotations

import numpy as np

from ..broadcast import broadcast_shape
from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import copied, int_values
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def output_shape(X: Array, S: Array) -> tuple[int, ...]:
    """The common shape of X's shape and the shape S lists, by the broadcasting rule."""
    wanted = int_values(S)
    negative = [d for d in wanted if d < 0]
    if negative:
        raise SonnxError("EXPAND_C2", f"expand: S holds {negative[0]}; a dimension is 0 or more")
    shape = broadcast_shape([tuple(np.shape(X)), wanted])  # EXPAND_S1: the common shape
    if shape is None:
        problem = f"expand: X's shape {tuple(np.shape(X))} and S = {list(wanted)} do not broadcast"
        raise SonnxError("EXPAND_C3", problem)
    return shape


def expand(X: Array, S: Array) -> np.ndarray:
    """``X`` broadcast to the common shape of its own shape and ``S``.

    ``S`` is an int64 vector of dimensions, 0 or more. Shapes are aligned on
    their last axes, the shorter one read with leading dimensions of 1; at each
    axis the two sizes are equal or one of them is 1, and ``Y`` has the other.
    ``Y[i]`` is the element of ``X`` at ``i``'s last coordinates, read at 0 on
    every axis where ``X`` has size 1. Every element is copied bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.expand(np.array([[1], [2]], dtype=np.int8), np.array([2, 3]))
    array([[1, 1, 1],
           [2, 2, 2]], dtype=int8)
    """
    shape = output_shape(X, S)  # EXPAND_C2, EXPAND_C3, EXPAND_S1
    return copied(X, shape)  # EXPAND_S2: copyto broadcasts X to Y's shape: Y[i] = X[i']


expand = operator(
    expand,
    onnx="Expand",
    version=13,
    inputs=(
        Tensor("X", "input", "T", doc="the elements to repeat"),
        Tensor(
            "S",
            "shape",
            "int64",
            rank=1,
            rank_rule="EXPAND_C1",
            sets_shape=True,
            doc="the shape X is broadcast with: Y's shape is their common shape",
        ),
    ),
    attributes=(),
    outputs=(Tensor("Y", "output", "T", doc="X broadcast to the common shape of X and S"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, expand)
