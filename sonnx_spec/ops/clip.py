"""Clip (ONNX Clip-13 in the SONNX profile): Y[i] = min(M, max(X[i], L))."""

from __future__ import annotations

import numpy as np

from ..checks import describe, is_explicit, is_sparse, sonnx_family
from ..errors import SonnxError
from ..order import ordered_max, ordered_min
from ..types import FLOAT_TYPES

Tensor = np.ndarray | np.generic


def clip(X: Tensor, L: Tensor | None = None, M: Tensor | None = None) -> np.ndarray:
    """Limit every element of ``X`` to the interval ``[L, M]``.

    ``L`` and ``M`` are 0-d tensors of ``X``'s type; ``None`` stands for an
    input ONNX lets a model omit, which the profile refuses (CLIP_R1, CLIP_R2).
    If ``L > M`` every element of the result is ``M``. A NaN element of ``X``
    stays NaN when ``L <= M``; a NaN bound is refused (CLIP_E1). Signed zeros
    are ordered ``-0 < +0``.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.clip(np.array([-2, 0, 2], dtype=np.int8), np.int8(-1), np.int8(1))
    array([-1,  0,  1], dtype=int8)
    """
    if L is None:
        raise SonnxError("CLIP_R1", "clip: input L is missing")
    if M is None:
        raise SonnxError("CLIP_R2", "clip: input M is missing")
    for name, value in (("X", X), ("L", L), ("M", M)):
        if is_sparse(value):
            raise SonnxError("CLIP_R3", f"clip: {name} is a sparse tensor ({describe(value)})")
        if not is_explicit(value):
            raise SonnxError("CLIP_R4", f"clip: {name} is a {describe(value)}, not a numpy array or scalar")
    family = sonnx_family(X)
    if family is None:
        raise SonnxError("CLIP_C5", f"clip: X has element type {X.dtype}, not a SONNX type")
    for name, bound in (("L", L), ("M", M)):
        if bound.dtype != X.dtype:  # CLIP_R5: refused, never converted to a common type
            raise SonnxError("CLIP_C2", f"clip: {name} has element type {bound.dtype} but X has {X.dtype}")
        if bound.ndim != 0:
            raise SonnxError("CLIP_C4", f"clip: {name} has shape {bound.shape}, not the shape () of a scalar")
    low, high = np.asarray(L)[()], np.asarray(M)[()]
    if family == "float" and (np.isnan(low) or np.isnan(high)):
        raise SonnxError("CLIP_E1", f"clip: bound {'L' if np.isnan(low) else 'M'} is NaN")

    if _above(low, high):  # CLIP_S2 (in the order of CLIP_S4)
        return np.full(X.shape, high, dtype=X.dtype)  # CLIP_C1, CLIP_C3: X's shape and type
    # CLIP_S1, CLIP_S3: min(M, max(X[i], L)), NaN propagating
    if X.dtype in FLOAT_TYPES and (X.dtype.name == "bfloat16" or low == 0 or high == 0):
        # CLIP_S4: -0 < +0 matters only where a zero meets a zero bound;
        # np.clip would also promote bfloat16 to float32.
        return ordered_min([ordered_max([X, low], X.shape), high], X.shape)
    Y = np.empty(X.shape, X.dtype)  # CLIP_C1, CLIP_C3: X's shape and type
    np.clip(X, low, high, out=Y)
    return Y


def _above(low: np.generic, high: np.generic) -> bool:
    """L > M in the order of Max, where +0 > -0 (CLIP_S4)."""
    if low == high == 0:
        return bool(np.signbit(high) and not np.signbit(low))
    return bool(low > high)
