"""max and min in the order of the Max draft, shared by Max and Clip.

NaN > +inf > positive > +0 > -0 > negative > -inf: a NaN operand gives NaN and,
unlike IEEE 754 comparison, +0 is above -0. numpy's ``maximum``/``minimum``
already propagate NaN and are exact on every type, but return whichever zero
comes first; the zeros of the result are therefore given their sign afterwards.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np

from .types import FLOAT_TYPES


def ordered_max(operands: Sequence[np.ndarray | np.generic], out: np.ndarray) -> np.ndarray:
    """Element-wise max of ``operands`` broadcast to ``out``'s shape, written to ``out``."""
    return _reduce(np.maximum, np.logical_and, operands, out)


def ordered_min(operands: Sequence[np.ndarray | np.generic], out: np.ndarray) -> np.ndarray:
    """Element-wise min of ``operands`` broadcast to ``out``'s shape, written to ``out``."""
    return _reduce(np.minimum, np.logical_or, operands, out)


def _reduce(
    ufunc: np.ufunc,
    combine_signs: Callable[[np.ndarray, np.ndarray], np.ndarray],
    operands: Sequence[np.ndarray | np.generic],
    out: np.ndarray,
) -> np.ndarray:
    if len(operands) == 1:
        np.copyto(out, operands[0])
        return out
    # ml_dtypes' bfloat16 kernels flag NaN operands as invalid; NaN is a value here.
    with np.errstate(invalid="ignore"):
        ufunc(operands[0], operands[1], out=out)
        for operand in operands[2:]:
            ufunc(out, operand, out=out)
        if out.dtype in FLOAT_TYPES:
            _sign_zeros(out, operands, combine_signs)
    return out


def _sign_zeros(
    out: np.ndarray,
    operands: Sequence[np.ndarray | np.generic],
    combine_signs: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> None:
    """Give each zero of ``out`` the sign the order prescribes.

    Where the max is a zero, every operand is a zero or negative: the max is -0
    only if every operand has its sign bit set (logical and). Where the min is a
    zero, every operand is a zero or positive: the min is -0 if any operand has
    its sign bit set (logical or).
    """
    zeros = out == 0
    if not zeros.any():
        return
    signs = [np.signbit(np.broadcast_to(operand, out.shape)[zeros]) for operand in operands]
    negative = functools.reduce(combine_signs, signs)
    out[zeros] = np.where(negative, np.array(-0.0, out.dtype), np.array(0.0, out.dtype))
