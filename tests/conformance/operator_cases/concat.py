"""Concat's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "several inputs",
    "negative axis",
    "refused shapes",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(*X: np.ndarray, axis: int) -> np.ndarray:
    """As a developer writes it: numpy's concatenate (a new array)."""
    return np.concatenate(X, axis=axis)


def rows(v: Values) -> list[tuple]:
    def t(values: np.ndarray) -> np.ndarray:
        return v(values % 2 if v.dtype == np.bool_ else values)

    two = t(np.arange(4).reshape(2, 2))
    one_row = t(np.arange(4, 6).reshape(1, 2))
    column = t(np.arange(6, 8).reshape(2, 1))
    block = t(np.arange(12).reshape(2, 3, 2))
    rows = [
        ("two matrices along axis 0", ORDINARY, (two, one_row), {"axis": 0}),
        ("two matrices along axis 1", ORDINARY, (two, column), {"axis": 1}),
        ("two vectors", ORDINARY, (t(np.arange(3)), t(np.arange(3, 5))), {"axis": 0}),
        ("rank 3 along the middle axis", ORDINARY, (block, t(np.arange(4).reshape(2, 1, 2))), {"axis": 1}),
        ("one input", "several inputs", (two,), {"axis": 1}),
        ("three inputs", "several inputs", (one_row, two, one_row), {"axis": 0}),
        ("the same tensor twice", "several inputs", (column, column), {"axis": 1}),
        ("−1 for the last axis", "negative axis", (two, column), {"axis": -1}),
        ("−2 for the first axis of a matrix", "negative axis", (two, one_row), {"axis": -2}),
        ("ranks differ", "refused shapes", (two, t(np.arange(2))), {"axis": 0}),
        ("dimensions differ off the axis", "refused shapes", (two, column), {"axis": 0}),
        ("an axis the inputs do not have", "refused shapes", (two, two), {"axis": 2}),
        ("0-d inputs", "empty and 0-d", (v(1), v(0)), {"axis": 0}),
        ("an empty input", "empty and 0-d", (v(np.zeros((0, 2))), two), {"axis": 0}),
        ("every input empty", "empty and 0-d", (v(np.zeros((2, 0))), v(np.zeros((2, 0)))), {"axis": 1}),
        ("extremes", "extreme values", (v([v.lowest]), v([v.highest])), {"axis": 0}),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([0.0]), v([-0.0])), {"axis": 0}),
        ("NaN of both signs", "NaN", (v([[nan]]), v([[-nan]])), {"axis": 1}),
        ("infinities", "infinity", (v([-inf]), v([inf])), {"axis": 0}),
        ("subnormals", "subnormal", (v([[-tiny]]), v([[tiny]])), {"axis": 0}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X cut in two halves, joined again."""
    half = X.size // 2
    return [X[:half], X[half:]], {"axis": 0}


EXPLAINED = {
    "negative axis": Explanation(
        "CONCAT_C2",
        "The draft restricts axis to 0 or more (its R1); the profile refuses a negative axis where ONNX, "
        "numpy, the ONNX reference and onnxruntime count it from the back.",
    ),
    "refused shapes": Explanation(
        "CONCAT_C5",
        "The profile refuses inputs of different ranks, of different dimensions off the axis, or an axis "
        "they do not have; an engine refuses them with an error of its own.",
    ),
    "empty and 0-d": Explanation(
        "CONCAT_C1",
        "A 0-d input has no axis to join along: the profile refuses it, as numpy and onnxruntime do; the "
        "ONNX reference may compute something.",
    ),
}
_NEGATIVE = (
    "The node counts axis from the back, which the draft's restriction R1 excludes: the profile refuses a "
    "negative axis."
)
BACKEND_DIVERGENCES = {
    f"test_concat_{name}": Divergence("CONCAT_C2", _NEGATIVE)
    for name in (
        "1d_axis_negative_1",
        "2d_axis_negative_1",
        "2d_axis_negative_2",
        "3d_axis_negative_1",
        "3d_axis_negative_2",
        "3d_axis_negative_3",
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "CONCAT_S2"
