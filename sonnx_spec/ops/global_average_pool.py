"""GlobalAveragePool (ONNX GlobalAveragePool-22 in the SONNX profile): the mean of each channel of X over its
spatial axes, exact: the exact sum divided exactly by the count, rounded once."""

from __future__ import annotations

import math

import numpy as np

from ..accuracy import Within, engines_within
from ..errors import SonnxError
from ..families.reduction import exact_mean, mean_error
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def global_average_pool(X: Array) -> np.ndarray:
    """The mean of each channel of ``X`` over its spatial axes.

    ``X`` has shape (N, C, d₁, …, dₖ), k ≥ 1: a batch of N, C channels, k spatial axes, each of one
    element or more. ``Y`` has shape (N, C, 1, …, 1), of ``X``'s rank: ``Y[n, c, 0, …, 0]`` is the mean of
    the d₁·…·dₖ elements ``X[n, c, …]``, their exact sum divided exactly by their count, rounded once to
    ``X``'s type.

    Returns a new array of ``X``'s type.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[[1e8, 1, -1e8], [1, 2, 4]]], np.float32)
    >>> sonnx_spec.global_average_pool(X)
    array([[[0.33333334],
            [2.3333333 ]]], dtype=float32)
    """
    shape = np.shape(X)
    rank = len(shape)
    if rank < 3:
        problem = f"global_average_pool: X has shape {shape}, rank {rank}: no spatial axis (rank 3 or more)"
        raise SonnxError("GLOBALAVERAGEPOOL_C1", problem)
    spatial = tuple(range(2, rank))  # GLOBALAVERAGEPOOL_S1: every axis after N and C
    if math.prod(shape[2:]) == 0:
        empty = next(a for a in spatial if shape[a] == 0)
        problem = f"global_average_pool: X has shape {shape}, no element along axis {empty}: a mean of none"
        raise SonnxError("GLOBALAVERAGEPOOL_C2", problem)
    # GLOBALAVERAGEPOOL_S1, GLOBALAVERAGEPOOL_S2, GLOBALAVERAGEPOOL_S3: ReduceMean's exact mean, axes kept
    return exact_mean("global_average_pool", X, spatial, True)


global_average_pool = operator(
    global_average_pool,
    onnx="GlobalAveragePool",
    version=22,
    inputs=(Tensor("X", "X", "T", doc="N × C × d₁ × … × dₖ (k ≥ 1): the elements averaged per channel"),),
    outputs=(Tensor("Y", "Y", "T", doc="N × C × 1 × … × 1: the mean of each channel, of X's type"),),
    types={"T": ("float",)},
)


def engine_error(Y: np.ndarray, X: np.ndarray) -> np.ndarray:
    """GLOBALAVERAGEPOOL_P1's bound on an engine's distance from the exact mean at each element of Y:
    ReduceMean's, γₙ₊₁·Σ|x|/n + η over the spatial axes (:func:`..families.reduction.mean_error`)."""
    return mean_error(Y, X, tuple(range(2, np.ndim(X))))


engines_within(global_average_pool, Within("GLOBALAVERAGEPOOL_P1", engine_error, of_exact=True))
