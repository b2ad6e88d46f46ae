"""Rounding a float64 once to a narrower SONNX type, to nearest, ties to even.

numpy rounds float64 to float32 and to float16 once; ml_dtypes casts float64 to
bfloat16 through float32, rounding twice. Rounding to odd first makes the second
rounding the only one, for float16 and bfloat16 alike.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

NARROW_TYPES = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))
"""The types with at most p = 11 bits of precision: a float32 rounded to odd rounds to them exactly once."""


def float32_rounded_to_odd(exact: np.ndarray) -> np.ndarray:
    """Each float64 rounded to float32 *to odd*: itself if float32 holds it, else the one of its two
    float32 neighbours whose last bit is 1 (for a value beyond float32's range, ±max, which is odd).

    Rounding to odd at p + 2 bits or more, then to nearest at p bits, is rounding to nearest once
    (Boldo and Melquiond, 2008): float32's 24 bits are 13 more than float16's 11, 16 more than
    bfloat16's 8, at every exponent of these types, subnormal ones included.
    """
    with np.errstate(over="ignore"):  # beyond float32's range: an infinity, stepped back below
        nearest = exact.astype(np.float32)  # to nearest; its last bit is fixed below where it is inexact
    wide = nearest.astype(np.float64)
    away = np.abs(wide) > np.abs(exact)  # rounded away from zero (an infinity included): step back
    inexact = (wide != exact) & ~np.isnan(exact)
    truncated = nearest.view(np.uint32) - away  # one unit in the last place toward zero, where away
    return (truncated | inexact).view(np.float32)  # of the truncated value and the next one, the odd one


def rounded_to(exact: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Float64 values rounded once to ``dtype``, to nearest, ties to even.

    ml_dtypes casts float64 to bfloat16 through float32 to nearest, which rounds twice: for float16 and
    bfloat16 the value is first rounded to odd in float32, which leaves the second rounding the only one
    (one argument for both types, whatever route numpy's own float64 to float16 cast takes).
    """
    with np.errstate(over="ignore"):  # beyond the type's range: an infinity, as IEEE 754 rounds it
        if dtype in NARROW_TYPES:
            return float32_rounded_to_odd(exact).astype(dtype)
        return exact.astype(dtype)  # float32: one IEEE rounding; float64: nothing to round
