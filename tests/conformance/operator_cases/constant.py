"""Constant's conformance cases, explained divergences and ONNX backend expectations.

Constant has no input: each case is its attribute ``value`` alone, which the one-node
models of the engines carry as a TensorProto.
"""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(*, value: np.ndarray) -> np.ndarray:
    return np.array(value)  # a copy, as a developer makes one


def rows(v: Values) -> list[tuple]:
    rows = [
        ("a vector", ORDINARY, (), {"value": v([1, 2, 3])}),
        ("rank 2 (draft, example 2)", ORDINARY, (), {"value": v([[1, 2], [3, 4]])}),
        ("0-d value (draft, example 1)", "empty and 0-d", (), {"value": v(7)}),
        ("one element", "empty and 0-d", (), {"value": v([7])}),
        ("empty value", "empty and 0-d", (), {"value": v(np.zeros((2, 0)))}),
        ("extremes", "extreme values", (), {"value": v([v.lowest, v.highest])}),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (), {"value": v([-3, -1])}))
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (), {"value": v([2.5, -0.75])}),
        ("zeros of both signs", "signed zero", (), {"value": v([-0.0, 0.0])}),
        ("NaN", "NaN", (), {"value": v([nan, -nan])}),
        ("draft, float example 2", "NaN", (), {"value": v([[-0.0, -inf], [nan, inf]])}),
        ("infinities", "infinity", (), {"value": v([-inf, inf])}),
        ("subnormals", "subnormal", (), {"value": v([-tiny, tiny])}),
    ]


EXPLAINED: dict = {}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "CONSTANT_S1"
