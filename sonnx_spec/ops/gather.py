"""Gather (ONNX Gather-13 in the SONNX profile): the slices of X along an axis that the indices J name."""

from __future__ import annotations

import numpy as np

from ..checks import allocated
from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def checked_axis(X: Array, axis: int) -> int:
    """``axis`` as an axis of X, 0 to r − 1 (a negative one counted from the back)."""
    rank = np.ndim(X)
    if rank == 0:
        problem = "gather: X is 0-d; it has no axis to gather along"
        raise SonnxError("GATHER_C1", problem, operator="gather", tensor="X")
    if not -rank <= axis < rank:
        problem = f"gather: axis is {axis}; X has rank {rank}, an axis is {-rank} to {rank - 1}"
        raise SonnxError("GATHER_C2", problem, operator="gather", tensor="axis")
    return axis + rank if axis < 0 else axis  # GATHER_C2: a negative axis counts from the back


def gather(X: Array, J: Array, *, axis: int) -> np.ndarray:
    """The slices of ``X`` along ``axis`` at the indices ``J``, in the shape of ``J``.

    ``X`` has rank ``r ≥ 1``; ``axis`` is in ``[−r, r − 1]`` (a negative axis
    counts from the back). Every index of ``J`` (int64, any rank ``q``) is in
    ``[−s, s − 1]``, ``s`` the dimension of ``X`` at the axis; a negative index
    counts from the back. ``Y`` has ``X``'s dimensions before the axis, then ``J``'s,
    then ``X``'s after it: ``Y[i, j, k] = X[i, J[j], k]``, each element copied
    bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.gather(np.array([[1, 2], [3, 4], [5, 6]], np.int8), np.array([2, 0]), axis=0)
    array([[5, 6],
           [1, 2]], dtype=int8)
    """
    a = checked_axis(X, axis)  # GATHER_C1, GATHER_C2
    size = np.shape(X)[a]
    indices = np.asarray(J)
    outside = (indices < -size) | (indices >= size)
    if outside.any():
        wrong = int(indices[outside][0])  # a boolean mask gives the offending indices in row-major order
        problem = (
            f"gather: J holds {wrong}; X has dimension {size} at axis {a}, an index is {-size} to {size - 1}"
        )
        raise SonnxError("GATHER_E1", problem, operator="gather", tensor="J")
    shape = (*np.shape(X)[:a], *indices.shape, *np.shape(X)[a + 1 :])  # GATHER_S1
    result = allocated(shape, np.asarray(X).dtype)
    # GATHER_S2: X[i, J[j], k], a negative J[j] from the back (wrap: every J[j] is in range by now, and
    # numpy's own check, with out given, would copy through a buffer)
    np.take(X, indices, axis=a, out=result, mode="wrap")
    return result


gather = operator(
    gather,
    onnx="Gather",
    version=13,
    inputs=(
        Tensor("X", "data", "T", doc="the tensor whose slices are taken, of rank 1 or more"),
        Tensor("J", "indices", "int64", doc="the indices along axis, of any rank, each in [−s, s − 1]"),
    ),
    attributes=(Attribute("axis", "axis", "int", doc="the axis of X the indices run along, −r to r − 1"),),
    outputs=(
        Tensor("Y", "output", "T", doc="X's slices at J: X's dimensions with J's in place of the axis"),
    ),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, gather)
