"""ReduceSum (ONNX ReduceSum-13 in the SONNX profile): the sum of the elements of X along the axes A, exact:
modulo 2^n for the integers, rounded once for the floating-point types."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from ..accuracy import Within, engines_within
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


def terms_per_element(Y: np.ndarray, X: np.ndarray, A: np.ndarray) -> tuple[tuple[int, ...], int]:
    """The axes of X a reduction's result Y was computed along, and the count n of terms of each of its
    elements, from X, A and Y's shape (the attributes are not among a bound's arguments): A's axes; for an
    empty A, none where Y has X's shape (noop_with_empty_axes 1, or every axis of size 1: n = 1 either
    way), every axis otherwise."""
    rank = np.ndim(X)
    axes = tuple(sorted({int(a) % rank for a in np.ravel(A)})) if rank else ()
    if not axes and np.size(A) == 0 and np.shape(Y) != np.shape(X):
        axes = tuple(range(rank))
    return axes, math.prod(np.shape(X)[a] for a in axes)


def engine_error(Y: np.ndarray, X: np.ndarray, A: np.ndarray) -> np.ndarray:
    """REDUCESUM_P1's bound on an engine's distance from the exact sum S at each element of Y (float64):
    γₙ₋₁·Σ|x|; +∞ (any value) where (n − 1)·u ≥ 1 or Σ|x| passes the type's largest value. Σ|x| is bounded
    above: numpy's float64 sum of the magnitudes, raised by 4(n + 1) float64 units (its sum errs by less);
    the product is raised by 2⁻⁵⁰ and one float64 step (0 stays 0), for γ's rounding and its own. One term
    (n = 1) or none gives 0: only the exact sum, the term itself, conforms (a zero of either sign where
    Σ|x| = 0: the judge widens the bound by the reference's own rounding, η at zero)."""
    info = ml_dtypes.finfo(Y.dtype)
    axes, n = terms_per_element(Y, X, A)
    m = max(n - 1, 0)
    u = 2.0 ** -(info.nmant + 1)
    if m * u >= 1:
        return np.full(Y.shape, np.inf)
    gamma = m * u / (1 - m * u)
    with np.errstate(over="ignore", invalid="ignore"):  # beyond float64's range; 0·∞ for one infinite term
        magnitudes = np.abs(np.asarray(X, np.float64)).sum(axis=axes).reshape(Y.shape)
        magnitudes *= 1 + 4 * (n + 1) * 2.0**-53
        error = np.asarray(gamma * magnitudes * (1 + 2.0**-50))
        error[error > 0] = np.nextafter(error[error > 0], np.inf)  # 0 stays 0: one term, or only zeros
        error[magnitudes > float(info.max)] = np.inf
    return error


engines_within(reduce_sum, Within("REDUCESUM_P1", engine_error, of_exact=True))
