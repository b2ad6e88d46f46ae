"""Squeeze (ONNX Squeeze-25 in the SONNX profile): X's elements in X's shape without the dimensions of size 1
at the axes of A."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import int_values, rearranged
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def output_shape(X: Array, A: Array) -> tuple[int, ...]:
    """The shape of Y: X's dimensions in order, without those at the axes A names (a negative axis counted
    from the back of X), each of which is 1."""
    axes = int_values(A)
    shape = np.shape(X)
    rank = len(shape)
    outside = [a for a in axes if not -rank <= a < rank]
    if outside:
        problem = f"squeeze: A holds {outside[0]}, outside [{-rank}, {rank - 1}] for X of rank {rank}"
        raise SonnxError("SQUEEZE_C1", problem)
    named = [a + rank if a < 0 else a for a in axes]  # SQUEEZE_S1: a negative axis counts from the back
    if len(set(named)) != len(named):
        repeated = next(p for p in named if named.count(p) > 1)
        problem = f"squeeze: A = {list(axes)} names axis {repeated} of X more than once"
        raise SonnxError("SQUEEZE_C2", problem)
    wide = [p for p in named if shape[p] != 1]
    if wide:
        problem = f"squeeze: X's dimension {wide[0]} is {shape[wide[0]]}, not 1"
        raise SonnxError("SQUEEZE_C3", problem)
    return tuple(d for p, d in enumerate(shape) if p not in named)  # SQUEEZE_S1: an empty A removes none


def squeeze(X: Array, A: Array) -> np.ndarray:
    """The elements of ``X`` in ``X``'s shape without its dimensions at the axes ``A`` names.

    ``A`` is an int64 vector of axes of ``X``: each in [−r, r − 1] for ``X`` of rank r, a negative axis
    counting from the back, no axis named twice, in any order, and ``X``'s dimension there is 1. An empty
    ``A`` removes no dimension. Every element is copied bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.squeeze(np.zeros((1, 3, 1), np.int8), np.array([-1])).shape
    (1, 3)
    """
    shape = output_shape(X, A)  # SQUEEZE_C1 to SQUEEZE_C3, SQUEEZE_S1
    return rearranged(X, shape)  # SQUEEZE_S2: same order, bits copied


squeeze = operator(
    squeeze,
    onnx="Squeeze",
    version=25,
    inputs=(
        Tensor("X", "data", "T", doc="the elements"),
        Tensor(
            "A",
            "axes",
            "int64",
            rank=1,
            rank_rule="SQUEEZE_C4",
            sets_shape=True,
            doc="the axes of X, each of dimension 1, to remove",
        ),
    ),
    attributes=(),
    outputs=(Tensor("Y", "squeezed", "T", doc="X's elements, without the dimensions A names"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, squeeze)
