"""Shape's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Values

TOPICS = (
    ORDINARY,
    "negative bounds",
    "clamped bounds",
    "empty results",
    "0-d and empty X",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, *, start: int, end: int) -> np.ndarray:
    """As a developer writes it: Python's slice of numpy's shape tuple (which clamps as ONNX does)."""
    return np.array(np.shape(X)[start:end], dtype=np.int64)


def rows(v: Values) -> list[tuple]:
    block = v(np.zeros((3, 4, 5)) if v.dtype != np.bool_ else np.zeros((3, 4, 5), bool))

    def bounds(start: int, end: int) -> dict:
        return {"start": start, "end": end}

    rows = [
        ("the whole shape (draft, example 1)", ORDINARY, (block,), bounds(0, 3)),
        ("one axis (draft, example 2)", ORDINARY, (block,), bounds(1, 2)),
        ("the last two", ORDINARY, (block,), bounds(1, 3)),
        ("start −1", "negative bounds", (block,), bounds(-1, 3)),
        ("end −1", "negative bounds", (block,), bounds(0, -1)),
        ("start 1, end −1", "negative bounds", (block,), bounds(1, -1)),
        ("start −500 (draft, example 4)", "clamped bounds", (block,), bounds(-500, 2)),
        ("end 1000 (draft, example 5)", "clamped bounds", (block,), bounds(0, 1000)),
        ("start beyond the rank", "clamped bounds", (block,), bounds(7, 9)),
        ("end before −r", "clamped bounds", (block,), bounds(0, -9)),
        ("start = end (draft, example 3)", "empty results", (block,), bounds(2, 2)),
        ("start after end", "empty results", (block,), bounds(2, 1)),
        ("0-d X", "0-d and empty X", (v(1),), bounds(0, 0)),
        ("0-d X, clamped", "0-d and empty X", (v(1),), bounds(-1, 1)),
        ("X with no element", "0-d and empty X", (v(np.zeros((2, 0, 3))),), bounds(0, 3)),
        ("extreme bounds", "extreme values", (block,), bounds(-(2**63), 2**63 - 1)),
    ]
    if not v.is_float:
        return rows
    return [
        *rows,
        ("signed zeros", "signed zero", (v([[0.0, -0.0]]),), bounds(0, 2)),
        ("NaN", "NaN", (v([math.nan, -math.nan]),), bounds(0, 1)),
        ("infinities", "infinity", (v([[-math.inf], [math.inf]]),), bounds(0, 2)),
        ("subnormals", "subnormal", (v([v.subnormal]),), bounds(0, 1)),
    ]


EXPLAINED: dict = {}
_NO_BOUNDS = (
    "The node leaves start or end out, which ONNX defaults to 0 and to the rank; the profile has no default "
    "value and refuses a node without them."
)
BACKEND_DIVERGENCES = {
    f"test_shape{name}": Divergence("GR4", _NO_BOUNDS)
    for name in (
        "",
        "_example",
        "_start_1",
        "_end_1",
        "_start_negative_1",
        "_end_negative_1",
        "_clip_start",
        "_clip_end",
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "SHAPE_S2"
