"""Add's conformance cases, explained divergences and ONNX backend expectations."""

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

numpy = np.add


def rows(v: Values) -> list[tuple]:
    rows = [
        ("small values", ORDINARY, (v([0, 1, 5]), v([2, 3, 4]))),
        ("rank 2", ORDINARY, (v([[0, 5], [7, 1]]), v([[3, 1], [4, 9]]))),
        *shape_rows(v, [3, 1, 2], [5, 1, 1]),
        ("highest and lowest", "extreme values", (v([v.highest, v.lowest]), v([v.lowest, v.highest]))),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, 2, -1]), v([-1, -5, 1]))))
    if not v.is_float:
        rows.append(("past the highest", "integer overflow", (v([v.highest, v.highest]), v([1, v.highest]))))
        if v.signed:
            rows.append(
                ("below the lowest", "integer overflow", (v([v.lowest, v.lowest]), v([-1, v.lowest])))
            )
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    eps = float(ml_dtypes.finfo(v.dtype).eps)
    return [
        *rows,
        ("fractions", ORDINARY, (v([0.5, -2.5]), v([0.25, 1.5]))),
        ("ties to even", "rounding", (v([1, 1 + eps, 1]), v([eps / 2, eps / 2, -eps / 4]))),
        ("max + max", "overflow to infinity", (v([v.highest, v.lowest]), v([v.highest, v.lowest]))),
        ("+0 and -0", "signed zero", (v([0.0, -0.0, -0.0, 0.0]), v([-0.0, 0.0, -0.0, 0.0]))),
        ("x + (-x)", "signed zero", (v([1.0, -2.5]), v([-1.0, 2.5]))),
        ("NaN and a number", "NaN", (v([nan, 1, -nan]), v([1, nan, 1]))),
        ("+inf + -inf", "NaN", (v([inf, -inf]), v([-inf, inf]))),
        ("infinities", "infinity", (v([inf, -inf, inf]), v([inf, -inf, v.lowest]))),
        ("subnormal sums", "subnormal", (v([tiny, -tiny, tiny]), v([tiny, tiny, 1]))),
    ]


EXPLAINED, BACKEND_DIVERGENCES = broadcast_refused("Add", "ADD_C1")
_INTEGER_CASES = ("int8", "int16", "uint8", "uint16", "uint32", "uint64")
BACKEND_RULES = {f"test_add_{t}": "ADD_S2" for t in _INTEGER_CASES}
SEMANTICS = "ADD_S3"
