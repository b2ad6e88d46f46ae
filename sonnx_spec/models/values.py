"""Values shown exactly: the shortest decimal that reads back as the same element, -0.0 and nan kept.

numpy prints float16, float32 and float64 that way already; ml_dtypes prints
bfloat16 with six digits, which may be more than needed, so its shortest form is
searched for. No conversion to a wider type is shown: 0.1 in float32 is ``0.1``.
"""

from __future__ import annotations

import math

import numpy as np

from ..types import FLOAT_TYPES

NUMPY_SHORTEST = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64))


def exact(value: np.generic) -> str:
    """The element as the shortest text that reads back as it, in its own type."""
    dtype = value.dtype
    if dtype not in FLOAT_TYPES:
        return str(value.item()) if dtype.kind != "V" else value.tobytes().hex()
    number = float(value)
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    if dtype in NUMPY_SHORTEST:
        text = str(value)
    else:
        text = next(t for t in (f"{number:.{p}g}" for p in range(1, 18)) if dtype.type(float(t)) == value)
    if number == 0 and math.copysign(1.0, number) < 0:
        return "-0.0"
    return text if any(c in text for c in ".en") else text + ".0"


def exact_array(values: np.ndarray, limit: int = 20) -> str:
    """``[a, b, …]`` of the first ``limit`` elements in row-major order, and how many are left out."""
    flat = np.asarray(values).reshape(-1)
    shown = ", ".join(exact(v) for v in flat[:limit])
    more = f", … ({flat.size - limit} more)" if flat.size > limit else ""
    return f"[{shown}{more}]"
