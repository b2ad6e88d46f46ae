"""max in the order of the Max draft.

NaN > +inf > positive > +0 > -0 > negative > -inf: a NaN operand gives NaN and,
unlike IEEE 754 comparison, +0 is above -0. numpy's ``maximum`` already
propagates NaN and is exact on every type, but returns whichever of two equal
zeros comes first; the zeros of the result are therefore given their sign afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .types import FLOAT_TYPES


def ordered_max(operands: Sequence[np.ndarray | np.generic], out: np.ndarray) -> np.ndarray:
    """Element-wise max of ``operands`` broadcast to ``out``'s shape, written to ``out``."""
    np.copyto(out, operands[0])
    # ml_dtypes' bfloat16 kernels flag NaN operands as invalid; NaN is a value here.
    with np.errstate(invalid="ignore"):
        for operand in operands[1:]:
            np.maximum(out, operand, out=out)
        if out.dtype in FLOAT_TYPES:
            _sign_zeros(out, operands)
    return out


def _sign_zeros(out: np.ndarray, operands: Sequence[np.ndarray | np.generic]) -> None:
    """Give each zero of ``out`` the sign of the order: where the max is a zero, every operand is a
    zero or negative, and the max is -0 only if every operand has its sign bit set."""
    zeros = out == 0
    if zeros.any():
        negative = np.logical_and.reduce([np.signbit(np.broadcast_to(x, out.shape)[zeros]) for x in operands])
        out[zeros] = np.where(negative, -0.0, 0.0)  # exact in every type
