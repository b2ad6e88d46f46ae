"""Reshape's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "0 and −1 in the shape",
    "allowzero",
    "refused shapes",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, S: np.ndarray, *, allowzero: int) -> np.ndarray:
    """As a developer writes it: numpy's reshape, with ONNX's 0 copying X's dimension unless allowzero."""
    shape = [X.shape[i] if d == 0 and not allowzero else int(d) for i, d in enumerate(S.tolist())]
    return np.reshape(X, shape).copy()


def rows(v: Values) -> list[tuple]:
    def s(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    ten = v(np.arange(10).reshape(2, 5) % 2 if v.dtype == np.bool_ else np.arange(10).reshape(2, 5))
    block = v(
        np.arange(24).reshape(2, 3, 4) % 3 == 0 if v.dtype == np.bool_ else np.arange(24).reshape(2, 3, 4)
    )
    zero, one = {"allowzero": 0}, {"allowzero": 1}
    rows = [
        ("(2, 5) to (5, 2) (draft, example 1)", ORDINARY, (ten, s([5, 2])), zero),
        ("to a vector", ORDINARY, (ten, s([10])), zero),
        ("to rank 4", ORDINARY, (ten, s([1, 2, 5, 1])), one),
        (
            "0 copies a dimension, −1 infers (draft, example 2)",
            "0 and −1 in the shape",
            (block, s([0, 6, -1])),
            zero,
        ),
        ("−1 first", "0 and −1 in the shape", (block, s([-1, 4])), zero),
        ("0 copies the last axis", "0 and −1 in the shape", (block, s([6, 0])), zero),
        ("allowzero 1 and 0, −1 (draft, example 3)", "allowzero", (ten, s([0, -1])), one),
        (
            "allowzero 1 keeps a dimension of size 0 (draft, example 4)",
            "allowzero",
            (v(np.zeros((0, 3, 8))), s([1, 2, 0])),
            one,
        ),
        ("allowzero 0 copies a dimension of size 0", "allowzero", (v(np.zeros((0, 3))), s([0, 3])), zero),
        ("sizes differ", "refused shapes", (ten, s([3, 3])), zero),
        ("−1 twice", "refused shapes", (ten, s([-1, -1])), zero),
        ("a dimension below −1", "refused shapes", (ten, s([-2, -5])), zero),
        ("0 beyond X's rank", "refused shapes", (ten, s([2, 5, 0])), zero),
        ("0-d to 0-d", "empty and 0-d", (v(1), s([])), zero),
        ("0-d to (1, 1)", "empty and 0-d", (v(1), s([1, 1])), zero),
        ("(1,) to 0-d", "empty and 0-d", (v([1]), s([])), zero),
        ("empty to empty", "empty and 0-d", (v(np.zeros((2, 0))), s([0, 5])), one),
        ("extremes", "extreme values", (v([[v.lowest, v.highest]]), s([2])), zero),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([[0.0], [-0.0]]), s([2])), zero),
        ("NaN of both signs", "NaN", (v([nan, -nan]), s([1, 2])), zero),
        ("infinities", "infinity", (v([[-inf, inf]]), s([-1])), zero),
        ("subnormals", "subnormal", (v([-tiny, tiny]), s([2, 1])), zero),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X made a matrix of 1000 columns."""
    return [X, np.array([-1, 1000], np.int64)], {"allowzero": 0}


EXPLAINED = {
    "allowzero": Explanation(
        "RESHAPE_C3",
        "With allowzero 1, a shape holding both 0 and −1 names no shape (a dimension of size 0 leaves the "
        "−1 undetermined); ONNX's text calls it invalid and the profile refuses it, where an engine may "
        "compute something.",
    ),
    "refused shapes": Explanation(
        "RESHAPE_C5",
        "The profile refuses a shape that does not hold X's elements, or names −1 twice, or a dimension "
        "below −1; an engine may refuse it with an error of its own or compute something.",
    ),
}
_NO_ALLOWZERO = (
    "The node leaves allowzero out, which ONNX defaults to 0; the profile has no default value and refuses "
    "a node without it."
)
BACKEND_DIVERGENCES = {
    f"test_reshape_{name}": Divergence("GR4", _NO_ALLOWZERO)
    for name in (
        "reordered_all_dims",
        "reordered_last_dims",
        "reduced_dims",
        "extended_dims",
        "one_dim",
        "negative_dim",
        "negative_extended_dims",
        "zero_dim",
        "zero_and_negative_dim",
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "RESHAPE_S2"
