"""Unsqueeze's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative axes",
    "repeated axes",
    "axes out of range",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, A: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy's expand_dims at the axes of A."""
    return np.expand_dims(X, tuple(A.tolist())).copy()


def rows(v: Values) -> list[tuple]:
    def a(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    block = v(
        np.arange(24).reshape(2, 3, 4) % 3 == 0 if v.dtype == np.bool_ else np.arange(24).reshape(2, 3, 4)
    )
    rows = [
        ("a matrix made rank 3", ORDINARY, (v([[1, 0, 1], [0, 1, 1]]), a([1])), {}),
        ("axis 0 (draft, example 1)", ORDINARY, (block, a([0])), {}),
        ("axes 0 and 1 (draft, example 3)", ORDINARY, (block, a([0, 1])), {}),
        ("axes 1 and 2 (draft, example 4)", ORDINARY, (block, a([1, 2])), {}),
        ("an axis inside the shape", ORDINARY, (block, a([2])), {}),
        ("axes in any order", ORDINARY, (block, a([5, 0, 3])), {}),
        ("axis −1 (draft, example 2)", "negative axes", (block, a([-1])), {}),
        ("−1 and 0 together", "negative axes", (block, a([-1, 0])), {}),
        ("−r, the first axis of Y", "negative axes", (block, a([-4])), {}),
        ("an axis twice", "repeated axes", (block, a([1, 1])), {}),
        ("an axis twice, once negative", "repeated axes", (block, a([0, -5])), {}),
        ("an axis equal to the rank of Y", "axes out of range", (block, a([4])), {}),
        ("an axis below −r", "axes out of range", (block, a([-5])), {}),
        ("empty A: a copy", "empty and 0-d", (block, a([])), {}),
        ("0-d to (1,)", "empty and 0-d", (v(1), a([0])), {}),
        ("0-d to (1, 1)", "empty and 0-d", (v(1), a([-1, 0])), {}),
        ("no element", "empty and 0-d", (v(np.zeros((2, 0))), a([1])), {}),
        ("extremes", "extreme values", (v([v.lowest, v.highest]), a([1])), {}),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([0.0, -0.0]), a([0])), {}),
        ("NaN of both signs", "NaN", (v([nan, -nan]), a([-1])), {}),
        ("infinities", "infinity", (v([-inf, inf]), a([0, 2])), {}),
        ("subnormals", "subnormal", (v([-tiny, tiny]), a([1])), {}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X made one row."""
    return [X, np.array([0], np.int64)], {}


EXPLAINED = {
    "repeated axes": Explanation(
        "UNSQUEEZE_C2",
        "The profile refuses an axis named twice (counted from the back or not), as ONNX's text calls it "
        "an error; an engine may refuse it with an error of its own or compute something.",
    ),
    "axes out of range": Explanation(
        "UNSQUEEZE_C1",
        "The profile refuses an axis outside [−r, r − 1] for Y of rank r; an engine may refuse it with an "
        "error of its own or compute something.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "UNSQUEEZE_S2"
