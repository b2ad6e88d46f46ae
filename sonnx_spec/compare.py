"""When two results are the same for the profile.

Same element type, same shape, same bits; NaNs are all alike, whatever their
sign and payload, since the profile does not distinguish them. The tests, the
site's examples and the conformance run all compare results this way.
"""

from __future__ import annotations

import numpy as np

from .types import FLOAT_TYPES


def same_result(actual: np.ndarray, expected: np.ndarray) -> bool:
    if actual.dtype != expected.dtype or actual.shape != expected.shape:
        return False
    if actual.dtype not in FLOAT_TYPES:
        return bool(np.array_equal(actual, expected))
    with np.errstate(invalid="ignore"):  # bfloat16's isnan flags a signaling NaN as an invalid operation
        nan, actual_nan = np.isnan(expected), np.isnan(actual)
    bits = np.dtype(f"u{actual.dtype.itemsize}")
    return bool(np.array_equal(actual_nan, nan)) and bool(
        np.array_equal(actual[~nan].view(bits), expected[~nan].view(bits))
    )
