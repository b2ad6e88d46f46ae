"""Gather's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative indices",
    "negative axis",
    "indices out of range",
    "refused axes",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, J: np.ndarray, *, axis: int) -> np.ndarray:
    """As a developer writes it: numpy's take (a new array; an index out of range raises IndexError)."""
    return np.take(X, J, axis=axis)


def rows(v: Values) -> list[tuple]:
    def j(values: list | int) -> np.ndarray:
        return v(values, np.int64)

    def t(values: np.ndarray) -> np.ndarray:
        return v(values % 2 if v.dtype == np.bool_ else values)

    six = t(np.arange(6).reshape(3, 2))
    block = t(np.arange(12).reshape(2, 3, 2))
    rows = [
        ("rows of a matrix", ORDINARY, (six, j([2, 0])), {"axis": 0}),
        ("columns of a matrix", ORDINARY, (six, j([1, 1, 0])), {"axis": 1}),
        ("indices of rank 2 (ONNX's first example)", ORDINARY, (six, j([[0, 1], [1, 2]])), {"axis": 0}),
        ("the middle axis of rank 3", ORDINARY, (block, j([[2], [0]])), {"axis": 1}),
        ("a 0-d index", ORDINARY, (six, j(1)), {"axis": 0}),
        ("−1 for the last row", "negative indices", (six, j([-1, 0])), {"axis": 0}),
        ("−s for the first", "negative indices", (six, j([-3])), {"axis": 0}),
        ("−1 for the last axis", "negative axis", (six, j([0])), {"axis": -1}),
        ("an index equal to the dimension", "indices out of range", (six, j([3])), {"axis": 0}),
        ("an index below −s", "indices out of range", (six, j([0, -4])), {"axis": 0}),
        ("an axis X does not have", "refused axes", (six, j([0])), {"axis": 2}),
        ("an axis below −r", "refused axes", (six, j([0])), {"axis": -3}),
        ("0-d X", "empty and 0-d", (v(1), j(0)), {"axis": 0}),
        ("no index", "empty and 0-d", (six, v(np.zeros(0), np.int64)), {"axis": 0}),
        ("a 0-d result", "empty and 0-d", (t(np.arange(3)), j(2)), {"axis": 0}),
        ("extremes", "extreme values", (v([v.lowest, v.highest]), j([1, 0])), {"axis": 0}),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([0.0, -0.0]), j([1, 0, 1])), {"axis": 0}),
        ("NaN of both signs", "NaN", (v([[nan, -nan]]), j([1, 0])), {"axis": 1}),
        ("infinities", "infinity", (v([-inf, inf]), j([[1], [0]])), {"axis": 0}),
        ("subnormals", "subnormal", (v([-tiny, tiny]), j([1, -2])), {"axis": 0}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the rows of X, made a matrix of 1000 columns, in reverse order."""
    matrix = X.reshape(-1, 1000)
    return [matrix, np.arange(matrix.shape[0] - 1, -1, -1, dtype=np.int64)], {"axis": 0}


EXPLAINED = {
    "indices out of range": Explanation(
        "GATHER_E1",
        "ONNX calls an index outside [−s, s − 1] an error; the profile refuses it with its id, where an "
        "engine refuses it with an error of its own or may read another element.",
    ),
    "empty and 0-d": Explanation(
        "GATHER_C1",
        "ONNX asks for data of rank 1 or more; the profile refuses a 0-d X, where numpy's take and the ONNX "
        "reference read it as a vector of one element.",
    ),
    "refused axes": Explanation(
        "GATHER_C2",
        "The profile refuses an axis outside [−r, r − 1]; an engine refuses it with an error of its own.",
    ),
}
BACKEND_DIVERGENCES: dict[str, Divergence] = {}
BACKEND_RULES: dict = {}
SEMANTICS = "GATHER_S2"
