"""Squeeze's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative axes",
    "repeated axes",
    "axes out of range",
    "a dimension other than 1",
    "empty axes",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, A: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy's squeeze at the axes of A."""
    return np.squeeze(X, tuple(A.tolist())).copy()


def rows(v: Values) -> list[tuple]:
    def a(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    column = v(
        np.arange(6).reshape(1, 3, 1, 2) % 2 if v.dtype == np.bool_ else np.arange(6).reshape(1, 3, 1, 2)
    )
    rows = [
        ("axis 0", ORDINARY, (column, a([0])), {}),
        ("an axis inside the shape", ORDINARY, (column, a([2])), {}),
        ("two axes, in any order", ORDINARY, (column, a([2, 0])), {}),
        ("axis −2", "negative axes", (column, a([-2])), {}),
        ("−4, the first axis", "negative axes", (column, a([-4, 2])), {}),
        ("an axis twice", "repeated axes", (column, a([0, 0])), {}),
        ("an axis twice, once negative", "repeated axes", (column, a([2, -2])), {}),
        ("an axis equal to the rank", "axes out of range", (column, a([4])), {}),
        ("an axis below −r", "axes out of range", (column, a([-5])), {}),
        ("dimension 3", "a dimension other than 1", (column, a([1])), {}),
        ("dimension 2, counted from the back", "a dimension other than 1", (column, a([-1])), {}),
        ("empty A: nothing removed", "empty axes", (column, a([])), {}),
        ("(1,) to 0-d", "empty and 0-d", (v([1]), a([0])), {}),
        ("0-d, A empty", "empty and 0-d", (v(1), a([])), {}),
        ("no element", "empty and 0-d", (v(np.zeros((1, 0))), a([0])), {}),
        ("extremes", "extreme values", (v([[v.lowest, v.highest]]), a([0])), {}),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([[0.0], [-0.0]]), a([1])), {}),
        ("NaN of both signs", "NaN", (v([[nan, -nan]]), a([-2])), {}),
        ("infinities", "infinity", (v([[[-inf]], [[inf]]]), a([1, 2])), {}),
        ("subnormals", "subnormal", (v([[-tiny, tiny]]), a([0])), {}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: X made a row, then squeezed back."""
    return [X.reshape(1, -1), np.array([0], np.int64)], {}


EXPLAINED = {
    "repeated axes": Explanation(
        "SQUEEZE_C2",
        "The profile refuses an axis named twice (counted from the back or not); ONNX's text does not say, "
        "and an engine may refuse it or remove the axis once.",
    ),
    "axes out of range": Explanation(
        "SQUEEZE_C1",
        "The profile refuses an axis outside [−r, r − 1]; an engine may refuse it with an error of its own.",
    ),
    "a dimension other than 1": Explanation(
        "SQUEEZE_C3",
        "The profile refuses an axis whose dimension is not 1, as ONNX's text calls it an error; an engine "
        "may refuse it with an error of its own.",
    ),
    "empty axes": Explanation(
        "SQUEEZE_C4",
        "An empty A names no axis and removes none; an engine may take it as A left out and remove every "
        "dimension of size 1.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "SQUEEZE_S2"
