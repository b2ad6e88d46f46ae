"""ReduceMean (ONNX ReduceMean-18 in the SONNX profile): the mean of the elements of X along the axes A,
exact: for the integers the exact sum divided by the count, truncated toward zero; for the floating-point
types the exact sum divided exactly by the count, rounded once."""

from __future__ import annotations

import math

import numpy as np

from ..accuracy import Within, engines_within
from ..errors import SonnxError
from ..families.reduction import bound_axes, exact_mean, mean_error, reduced_axes, truncated_mean
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def reduce_mean(X: Array, A: Array, *, keepdims: int, noop_with_empty_axes: int) -> np.ndarray:
    """The mean of the elements of ``X`` along the axes ``A``.

    ``A`` is an int64 vector of axes of ``X``: each in [−r, r − 1] for ``X`` of rank r (a negative one
    counts from the end), none named twice, in any order. An empty ``A`` reduces every axis, or none
    (each element its own mean: ``X`` itself) where ``noop_with_empty_axes`` is 1. ``keepdims`` 1 keeps
    the reduced axes with size 1, 0 leaves them out. Every mean is of one element or more. A mean of
    integers is their exact sum divided by their count, truncated toward zero; a mean of floating-point
    values is their exact sum divided exactly by their count, rounded once to ``X``'s type.

    Returns a new array of ``X``'s type.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[1e8, 1, -1e8], [1, 2, 4]], np.float32)
    >>> sonnx_spec.reduce_mean(X, np.array([1]), keepdims=0, noop_with_empty_axes=0)
    array([0.33333334, 2.3333333 ], dtype=float32)
    """
    checks = ("REDUCEMEAN_C1", "REDUCEMEAN_C2", "REDUCEMEAN_C3", "REDUCEMEAN_C4")
    axes = reduced_axes("reduce_mean", X, A, keepdims, noop_with_empty_axes, checks)  # REDUCEMEAN_S1
    count = math.prod(np.shape(X)[a] for a in axes)
    if count == 0:
        empty = [a for a in axes if np.shape(X)[a] == 0]
        problem = f"reduce_mean: X has shape {np.shape(X)}, no element along axis {empty[0]}: a mean of none"
        raise SonnxError("REDUCEMEAN_C6", problem)
    if np.issubdtype(np.asarray(X).dtype, np.integer):
        return truncated_mean("reduce_mean", X, axes, bool(keepdims))  # REDUCEMEAN_S1, REDUCEMEAN_S2
    return exact_mean("reduce_mean", X, axes, bool(keepdims))  # REDUCEMEAN_S1, REDUCEMEAN_S3, REDUCEMEAN_S4


reduce_mean = operator(
    reduce_mean,
    onnx="ReduceMean",
    version=18,
    inputs=(
        Tensor("X", "data", "T", doc="the elements averaged"),
        Tensor(
            "A",
            "axes",
            "int64",
            rank=1,
            rank_rule="REDUCEMEAN_C5",
            sets_shape=True,
            doc="the axes of X averaged over (empty: every axis, or none with noop_with_empty_axes 1)",
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
    outputs=(Tensor("Y", "reduced", "T", doc="the means, of X's type"),),
    types={"T": ("int", "float")},
)


def engine_error(Y: np.ndarray, X: np.ndarray, A: np.ndarray) -> np.ndarray:
    """REDUCEMEAN_P1's bound on an engine's distance from the exact mean at each element of Y:
    γₙ₊₁·Σ|x|/n + η (:func:`..families.reduction.mean_error`)."""
    return mean_error(Y, X, bound_axes(Y, X, A))


engines_within(reduce_mean, Within("REDUCEMEAN_P1", engine_error, of_exact=True))
