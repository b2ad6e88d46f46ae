"""ArgMax's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "ties",
    "negative axis",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, *, axis: int, keepdims: int, select_last_index: int) -> np.ndarray:
    """As a developer writes it: numpy's argmax, on the reversed axis for the last index."""
    if select_last_index:
        Y = X.shape[axis] - 1 - np.argmax(np.flip(X, axis), axis=axis, keepdims=bool(keepdims))
    else:
        Y = np.argmax(X, axis=axis, keepdims=bool(keepdims))
    return np.asarray(Y, np.int64)


def rows(v: Values) -> list[tuple]:
    def at(axis: int, keepdims: int = 1, last: int = 0) -> dict:
        return {"axis": axis, "keepdims": keepdims, "select_last_index": last}

    grid = v([[1, 9, 3], [4, 2, 6]])
    block = v([[[1, 3, 2], [4, 0, 6]], [[7, 5, 9], [2, 8, 1]]])
    rows = [
        ("columns (draft, example 2)", ORDINARY, (grid,), at(0)),
        ("rows (draft, example 3)", ORDINARY, (grid,), at(1)),
        ("rows, keepdims 0 (draft, example 4)", ORDINARY, (grid,), at(1, 0)),
        ("rank 3, last axis (draft, example 7)", ORDINARY, (block,), at(2)),
        ("rank 3, first axis, keepdims 0", ORDINARY, (block,), at(0, 0)),
        ("a tie, first index (draft, example 5)", "ties", (v([[1, 5, 5, 2]]),), at(1)),
        ("a tie, last index (draft, example 6)", "ties", (v([[1, 5, 5, 2]]),), at(1, 1, 1)),
        ("all equal, last index", "ties", (v([3, 3, 3]),), at(0, 0, 1)),
        ("axis −1", "negative axis", (grid,), at(-1)),
        ("axis −3 of rank 3", "negative axis", (block,), at(-3, 1, 1)),
        ("an empty axis", "empty and 0-d", (v(np.zeros((0, 3))),), at(0)),
        ("empty elsewhere", "empty and 0-d", (v(np.zeros((0, 3))),), at(1)),
        ("a 0-d X", "empty and 0-d", (v(5),), at(0)),
        ("one element", "empty and 0-d", (v([5]),), at(0, 0)),
        ("extremes", "extreme values", (v([v.lowest, v.highest, v.lowest]),), at(0)),
        ("extremes, last index", "extreme values", (v([v.highest, v.lowest, v.highest]),), at(0, 1, 1)),
        ("the lowest everywhere", "extreme values", (v([v.lowest, v.lowest]),), at(0, 1, 1)),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("−0 then +0", "signed zero", (v([-0.0, 0.0]),), at(0)),
        ("+0 then −0", "signed zero", (v([0.0, -0.0]),), at(0)),
        ("−0 then +0, last index", "signed zero", (v([-0.0, 0.0]),), at(0, 1, 1)),
        ("a NaN among numbers (draft, float example 4)", "NaN", (v([[1, nan, 3], [4, 2, 6.5]]),), at(1)),
        ("NaN after +∞", "NaN", (v([inf, nan]),), at(0)),
        ("two NaN, first index", "NaN", (v([1, nan, 3, nan]),), at(0)),
        (
            "two NaN, last index (draft, float example 5)",
            "NaN",
            (v([[nan, 1, nan, 3]]),),
            at(1, 1, 1),
        ),
        ("NaN then a number, last index", "NaN", (v([nan, 5, 2]),), at(0, 1, 1)),
        ("NaN then +∞, last index", "NaN", (v([nan, inf]),), at(0, 1, 1)),
        ("+∞ (draft, float example 2)", "infinity", (v([[1, inf, 3], [4, 2, 6.5]]),), at(1)),
        ("−∞ (draft, float example 3)", "infinity", (v([[-inf, -4, -2], [-inf, -inf, -inf]]),), at(1)),
        ("subnormals", "subnormal", (v([-tiny, 0.0, tiny]),), at(0)),
    ]


EXPLAINED = {
    "empty and 0-d": Explanation(
        "ARGMAX_C1",
        "A 0-d X has no axis, and a line of no element has no greatest element (ARGMAX_C2): the profile "
        "refuses both, where the ONNX reference and onnxruntime give 0 for a 0-d X and an engine may fail "
        "with an error of its own on an empty axis.",
    ),
    "NaN": Explanation(
        "ARGMAX_S3",
        "A line holding a NaN gives the index of its first NaN (its last with select_last_index 1). "
        "onnxruntime's answer depends on the rank and on where the NaN is: on a vector with "
        "select_last_index 0 it gives the first NaN; otherwise it compares from the start and a NaN, "
        "which no comparison selects, wins only where it comes first: [1, NaN, 3] as a row gives 2.",
    ),
}
_NO_ATTRIBUTE = (
    "The node leaves out axis or select_last_index, which ONNX defaults to 0; the profile has no default "
    "value and refuses a node without them."
)
BACKEND_DIVERGENCES = {
    f"test_argmax_{name}": Divergence("GR4", _NO_ATTRIBUTE)
    for name in (
        "no_keepdims_example",
        "no_keepdims_random",
        "keepdims_example",
        "keepdims_random",
        "default_axis_example",
        "default_axis_random",
        "negative_axis_keepdims_example",
        "negative_axis_keepdims_random",
        "default_axis_example_select_last_index",
        "default_axis_random_select_last_index",
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "ARGMAX_S2"


BENCH_LIMIT = 20.0
"""A guard, not a target: the reference reads a float line in several exact passes (its NaNs from the
bits, the maximum, the elements equal to it, the first of them) where numpy's argmax makes one and takes
numpy's NaN rule on trust; measured 15x numpy on float32 (nox -s bench). A one-pass reference is to do."""
