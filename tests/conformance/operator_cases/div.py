"""Div's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from elementwise_cases import SHAPE_TOPICS, broadcast_refused, shape_rows

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    *SHAPE_TOPICS,
    "negative quotient",
    "extreme values",
    "zero divisor",
    "lowest divided by −1",
    "rounding",
    "signed zero",
    "infinity",
    "NaN",
    "overflow",
    "subnormal",
)


def numpy(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """What a developer writes: ``//`` for integers (numpy's ``/`` would return float64), ``/`` otherwise."""
    return A // B if np.issubdtype(A.dtype, np.integer) else A / B


def rows(v: Values) -> list[tuple]:
    rows = [
        ("exact quotients", ORDINARY, (v([6, 8, 0, 9]), v([3, 2, 5, 9]))),
        ("rank 2", ORDINARY, (v([[10, 21], [30, 9]]), v([[2, 7], [5, 3]]))),
        *shape_rows(v, [8, 4, 6], [2, 2, 3]),
        ("extremes by 1", "extreme values", (v([v.lowest, v.highest]), v([1, 1]))),
        ("highest by itself", "extreme values", (v([v.highest]), v([v.highest]))),
    ]
    if not v.is_float:
        rows += [
            ("fractions discarded", ORDINARY, (v([7, 5, 1, 9]), v([2, 3, 4, 10]))),
            ("highest by 2 and 3", "extreme values", (v([v.highest, v.highest]), v([2, 3]))),
            ("zero divisor", "zero divisor", (v([5, 1]), v([1, 0]))),
            ("0 / 0", "zero divisor", (v([0]), v([0]))),
        ]
    if v.signed and not v.is_float:
        rows += [
            ("negative quotients (draft, example 1)", "negative quotient", (v([6, 5, -35]), v([3, 3, 3]))),
            ("signs of A and B", "negative quotient", (v([-7, 7, -7, 7]), v([2, -2, -2, 2]))),
            ("lowest by itself, -2 and 2", "extreme values", (v([v.lowest] * 3), v([v.lowest, -2, 2]))),
            ("next to the lowest by -1", "extreme values", (v([v.lowest + 1]), v([-1]))),
        ]
        # onnxruntime's int32 and int64 kernels divide with the processor's instruction, which traps on
        # this input and kills the process (SIGFPE): the case is run for int8 and int16 only, where the
        # kernels compute in a wider int and wrap around. The page says so.
        if v.dtype.itemsize <= 2:
            rows.append(("lowest / -1", "lowest divided by −1", (v([4, v.lowest]), v([2, -1]))))
    if not v.is_float:
        return rows
    nan, inf, tiny, normal = math.nan, math.inf, v.subnormal, ml_dtypes.finfo(v.dtype).smallest_normal
    return [
        *rows,
        ("negative values", ORDINARY, (v([-6, 6, -6]), v([3, -3, -3]))),
        ("fractions", ORDINARY, (v([-2.5, 0.5, 3.0]), v([0.5, 4.0, -0.75]))),
        ("1/3 and 2/3", "rounding", (v([1, 2, -1]), v([3, 3, 3]))),
        (
            "draft, example 2",
            "rounding",
            (v([[3.25, 4.5], [16, 0], [25.5, 24.25]]), v([[3, 2], [4, 0], [5, 4]])),
        ),
        ("zero by non-zero", "signed zero", (v([0.0, -0.0, 0.0, -0.0]), v([1, 1, -1, -1]))),
        ("non-zero by zero", "signed zero", (v([1, -1, 1, -1]), v([0.0, 0.0, -0.0, -0.0]))),
        ("zero by zero", "signed zero", (v([0.0, -0.0, 0.0]), v([0.0, 0.0, -0.0]))),
        ("infinity by numbers", "infinity", (v([inf, -inf, inf]), v([2, 2, -0.0]))),
        ("numbers by infinity", "infinity", (v([1, -1, 1]), v([inf, inf, -inf]))),
        ("infinity by infinity", "infinity", (v([inf, -inf]), v([inf, inf]))),
        ("NaN operands", "NaN", (v([nan, 1, nan, 0]), v([1, nan, nan, nan]))),
        ("highest by 1/2", "overflow", (v([v.highest, v.lowest]), v([0.5, 0.5]))),
        ("subnormal by 2 and 1/2", "subnormal", (v([tiny, tiny, -tiny]), v([2, 0.5, 4]))),
        ("smallest normal by 2", "subnormal", (v([normal]), v([2]))),
    ]


SHAPES_EXPLAINED, BACKEND_DIVERGENCES = broadcast_refused("Div", "DIV_C1")
EXPLAINED = {
    **SHAPES_EXPLAINED,
    "negative quotient": Explanation(
        "DIV_S1",
        "The spec truncates toward zero (-35 / 3 = -11), as the draft and ONNX's reference do; numpy's // "
        "floors (-35 // 3 = -12).",
    ),
    "zero divisor": Explanation(
        "DIV_E1",
        "An integer division by zero has no result: the spec refuses it; numpy (and ONNX's reference, "
        "which computes with numpy) returns 0.",
    ),
    "lowest divided by −1": Explanation(
        "DIV_E2",
        "The quotient of the lowest signed value by -1 is one more than the highest value: the spec "
        "refuses it; engines wrap it around to the lowest value.",
    ),
}
BACKEND_RULES = {
    "test_div_int8": "DIV_S1",
    "test_div_int16": "DIV_S1",
    "test_div_int32_trunc": "DIV_S1",
    "test_div_uint8": "DIV_S1",
    "test_div_uint16": "DIV_S1",
    "test_div_uint32": "DIV_S1",
    "test_div_uint64": "DIV_S1",
}
SEMANTICS = "DIV_S2"


def table_left_out(inputs: tuple[str, ...], dtype: np.dtype) -> bool:
    """The special-values table's lowest / −1, in int32 and int64: onnxruntime's kernels trap on it and the
    process dies (SIGFPE), as for the case "lowest / -1" above."""
    return inputs == ("min", "−1") and dtype.kind == "i" and dtype.itemsize > 2
