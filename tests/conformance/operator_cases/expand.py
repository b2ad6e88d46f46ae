"""Expand's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "S shorter than X, or 1 where X is not",
    "refused shapes",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, S: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy's broadcast_to (a read-only view), copied."""
    return np.broadcast_to(X, tuple(S.tolist())).copy()


def rows(v: Values) -> list[tuple]:
    def s(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    column = v([[1], [0], [1]])
    row = v([[1, 0, 1]])
    rows = [
        ("a column to a matrix", ORDINARY, (column, s([3, 4]))),
        ("a row to a matrix", ORDINARY, (row, s([2, 3]))),
        ("a new leading axis", ORDINARY, (row, s([2, 1, 3]))),
        ("a scalar to a matrix", ORDINARY, (v(1), s([2, 2]))),
        (
            "(3, 1) to (2, 1, 6) (ONNX's example)",
            "S shorter than X, or 1 where X is not",
            (column, s([2, 1, 6])),
        ),
        ("S of lower rank than X", "S shorter than X, or 1 where X is not", (column, s([4]))),
        ("S of 1s", "S shorter than X, or 1 where X is not", (column, s([1, 1]))),
        ("S empty", "S shorter than X, or 1 where X is not", (row, s([]))),
        ("sizes that do not broadcast", "refused shapes", (column, s([2, 4]))),
        ("a negative dimension", "refused shapes", (column, s([3, -1]))),
        ("0-d to 0-d", "empty and 0-d", (v(1), s([]))),
        ("a size 0 from S", "empty and 0-d", (column, s([3, 0]))),
        ("a size 0 from X", "empty and 0-d", (v(np.zeros((0, 1))), s([0, 3]))),
        ("extremes", "extreme values", (v([v.lowest, v.highest]), s([2, 2]))),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([0.0, -0.0]), s([2, 2]))),
        ("NaN of both signs", "NaN", (v([[nan], [-nan]]), s([2, 2]))),
        ("infinities", "infinity", (v([-inf, inf]), s([3, 1, 2]))),
        ("subnormals", "subnormal", (v([[-tiny], [tiny]]), s([2, 3]))),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: a row of 1000 elements of X repeated to fill as many elements as X has."""
    return [X[:1000].reshape(1, 1000), np.array([X.size // 1000, 1000], np.int64)], {}


EXPLAINED = {
    "S shorter than X, or 1 where X is not": Explanation(
        "EXPAND_S1",
        "Y's shape is the common shape of X's shape and S, as ONNX's text says, and may differ from S; "
        "numpy's broadcast_to gives Y the shape S or refuses.",
    ),
    "refused shapes": Explanation(
        "EXPAND_C3",
        "The profile refuses a shape that does not broadcast with X's, or a negative dimension; an engine "
        "refuses it with an error of its own.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "EXPAND_S2"
