"""Unsqueeze (ONNX Unsqueeze-25 in the SONNX profile): X's elements in X's shape with a dimension of size 1
inserted at each axis of A."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import int_values, rearranged
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def output_shape(X: Array, A: Array) -> tuple[int, ...]:
    """The shape of Y: X's dimensions in order, with 1 at each axis of Y that A names (a negative axis
    counted from the back of Y)."""
    axes = int_values(A)
    rank = np.ndim(X) + len(axes)  # the rank of Y
    outside = [a for a in axes if not -rank <= a < rank]
    if outside:
        problem = f"unsqueeze: A holds {outside[0]}, outside [{-rank}, {rank - 1}] for Y of rank {rank}"
        raise SonnxError("UNSQUEEZE_C1", problem)
    named = [a + rank if a < 0 else a for a in axes]  # UNSQUEEZE_S1: a negative axis counts from the back
    if len(set(named)) != len(named):
        repeated = next(p for p in named if named.count(p) > 1)
        problem = f"unsqueeze: A = {list(axes)} names axis {repeated} of Y more than once"
        raise SonnxError("UNSQUEEZE_C2", problem)
    dims = iter(np.shape(X))
    return tuple(1 if p in named else next(dims) for p in range(rank))  # UNSQUEEZE_S1


def unsqueeze(X: Array, A: Array) -> np.ndarray:
    """The elements of ``X`` in ``X``'s shape with a dimension of size 1 inserted at each axis ``A`` names.

    ``A`` is an int64 vector of axes of ``Y``, whose rank is ``X``'s plus the length of ``A``: each in
    [−r, r − 1] for ``Y`` of rank r, a negative axis counting from the back, no axis named twice, in any
    order. The other dimensions of ``Y`` are ``X``'s, in order. Every element is copied bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.unsqueeze(np.arange(3, dtype=np.int8), np.array([0, -1])).shape
    (1, 3, 1)
    """
    shape = output_shape(X, A)  # UNSQUEEZE_C1, UNSQUEEZE_C2, UNSQUEEZE_S1
    return rearranged(X, shape)  # UNSQUEEZE_S2: same order, bits copied


unsqueeze = operator(
    unsqueeze,
    onnx="Unsqueeze",
    version=25,
    inputs=(
        Tensor("X", "data", "T", doc="the elements"),
        Tensor(
            "A",
            "axes",
            "int64",
            rank=1,
            rank_rule="UNSQUEEZE_C3",
            sets_shape=True,
            doc="the axes of Y where a dimension of size 1 is inserted",
        ),
    ),
    attributes=(),
    outputs=(Tensor("Y", "expanded", "T", doc="X's elements, with the dimensions of size 1 inserted"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, unsqueeze)
