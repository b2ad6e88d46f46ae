"""Relu (ONNX Relu-14 in the SONNX profile): Y[i] = X[i] if X[i] ≥ 0, else 0."""

from __future__ import annotations

import numpy as np

from ..families import UNARY, member
from ..families.elementwise import keep_bits
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def relu(X: Array) -> np.ndarray:
    """Element-wise rectified linear unit: ``X[i]`` where ``X[i] ≥ 0``, ``0`` where ``X[i] < 0``.

    The comparison is IEEE 754's: ``−0 ≥ 0`` holds, so ``relu(−0) = −0``; a NaN
    is neither, and stays NaN. The zero of a negative element is ``+0``.
    Unsigned integers are not taken (ONNX Relu has none).

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.relu(np.array([6, -9, 35], dtype=np.int32))
    array([ 6,  0, 35], dtype=int32)
    """
    with np.errstate(invalid="ignore"):  # bfloat16 flags comparisons with NaN; NaN is a value here
        kept = ~(X < 0)  # RELU_S1, RELU_S2: X[i] ≥ 0, and −0 and NaN, which are not < 0
    # RELU_C1, RELU_C2: X's shape and type. RELU_S1: X[i] where kept, bit for bit; 0 elsewhere, every bit
    # 0: the integer 0, or +0 (RELU_S2).
    return keep_bits(kept, X)


relu = operator(
    relu,
    onnx="Relu",
    version=14,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="X with each negative element replaced by 0"),),
    types={"T": ("signed", "float")},
)
member(UNARY, relu)
