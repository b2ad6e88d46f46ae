"""Slice's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative steps",
    "clamped starts and ends",
    "a start before the first element, stepping back",
    "repeated axes",
    "lists of different lengths",
    "refused slices",
    "0-d X",
    "empty results",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

MAX, MIN = 2**63 - 1, -(2**63)  # INT64_MAX and INT64_MIN: ONNX's "to the end" either way


def numpy(X: np.ndarray, S: np.ndarray, E: np.ndarray, A: np.ndarray, K: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy's slice(start, end, step) on each axis A names (as the ONNX
    reference does)."""
    slices = [slice(None)] * X.ndim
    for s, e, a, k in zip(S.tolist(), E.tolist(), A.tolist(), K.tolist(), strict=False):
        slices[a] = slice(s, e, k)
    return np.array(X[tuple(slices)])


def rows(v: Values) -> list[tuple]:
    def s(*values: int) -> np.ndarray:
        return v(list(values), np.int64)

    def data(values: np.ndarray) -> np.ndarray:
        return v(values % 2 if v.dtype == np.bool_ else values)

    matrix = data(np.array([[1, 2, 3, 4], [5, 6, 7, 8]]))
    five = data(np.arange(5))
    block = data(np.arange(24).reshape(2, 3, 4))
    none = s()
    rows = [
        ("ONNX's example 1", ORDINARY, (matrix, s(1, 0), s(2, 3), s(0, 1), s(1, 2))),
        ("ONNX's example 2, with axes and steps", ORDINARY, (matrix, s(0, 1), s(-1, 1000), s(0, 1), s(1, 1))),
        ("one axis of three, the others whole", ORDINARY, (block, s(1), s(3), s(1), s(1))),
        ("axes in any order, one negative", ORDINARY, (block, s(1, 0), s(4, 1), s(-1, 0), s(2, 1))),
        ("no axis named: X whole", ORDINARY, (block, none, none, none, none)),
        ("backward by 1", "negative steps", (five, s(4), s(MIN), s(0), s(-1))),
        ("backward by 2 from MAX", "negative steps", (five, s(MAX), s(MIN), s(0), s(-2))),
        ("backward, the end −1 is the last element", "negative steps", (five, s(4), s(-1), s(0), s(-1))),
        ("backward to −6: before the first", "negative steps", (five, s(4), s(-6), s(0), s(-1))),
        ("backward on two axes", "negative steps", (block, s(-1, 2), s(MIN, MIN), s(2, 1), s(-3, -1))),
        ("the whole axis, MIN to MAX", "clamped starts and ends", (five, s(MIN), s(MAX), s(0), s(1))),
        ("an end past the dimension", "clamped starts and ends", (five, s(1), s(1000), s(0), s(1))),
        ("a start past the dimension", "clamped starts and ends", (five, s(1000), s(1000), s(0), s(1))),
        ("a start before −d, forward", "clamped starts and ends", (five, s(-7), s(2), s(0), s(1))),
        ("a start past the dimension, backward", "clamped starts and ends", (five, s(9), s(-9), s(0), s(-2))),
        ("a step of MAX", "clamped starts and ends", (five, s(0), s(MAX), s(0), s(MAX))),
        ("a step of MIN", "clamped starts and ends", (five, s(MAX), s(MIN), s(0), s(MIN))),
        (
            "start −10 of 5, backward",
            "a start before the first element, stepping back",
            (five, s(-10), s(MIN), s(0), s(-1)),
        ),
        (
            "start MIN, backward",
            "a start before the first element, stepping back",
            (matrix, s(MIN), s(MIN), s(1), s(-1)),
        ),
        ("axis 1 twice", "repeated axes", (matrix, s(0, 1), s(2, 2), s(1, 1), s(1, 1))),
        ("axis 1 as 1 and −1", "repeated axes", (matrix, s(0, 1), s(2, 2), s(1, -1), s(1, 1))),
        ("two starts, one end", "lists of different lengths", (matrix, s(0, 0), s(1), s(0), s(1))),
        ("one step too many", "lists of different lengths", (matrix, s(0), s(1), s(0), s(1, 1))),
        ("a step 0", "refused slices", (five, s(0), s(5), s(0), s(0))),
        ("axis 2 of a matrix", "refused slices", (matrix, s(0), s(1), s(2), s(1))),
        ("axis −3 of a matrix", "refused slices", (matrix, s(0), s(1), s(-3), s(1))),
        ("0-d X, nothing named", "0-d X", (data(np.array(1)), none, none, none, none)),
        ("start equal to end", "empty results", (five, s(2), s(2), s(0), s(1))),
        ("start after end, forward", "empty results", (five, s(3), s(1), s(0), s(1))),
        ("start before end, backward", "empty results", (five, s(1), s(3), s(0), s(-1))),
        ("a dimension 0, backward", "empty results", (data(np.zeros((2, 0))), s(MAX), s(MIN), s(1), s(-1))),
        ("extremes, backward", "extreme values", (v([v.lowest, v.highest]), s(-1), s(MIN), s(0), s(-1))),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([0.0, -0.0, 0.0]), s(1), s(MIN), s(0), s(-1))),
        ("NaN of both signs", "NaN", (v([nan, 1.0, -nan]), s(0), s(3), s(0), s(2))),
        ("infinities", "infinity", (v([[-inf], [inf]]), s(1), s(MAX), s(0), s(1))),
        ("subnormals", "subnormal", (v([-tiny, tiny]), s(MAX), s(MIN), s(0), s(-1))),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: every other element of the vector X, from its last, backward."""
    return [X, *(np.array([v], np.int64) for v in (-1, MIN, 0, -2))], {}


EXPLAINED = {
    "a start before the first element, stepping back": Explanation(
        "SLICE_S1",
        "ONNX's text clamps a start to [0, d − 1] when the step is negative, so a start before the first "
        "element is the first element and the slice holds it; numpy's slice, and the ONNX reference that "
        "uses it, take such a start as −1 and give an empty slice. The profile follows ONNX's text, as "
        "onnxruntime does.",
    ),
    "repeated axes": Explanation(
        "SLICE_C4",
        "ONNX leaves an axis named twice undefined; the profile refuses it, as onnxruntime does, where "
        "the ONNX reference and numpy keep the last slice of that axis.",
    ),
    "lists of different lengths": Explanation(
        "SLICE_C2",
        "starts, ends, axes and steps describe one slice per axis and must be as long as one another; the "
        "profile refuses lists of different lengths, as onnxruntime does, where the ONNX reference and "
        "numpy pair them up to the shortest.",
    ),
    "0-d X": Explanation(
        "SLICE_S3",
        "With no axis, nothing is sliced and Y is X: the profile, ONNX's text, its reference and numpy "
        "give X; onnxruntime refuses any 0-d X ('Cannot slice scalars').",
    ),
}
_NO_AXES = (
    "The node leaves axes out, which ONNX defaults to every axis; the profile has no default value and "
    "refuses a node without it."
)
_NO_STEPS = (
    "The node leaves steps out, which ONNX defaults to 1s; the profile has no default value and refuses a "
    "node without it."
)
BACKEND_DIVERGENCES = {
    "test_slice_default_axes": Divergence("GR4", _NO_AXES),
    "test_slice_default_steps": Divergence("GR4", _NO_STEPS),
    "test_slice_negative_axes": Divergence("GR4", _NO_STEPS),
}
BACKEND_RULES = {
    "test_slice_neg": "SLICE_S1",
    "test_slice_start_out_of_bounds": "SLICE_S1",
    "test_slice_end_out_of_bounds": "SLICE_S1",
    "test_slice_neg_steps": "SLICE_S1",
}
SEMANTICS = "SLICE_S3"
