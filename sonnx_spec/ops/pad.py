"""Pad (ONNX Pad-25 in the SONNX profile): X with elements added before and after it along the axes A
names: the constant V, or X's own elements mirrored, repeated at the edge, or wrapped around."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import copied, int_values
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic

MODES = ("constant", "reflect", "edge", "wrap")


def widths(X: Array, P: Array, A: Array, mode: str) -> list[tuple[int, int, int]]:
    """Along each axis of X: the number of elements added before X, its dimension, the number added after
    (0 where A names none)."""
    if mode not in MODES:
        raise SonnxError("PAD_C1", f"pad: mode is {mode!r}, not one of {', '.join(MODES)}")
    pads, axes, r = int_values(P), int_values(A), X.ndim
    if len(pads) != 2 * len(axes):
        problem = f"pad: P holds {len(pads)} values for the {len(axes)} axes of A, not {2 * len(axes)}"
        raise SonnxError("PAD_C2", problem)
    width = [(0, d, 0) for d in X.shape]
    named: set[int] = set()
    for j, a in enumerate(axes):
        if not -r <= a < r:
            raise SonnxError("PAD_C4", f"pad: A holds {a}; X of rank {r} has axes −{r} to {r - 1}")
        axis = a + r if a < 0 else a  # PAD_S1: a negative axis counts from the last
        if axis in named:
            raise SonnxError("PAD_C4", f"pad: A = {list(axes)} names axis {axis} twice")
        named.add(axis)
        before, after, d = pads[j], pads[len(axes) + j], X.shape[axis]
        if before < 0 or after < 0:
            problem = f"pad: P = {list(pads)} pads axis {axis} by {before} and {after}: a pad is 0 or more"
            raise SonnxError("PAD_C5", problem)
        if mode == "reflect" and max(before, after) > max(d - 1, 0):
            problem = (
                f"pad: reflect pads axis {axis} of dimension {d} by {before} and {after}: at most {d - 1}"
            )
            raise SonnxError("PAD_C6", problem)
        if mode in ("edge", "wrap") and d == 0 and before + after > 0:
            raise SonnxError(
                "PAD_C6", f"pad: {mode} pads axis {axis}, of dimension 0, by {before} and {after}"
            )
        width[axis] = (before, d, after)
    return width


def source(o: np.ndarray, before: int, d: int, mode: str) -> np.ndarray:
    """The index along one axis of dimension ``d`` that each index ``o`` of Y takes its element from, in
    the modes that take every element from X (PAD_S3)."""
    i = o - before  # the index in X, outside [0, d − 1] in the pads
    if mode == "edge":
        return np.clip(i, 0, d - 1)  # PAD_S3: the nearest element of X (int64 indices: no dtype trap)
    if mode == "reflect":
        i = np.abs(i)  # PAD_S3: mirrored at the first element, which is not repeated
        return np.minimum(i, 2 * (d - 1) - i)  # PAD_S3: and at the last (the nearer of i and its mirror)
    return i % d  # PAD_S3: wrap: Python's (numpy's) modulo of a negative index is in [0, d − 1]


def pad(X: Array, P: Array, V: Array, A: Array, *, mode: str) -> np.ndarray:
    """``X`` with ``P[j]`` elements added before it and ``P[n + j]`` after it along axis ``A[j]``.

    ``A`` names n axes of ``X`` (negative: counted from the last), each once; ``P`` holds 2n pads, 0 or
    more. The added elements are ``V`` (mode ``constant``), ``X``'s elements mirrored about its first and
    last ones (``reflect``: a pad is at most the dimension − 1), the first or last element repeated
    (``edge``), or ``X``'s elements from its other end (``wrap``). ``V`` is given in every mode. Every
    element is copied bit for bit.

    Returns a new array of ``X``'s type, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[1, 2], [3, 4]], np.int8)
    >>> sonnx_spec.pad(X, np.array([1, 1]), np.array(0, np.int8), np.array([1]), mode="reflect")
    array([[2, 1, 2, 1],
           [4, 3, 4, 3]], dtype=int8)
    """
    width = widths(X, P, A, mode)  # PAD_C1 to PAD_C6
    shape = tuple(b + d + e for b, d, e in width)  # PAD_S1
    if mode == "constant":
        Y = copied(np.broadcast_to(V, shape), shape)  # PAD_S2: V everywhere, copied bit for bit
        Y[tuple(slice(b, b + d) for b, d, _ in width)] = X  # PAD_S2: X inside
        return Y
    indices = [source(np.arange(b + d + e), b, d, mode) for b, d, e in width]
    return copied(np.asarray(X)[np.ix_(*indices)], shape)  # PAD_S3: a new array, bits copied


pad = operator(
    pad,
    onnx="Pad",
    version=25,
    inputs=(
        Tensor("X", "data", "T", doc="the elements to pad"),
        Tensor(
            "P",
            "pads",
            "int64",
            rank=1,
            rank_rule="PAD_C2",
            sets_shape=True,
            doc="the pads before each axis of A, then those after, each 0 or more",
        ),
        Tensor(
            "V", "constant_value", "T", rank=0, rank_rule="PAD_C3", doc="the value added in constant mode"
        ),
        Tensor(
            "A",
            "axes",
            "int64",
            rank=1,
            rank_rule="PAD_C2",
            sets_shape=True,
            doc="the axes padded, each once; negative: counted from the last",
        ),
    ),
    attributes=(
        Attribute("mode", "mode", "string", doc="constant, reflect, edge or wrap: what the pads hold"),
    ),
    outputs=(Tensor("Y", "output", "T", doc="X with the pads added"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, pad)
