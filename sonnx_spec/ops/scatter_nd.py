"""ScatterND (ONNX ScatterND-18 in the SONNX profile): a copy of X in which the slices I addresses are
replaced by those of U."""

from __future__ import annotations

import math

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import copied
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def check_shapes(X: Array, I: Array, U: Array, reduction: str) -> int:  # noqa: E741 (the spec's name)
    """The reduction, the ranks and the shapes of a call; returns k, the length of each index of I."""
    if reduction != "none":
        problem = f"scatter_nd: reduction is {reduction!r}; the profile admits 'none' only"
        raise SonnxError("SCATTERND_C1", problem)
    if X.ndim == 0:
        raise SonnxError("SCATTERND_C2", "scatter_nd: X is 0-d; X has rank 1 or more")
    if I.ndim == 0:
        raise SonnxError("SCATTERND_C3", "scatter_nd: I is 0-d; I has rank 1 or more")
    k = I.shape[-1]
    if k > X.ndim:
        problem = f"scatter_nd: I's last dimension is {k}, more than X's rank {X.ndim}"
        raise SonnxError("SCATTERND_C3", problem)
    wanted = I.shape[:-1] + X.shape[k:]
    if U.shape != wanted:
        problem = (
            f"scatter_nd: U has shape {U.shape}; I of shape {I.shape} and X of shape {X.shape} ask {wanted}"
        )
        raise SonnxError("SCATTERND_C4", problem)
    return k


def offsets(X: Array, I: Array, k: int) -> np.ndarray:  # noqa: E741
    """For each index of I (its last axis, of length k), the row-major position of the slice it addresses
    among the prod(X.shape[:k]) slices of X, a negative component counted from the end."""
    dims = np.array(X.shape[:k])  # int64 for k ≥ 1; with k = 0 no index has a component to read
    indices = np.reshape(I, (math.prod(I.shape[:-1]), k))  # one row per index, in row-major order
    outside = (indices < -dims) | (indices >= dims)
    if outside.any():
        j, a = (int(n) for n in np.argwhere(outside)[0])
        problem = (
            f"scatter_nd: index {j} of I holds {int(indices[j, a])} for axis {a}, of dimension {dims[a]}"
        )
        raise SonnxError("SCATTERND_C5", problem)
    positive = np.where(indices < 0, indices + dims, indices)  # SCATTERND_S1: d added to a negative one
    at = np.zeros(len(indices), np.int64)  # SCATTERND_S2: the slice's row-major position, axis by axis
    for a in range(k):
        at = at * X.shape[a] + positive[:, a]
    _, first, counts = np.unique(at, return_index=True, return_counts=True)
    if (counts > 1).any():
        repeated = int(first[counts > 1].min())  # the first index of I whose slice is addressed again
        problem = f"scatter_nd: I addresses the slice {tuple(positive[repeated].tolist())} more than once"
        raise SonnxError("SCATTERND_C6", problem)
    return at


def scatter_nd(X: Array, I: Array, U: Array, *, reduction: str) -> np.ndarray:  # noqa: E741
    """A copy of ``X`` in which the slices ``I`` addresses are replaced by the slices of ``U``.

    ``I`` is an int64 tensor of rank q ≥ 1 whose last dimension k is at most the rank of ``X``: it holds
    one index of k components per position of its first q − 1 axes, each addressing the slice of ``X``
    along its last axes from k on (an element where k is the rank of ``X``). A negative component counts
    from the end of its axis; every component is inside its axis and no slice is addressed twice. ``U``
    has shape ``I.shape[:-1] + X.shape[k:]``: the slice at each position of I's first axes. ``reduction``
    is "none" (the profile admits no other). Every element is copied bit for bit.

    Returns a new array of ``X``'s type and shape, never a view of an input.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([1, 2, 3, 4, 5, 6, 7, 8], np.int8)
    >>> I = np.array([[4], [3], [1], [7]])
    >>> U = np.array([9, 10, 11, 12], np.int8)
    >>> sonnx_spec.scatter_nd(X, I, U, reduction="none")
    array([ 1, 11,  3, 10,  9,  6,  7, 12], dtype=int8)
    """
    k = check_shapes(X, I, U, reduction)  # SCATTERND_C1 to SCATTERND_C4
    at = offsets(X, I, k)  # SCATTERND_C5, SCATTERND_C6, SCATTERND_S1
    Y = copied(X, X.shape)  # SCATTERND_S2: every element not addressed is X's, bits copied
    slices = Y.reshape(math.prod(X.shape[:k]), math.prod(X.shape[k:]))  # a view of the new Y
    slices[at] = np.reshape(U, (at.size, slices.shape[1]))  # SCATTERND_S2: U's slices, bits copied
    return Y


scatter_nd = operator(
    scatter_nd,
    onnx="ScatterND",
    version=18,
    inputs=(
        Tensor("X", "data", "T", doc="the tensor copied, rank 1 or more"),
        Tensor(
            "I",
            "indices",
            "int64",
            doc="rank q ≥ 1: indices of k ≤ rank(X) components along its last axis, each a slice of X",
        ),
        Tensor("U", "updates", "T", doc="of shape I.shape[:-1] + X.shape[k:]: the slices written"),
    ),
    attributes=(
        Attribute("reduction", "reduction", "string", doc='"none": each slice replaced (no other admitted)'),
    ),
    outputs=(Tensor("Y", "output", "T", doc="X with the slices I addresses replaced by U's"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, scatter_nd)
