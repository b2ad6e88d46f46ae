"""Split (ONNX Split-18 in the SONNX profile): X cut along one axis into num_outputs consecutive parts."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import copied
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def part_sizes(X: Array, axis: int, num_outputs: int) -> tuple[int, list[int]]:
    """The axis of X that is cut (a negative one counted from the last) and the size of each part along
    it: num_outputs − 1 parts of ⌈n / num_outputs⌉ elements, then the last, of what remains."""
    r = X.ndim
    if not -r <= axis < r:
        raise SonnxError("SPLIT_C1", f"split: axis is {axis}; X of rank {r} has axes −{r} to {r - 1}")
    if num_outputs < 1:
        raise SonnxError("SPLIT_C2", f"split: num_outputs is {num_outputs}, not 1 or more")
    axis = axis + r if axis < 0 else axis  # SPLIT_S1: a negative axis counts from the last
    n = X.shape[axis]
    chunk = -(-n // num_outputs)  # SPLIT_S1: ⌈n / num_outputs⌉, exact on Python ints
    last = n - (num_outputs - 1) * chunk  # SPLIT_S1: what the first parts leave
    if last < 1:
        problem = (
            f"split: {n} elements along axis {axis} in {num_outputs} parts of {chunk} leave {last} "
            "for the last part; every part holds at least one"
        )
        raise SonnxError("SPLIT_C3", problem)
    return axis, [chunk] * (num_outputs - 1) + [last]


def split(X: Array, *, axis: int, num_outputs: int) -> tuple[np.ndarray, ...]:
    """``X`` cut along ``axis`` into ``num_outputs`` consecutive parts, the last one perhaps shorter.

    With ``n`` elements along ``axis`` (a negative axis counts from the last),
    each part but the last holds ``⌈n / num_outputs⌉`` of them and the last
    what remains, which must be one element or more. Every element is copied
    bit for bit.

    Returns a tuple of ``num_outputs`` new arrays of ``X``'s type, never views of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.split(np.arange(5, dtype=np.int8), axis=0, num_outputs=2)
    (array([0, 1, 2], dtype=int8), array([3, 4], dtype=int8))
    """
    axis, sizes = part_sizes(X, axis, num_outputs)  # SPLIT_C1 to SPLIT_C3, SPLIT_S1
    parts = []
    start = 0
    for size in sizes:
        where = [slice(None)] * X.ndim
        where[axis] = slice(start, start + size)  # SPLIT_S2: part m starts where part m − 1 ends
        shape = (*X.shape[:axis], size, *X.shape[axis + 1 :])  # SPLIT_S1
        parts.append(copied(X[tuple(where)], shape))  # SPLIT_S2: bits copied
        start += size
    return tuple(parts)


split = operator(
    split,
    onnx="Split",
    version=18,
    inputs=(Tensor("X", "input", "T", doc="the tensor to cut, of rank 1 or more"),),
    attributes=(
        Attribute("axis", "axis", "int", doc="the axis along which X is cut (negative: from the last)"),
        Attribute(
            "num_outputs",
            "num_outputs",
            "int",
            doc="the number of parts, 1 or more; each holds at least one element; required (GR4)",
        ),
    ),
    outputs=(
        Tensor("Y", "outputs", "T", variadic=True, doc="the parts Y0, Y1, …, in the order they have in X"),
    ),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, split)
