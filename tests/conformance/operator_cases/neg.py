"""Neg's conformance cases, explained divergences and ONNX backend expectations."""

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

numpy = np.negative


def rows(v: Values) -> list[tuple]:
    rows = [
        ("values of both signs", ORDINARY, (v([-5, -1, 0, 1, 5]),)),
        ("rank 2", ORDINARY, (v([[1, -2], [4, 0], [-5, 6]]),)),
        ("0-d X", "empty and 0-d", (v(3),)),
        ("empty X", "empty and 0-d", (v(np.zeros((0, 2))),)),
    ]
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
        ("signed zeros", "signed zero", (v([0.0, -0.0]),)),
        ("NaN", "NaN", (v([nan, -nan]),)),
        ("infinities", "infinity", (v([-inf, inf]),)),
        ("subnormals", "subnormal", (v([-tiny, tiny]),)),
    ]


EXPLAINED = {
    "signed zero": Explanation(
        "NEG_S2", "The spec flips the sign of a zero (−(+0) is −0); an engine computing 0 − x returns +0."
    ),
    "lowest signed integer": Explanation(
        "NEG_E1",
        "The negation of the lowest signed integer does not exist in its type; engines wrap around and "
        "return the lowest value itself; the spec refuses the input.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "NEG_S1"
