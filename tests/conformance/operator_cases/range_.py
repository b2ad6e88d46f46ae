"""Range's conformance cases, explained divergences and ONNX backend expectations.

Each case is S, L and D, three 0-d tensors of one type (a rank-1 one where the case is about the rank).
"""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Explanation, Values

TOPICS = (
    ORDINARY,
    "the count of far apart values",
    "rounded once",
    "step of 0",
    "NaN and infinities",
    "scalars only",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "subnormal",
)


def numpy(S: np.ndarray, L: np.ndarray, D: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy's arange in the inputs' type."""
    return np.arange(S, L, D, dtype=S.dtype)


def rows(v: Values) -> list[tuple]:
    def three(start: float, limit: float, delta: float) -> tuple:
        return (v(start), v(limit), v(delta))

    rows = [
        ("0 to 10 by 1 (the draft's example 1)", ORDINARY, three(0, 10, 1)),
        ("10 down to 2 by −3 (the draft's example 2)", ORDINARY, three(10, 2, -3)),
        ("3 to 9 by 3 (ONNX's example 1)", ORDINARY, three(3, 9, 3)),
        ("10 down to 4 by −2 (ONNX's example 2)", ORDINARY, three(10, 4, -2)),
        ("a step that passes L", ORDINARY, three(1, 8, 5)),
        ("S = L", "empty and 0-d", three(10, 10, -3)),
        ("D of the wrong sign (the draft's example 4)", "empty and 0-d", three(30, 10, 3)),
        ("D = 0", "step of 0", three(1, 5, 0)),
        ("S as a vector of one element", "scalars only", (v([0]), v(5), v(1))),
        ("D as a vector of one element", "scalars only", (v(0), v(5), v([1]))),
        ("from the lowest value by the highest", "extreme values", (v(v.lowest), v(v.highest), v(v.highest))),
        (
            "from the highest value down by the lowest",
            "extreme values",
            (v(v.highest), v(v.lowest), v(v.lowest)),
        ),
        ("the highest value alone", "extreme values", (v(v.highest), v(v.highest - 1), v(-1))),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    rows += [
        ("D = −0", "step of 0", three(1, 5, -0.0)),
        ("S NaN", "NaN and infinities", three(nan, 5, 1)),
        ("L +∞", "NaN and infinities", three(0, inf, 1)),
        ("D +∞", "NaN and infinities", three(0, 5, inf)),
        ("D −∞, L below S", "NaN and infinities", three(0, -5, -inf)),
        ("S −0", "signed zero", three(-0.0, 3, 1)),
        ("an exact 0 after S", "signed zero", three(-2, 1, 1)),
        ("subnormal steps", "subnormal", three(0, 4 * tiny, tiny)),
        ("from a subnormal by 1", "subnormal", three(tiny, 3, 1)),
    ]
    if v.dtype == np.float32:
        rows += [  # the review's first question: (L − S)/D exact against in float32
            ("0.5 down to −2^23 by −1", "the count of far apart values", three(0.5, -8388608, -1)),
            ("2^−24 down to −2 by −2", "the count of far apart values", three(2.0**-24, -2, -2)),
        ]
    if v.dtype == np.float64:
        rows += [
            ("0.1 by 0.1 to 3: 29 exact sums rounded once", "rounded once", three(0.1, 3, 0.1)),
            ("1e16 by 1.1 to 1e16 + 20", "rounded once", three(1e16, 1e16 + 20, 1.1)),
        ]
    return rows


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: as many float32 values as X has, from 0.5 by 0.25."""
    f = X.dtype
    return [np.array(0.5, f), np.array(0.5 + 0.25 * X.size, f), np.array(0.25, f)], {}


EXPLAINED = {
    "step of 0": Explanation(
        "RANGE_C2",
        "The profile refuses D = 0, as the draft's C1 asks; numpy refuses it with an error of its own and "
        "an engine may loop, divide by 0 or return an empty tensor.",
    ),
    "NaN and infinities": Explanation(
        "RANGE_E1",
        "The profile refuses a NaN or an infinity in S, L or D; an engine divides by it and gives an empty "
        "tensor, one element, or an error of its own.",
    ),
    "scalars only": Explanation(
        "RANGE_C1",
        "The profile refuses S, L or D of rank 1; numpy and the ONNX reference read its one element.",
    ),
    "the count of far apart values": Explanation(
        "RANGE_S1",
        "The profile counts K from the exact values; an engine computing (L − S)/D in the inputs' type "
        "(float32) rounds it first and may count one element fewer (the review's first question).",
    ),
    "rounded once": Explanation(
        "RANGE_S3",
        "The profile rounds each exact S + i·D once; numpy's arange and the ONNX reference compute "
        "S + i·(D′) with D′ the difference of the first two rounded values, an engine may add D to a "
        "running sum: both drift from the exact values.",
    ),
    "extreme values": Explanation(
        "RANGE_S1",
        "The profile computes L − S exactly; in the inputs' type it overflows (int16: 32767 − (−32768)), "
        "and an engine then counts a wrong number of elements or refuses.",
    ),
    "subnormal": Explanation(
        "RANGE_S3",
        "The profile's values are exact in every case here; an engine that flushes subnormals to 0 "
        "counts or computes otherwise.",
    ),
    "signed zero": Explanation(
        "RANGE_S3",
        "The profile keeps Y[0] = S bit for bit (−0) and gives +0 to an exact 0 further on; an engine may "
        "compute S + 0·D, which is +0.",
    ),
}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES = {"test_range_int32_type_negative_delta": "RANGE_S2"}
SEMANTICS = "RANGE_S3"
