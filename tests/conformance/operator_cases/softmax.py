"""Softmax's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative axis",
    "empty and 0-d",
    "rounding",
    "underflow",
    "extreme values",
    "signed zero",
    "infinity",
    "NaN",
    "subnormal",
)


def numpy(X: np.ndarray, *, axis: int) -> np.ndarray:
    """As a developer writes it: shifted by the slice's maximum, in X's type."""
    shifted = np.exp(X - X.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    grid = v([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [
        ("equal elements: 1/2 each", ORDINARY, (v([[0.0, 0.0], [3.0, 3.0]]),), {"axis": 1}),
        ("equal elements: 1/4 each", ORDINARY, (v([2.0, 2.0, 2.0, 2.0]),), {"axis": 0}),
        ("one element per slice: 1", ORDINARY, (v([[1.0], [-5.0]]),), {"axis": 1}),
        ("axis −1", "negative axis", (v([[1.0, 1.0], [-2.0, -2.0]]),), {"axis": -1}),
        ("axis −2", "negative axis", (v([[1.0, -2.0], [1.0, -2.0]]),), {"axis": -2}),
        ("an empty axis", "empty and 0-d", (v(np.zeros((2, 0))),), {"axis": 1}),
        ("empty elsewhere", "empty and 0-d", (v(np.zeros((0, 3))),), {"axis": 1}),
        ("a 0-d X", "empty and 0-d", (v(1.0),), {"axis": 0}),
        ("draft, example 1", "rounding", (v([9.5, 35.75]),), {"axis": 0}),
        ("draft, example 2a", "rounding", (grid,), {"axis": 0}),
        ("draft, example 2b", "rounding", (grid,), {"axis": 1}),
        ("thirds", "rounding", (v([1.0, 1.0, 1.0]),), {"axis": 0}),
        (
            "rank 3, last axis",
            "rounding",
            (v([[[1, 2, 3], [4, 5, 6]], [[1, 2, 4], [0, 0, 8]]]),),
            {"axis": 2},
        ),
        ("a result of e^−20", "underflow", (v([0.0, -20.0]),), {"axis": 0}),
        ("results below every subnormal", "underflow", (v([0.0, -200.0]),), {"axis": 0}),
        ("the largest and lowest values", "extreme values", (v([v.highest, v.lowest, 0.0]),), {"axis": 0}),
        ("the largest value twice", "extreme values", (v([v.highest, v.highest]),), {"axis": 0}),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),), {"axis": 0}),
        ("+∞ in a slice", "infinity", (v([[1.0, 1.0, 1.0, 1.0], [4.0, 5.0, inf, 0.0]]),), {"axis": 1}),
        ("+∞ twice", "infinity", (v([inf, inf, 0.0]),), {"axis": 0}),
        ("−∞ among numbers", "infinity", (v([[1.0, 1.0, -inf], [4.0, -inf, -inf]]),), {"axis": 1}),
        ("−∞ only", "infinity", (v([-inf, -inf]),), {"axis": 0}),
        ("NaN in a slice", "NaN", (v([[1.0, 2.0, 3.0], [1.0, 2.0, nan]]),), {"axis": 0}),
        ("NaN and +∞", "NaN", (v([nan, inf, -inf]),), {"axis": 0}),
        ("subnormals", "subnormal", (v([tiny, -tiny, 0.0]),), {"axis": 0}),
    ]


EXPLAINED = {
    "rounding": Explanation(
        "SOFTMAX_S1",
        "The spec's softmax is the exact quotient rounded once. numpy's exp(x − max)/sum and the ONNX "
        "reference evaluate it in X's type, rounding x − max, each exponential, the sum and the quotient; "
        "onnxruntime computes float16 in float32 but float32 in float32: results a few units in the last "
        "place off, within SOFTMAX_P2's bound (the page measures them).",
    ),
    "underflow": Explanation(
        "SOFTMAX_S1",
        "A small result e^(x − M)/S inherits the rounding error of x − M multiplied by |x − M|: engines "
        "that compute in X's type are tens of units in the last place off there (within SOFTMAX_P2's "
        "absolute floor).",
    ),
    "extreme values": Explanation(
        "SOFTMAX_S1",
        "With the largest and lowest values of the type in one slice, x − M overflows X's type to −∞ in "
        "numpy and the ONNX reference (e^−∞ = 0, the right result by luck); the spec computes x − M exactly.",
    ),
    "empty and 0-d": Explanation(
        "SOFTMAX_C1",
        "A 0-d X has no axis: ONNX's range [−r, r − 1] is empty and the profile refuses it, where the ONNX "
        "reference returns 1 and onnxruntime refuses float32 and float64 but returns 1 in float16. An empty "
        "axis gives an empty Y everywhere; numpy's max fails on it.",
    ),
}
_NO_AXIS = (
    "The node leaves out axis, which ONNX defaults to −1; the profile has no default value (GR4) and "
    "refuses a node without it."
)
_ROUNDED_OTHERWISE = (
    "ONNX's expected output is numpy's exp(x − max)/sum in float32, rounded four times; the spec's output "
    "is the exact quotient rounded once: some elements differ by a few units in the last place (SOFTMAX_P2)."
)
BACKEND_DIVERGENCES = {
    "test_softmax_default_axis": Divergence("GR4", _NO_AXIS),
    "test_softmax_example": Divergence("GR4", _NO_AXIS),
    "test_softmax_large_number": Divergence("GR4", _NO_AXIS),
    "test_softmax_axis_0": Divergence("SOFTMAX_P2", _ROUNDED_OTHERWISE, ulps=4),
    "test_softmax_axis_1": Divergence("SOFTMAX_P2", _ROUNDED_OTHERWISE, ulps=4),
    "test_softmax_axis_2": Divergence("SOFTMAX_P2", _ROUNDED_OTHERWISE, ulps=4),
    "test_softmax_negative_axis": Divergence("SOFTMAX_P2", _ROUNDED_OTHERWISE, ulps=4),
}
BACKEND_RULES: dict = {}
SEMANTICS = "SOFTMAX_S1"


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """Rows of 10 elements, normalised along the last axis: a classifier of 10 classes over 10^6 samples."""
    return [X.reshape(-1, 10)], {"axis": -1}


BENCH_LIMIT = 6.0
"""A guard, not a target: the reference evaluates in float64 (a conversion, exp, a sum and a division of
float64) and decides each rounding from two more roundings of the interval's ends, where numpy's formula
runs in float32 and decides nothing: measured 3.2x numpy on rows of 10. Longer rows cost more (an undecided
element costs an MPFR evaluation of its whole row): 50x on rows of 100, 400x on rows of 1000; the page
states it."""
