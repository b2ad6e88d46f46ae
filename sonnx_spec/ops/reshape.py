"""Reshape (ONNX Reshape-25 in the SONNX profile): X's elements, in row-major order, in the shape S gives."""

from __future__ import annotations

import math

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import int_values, rearranged
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def output_shape(X: Array, S: Array, allowzero: int) -> tuple[int, ...]:
    """The shape S gives for X: a dimension as written, X's dimension where S has 0 and ``allowzero`` is
    0, the one dimension that keeps X's size where S has −1."""
    if allowzero not in (0, 1):
        problem = f"reshape: allowzero is {allowzero}, not 0 or 1"
        raise SonnxError("RESHAPE_C1", problem)
    wanted = int_values(S)
    below = [d for d in wanted if d < -1]
    if below:
        raise SonnxError("RESHAPE_C3", f"reshape: S holds {below[0]}; a dimension is −1, 0 or more")
    if wanted.count(-1) > 1:
        raise SonnxError("RESHAPE_C4", f"reshape: S is {list(wanted)}, with −1 more than once")
    if allowzero == 1 and -1 in wanted and 0 in wanted:
        problem = f"reshape: S is {list(wanted)} with allowzero 1: a 0 and a −1 together"
        raise SonnxError("RESHAPE_C3", problem)
    dims = list(wanted)
    for axis, d in enumerate(wanted):
        if d == 0 and allowzero == 0:
            if axis >= X.ndim:
                problem = f"reshape: S[{axis}] is 0 (X's dimension {axis}), but X has rank {X.ndim}"
                raise SonnxError("RESHAPE_C2", problem)
            dims[axis] = X.shape[axis]  # RESHAPE_S1: X's dimension copied
    if -1 in dims:
        axis, known = dims.index(-1), math.prod(d for d in dims if d != -1)
        if known == 0 or X.size % known:
            problem = f"reshape: no dimension at −1 of S = {list(wanted)} gives X's {X.size} elements"
            raise SonnxError("RESHAPE_C5", problem)
        dims[axis] = X.size // known  # RESHAPE_S1: the dimension that keeps X's size
    if math.prod(dims) != X.size:
        size = math.prod(dims)
        problem = f"reshape: S = {list(wanted)} gives shape {tuple(dims)}, of {size} elements; X has {X.size}"
        raise SonnxError("RESHAPE_C5", problem)
    return tuple(dims)


def reshape(X: Array, S: Array, *, allowzero: int) -> np.ndarray:
    """The elements of ``X``, in row-major order, in the shape ``S`` gives.

    ``S`` is an int64 vector: a dimension ``d ≥ 1`` is taken as written; 0 takes
    ``X``'s dimension at that axis when ``allowzero`` is 0 and is a dimension of
    size 0 when it is 1; one −1 at most stands for the dimension that keeps
    ``X``'s number of elements. The shape must hold exactly as many elements as
    ``X``. Every element is copied bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.reshape(np.arange(6, dtype=np.int8), np.array([2, -1]), allowzero=0)
    array([[0, 1, 2],
           [3, 4, 5]], dtype=int8)
    """
    shape = output_shape(X, S, allowzero)  # RESHAPE_C1 to RESHAPE_C5, RESHAPE_S1
    return rearranged(X, shape)  # RESHAPE_S2: row-major order kept, bits copied


reshape = operator(
    reshape,
    onnx="Reshape",
    version=25,
    inputs=(
        Tensor("X", "data", "T", doc="the elements to arrange"),
        Tensor(
            "S",
            "shape",
            "int64",
            rank=1,
            rank_rule="RESHAPE_C6",
            sets_shape=True,
            doc="the new shape: a dimension, 0 (X's, or 0 with allowzero) or −1 (the one keeping the size)",
        ),
    ),
    attributes=(
        Attribute(
            "allowzero", "allowzero", "int", doc="1: a 0 in S is a dimension of size 0; 0: X's dimension"
        ),
    ),
    outputs=(Tensor("Y", "reshaped", "T", doc="X's elements in row-major order, in the shape S gives"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, reshape)
