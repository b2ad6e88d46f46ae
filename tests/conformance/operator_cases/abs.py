"""Abs's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "extreme values",
    "lowest signed integer",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

numpy = np.abs


def rows(v: Values) -> list[tuple]:
    rows = [
        ("non-negative values", ORDINARY, (v([0, 1, 5]),)),
        ("rank 2", ORDINARY, (v([[0, 5], [7, 1]]),)),
        ("0-d X", "empty and 0-d", (v(3),)),
        ("empty X", "empty and 0-d", (v(np.zeros((0, 2))),)),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-5, -1, 0, 1, 5]),)))
    if not v.signed:
        return [*rows, ("extremes", "extreme values", (v([v.lowest, v.highest]),))]
    if not v.is_float:
        return [
            *rows,
            ("next to the lowest", "extreme values", (v([v.lowest + 1, v.highest]),)),
            ("lowest value", "lowest signed integer", (v([1, v.lowest]),)),
        ]
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (v([-2.5, 0.5]),)),
        ("extremes", "extreme values", (v([v.lowest, v.highest]),)),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),)),
        ("NaN", "NaN", (v([nan, -nan]),)),
        ("infinities", "infinity", (v([-inf, inf]),)),
        ("subnormals", "subnormal", (v([-tiny, tiny]),)),
    ]


EXPLAINED = {
    "signed zero": Explanation(
        "ABS_S2", "The spec gives +0 for -0; an engine computing x < 0 ? -x : x returns -0."
    ),
    "NaN": Explanation("ABS_S2", "The spec gives NaN for NaN; an engine may return another value."),
    "lowest signed integer": Explanation(
        "ABS_E1",
        "The absolute value of the lowest signed integer does not exist in its type; engines wrap around "
        "and return the lowest value itself, a negative absolute value; the spec refuses the input.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "ABS_S1"
