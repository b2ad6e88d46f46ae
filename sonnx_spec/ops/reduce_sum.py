"""ReduceSum (ONNX ReduceSum-13 in the SONNX profile): the sum of the elements of X along the axes A, exact:
modulo 2^n for the integers, rounded once for the floating-point types."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families.axes import normalized_axis, repeated_axis
from ..families.movement import int_values
from ..families.reduction import exact_sum, wrapped_sum
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def reduced_axes(
    op: str, X: Array, A: Array, keepdims: int, noop_with_empty_axes: int, ids: tuple[str, str, str, str]
) -> tuple[int, ...]:
    """The axes of X a reduction (ReduceSum, ReduceMean) sums over, counted from 0, after the checks
    whose ids the operator gives, in this order: each axis of A an axis of X; none named twice; keepdims
    0 or 1; noop_with_empty_axes 0 or 1. An empty A names every axis of X, or none where
    noop_with_empty_axes is 1."""
    outside_rule, repeated_rule, keepdims_rule, noop_rule = ids
    rank = np.ndim(X)
    given = int_values(A)
    axes = tuple(normalized_axis(a, rank) for a in given)
    if None in axes:
        outside = given[axes.index(None)]
        problem = f"{op}: A holds {outside}, outside [{-rank}, {rank - 1}] for X of rank {rank}"
        raise SonnxError(outside_rule, problem)
    twice = repeated_axis(axes)
    if twice is not None:
        raise SonnxError(repeated_rule, f"{op}: A = {list(given)} names axis {twice} of X more than once")
    if keepdims not in (0, 1):
        raise SonnxError(keepdims_rule, f"{op}: keepdims is {keepdims}, not 0 or 1")
    if noop_with_empty_axes not in (0, 1):
        problem = f"{op}: noop_with_empty_axes is {noop_with_empty_axes}, not 0 or 1"
        raise SonnxError(noop_rule, problem)
    if not axes and not noop_with_empty_axes:
        return tuple(range(rank))  # no axis named: every axis reduced
    return axes  # type: ignore[return-value]  (no None left)


def reduce_sum(X: Array, A: Array, *, keepdims: int, noop_with_empty_axes: int) -> np.ndarray:
    """The sum of the elements of ``X`` along the axes ``A``.

    ``A`` is an int64 vector of axes of ``X``: each in [−r, r − 1] for ``X`` of rank r (a negative one
    counts from the end), none named twice, in any order. An empty ``A`` reduces every axis, or none
    (each element summed alone: ``X`` itself) where ``noop_with_empty_axes`` is 1. ``keepdims`` 1 keeps
    the reduced axes with size 1, 0 leaves them out. A sum of integers is taken modulo 2^n; a sum of
    floating-point values is the exact sum of the elements rounded once to ``X``'s type, an empty sum +0.

    Returns a new array of ``X``'s type.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[1e8, 1, -1e8], [1, 2, 3]], np.float32)
    >>> sonnx_spec.reduce_sum(X, np.array([1]), keepdims=0, noop_with_empty_axes=0)
    array([1., 6.], dtype=float32)
    """
    checks = ("REDUCESUM_C1", "REDUCESUM_C2", "REDUCESUM_C3", "REDUCESUM_C4")
    axes = reduced_axes("reduce_sum", X, A, keepdims, noop_with_empty_axes, checks)  # REDUCESUM_S1
    if np.issubdtype(np.asarray(X).dtype, np.integer):
        return wrapped_sum("reduce_sum", X, axes, bool(keepdims))  # REDUCESUM_S1, REDUCESUM_S2
    return exact_sum("reduce_sum", X, axes, bool(keepdims))  # REDUCESUM_S1, REDUCESUM_S3, REDUCESUM_S4


reduce_sum = operator(
    reduce_sum,
    onnx="ReduceSum",
    version=13,
    inputs=(
        Tensor("X", "data", "T", doc="the elements summed"),
        Tensor(
            "A",
            "axes",
            "int64",
            rank=1,
            rank_rule="REDUCESUM_C5",
            sets_shape=True,
            doc="the axes of X summed over (empty: every axis, or none with noop_with_empty_axes 1)",
        ),
    ),
    attributes=(
        Attribute(
            "keepdims",
            "keepdims",
            "int",
            doc="1: Y keeps the reduced axes with size 1; 0: it leaves them out",
        ),
        Attribute(
            "noop_with_empty_axes",
            "noop_with_empty_axes",
            "int",
            doc="what an empty A reduces: 0, every axis; 1, none (Y is X)",
        ),
    ),
    outputs=(Tensor("Y", "reduced", "T", doc="the sums, of X's type"),),
    types={"T": ("int", "float")},
)
