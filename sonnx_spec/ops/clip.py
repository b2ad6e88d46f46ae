"""Clip (ONNX Clip-13 in the SONNX profile): Y[i] = min(M, max(X[i], L))."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..order import ordered_max, ordered_min
from ..registry import Tensor, operator
from ..types import FLOAT_TYPES

Array = np.ndarray | np.generic


@operator(
    onnx="Clip",
    version=13,
    inputs=(
        Tensor("X", "input", "T", doc="the tensor whose elements are limited"),
        Tensor("L", "min", "T", rank=0, rank_rule="CLIP_C4", doc="the lower bound"),
        Tensor("M", "max", "T", rank=0, rank_rule="CLIP_C4", doc="the upper bound"),
    ),
    outputs=(Tensor("Y", "output", "T", doc="X with each element limited to [L, M]"),),
    types={"T": ("int", "float")},
)
def clip(X: Array, L: Array | None, M: Array | None) -> np.ndarray:
    """Limit every element of ``X`` to the interval ``[L, M]``.

    ``L`` and ``M`` are 0-d tensors of ``X``'s type; ``None`` stands for an
    input ONNX lets a model omit, which the profile refuses (GR4).
    If ``L > M`` every element of the result is ``M``. A NaN element of ``X``
    stays NaN when ``L <= M``; a NaN bound is refused (CLIP_E1). Signed zeros
    are ordered ``-0 < +0``.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.clip(np.array([-2, 0, 2], dtype=np.int8), np.int8(-1), np.int8(1))
    array([-1,  0,  1], dtype=int8)
    """
    low, high = np.asarray(L)[()], np.asarray(M)[()]
    if X.dtype in FLOAT_TYPES and (np.isnan(low) or np.isnan(high)):
        raise SonnxError("CLIP_E1", f"clip: bound {'L' if np.isnan(low) else 'M'} is NaN")

    if _above(low, high):  # CLIP_S2 (in the order of CLIP_S4)
        return np.full(X.shape, high, dtype=X.dtype)  # CLIP_C1, CLIP_C3: X's shape and type
    # CLIP_S1, CLIP_S3: min(M, max(X[i], L)), NaN propagating
    if X.dtype in FLOAT_TYPES and (X.dtype.name == "bfloat16" or low == 0 or high == 0):
        # CLIP_S4: -0 < +0 matters only where a zero meets a zero bound;
        # np.clip would also promote bfloat16 to float32.
        raised = ordered_max([X, low], np.empty(X.shape, X.dtype))
        return ordered_min([raised, high], np.empty(X.shape, X.dtype))
    Y = np.empty(X.shape, X.dtype)  # CLIP_C1, CLIP_C3: X's shape and type
    np.clip(X, low, high, out=Y)
    return Y


def _above(low: np.generic, high: np.generic) -> bool:
    """L > M in the order of Max, where +0 > -0 (CLIP_S4)."""
    if low == high == 0:
        return bool(np.signbit(high) and not np.signbit(low))
    return bool(low > high)
