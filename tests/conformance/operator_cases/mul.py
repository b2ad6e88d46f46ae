"""Mul's conformance cases, explained divergences and ONNX backend expectations."""

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

numpy = np.multiply


def rows(v: Values) -> list[tuple]:
    rows = [
        ("small values", ORDINARY, (v([0, 1, 5]), v([2, 3, 4]))),
        ("rank 2", ORDINARY, (v([[0, 5], [7, 1]]), v([[3, 1], [4, 9]]))),
        *shape_rows(v, [3, 1, 2], [5, 2, 2]),
        ("times one and zero", "extreme values", (v([v.highest, v.lowest, v.highest]), v([1, 1, 0]))),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, 2, -1]), v([-1, -5, 4]))))
    if not v.is_float:
        rows.append(("past the highest", "integer overflow", (v([v.highest, v.highest]), v([2, v.highest]))))
        if v.signed:
            rows.append(("the lowest times -1", "integer overflow", (v([v.lowest, v.lowest]), v([-1, 2]))))
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    eps = float(ml_dtypes.finfo(v.dtype).eps)
    normal = float(ml_dtypes.finfo(v.dtype).smallest_normal)
    return [
        *rows,
        ("fractions", ORDINARY, (v([0.5, -2.5]), v([0.25, 1.5]))),
        ("ties to even", "rounding", (v([3, 3]), v([1 + eps, 1 + 3 * eps]))),
        ("max * 2", "overflow to infinity", (v([v.highest, v.lowest]), v([2, 2]))),
        ("zeros and signs", "signed zero", (v([-0.0, -1.0, -0.0, 0.0]), v([1.0, 0.0, -0.0, -0.0]))),
        ("NaN and a number", "NaN", (v([nan, 1, -nan]), v([1, nan, 0]))),
        ("0 * inf", "NaN", (v([0.0, -inf]), v([inf, -0.0]))),
        ("infinities", "infinity", (v([inf, -inf, inf]), v([-1.0, -inf, tiny]))),
        ("subnormal products", "subnormal", (v([normal, tiny, tiny, -tiny]), v([0.5, 0.5, 0.75, tiny]))),
    ]


EXPLAINED, BACKEND_DIVERGENCES = broadcast_refused("Mul", "MUL_C1")
_INTEGER_CASES = ("int8", "int16", "uint8", "uint16", "uint32", "uint64")
BACKEND_RULES = {f"test_mul_{t}": "MUL_S2" for t in _INTEGER_CASES}
SEMANTICS = "MUL_S3"
