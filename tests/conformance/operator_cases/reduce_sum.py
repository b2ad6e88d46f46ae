"""ReduceSum's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative axes",
    "empty axes",
    "repeated axes",
    "axes out of range",
    "empty and 0-d",
    "integer overflow",
    "extreme values",
    "cancellation",
    "rounding",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


BENCH_LIMIT = 60.0
"""A guard on the measured 33x to 35x numpy's float32 sum of 10^7 elements in rows of 1,000: two
float64 sums per row (the values and their magnitudes), the rounding decided row by row, the exact sums of
the few rows left undecided (the page says so)."""


def numpy(X: np.ndarray, A: np.ndarray, *, keepdims: int, noop_with_empty_axes: int) -> np.ndarray:
    """As a developer writes it: numpy's sum over the axes of A (all of them, or none, where A is empty),
    in X's type."""
    axes = tuple(A.tolist())
    if not axes and noop_with_empty_axes:
        return X.copy()
    return np.asarray(np.sum(X, axis=axes or None, keepdims=bool(keepdims), dtype=X.dtype))


def rows(v: Values) -> list[tuple]:
    def at(keepdims: int = 0, noop: int = 0) -> dict:
        return {"keepdims": keepdims, "noop_with_empty_axes": noop}

    def a(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    overflow = "extreme values" if v.is_float else "integer overflow"
    grid = v([[1, 9, 3], [4, 2, 6]])
    block = v([[[1, 3, 2], [4, 0, 6]], [[7, 5, 9], [2, 8, 1]]])
    rows = [
        ("rows", ORDINARY, (grid, a([1])), at()),
        ("columns, keepdims 1", ORDINARY, (grid, a([0])), at(1)),
        ("rank 3, two axes", ORDINARY, (block, a([0, 2])), at()),
        ("rank 3, the last axis, keepdims 1", ORDINARY, (block, a([2])), at(1)),
        ("axis −1", "negative axes", (grid, a([-1])), at()),
        ("axes −3 and −1", "negative axes", (block, a([-3, -1])), at(1)),
        ("empty A: every axis", "empty axes", (grid, a([])), at()),
        ("empty A, keepdims 1: every axis", "empty axes", (grid, a([])), at(1)),
        ("empty A with noop: Y is X", "empty axes", (grid, a([])), at(0, 1)),
        ("an axis twice", "repeated axes", (grid, a([1, 1])), at()),
        ("an axis twice, once negative", "repeated axes", (grid, a([1, -1])), at()),
        ("an axis equal to the rank", "axes out of range", (grid, a([2])), at()),
        ("an axis below −r", "axes out of range", (grid, a([-3])), at()),
        ("an empty sum", "empty and 0-d", (v(np.zeros((0, 3))), a([0])), at()),
        ("no sum at all", "empty and 0-d", (v(np.zeros((3, 0))), a([0])), at(1)),
        ("a 0-d X", "empty and 0-d", (v(5), a([])), at()),
        ("one element", "empty and 0-d", (v([5]), a([0])), at()),
        (
            "the highest twice",
            overflow,
            (v([v.highest, v.highest]), a([0])),
            at(),
        ),
        (
            "the lowest twice",
            overflow,
            (v([v.lowest, v.lowest]), a([0])),
            at(),
        ),
        ("highest and lowest", "extreme values", (v([v.highest, v.lowest]), a([0])), at()),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    eps = float(ml_dtypes.finfo(v.dtype).eps)
    big = float(v.highest) / 4
    return [
        *rows,
        ("[big, 1, −big]", "cancellation", (v([big, 1.0, -big]), a([0])), at()),
        ("[1, big, −big]", "cancellation", (v([1.0, big, -big]), a([0])), at()),
        ("1 + eps/2 + eps/4: above a tie", "rounding", (v([1.0, eps / 2, eps / 4]), a([0])), at()),
        ("1 + eps/2 + tiny: above a tie", "rounding", (v([1.0, eps / 2, tiny]), a([0])), at()),
        ("−0 + −0", "signed zero", (v([-0.0, -0.0]), a([0])), at()),
        ("−0 + +0", "signed zero", (v([-0.0, 0.0]), a([0])), at()),
        ("x + (−x)", "signed zero", (v([2.0, -2.0]), a([0])), at()),
        ("a NaN", "NaN", (v([[1.0, nan], [2.0, 3.0]]), a([1])), at()),
        ("+∞ and −∞", "NaN", (v([inf, -inf]), a([0])), at()),
        ("+∞ and numbers", "infinity", (v([inf, 1.0, -2.0]), a([0])), at()),
        ("−∞ twice", "infinity", (v([-inf, -inf]), a([0])), at()),
        ("subnormals", "subnormal", (v([tiny, tiny, -tiny]), a([0])), at()),
        ("2 + tiny − 2", "subnormal", (v([2.0, tiny, -2.0]), a([0])), at()),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: X as rows of 1,000 elements, each summed."""
    return [X.reshape(-1, 1000), np.array([1], np.int64)], {"keepdims": 0, "noop_with_empty_axes": 0}


EXPLAINED = {
    "repeated axes": Explanation(
        "REDUCESUM_C2",
        "The profile refuses an axis named twice (counted from the end or not); ONNX's text does not say. "
        "The ONNX reference refuses it too ('duplicate value in axis'); onnxruntime sums along the axis "
        "once.",
    ),
    "axes out of range": Explanation(
        "REDUCESUM_C1",
        "The profile refuses an axis outside [−r, r − 1]; an engine refuses it with an error of its own.",
    ),
    "integer overflow": Explanation(
        "REDUCESUM_S2",
        "The profile wraps an integer sum modulo 2^n, as Add does; numpy and the ONNX reference wrap too. "
        "onnxruntime has no int8, int16 or unsigned kernels but uint32/uint64, and its int32 sum of "
        "[2147483647, 2147483647] is not the wrapped −2: its reduction over every axis keeps a result that "
        "is not the sum modulo 2^32.",
    ),
    "cancellation": Explanation(
        "REDUCESUM_S3",
        "The exact sum of [big, 1, −big] is 1, which the profile gives whatever the order; an engine adding "
        "left to right in the type loses the 1 (float32's [1e8, 1, −1e8] gives 0). REDUCESUM_P1 bounds how "
        "far it may be: γ₂·(2·big + 1).",
    ),
    "rounding": Explanation(
        "REDUCESUM_S3",
        "The exact sum is rounded once; an engine rounding each partial sum to the type rounds 1 + eps/2 "
        "to 1 first (a tie, to even) and never sees the terms after it. Within REDUCESUM_P1's bound.",
    ),
    "extreme values": Explanation(
        "REDUCESUM_S2",
        "The sum of int64's highest and lowest values is −1 exactly; onnxruntime gives 0, as if its int64 "
        "sum went through float64, where 2^63 − 1 rounds to 2^63.",
    ),
    "subnormal": Explanation(
        "REDUCESUM_S3",
        "2 + tiny − 2 is tiny exactly; an engine adding left to right in the type rounds 2 + tiny to 2 and "
        "gives 0 (numpy, the ONNX reference, onnxruntime). Within REDUCESUM_P1's bound, γ₂·(4 + tiny).",
    ),
    "signed zero": Explanation(
        "REDUCESUM_S3",
        "−0 + −0 is −0 (IEEE 754); the ONNX reference starts numpy's sum from +0 and gives +0.",
    ),
}
_NO_NOOP = (
    "The node leaves out noop_with_empty_axes, which ONNX defaults to 0; the profile has no default value "
    "and refuses a node without it."
)
BACKEND_DIVERGENCES = {
    f"test_reduce_sum_{name}": Divergence("GR4", _NO_NOOP)
    for name in (
        "default_axes_keepdims_example",
        "default_axes_keepdims_random",
        "do_not_keepdims_example",
        "do_not_keepdims_random",
        "empty_set",
        "empty_set_non_reduced_axis_zero",
        "keepdims_example",
        "keepdims_random",
        "negative_axes_keepdims_example",
        "negative_axes_keepdims_random",
    )
}
BACKEND_RULES: dict = {
    "test_reduce_sum_empty_axes_input_noop": "REDUCESUM_S1",
    "test_reduce_sum_empty_axes_input_noop_example": "REDUCESUM_S1",
}
SEMANTICS = "REDUCESUM_S3"
