"""ReduceSum (ONNX ReduceSum-13 in the SONNX profile): the sum of the elements of X along the axes A, exact:
modulo 2^n for the integers, rounded once for the floating-point types."""

from __future__ import annotations

import numpy as np

from ..accuracy import Within, engines_within
from ..families.reduction import bound_axes, exact_sum, reduced_axes, sum_error, wrapped_sum
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


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


def engine_error(Y: np.ndarray, X: np.ndarray, A: np.ndarray) -> np.ndarray:
    """REDUCESUM_P1's bound on an engine's distance from the exact sum at each element of Y: γₙ₋₁·Σ|x|
    (:func:`..families.reduction.sum_error`)."""
    return sum_error(Y, X, bound_axes(Y, X, A))


engines_within(reduce_sum, Within("REDUCESUM_P1", engine_error, of_exact=True))
