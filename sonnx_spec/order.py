"""max and min in the order of the Max draft, and its mirror for Min.

NaN > +inf > positive > +0 > -0 > negative > -inf for max; NaN < -inf < negative < -0 < +0 < positive <
+inf for min: a NaN operand gives NaN and, unlike IEEE 754 comparison, the zeros are ordered. numpy's
``maximum`` and ``minimum`` already propagate NaN and are exact on every type, but return whichever of
two equal zeros their kernel keeps; the zeros of the result are therefore given their sign afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .types import FLOAT_TYPES

Array = np.ndarray | np.generic


def ordered_max(operands: Sequence[Array], out: np.ndarray) -> np.ndarray:
    """Element-wise max of ``operands`` broadcast to ``out``'s shape, written to ``out``. A zero max is
    -0 only if every operand there has its sign bit set (all are -0 or negative)."""
    return _ordered(np.maximum, np.logical_and, operands, out)


def ordered_min(operands: Sequence[Array], out: np.ndarray) -> np.ndarray:
    """Element-wise min of ``operands`` broadcast to ``out``'s shape, written to ``out``. A zero min is
    -0 if some operand there has its sign bit set (is -0)."""
    return _ordered(np.minimum, np.logical_or, operands, out)


def _ordered(pick: np.ufunc, negative_if: np.ufunc, operands: Sequence[Array], out: np.ndarray) -> np.ndarray:
    np.copyto(out, operands[0])
    # ml_dtypes' bfloat16 kernels flag NaN operands as invalid; NaN is a value here.
    with np.errstate(invalid="ignore"):
        for operand in operands[1:]:
            pick(out, operand, out=out)
        if out.dtype in FLOAT_TYPES:
            zeros = out == 0
            if zeros.any():  # every operand there is a zero or of one sign: their sign bits decide
                signs = [np.signbit(np.broadcast_to(x, out.shape)[zeros]) for x in operands]
                out[zeros] = np.where(negative_if.reduce(signs), -0.0, 0.0)  # exact in every type
    return out
