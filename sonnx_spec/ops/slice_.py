"""Slice (ONNX Slice-13 in the SONNX profile): the elements of X from a start, by a step, up to an end,
along each axis A names; the axes it does not name are kept whole."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import DATA_MOVEMENT, member
from ..families.movement import copied, int_values
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def axes_of(X: Array, S: Array, E: Array, A: Array, K: Array) -> dict[int, tuple[int, int, int]]:
    """The axes A names, each made non-negative, with its start, end and step as written."""
    starts, ends, axes, steps = int_values(S), int_values(E), int_values(A), int_values(K)
    lengths = [len(starts), len(ends), len(axes), len(steps)]
    if len(set(lengths)) > 1:
        problem = f"slice: S, E, A and K hold {', '.join(map(str, lengths))} values, not as many each"
        raise SonnxError("SLICE_C2", problem)
    r = X.ndim
    named: dict[int, tuple[int, int, int]] = {}
    for j, a in enumerate(axes):
        s, e, k = starts[j], ends[j], steps[j]
        if not -r <= a < r:
            raise SonnxError("SLICE_C3", f"slice: A holds {a}; X of rank {r} has axes −{r} to {r - 1}")
        axis = a + r if a < 0 else a  # SLICE_S1: a negative axis counts from the last
        if axis in named:
            raise SonnxError("SLICE_C4", f"slice: A = {list(axes)} names axis {axis} twice")
        if k == 0:
            raise SonnxError("SLICE_C5", f"slice: K = {list(steps)} holds a step 0")
        named[axis] = (s, e, k)
    return named


def effective(d: int, s: int, e: int, k: int) -> tuple[int, int]:
    """The start and end along an axis of dimension ``d`` (SLICE_S1): d added to a negative value, then
    clamped to [0, d] with a positive step, a start to [0, d − 1] and an end to [−1, d − 1] with a
    negative one."""
    s, e = (s + d if s < 0 else s), (e + d if e < 0 else e)  # SLICE_S1: exact Python ints
    if k > 0:
        return min(max(s, 0), d), min(max(e, 0), d)  # SLICE_S1: both in [0, d]
    return min(max(s, 0), d - 1), min(max(e, -1), d - 1)  # SLICE_S1: [0, d − 1] and [−1, d − 1]


def count(start: int, end: int, k: int) -> int:
    """The number of elements from ``start`` by ``k`` strictly before ``end`` (SLICE_S2)."""
    return max(0, -((start - end) // k))  # SLICE_S2: ⌈(end − start) / k⌉, 0 if negative


def slice_(X: Array, S: Array, E: Array, A: Array, K: Array) -> np.ndarray:
    """The elements of ``X`` from ``S`` by ``K`` up to ``E`` (excluded), along the axes ``A`` names.

    ``S``, ``E``, ``A`` and ``K`` are int64 vectors of one length: for each ``j``, axis ``A[j]``
    (negative: counted from the last) is sliced from ``S[j]`` by the step ``K[j]`` (not 0; negative:
    backward) strictly before ``E[j]``. A negative start or end has the axis's dimension ``d`` added;
    then a start is clamped to [0, d] and an end to [0, d] (positive step), or to [0, d − 1] and
    [−1, d − 1] (negative step), as ONNX documents. An axis ``A`` does not name is kept whole. Every
    element is copied bit for bit.

    Returns a new array of ``X``'s type and rank, never a view of ``X``.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.int8)
    >>> v = lambda *values: np.array(values, np.int64)
    >>> sonnx_spec.slice_(X, v(1, 0), v(2, 3), v(0, 1), v(1, 2))
    array([[5, 7]], dtype=int8)
    """
    named = axes_of(X, S, E, A, K)  # SLICE_C2 to SLICE_C5
    slices, shape = [], []
    for axis, d in enumerate(X.shape):
        s, e, k = named.get(axis, (0, d, 1))  # SLICE_S1: an axis A does not name is kept whole
        start, end = effective(d, s, e, k)
        n = count(start, end, k)
        stop = start + n * k  # SLICE_S3: the first index past the last taken, −1 at most below
        slices.append(slice(start, None if stop < 0 else stop, k))  # numpy reads a stop of −1 as d − 1
        shape.append(n)  # SLICE_S2
    return copied(np.asarray(X)[tuple(slices)], tuple(shape))  # SLICE_S3: bits copied


slice_ = operator(
    slice_,
    onnx="Slice",
    version=13,
    inputs=(
        Tensor("X", "data", "T", doc="the elements to take from"),
        Tensor(
            "S",
            "starts",
            "int64",
            rank=1,
            rank_rule="SLICE_C1",
            sets_shape=True,
            doc="for each axis of A, the first index taken (negative: counted from the end; clamped)",
        ),
        Tensor(
            "E",
            "ends",
            "int64",
            rank=1,
            rank_rule="SLICE_C1",
            sets_shape=True,
            doc="for each axis of A, the index slicing stops before (negative: from the end; clamped)",
        ),
        Tensor(
            "A",
            "axes",
            "int64",
            rank=1,
            rank_rule="SLICE_C1",
            sets_shape=True,
            doc="the axes sliced, each once (negative: counted from the last); required (GR4)",
        ),
        Tensor(
            "K",
            "steps",
            "int64",
            rank=1,
            rank_rule="SLICE_C1",
            sets_shape=True,
            doc="for each axis of A, the step, not 0 (negative: backward); required (GR4)",
        ),
    ),
    attributes=(),
    outputs=(Tensor("Y", "output", "T", doc="the elements taken, in X's rank and type"),),
    types={"T": ("int", "float", "bool")},
)
member(DATA_MOVEMENT, slice_)
