"""Pad's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "reflect",
    "edge",
    "wrap",
    "axes",
    "negative pads",
    "pads beyond the dimension",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, P: np.ndarray, V: np.ndarray, A: np.ndarray, *, mode: str) -> np.ndarray:
    """As a developer writes it: numpy's pad, its widths from P and A."""
    width = [(0, 0)] * X.ndim
    n = len(A)
    for j, a in enumerate(A.tolist()):
        width[a] = (int(P[j]), int(P[n + j]))
    if mode == "constant":
        return np.pad(X, width, mode="constant", constant_values=V)
    return np.pad(X, width, mode=mode)


def rows(v: Values) -> list[tuple]:
    def s(values: list[int]) -> np.ndarray:
        return v(values, np.int64)

    grid = v([[1, 0], [0, 1], [1, 1]] if v.dtype == np.bool_ else [[1, 2], [3, 4], [5, 6]])
    line = v([1, 0, 1] if v.dtype == np.bool_ else [1, 2, 3])
    zero = v(False if v.dtype == np.bool_ else 0)
    seven = v(True if v.dtype == np.bool_ else 7)
    rows = [
        (
            "constant before an axis (ONNX example 1)",
            ORDINARY,
            (grid, s([0, 2, 0, 0]), zero, s([0, 1])),
            {"mode": "constant"},
        ),
        ("constant on both axes", ORDINARY, (grid, s([1, 1, 1, 1]), seven, s([0, 1])), {"mode": "constant"}),
        ("constant after the last", ORDINARY, (line, s([0, 2]), seven, s([0])), {"mode": "constant"}),
        ("no pad", ORDINARY, (grid, s([0, 0]), seven, s([1])), {"mode": "constant"}),
        (
            "reflect (ONNX example 2)",
            "reflect",
            (grid, s([0, 1, 0, 1]), zero, s([0, 1])),
            {"mode": "reflect"},
        ),
        ("reflect by the dimension − 1", "reflect", (line, s([2, 2]), zero, s([0])), {"mode": "reflect"}),
        ("edge (ONNX example 3)", "edge", (grid, s([0, 2, 0, 0]), zero, s([0, 1])), {"mode": "edge"}),
        ("edge on both axes", "edge", (grid, s([1, 2, 2, 1]), zero, s([0, 1])), {"mode": "edge"}),
        ("wrap (ONNX example 4)", "wrap", (grid, s([2, 1, 1, 1]), zero, s([0, 1])), {"mode": "wrap"}),
        ("wrap by more than the dimension", "wrap", (line, s([4, 5]), zero, s([0])), {"mode": "wrap"}),
        ("axes −1", "axes", (grid, s([1, 1]), seven, s([-1])), {"mode": "constant"}),
        ("axes in another order", "axes", (grid, s([1, 0, 0, 2]), seven, s([1, 0])), {"mode": "constant"}),
        ("an axis twice", "axes", (grid, s([1, 1, 1, 1]), seven, s([1, 1])), {"mode": "constant"}),
        (
            "a negative pad, constant",
            "negative pads",
            (line, s([-1, 2]), seven, s([0])),
            {"mode": "constant"},
        ),
        ("a negative pad, edge", "negative pads", (line, s([-1, 2]), seven, s([0])), {"mode": "edge"}),
        (
            "reflect by the dimension",
            "pads beyond the dimension",
            (line, s([3, 0]), zero, s([0])),
            {"mode": "reflect"},
        ),
        (
            "empty X, constant",
            "empty and 0-d",
            (v(np.zeros((0, 2))), s([1, 0]), seven, s([0])),
            {"mode": "constant"},
        ),
        (
            "empty axis, edge",
            "empty and 0-d",
            (v(np.zeros((0, 2))), s([1, 1]), seven, s([0])),
            {"mode": "edge"},
        ),
        ("0-d X, no axis", "empty and 0-d", (seven, s([]), zero, s([])), {"mode": "constant"}),
        (
            "extremes",
            "extreme values",
            (v([v.lowest, v.highest]), s([1, 1]), v(v.highest), s([0])),
            {"mode": "constant"},
        ),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("−0 as V", "signed zero", (v([1.0]), s([1, 1]), v(-0.0), s([0])), {"mode": "constant"}),
        ("−0 reflected", "signed zero", (v([-0.0, 0.0]), s([1, 1]), zero, s([0])), {"mode": "reflect"}),
        ("NaN as V", "NaN", (v([1.0]), s([1, 0]), v(nan), s([0])), {"mode": "constant"}),
        ("NaN at the edge", "NaN", (v([nan, 2.0]), s([2, 0]), zero, s([0])), {"mode": "edge"}),
        ("infinities wrapped", "infinity", (v([-inf, inf]), s([1, 1]), zero, s([0])), {"mode": "wrap"}),
        ("a subnormal V", "subnormal", (v([1.0]), s([1, 1]), v(tiny), s([0])), {"mode": "constant"}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X padded by 1000 elements each side with 0."""
    return [X, np.array([1000, 1000], np.int64), np.array(0, X.dtype), np.array([0], np.int64)], {
        "mode": "constant"
    }


EXPLAINED = {
    "negative pads": Explanation(
        "PAD_C5",
        "ONNX lets a negative pad remove elements; the profile refuses it (cropping is Slice's), as the ONNX "
        "reference (numpy's pad) does; onnxruntime removes the elements, then pads.",
    ),
    "pads beyond the dimension": Explanation(
        "PAD_C6",
        "reflect by the dimension or more would mirror a mirror; the profile refuses it, as onnxruntime "
        "does, "
        "where the ONNX reference (numpy's pad) reflects again.",
    ),
    "empty and 0-d": Explanation(
        "PAD_S1",
        "A 0-d X, which has no axis to pad (A and P empty), is copied as it is; numpy's pad (and the ONNX "
        "reference with it) and onnxruntime refuse a 0-d input.",
    ),
    "axes": Explanation(
        "PAD_C4",
        "An axis named twice is refused by the profile; an engine may pad it twice or refuse it.",
    ),
}
_NO_INPUT = (
    "The node leaves out constant_value or axes, which ONNX makes optional; the profile has no default "
    "value and refuses a node without them."
)
BACKEND_DIVERGENCES = {
    f"test_{name}": Divergence("GR4", _NO_INPUT)
    for name in ("constant_pad", "edge_pad", "reflect_pad", "wrap_pad")
}
BACKEND_RULES: dict = {}
SEMANTICS = "PAD_S2"
