"""Sqrt's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from . import ORDINARY, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "rounding",
    "extreme values",
    "negative",
    "signed zero",
    "infinity",
    "NaN",
    "subnormal",
)

numpy = np.sqrt


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    normal = ml_dtypes.finfo(v.dtype).smallest_normal
    return [
        ("perfect squares", ORDINARY, (v([0, 1, 4, 9, 16]),)),
        ("fractions", ORDINARY, (v([0.25, 2.25, 0.0625]),)),
        ("rank 2", ORDINARY, (v([[1, 4], [64, 0.25]]),)),
        ("0-d X", "empty and 0-d", (v(4),)),
        ("empty X", "empty and 0-d", (v(np.zeros((2, 0))),)),
        ("square roots of 2, 3 and 10", "rounding", (v([2, 3, 10]),)),
        ("draft, example 2 (real)", "rounding", (v([[0.25, 2.25], [0, 0.1], [10, 1000]]),)),
        ("highest and smallest normal", "extreme values", (v([v.highest, normal]),)),
        ("negative values", "negative", (v([-1, -4, -0.5]),)),
        ("lowest", "negative", (v([v.lowest]),)),
        ("draft, example 2 (float)", "negative", (v([[0.25, -1], [0, 0.1], [10, -1000]]),)),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),)),
        ("infinities", "infinity", (v([inf, -inf]),)),
        ("NaN", "NaN", (v([nan, -nan]),)),
        ("draft, example 3", "NaN", (v([inf, nan, -inf, -0.0]),)),
        ("subnormals", "subnormal", (v([tiny, -tiny, 4 * tiny]),)),
    ]


EXPLAINED: dict = {}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "SQRT_S1"
