"""Shape (ONNX Shape-25 in the SONNX profile): the dimensions of X from axis start to axis end, as int64."""

from __future__ import annotations

import numpy as np

from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def clamped(v: int, r: int) -> int:
    """An axis bound as ONNX documents it: r added to a negative one, then clamped to [0, r]."""
    v = v + r if v < 0 else v  # SHAPE_S1: a negative bound counts from the last axis
    return min(max(v, 0), r)  # SHAPE_S1: clamped to [0, r], on Python ints


def shape(X: Array, *, start: int, end: int) -> np.ndarray:
    """The dimensions of ``X`` from axis ``start`` up to, not including, axis ``end``, as an int64 vector.

    A negative ``start`` or ``end`` has the rank ``r`` of ``X`` added; both are
    then clamped to ``[0, r]``, as ONNX documents. Where ``start`` is not
    before ``end``, the result is empty. Only the shape of ``X`` is read, never
    its elements.

    Returns a new int64 array of rank 1.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.shape(np.zeros((2, 3, 4), dtype=np.float32), start=1, end=-1)
    array([3])
    """
    r = X.ndim
    first, last = clamped(start, r), clamped(end, r)  # SHAPE_S1
    dims = [X.shape[axis] for axis in range(first, last)]  # SHAPE_S2: none where first >= last
    return np.array(dims, dtype=np.int64)  # SHAPE_S2: a new int64 vector


shape = operator(
    shape,
    onnx="Shape",
    version=25,
    inputs=(Tensor("X", "data", "T", shape_only=True, doc="the tensor whose shape is read"),),
    attributes=(
        Attribute("start", "start", "int", doc="the first axis (negative: from the last; clamped to [0, r])"),
        Attribute(
            "end", "end", "int", doc="the axis before which it stops (negative: from the last; clamped)"
        ),
    ),
    outputs=(Tensor("Y", "shape", "int64", doc="the dimensions of X from start to end, an int64 vector"),),
    types={"T": ("int", "float", "bool")},
)
