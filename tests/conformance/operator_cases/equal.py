"""Equal's conformance cases, explained divergences and ONNX backend expectations."""

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

numpy = np.equal

T, F = True, False


def rows(v: Values) -> list[tuple]:
    if v.dtype == np.bool_:
        return bool_rows(v)
    rows = [
        ("equal, unequal", ORDINARY, (v([1, 3, 5]), v([3, 3, 4]))),
        ("rank 2", ORDINARY, (v([[1, 2], [4, 0], [5, 6]]), v([[3, 2], [4, 1], [5, 4]]))),
        ("matrix and row", "broadcasting", (v([[1, 2, 3], [4, 5, 6]]), v([1, 5, 6]))),
        ("0-d and vector", "broadcasting", (v(3), v([3, 5]))),
        ("shapes (2,) and (3,)", "not broadcastable", (v([0, 1]), v([0, 1, 2]))),
        ("0-d A and B", "empty and 0-d", (v(1), v(1))),
        ("empty A and B", "empty and 0-d", (v(np.zeros((0, 2))), v(np.zeros((0, 2))))),
        (
            "extremes",
            "extreme values",
            (v([v.lowest, v.lowest, v.highest]), v([v.highest, v.lowest, v.highest])),
        ),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, -1, 2]), v([-3, 1, -2]))))
    if not v.is_float:
        # 64-bit neighbours are unequal only if compared as integers: as float64 they are equal
        ends = (v([v.lowest, v.highest - 1]), v([v.lowest + 1, v.highest]))
        return [*rows, ("next to the extremes", "extreme values", ends)]
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    specials = [-inf, 0.0, inf, nan]
    return [
        *rows,
        ("fractions", ORDINARY, (v([2.5, 3.75, 7.875]), v([3.125, 3.75, 5.75]))),
        ("+0 and -0", "signed zero", (v([-0.0, 0.0, -0.0, -1]), v([0.0, -0.0, -0.0, -0.0]))),
        ("NaN and a number", "NaN", (v([nan, 1, nan, -nan]), v([1, nan, nan, nan]))),
        (
            "infinities, zero and NaN, each against each",
            "NaN",
            (v([a for a in specials for _ in specials]), v(specials * len(specials))),
        ),
        ("infinities", "infinity", (v([-inf, -inf, inf, 1]), v([inf, -inf, inf, inf]))),
        ("subnormals", "subnormal", (v([0.0, -tiny, tiny, -0.0]), v([tiny, -0.0, tiny, -tiny]))),
    ]


def bool_rows(v: Values) -> list[tuple]:
    """bool: the truth table, shapes, and nothing of the numeric topics."""
    return [
        ("truth table", ORDINARY, (v([T, T, F, F]), v([T, F, T, F]))),
        ("rank 2", ORDINARY, (v([[T, F], [F, T]]), v([[T, T], [F, F]]))),
        ("matrix and row", "broadcasting", (v([[T, F], [F, T]]), v([T, F]))),
        ("0-d and vector", "broadcasting", (v(T), v([T, F]))),
        ("shapes (2,) and (3,)", "not broadcastable", (v([T, F]), v([T, F, T]))),
        ("0-d A and B", "empty and 0-d", (v(F), v(F))),
        ("empty A and B", "empty and 0-d", (v(np.zeros((0, 2))), v(np.zeros((0, 2))))),
    ]


EXPLAINED = {
    "broadcasting": Explanation(
        "EQUAL_C1",
        "ONNX broadcasts A and B to a common shape; the profile compares tensors of one shape only, so the "
        "spec refuses what the engines compute.",
    ),
}
BACKEND_DIVERGENCES = {
    "test_equal_bcast": Divergence(
        "EQUAL_C1",
        "ONNX broadcasts B of shape (5,) to A's shape (3, 4, 5); the profile requires one shape: a "
        "model gives B that shape itself.",
    ),
    "test_equal_string": Divergence(
        "GEN_C1",
        "ONNX Equal-19 compares strings; the profile's tensors are numeric or bool, so a tensor of "
        "strings is refused.",
    ),
    "test_equal_string_broadcast": Divergence(
        "GEN_C1",
        "ONNX Equal-19 compares strings (here with broadcasting too); the profile's tensors are numeric or "
        "bool, so a tensor of strings is refused.",
    ),
}
BACKEND_RULES: dict = {}
SEMANTICS = "EQUAL_S1"
