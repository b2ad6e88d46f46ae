"""ConstantOfShape's conformance cases, explained divergences and ONNX backend expectations.

Each case is S, an int64 vector, and the attribute value, a tensor of one element that the engines' one-node
models carry as a TensorProto.
"""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "value of another size",
    "refused shapes",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(S: np.ndarray, *, value: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy's full with value's one element."""
    return np.full(tuple(S.tolist()), value.reshape(-1)[0], dtype=value.dtype)


def rows(v: Values) -> list[tuple]:
    def s(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    one = v([1])
    rows = [
        ("a matrix of ones", ORDINARY, (s([2, 3]),), {"value": one}),
        ("a vector of zeros", ORDINARY, (s([4]),), {"value": v([0])}),
        ("rank 3", ORDINARY, (s([2, 1, 2]),), {"value": one}),
        ("value of two elements", "value of another size", (s([2]),), {"value": v([1, 0])}),
        ("value empty", "value of another size", (s([2]),), {"value": v(np.zeros((0,)))}),
        ("a negative dimension", "refused shapes", (s([2, -1]),), {"value": one}),
        ("S empty: a 0-d result", "empty and 0-d", (s([]),), {"value": one}),
        (
            "a dimension of 0 (ONNX's test_constantofshape_int_shape_zero)",
            "empty and 0-d",
            (s([0]),),
            {"value": one},
        ),
        ("a dimension of 0 among others", "empty and 0-d", (s([3, 0, 2]),), {"value": one}),
        ("lowest", "extreme values", (s([2, 2]),), {"value": v([v.lowest])}),
        ("highest", "extreme values", (s([3]),), {"value": v([v.highest])}),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("−0", "signed zero", (s([2, 2]),), {"value": v([-0.0])}),
        ("NaN", "NaN", (s([3]),), {"value": v([nan])}),
        ("−NaN", "NaN", (s([2, 1]),), {"value": v([-nan])}),
        ("+∞", "infinity", (s([2]),), {"value": v([inf])}),
        ("−∞", "infinity", (s([1, 2]),), {"value": v([-inf])}),
        ("a subnormal", "subnormal", (s([2]),), {"value": v([tiny])}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: as many elements as X has, each X's first element."""
    return [np.array([X.size], np.int64)], {"value": X[:1].copy()}


def table_left_out(inputs: tuple[str, ...], dtype: np.dtype) -> bool:
    """Every row of the special-values table: its value is 0-d, which onnxruntime's loader refuses (ONNX's
    shape inference wants a one-dimensional value) before any kernel is chosen; the reference runs them, and
    the cases above give each value as [v]."""
    return True


EXPLAINED = {
    "value of another size": Explanation(
        "CONSTANTOFSHAPE_C3",
        "The profile refuses a value of other than one element; the ONNX reference refuses it too, other "
        "engines may take its first element or fail with an error of their own.",
    ),
    "refused shapes": Explanation(
        "CONSTANTOFSHAPE_C2",
        "The profile refuses a negative dimension in S; an engine refuses it with an error of its own.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "CONSTANTOFSHAPE_S2"
