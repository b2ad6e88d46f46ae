"""Concat (ONNX Concat-13 in the SONNX profile): the inputs one after the other along an axis."""

from __future__ import annotations

import numpy as np

from ..checks import allocated
from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def output_shape(X: tuple[Array, ...], axis: int) -> tuple[int, ...]:
    """Y's shape once the inputs are known to fit together: X0's dimensions, with the sum of the inputs'
    dimensions at ``axis``."""
    if len(X) == 0:
        raise SonnxError("CONCAT_C3", "concat: no input given")
    shapes = [np.shape(x) for x in X]
    rank = len(shapes[0])
    for k, shape in enumerate(shapes):
        if len(shape) != rank:
            problem = f"concat: X{k} has rank {len(shape)}; X0 has rank {rank}"
            raise SonnxError("CONCAT_C4", problem, operator="concat", tensor="X")
    if axis < 0:
        problem = f"concat: axis is {axis}; an axis is 0 or more"
        raise SonnxError("CONCAT_C2", problem, operator="concat", tensor="axis")
    if axis >= rank:
        problem = f"concat: axis is {axis}; the inputs have rank {rank}, their axes are 0 to {rank - 1}"
        raise SonnxError("CONCAT_C1", problem, operator="concat", tensor="axis")
    for k, shape in enumerate(shapes):
        other = [a for a in range(rank) if a != axis and shape[a] != shapes[0][a]]
        if other:
            a = other[0]
            problem = f"concat: X{k} has dimension {shape[a]} at axis {a}, X0 has {shapes[0][a]}"
            raise SonnxError("CONCAT_C5", problem, operator="concat", tensor="X")
    total = sum(shape[axis] for shape in shapes)  # CONCAT_S1: exact Python integers
    return (*shapes[0][:axis], total, *shapes[0][axis + 1 :])  # CONCAT_S1


def concat(*X: Array, axis: int) -> np.ndarray:
    """The tensors ``X0, X1, …`` one after the other along ``axis``.

    The inputs have one rank ``r`` and the same dimensions at every axis but
    ``axis``, which is ``0 ≤ axis < r`` (a negative axis is refused). ``Y`` has
    their dimensions, with the sum of theirs at ``axis``; ``Y[i]`` is the element
    of the input ``Xk`` whose range along ``axis`` holds ``i[axis]``, at ``i`` with
    ``i[axis]`` less the dimensions of the inputs before it. Every element is
    copied bit for bit.

    Returns a new array of the inputs' type, never a view of an input.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.concat(np.array([[1, 2]], np.int8), np.array([[3, 4], [5, 6]], np.int8), axis=0)
    array([[1, 2],
           [3, 4],
           [5, 6]], dtype=int8)
    """
    shape = output_shape(X, axis)  # CONCAT_C1 to CONCAT_C5, CONCAT_S1
    result = allocated(shape, np.asarray(X[0]).dtype)
    np.concatenate([np.asarray(x) for x in X], axis=axis, out=result)  # CONCAT_S2: one type, bits copied
    return result


concat = operator(
    concat,
    onnx="Concat",
    version=13,
    inputs=(Tensor("X", "inputs", "T", variadic=True, doc="the tensors joined, in order"),),
    attributes=(Attribute("axis", "axis", "int", doc="the axis along which they are joined, 0 to r − 1"),),
    outputs=(Tensor("Y", "concat_result", "T", doc="the inputs one after the other along axis"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, concat)
