"""Clip (ONNX Clip-13 in the SONNX profile): every element of X limited to the interval [L, M]."""

from __future__ import annotations

import numpy as np

from ..registry import Tensor, operator
from ..types import FLOAT_TYPES

Array = np.ndarray | np.generic


def clip(X: Array, L: Array | None, M: Array | None) -> np.ndarray:
    """Limit every element of ``X`` to the interval ``[L, M]``.

    ``L`` and ``M`` are 0-d tensors of ``X``'s type; ``None`` stands for an
    input ONNX lets a model omit, which the profile refuses (GR4). A NaN bound
    is no bound: ``L`` = NaN limits nothing below, ``M`` = NaN nothing above.
    Comparisons are IEEE 754's: ``-0 == +0``, and a NaN element of ``X`` stays
    NaN. If ``L > M`` every element of the result is ``M``.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.clip(np.array([-2, 0, 2], dtype=np.int8), np.int8(-1), np.int8(1))
    array([-1,  0,  1], dtype=int8)
    """
    low, high = np.asarray(L)[()], np.asarray(M)[()]
    is_float = X.dtype in FLOAT_TYPES
    if is_float and np.isnan(low):  # CLIP_S5: a NaN bound is no bound
        low = np.array(-np.inf, X.dtype)[()]
    if is_float and np.isnan(high):  # CLIP_S5
        high = np.array(np.inf, X.dtype)[()]

    if low > high:  # CLIP_S2, in IEEE comparison (CLIP_S4): every element is M
        return np.full(X.shape, high)  # CLIP_C1, CLIP_C3: X's shape, and M's type, which is X's (GR3)
    if is_float and (low == 0 or high == 0):
        # CLIP_S1 by its cases, X[i] <= L gives L and X[i] >= M gives M: with a zero bound the case
        # decides the sign of a zero result (CLIP_S4).
        with np.errstate(invalid="ignore"):  # bfloat16 flags comparisons with NaN; NaN is a value here
            return np.where(X <= low, low, np.where(X >= high, high, X))  # CLIP_S3: NaN fails both tests
    # CLIP_S1, CLIP_S3: without a zero bound, min(max(X[i], L), M) is the cases' result, bit for bit
    # (out= keeps bfloat16, which np.clip computes in float32: exactly, since it computes nothing new).
    Y = np.empty(X.shape, X.dtype)  # CLIP_C1, CLIP_C3: X's shape and type
    np.clip(X, low, high, out=Y)
    return Y


clip = operator(
    clip,
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
