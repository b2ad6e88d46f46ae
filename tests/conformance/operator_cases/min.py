"""Min's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import functools
import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "several inputs",
    "broadcasting",
    "not broadcastable",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(*inputs: np.ndarray) -> np.ndarray:
    return functools.reduce(np.minimum, inputs)


def rows(v: Values) -> list[tuple]:
    rows = [
        ("two inputs", ORDINARY, (v([0, 5, 2]), v([3, 1, 4]))),
        ("rank 2", ORDINARY, (v([[0, 5], [7, 1]]), v([[3, 1], [4, 9]]))),
        ("one input", "several inputs", (v([0, 5, 2]),)),
        ("four inputs", "several inputs", (v([0, 5, 2]), v([3, 1, 4]), v([1, 6, 0]), v([2, 2, 8]))),
        ("column and row", "broadcasting", (v([[0], [5]]), v([1, 2, 3]))),
        ("0-d and vector", "broadcasting", (v(2), v([1, 2, 3]))),
        ("three ranks", "broadcasting", (v([[[1]], [[4]]]), v([[0], [2], [3]]), v([2, 0, 5, 1]))),
        ("shapes (2,) and (3,)", "not broadcastable", (v([0, 1]), v([0, 1, 2]))),
        ("0-d inputs", "empty and 0-d", (v(3), v(5))),
        ("empty and (1,)", "empty and 0-d", (v(np.zeros(0)), v([1]))),
        ("extremes", "extreme values", (v([v.lowest, v.highest]), v([v.highest, v.lowest]))),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, 2, -1]), v([-1, -5, -2]))))
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (v([-2.5, 0.5]), v([-0.5, -1.5]))),
        ("+0 and -0", "signed zero", (v([0.0, -0.0, 0.0]), v([-0.0, 0.0, 0.0]))),
        ("+0, +0 and -0", "signed zero", (v([0.0]), v([0.0]), v([-0.0]))),
        ("NaN and a number", "NaN", (v([nan, 1, -nan]), v([1, nan, 1]))),
        ("NaN and infinity", "NaN", (v([nan, -inf]), v([-inf, nan]))),
        ("infinities", "infinity", (v([-inf, inf, inf]), v([0, 0, -inf]))),
        ("subnormals", "subnormal", (v([tiny, -tiny]), v([0.0, -0.0]))),
    ]


EXPLAINED = {
    "signed zero": Explanation(
        "MIN_S2",
        "The spec orders -0 below +0; IEEE 754 comparison finds them equal, so an engine returns "
        "whichever zero its comparison happens to keep, which may depend on the operands' order or type.",
    ),
    "NaN": Explanation(
        "MIN_S2",
        "The spec gives NaN wherever an operand is NaN; an engine that compares with < or > "
        "may return the other operand.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "MIN_S1"
