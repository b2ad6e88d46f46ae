"""Flatten's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "axis 0 and the rank",
    "negative axis",
    "axis out of range",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, *, axis: int) -> np.ndarray:
    """As a developer writes it: numpy's reshape into (the product before axis, −1)."""
    a = axis + X.ndim if axis < 0 else axis
    return np.reshape(X, (math.prod(X.shape[:a]), -1)).copy()


def rows(v: Values) -> list[tuple]:
    block = v(
        np.arange(24).reshape(2, 3, 4) % 3 == 0 if v.dtype == np.bool_ else np.arange(24).reshape(2, 3, 4)
    )
    rows = [
        ("axis 1 (draft, example 2)", ORDINARY, (block,), {"axis": 1}),
        ("axis 2 (draft, example 3)", ORDINARY, (block,), {"axis": 2}),
        ("a matrix, axis 1", ORDINARY, (v([[1, 0], [0, 1]]),), {"axis": 1}),
        ("axis 0: one row (draft, example 1)", "axis 0 and the rank", (block,), {"axis": 0}),
        ("axis equal to the rank: one column", "axis 0 and the rank", (block,), {"axis": 3}),
        ("axis −1", "negative axis", (block,), {"axis": -1}),
        ("axis −3, the rank negated: one row", "negative axis", (block,), {"axis": -3}),
        ("axis above the rank", "axis out of range", (block,), {"axis": 4}),
        ("axis below minus the rank", "axis out of range", (block,), {"axis": -4}),
        ("0-d, axis 0", "empty and 0-d", (v(1),), {"axis": 0}),
        ("empty, axis 1", "empty and 0-d", (v(np.zeros((2, 0, 3))),), {"axis": 1}),
        ("empty, axis 2", "empty and 0-d", (v(np.zeros((2, 0, 3))),), {"axis": 2}),
        ("extremes", "extreme values", (v([[v.lowest], [v.highest]]),), {"axis": 0}),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([[0.0], [-0.0]]),), {"axis": 2}),
        ("NaN of both signs", "NaN", (v([nan, -nan]),), {"axis": 1}),
        ("infinities", "infinity", (v([[-inf, inf]]),), {"axis": -1}),
        ("subnormals", "subnormal", (v([-tiny, tiny]),), {"axis": 0}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X made one column."""
    return [X], {"axis": 1}


EXPLAINED = {
    "empty and 0-d": Explanation(
        "FLATTEN_S1",
        "Where X's dimensions before axis multiply to 0, the shape of Y is (0, the product of the others): "
        "the profile gives it, where a reshape to (rows, −1) cannot infer the −1 of a tensor of no element "
        "and refuses it.",
    ),
    "axis out of range": Explanation(
        "FLATTEN_C1",
        "The profile refuses an axis outside [−r, r], as ONNX's text requires; an engine may refuse it "
        "with an error of its own or compute something.",
    ),
}
BACKEND_DIVERGENCES = {
    "test_flatten_default_axis": Divergence(
        "GR4",
        "The node leaves axis out, which ONNX defaults to 1; the profile has no default value and refuses "
        "a node without it.",
    ),
}
BACKEND_RULES: dict = {}
SEMANTICS = "FLATTEN_S2"
