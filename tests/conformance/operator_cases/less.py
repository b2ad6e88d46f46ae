"""Less's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

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

numpy = np.less


def rows(v: Values) -> list[tuple]:
    rows = [
        ("less, equal, greater", ORDINARY, (v([1, 3, 5]), v([3, 3, 4]))),
        (
            "rank 2 (draft, int example 2)",
            ORDINARY,
            (v([[1, 2], [4, 0], [5, 6]]), v([[3, 2], [4, 1], [5, 4]])),
        ),
        ("matrix and row", "broadcasting", (v([[1, 2, 3], [4, 5, 6]]), v([2, 4, 6]))),
        ("0-d and vector", "broadcasting", (v(3), v([1, 5]))),
        ("shapes (2,) and (3,)", "not broadcastable", (v([0, 1]), v([0, 1, 2]))),
        ("0-d A and B", "empty and 0-d", (v(1), v(2))),
        ("empty A and B", "empty and 0-d", (v(np.zeros((0, 2))), v(np.zeros((0, 2))))),
        (
            "extremes",
            "extreme values",
            (v([v.lowest, v.lowest, v.highest]), v([v.highest, v.lowest, v.lowest])),
        ),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, -1, 2]), v([-1, -3, -2]))))
    if not v.is_float:
        # 64-bit neighbours compare apart only if compared as integers: as float64 they are equal
        ends = (v([v.lowest, v.highest - 1]), v([v.lowest + 1, v.highest]))
        return [*rows, ("next to the extremes", "extreme values", ends)]
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    specials = [-inf, 0.0, inf, nan]
    return [
        *rows,
        ("fractions (draft, float example 1)", ORDINARY, (v([2.5, 3.75, 7.875]), v([3.125, 3.75, 5.75]))),
        ("+0 and -0", "signed zero", (v([-0.0, 0.0, -0.0, -1]), v([0.0, -0.0, -0.0, -0.0]))),
        ("NaN and a number", "NaN", (v([nan, 1, nan, -nan]), v([1, nan, nan, 1]))),
        (
            "draft, float example 3",
            "NaN",
            (v([a for a in specials for _ in specials]), v(specials * len(specials))),
        ),
        ("infinities", "infinity", (v([-inf, -inf, inf, 1]), v([inf, -inf, inf, inf]))),
        ("subnormals", "subnormal", (v([0.0, -tiny, tiny, -0.0]), v([tiny, -0.0, 0.0, -tiny]))),
    ]


EXPLAINED = {
    "broadcasting": Explanation(
        "LESS_C1",
        "ONNX broadcasts A and B to a common shape; the profile compares tensors of one shape only, so the "
        "spec refuses what the engines compute.",
    ),
}
BACKEND_DIVERGENCES = {
    "test_less_bcast": Divergence(
        "LESS_C1",
        "ONNX broadcasts B of shape (5,) to A's shape (3, 4, 5); the profile requires one shape: a "
        "model gives B that shape itself.",
    ),
}
BACKEND_RULES: dict = {}
SEMANTICS = "LESS_S1"
