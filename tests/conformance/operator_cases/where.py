"""Where's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "broadcasting",
    "not broadcastable",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

numpy = np.where

T, F = True, False


def rows(v: Values) -> list[tuple]:
    def c(values: object) -> np.ndarray:
        return v(values, np.bool_)

    rows = [
        ("alternating (draft, example 1)", ORDINARY, (c([T, F, T]), v([9, 8, 7]), v([6, 5, 4]))),
        (
            "rank 2 (draft, example 2)",
            ORDINARY,
            (c([[T, T], [T, F], [F, T]]), v([[1, 2], [3, 4], [5, 6]]), v([[12, 11], [10, 9], [8, 7]])),
        ),
        ("all true, all false", ORDINARY, (c([[T, T], [F, F]]), v([[1, 2], [3, 4]]), v([[5, 6], [7, 8]]))),
        ("0-d condition, vectors", "broadcasting", (c(T), v([1, 2]), v([3, 4]))),
        ("column, row and 0-d", "broadcasting", (c([[T], [F]]), v([1, 2, 3]), v(0))),
        ("shapes (2,), (3,) and (3,)", "not broadcastable", (c([T, F]), v([1, 2, 3]), v([4, 5, 6]))),
        ("0-d inputs", "empty and 0-d", (c(F), v(1), v(2))),
        ("empty inputs", "empty and 0-d", (c(np.zeros((2, 0))), v(np.zeros((2, 0))), v(np.zeros((2, 0))))),
        (
            "extremes",
            "extreme values",
            (c([T, F, T]), v([v.lowest, 0, v.highest]), v([v.highest, v.lowest, 0])),
        ),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (c([F, T]), v([-3, -1]), v([-2, -4]))))
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (c([T, F]), v([2.5, -0.5]), v([1.25, -3.75]))),
        (
            "zeros of both signs",
            "signed zero",
            (c([T, F, T, F]), v([-0.0, 0.0, 0.0, -0.0]), v([0.0, -0.0, -0.0, 0.0])),
        ),
        ("NaN not selected", "NaN", (c([T, F]), v([1, nan]), v([nan, 2]))),
        ("NaN selected", "NaN", (c([T, F]), v([nan, 1]), v([2, -nan]))),
        (
            "draft, float example 2",
            "NaN",
            (c([T, F, T, F, T]), v([0.0, 0.0, inf, inf, nan]), v([0.0, -0.0, -inf, -inf, 1])),
        ),
        ("infinities", "infinity", (c([T, F]), v([-inf, inf]), v([inf, -inf]))),
        ("subnormals", "subnormal", (c([T, F]), v([-tiny, 0]), v([0, tiny]))),
    ]


EXPLAINED = {
    "broadcasting": Explanation(
        "WHERE_C1",
        "ONNX Where-16 broadcasts condition, X and Y to a common shape; the profile selects between tensors "
        "of one shape only, so the spec refuses what the engines compute.",
    ),
    "signed zero": Explanation(
        "WHERE_S2",
        "The spec copies the selected element, so a -0 of X stays -0; onnxruntime (CPU) returns +0 where "
        "the condition selects a -0 of X, though a -0 of Y keeps its sign.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "WHERE_S1"
