"""Transpose (ONNX Transpose-25 in the SONNX profile): X with its axes in the order perm gives."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import copied
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def checked_perm(X: Array, perm: tuple[int, ...]) -> tuple[int, ...]:
    """``perm`` as Python ints, once it is known to be a permutation of X's axes 0 … rank − 1."""
    axes = tuple(int(p) for p in perm)
    rank = np.ndim(X)
    if len(axes) != rank:
        problem = f"transpose: perm {list(axes)} has {len(axes)} entries; X has rank {rank}"
        raise SonnxError("TRANSPOSE_C1", problem, operator="transpose", tensor="perm")
    outside = [p for p in axes if not 0 <= p < rank]
    if outside:
        problem = f"transpose: perm holds {outside[0]}; an axis of X is 0 to {rank - 1}"
        raise SonnxError("TRANSPOSE_C2", problem, operator="transpose", tensor="perm")
    twice = [p for p in axes if axes.count(p) > 1]
    if twice:
        problem = f"transpose: perm {list(axes)} names axis {twice[0]} more than once"
        raise SonnxError("TRANSPOSE_C3", problem, operator="transpose", tensor="perm")
    return axes


def transpose(X: Array, *, perm: tuple[int, ...]) -> np.ndarray:
    """``X`` with its axes permuted: axis ``k`` of ``Y`` is axis ``perm[k]`` of ``X``.

    ``perm`` lists every axis of ``X`` once, none negative. ``Y``'s dimension ``k``
    is ``X``'s dimension ``perm[k]``, and ``Y[i]`` is the element of ``X`` at the
    index ``j`` with ``j[perm[k]] = i[k]`` for every ``k``. Every element is copied
    bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.transpose(np.arange(6, dtype=np.int8).reshape(2, 3), perm=(1, 0))
    array([[0, 3],
           [1, 4],
           [2, 5]], dtype=int8)
    """
    axes = checked_perm(X, perm)  # TRANSPOSE_C1 to TRANSPOSE_C3
    shape = tuple(np.shape(X)[p] for p in axes)  # TRANSPOSE_S1: Y's dimension k is X's dimension perm[k]
    return copied(np.transpose(X, axes), shape)  # TRANSPOSE_S2: Y[i] = X[j], j[perm[k]] = i[k]


transpose = operator(
    transpose,
    onnx="Transpose",
    version=25,
    inputs=(Tensor("X", "data", "T", doc="the elements to arrange"),),
    attributes=(
        Attribute("perm", "perm", "ints", doc="every axis of X once: axis k of Y is axis perm[k] of X"),
    ),
    outputs=(Tensor("Y", "transposed", "T", doc="X with its axes in the order perm gives"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, transpose)
