"""ReduceMean's conformance cases, explained divergences and ONNX backend expectations."""

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
    "integer rounding",
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
"""A guard on the measured 33x to 35x numpy's float32 mean of 10^7 elements in rows of 1,000: two
float64 sums per row (the values and their magnitudes), the rounding decided row by row, the exact sums of
the few rows left undecided (the page says so)."""


def numpy(X: np.ndarray, A: np.ndarray, *, keepdims: int, noop_with_empty_axes: int) -> np.ndarray:
    """As a developer writes it: numpy's mean over the axes of A (all of them, or none, where A is empty),
    in X's type."""
    axes = tuple(A.tolist())
    if not axes and noop_with_empty_axes:
        return X.copy()
    return np.asarray(np.mean(X, axis=axes or None, keepdims=bool(keepdims), dtype=X.dtype))


def rows(v: Values) -> list[tuple]:
    def at(keepdims: int = 0, noop: int = 0) -> dict:
        return {"keepdims": keepdims, "noop_with_empty_axes": noop}

    def a(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    overflow = "extreme values" if v.is_float else "integer overflow"
    grid = v([[1, 9, 2], [4, 2, 6]])
    block = v([[[1, 3, 2], [4, 0, 6]], [[7, 5, 9], [2, 8, 1]]])
    rows = [
        ("rows", ORDINARY, (grid, a([1])), at()),
        ("columns, keepdims 1", ORDINARY, (v([[1, 9, 3], [5, 3, 7]]), a([0])), at(1)),
        ("rank 3, two axes", ORDINARY, (block, a([0, 2])), at()),
        ("axis −1", "negative axes", (grid, a([-1])), at()),
        ("empty A: every axis", "empty axes", (grid, a([])), at()),
        ("empty A with noop: Y is X", "empty axes", (grid, a([])), at(0, 1)),
        ("an axis twice", "repeated axes", (grid, a([1, 1])), at()),
        ("an axis equal to the rank", "axes out of range", (grid, a([2])), at()),
        ("a mean of no element", "empty and 0-d", (v(np.zeros((0, 3))), a([0])), at()),
        ("no mean at all", "empty and 0-d", (v(np.zeros((3, 0))), a([0])), at(1)),
        ("a 0-d X", "empty and 0-d", (v(5), a([])), at()),
        ("7/2", "integer rounding", (v([7, 0]), a([0])), at()),
        ("the highest twice", overflow, (v([v.highest, v.highest]), a([0])), at()),
        ("highest and lowest", "extreme values", (v([v.highest, v.lowest]), a([0])), at()),
    ]
    if v.signed:
        rows += [
            ("−7/2", "integer rounding", (v([-7, 0]), a([0])), at()),
            ("−3/4", "integer rounding", (v([-3, 0, 0, 0]), a([0])), at()),
            ("the lowest twice", overflow, (v([v.lowest, v.lowest]), a([0])), at()),
        ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    eps = float(ml_dtypes.finfo(v.dtype).eps)
    big = float(v.highest) / 4
    return [
        *rows,
        ("[big, 1, −big]", "cancellation", (v([big, 1.0, -big]), a([0])), at()),
        ("[1, 2, 4]: 7/3", "rounding", (v([1.0, 2.0, 4.0]), a([0])), at()),
        ("(1 + eps/2 + eps/4)/3", "rounding", (v([1.0, eps / 2, eps / 4]), a([0])), at()),
        ("−0 and −0", "signed zero", (v([-0.0, -0.0]), a([0])), at()),
        ("−0 and +0", "signed zero", (v([-0.0, 0.0]), a([0])), at()),
        ("a NaN", "NaN", (v([[1.0, nan], [2.0, 3.0]]), a([1])), at()),
        ("+∞ and −∞", "NaN", (v([inf, -inf]), a([0])), at()),
        ("+∞ and numbers", "infinity", (v([inf, 1.0, -2.0]), a([0])), at()),
        ("tiny/2", "subnormal", (v([tiny, 0.0]), a([0])), at()),
        ("−tiny/4", "subnormal", (v([-tiny, 0.0, 0.0, 0.0]), a([0])), at()),
        ("3·tiny/2", "subnormal", (v([3 * tiny, 0.0]), a([0])), at()),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: X as rows of 1,000 elements, each averaged."""
    return [X.reshape(-1, 1000), np.array([1], np.int64)], {"keepdims": 0, "noop_with_empty_axes": 0}


EXPLAINED = {
    "repeated axes": Explanation(
        "REDUCEMEAN_C2",
        "The profile refuses an axis named twice; ONNX's text does not say. The ONNX reference refuses it "
        "too; onnxruntime averages along the axis once.",
    ),
    "axes out of range": Explanation(
        "REDUCEMEAN_C1",
        "The profile refuses an axis outside [−r, r − 1]; an engine refuses it with an error of its own.",
    ),
    "empty and 0-d": Explanation(
        "REDUCEMEAN_C6",
        "A mean of no element has no value: the profile refuses it, where onnxruntime gives 0 and the ONNX "
        "reference NaN (floats) or the lowest int32 (numpy's NaN cast to an integer).",
    ),
    "integer overflow": Explanation(
        "REDUCEMEAN_S2",
        "The profile's integer mean is the exact sum divided by the count, truncated toward zero: it never "
        "overflows. numpy and the ONNX reference sum in the type, which wraps ([max, max] gives −1), and "
        "onnxruntime's int32 sum of [max, max] is not even the wrapped one.",
    ),
    "extreme values": Explanation(
        "REDUCEMEAN_S3",
        "The mean of [max, max] is max: the exact sum is never rounded on its own. numpy and the ONNX "
        "reference sum in the type and give ∞ (REDUCEMEAN_P1 does not bind a sum beyond the type's range). "
        "For uint64 (REDUCEMEAN_S2) the mean of [max, 0] is 2^63 − 1 (truncated); numpy divides in float64 "
        "and gives 2^63.",
    ),
    "cancellation": Explanation(
        "REDUCEMEAN_S3",
        "The exact mean of [big, 1, −big] is 1/3; an engine summing left to right in the type loses the 1 "
        "and gives 0. REDUCEMEAN_P1 bounds how far it may be.",
    ),
    "rounding": Explanation(
        "REDUCEMEAN_S3",
        "The exact mean is rounded once; an engine rounds its partial sums, then its quotient (or multiplies "
        "by a rounded 1/n): one or two units in the last place apart, within REDUCEMEAN_P1's bound.",
    ),
    "signed zero": Explanation(
        "REDUCEMEAN_S3",
        "The mean of −0 and −0 is −0 (their sum is −0); the ONNX reference starts numpy's sum from +0.",
    ),
    "subnormal": Explanation(
        "REDUCEMEAN_S3",
        "A mean below the smallest subnormal rounds once, keeping its sign (−tiny/4 is −0); an engine "
        "multiplying by 1/n or rounding twice may give another neighbour.",
    ),
}
_NO_NOOP = (
    "The node leaves out noop_with_empty_axes, which ONNX defaults to 0; the profile has no default value "
    "and refuses a node without it."
)
BACKEND_DIVERGENCES = {
    f"test_reduce_mean_{name}": Divergence("GR4", _NO_NOOP)
    for name in (
        "default_axes_keepdims_example",
        "default_axes_keepdims_random",
        "do_not_keepdims_example",
        "do_not_keepdims_random",
        "keepdims_example",
        "keepdims_random",
        "negative_axes_keepdims_example",
        "negative_axes_keepdims_random",
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "REDUCEMEAN_S3"
