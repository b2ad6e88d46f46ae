"""Relu's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray) -> np.ndarray:
    return np.maximum(X, 0)  # y = max(0, x), ONNX's formula; 0 takes X's type (NEP 50)


def rows(v: Values) -> list[tuple]:
    rows = [
        ("values of both signs", ORDINARY, (v([-5, -1, 0, 1, 5]),)),
        ("rank 2 (draft, example 1)", ORDINARY, (v([[6, -9, 35], [0, -1, 2]]),)),
        ("0-d X", "empty and 0-d", (v(-3),)),
        ("empty X", "empty and 0-d", (v(np.zeros((2, 0))),)),
        ("extremes", "extreme values", (v([v.lowest, v.highest]),)),
    ]
    if not v.is_float:
        return [*rows, ("next to the extremes", "extreme values", (v([v.lowest + 1, v.highest - 1]),))]
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (v([-2.5, 0.5]),)),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),)),
        ("NaN", "NaN", (v([nan, -nan, 1.0]),)),
        ("infinities", "infinity", (v([-inf, inf]),)),
        ("subnormals", "subnormal", (v([-tiny, tiny]),)),
    ]


EXPLAINED = {
    "signed zero": Explanation(
        "RELU_S2",
        "The spec keeps −0 (−0 ≥ 0 in IEEE 754 comparison); an engine computing max(x, 0) returns "
        "whichever of the two equal zeros its max keeps.",
    ),
    "NaN": Explanation(
        "RELU_S2",
        "The spec keeps a NaN element NaN; an engine computing x > 0 ? x : 0 returns 0.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "RELU_S1"
