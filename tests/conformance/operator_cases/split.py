"""Split's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "uneven parts",
    "negative axis",
    "refused parts",
    "refused axes",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, *, axis: int, num_outputs: int) -> tuple[np.ndarray, ...]:
    """As a developer writes it: numpy's array_split into num_outputs parts (which, where the dimension does
    not divide evenly, makes the first parts one longer rather than the last one shorter)."""
    return tuple(p.copy() for p in np.array_split(X, num_outputs, axis=axis))


def rows(v: Values) -> list[tuple]:
    def counting(shape: tuple[int, ...]) -> np.ndarray:
        values = np.arange(math.prod(shape)).reshape(shape)
        return v(values % 2 == 1 if v.dtype == np.bool_ else values)

    def split(axis: int, parts: int) -> dict:
        return {"axis": axis, "num_outputs": parts}

    rows = [
        ("6 in 3 parts", ORDINARY, (counting((6,)),), split(0, 3)),
        ("(2, 6) in 2 along axis 1", ORDINARY, (counting((2, 6)),), split(1, 2)),
        ("(4, 2, 3) in 2 along axis 0", ORDINARY, (counting((4, 2, 3)),), split(0, 2)),
        ("one part", ORDINARY, (counting((3, 2)),), split(1, 1)),
        ("as many parts as elements", ORDINARY, (counting((4,)),), split(0, 4)),
        ("7 in 4 parts: the last shorter", "uneven parts", (counting((7,)),), split(0, 4)),
        ("(2, 8) in 3 along axis 1", "uneven parts", (counting((2, 8)),), split(1, 3)),
        ("axis −1", "negative axis", (counting((2, 6)),), split(-1, 3)),
        ("axis −2", "negative axis", (counting((4, 3)),), split(-2, 2)),
        ("4 in 3 parts: the last empty", "refused parts", (counting((4,)),), split(0, 3)),
        ("5 in 4 parts: the last emptied", "refused parts", (counting((5,)),), split(0, 4)),
        ("2 in 4 parts", "refused parts", (counting((2,)),), split(0, 4)),
        ("an empty axis", "refused parts", (v(np.zeros((0, 2))),), split(0, 2)),
        ("0 parts", "refused parts", (counting((6,)),), split(0, 0)),
        ("axis 1 of a vector", "refused axes", (counting((6,)),), split(1, 2)),
        ("axis −2 of a vector", "refused axes", (counting((6,)),), split(-2, 2)),
        ("0-d X", "refused axes", (v(1),), split(0, 1)),
        ("extremes", "extreme values", (v([v.lowest, v.highest, v.lowest]),), split(0, 2)),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([[0.0, -0.0], [-0.0, 0.0]]),), split(1, 2)),
        ("NaN of both signs", "NaN", (v([nan, -nan, 1.0]),), split(0, 2)),
        ("infinities", "infinity", (v([-inf, inf]),), split(0, 2)),
        ("subnormals", "subnormal", (v([-tiny, tiny, 0.0]),), split(0, 3)),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X in 4 parts (its size, a multiple of 4, gives 4 equal ones)."""
    return [X], {"axis": 0, "num_outputs": 4}


EXPLAINED = {
    "refused parts": Explanation(
        "SPLIT_C3",
        "The profile refuses a split whose last part would hold no element (⌈n / num_outputs⌉ too large "
        "for num_outputs − 1 parts to leave one), and num_outputs below 1; the ONNX reference computes "
        "empty parts, onnxruntime refuses, numpy's array_split spreads the elements differently.",
    ),
    "refused axes": Explanation(
        "SPLIT_C1",
        "The profile refuses an axis X does not have, and a 0-d X; numpy's array_split and the ONNX "
        "reference may compute something for them.",
    ),
    "uneven parts": Explanation(
        "SPLIT_S1",
        "Where n does not divide evenly, ONNX's text makes the last part shorter (⌈n / num_outputs⌉ for "
        "the others), as the profile, the ONNX reference and onnxruntime do; numpy's array_split makes the "
        "first parts one longer instead.",
    ),
}
_NO_NUM_OUTPUTS = (
    "The node leaves num_outputs out (Split-13's form, or Split-18's with the split input): the profile "
    "requires it (no default value)."
)
_NO_AXIS = "The node leaves axis out, which ONNX defaults to 0; the profile has no default value."
_SPLIT_INPUT = (
    "The node gives the split input (the size of each part), which the profile's Split does not take: its "
    "parts are set by num_outputs alone."
)
BACKEND_DIVERGENCES = {
    **{
        f"test_split_{name}": Divergence("GR4", _NO_NUM_OUTPUTS)
        for name in ("equal_parts_1d_opset13", "equal_parts_2d_opset13")
    },
    **{
        f"test_split_{name}": Divergence("GR4", _NO_AXIS)
        for name in (
            "equal_parts_default_axis_opset13",
            "equal_parts_default_axis_opset18",
            "1d_uneven_split_opset18",
        )
    },
    **{
        f"test_split_{name}": Divergence("GEN_C2", _SPLIT_INPUT)
        for name in (
            "variable_parts_1d_opset13",
            "variable_parts_2d_opset13",
            "variable_parts_default_axis_opset13",
            "zero_size_splits_opset13",
            "variable_parts_1d_opset18",
            "variable_parts_2d_opset18",
            "variable_parts_default_axis_opset18",
            "zero_size_splits_opset18",
        )
    },
}
BACKEND_RULES: dict = {}
SEMANTICS = "SPLIT_S2"
