"""Sub's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from elementwise_cases import SHAPE_TOPICS, broadcast_refused, shape_rows

from . import ORDINARY, Values

TOPICS = (
    ORDINARY,
    *SHAPE_TOPICS,
    "integer overflow",
    "extreme values",
    "rounding",
    "overflow to infinity",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

numpy = np.subtract


def rows(v: Values) -> list[tuple]:
    rows = [
        ("small values", ORDINARY, (v([2, 3, 5]), v([0, 1, 4]))),
        ("rank 2", ORDINARY, (v([[3, 5], [7, 9]]), v([[3, 1], [4, 9]]))),
        *shape_rows(v, [5, 1, 2], [3, 1, 1]),
        ("x - x at the extremes", "extreme values", (v([v.highest, v.lowest]), v([v.highest, v.lowest]))),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, 2, -1]), v([-1, 5, -1]))))
    if not v.is_float:
        rows.append(("below zero or the lowest", "integer overflow", (v([v.lowest, 0]), v([1, v.highest]))))
        if v.signed:
            rows.append(("past the highest", "integer overflow", (v([v.highest, 0]), v([-1, v.lowest]))))
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    eps = float(ml_dtypes.finfo(v.dtype).eps)
    return [
        *rows,
        ("fractions", ORDINARY, (v([0.5, -2.5]), v([0.25, 1.5]))),
        ("ties to even", "rounding", (v([1, 1 + eps, 1]), v([-eps / 2, -eps / 2, eps / 4]))),
        ("max - lowest", "overflow to infinity", (v([v.highest, v.lowest]), v([v.lowest, v.highest]))),
        ("+0 and -0", "signed zero", (v([0.0, -0.0, -0.0, 0.0]), v([-0.0, 0.0, -0.0, 0.0]))),
        ("x - x", "signed zero", (v([1.0, -2.5]), v([1.0, -2.5]))),
        ("NaN and a number", "NaN", (v([nan, 1, -nan]), v([1, nan, 1]))),
        ("inf - inf", "NaN", (v([inf, -inf]), v([inf, -inf]))),
        ("infinities", "infinity", (v([inf, -inf, 1]), v([-inf, inf, inf]))),
        ("subnormal differences", "subnormal", (v([tiny, -tiny, 3 * tiny]), v([-tiny, tiny, tiny]))),
    ]


EXPLAINED, BACKEND_DIVERGENCES = broadcast_refused("Sub", "SUB_C1")
_INTEGER_CASES = ("int8", "int16", "uint8", "uint16", "uint32", "uint64")
BACKEND_RULES = {f"test_sub_{t}": "SUB_S2" for t in _INTEGER_CASES}
SEMANTICS = "SUB_S3"
