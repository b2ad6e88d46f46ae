"""LeakyRelu's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "alpha inexact in X's type",
    "extreme values",
    "overflow",
    "signed zero",
    "zero alpha",
    "NaN",
    "NaN alpha",
    "infinity",
    "infinite alpha",
    "subnormal",
)


def numpy(X: np.ndarray, *, alpha: float) -> np.ndarray:
    return np.where(X >= 0, X, X * alpha)  # ONNX's formula; alpha takes X's type (NEP 50)


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    half = {"alpha": 0.5}
    return [
        ("values of both signs", ORDINARY, (v([-4, -1, 0, 1, 4]),), half),
        ("rank 2", ORDINARY, (v([[-2.5, 3], [6, -0.5]]),), {"alpha": 0.25}),
        ("alpha > 1", ORDINARY, (v([-3, 2]),), {"alpha": 2.0}),
        ("negative alpha", ORDINARY, (v([-3, 2]),), {"alpha": -0.5}),
        ("0-d X", "empty and 0-d", (v(-3),), half),
        ("empty X", "empty and 0-d", (v(np.zeros((0, 2))),), half),
        (
            "alpha = 0.01 (draft, example 1)",
            "alpha inexact in X's type",
            (v([6, -9.5, 35]),),
            {"alpha": 0.01},
        ),
        ("alpha = 0.1", "alpha inexact in X's type", (v([-1, -3, -7, 5]),), {"alpha": 0.1}),
        ("extremes", "extreme values", (v([v.lowest, v.highest]),), half),
        ("the product overflows", "overflow", (v([v.lowest, -1]),), {"alpha": 2.0}),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),), half),
        ("−0, negative alpha", "signed zero", (v([-0.0, 0.0]),), {"alpha": -0.5}),
        ("alpha = +0", "zero alpha", (v([-1, 1]),), {"alpha": 0.0}),
        ("alpha = −0", "zero alpha", (v([-1, 1]),), {"alpha": -0.0}),
        ("alpha = 0, X = −∞", "zero alpha", (v([-inf]),), {"alpha": 0.0}),
        ("NaN", "NaN", (v([nan, -nan]),), half),
        (
            "NaN alpha (draft, example 3)",
            "NaN alpha",
            (v([inf, nan, -inf, -0.0, 0.0, 1, -1]),),
            {"alpha": nan},
        ),
        ("infinities", "infinity", (v([-inf, inf]),), half),
        (
            "alpha = −∞ (draft, example 4)",
            "infinite alpha",
            (v([inf, nan, -inf, -0.0, 0.0, 1, -1]),),
            {"alpha": -inf},
        ),
        ("alpha = +∞", "infinite alpha", (v([-1, 2]),), {"alpha": inf}),
        ("subnormals", "subnormal", (v([-tiny, tiny, -2 * tiny]),), half),
    ]


_KEPT = (
    "The spec keeps X[i] wherever X[i] < 0 is false, whatever α; an engine computing x·(1 or α) through "
    "arithmetic on the comparison's result (the ONNX reference: 1 − (1 − 1)·α, 0 − (0 − 1)·α) gets {0} for "
    "every element, the ones it should keep included."
)
EXPLAINED = {
    "alpha inexact in X's type": Explanation(
        "LEAKYRELU_S2",
        "The spec multiplies by the float32 ONNX stores for alpha and rounds the exact product once to X's "
        "type; an engine that first converts alpha to X's type (float16, or float64 from the decimal) gets "
        "another coefficient, and another last bit.",
    ),
    "signed zero": Explanation(
        "LEAKYRELU_S1",
        "The spec keeps ±0 as they are (X[i] < 0 is false for both); an engine that multiplies a zero by a "
        "negative α returns the other zero.",
    ),
    "zero alpha": Explanation(
        "LEAKYRELU_S3",
        "The spec's α′·X[i] is IEEE 754's product: (+0)·(−1) = −0 and (−0)·(−1) = +0. An engine that adds "
        "+0 to the product (max(x, 0) + α·min(x, 0)) returns +0 for −0, and the ONNX reference's "
        "0 − (0 − 1)·α loses the sign of a zero α.",
    ),
    "NaN alpha": Explanation("LEAKYRELU_S1", _KEPT.format("NaN from 0·NaN")),
    "infinite alpha": Explanation("LEAKYRELU_S1", _KEPT.format("NaN from 0·∞")),
    "subnormal": Explanation(
        "LEAKYRELU_S3",
        "A product that underflows is a zero of its sign in the spec, −0 for a negative X[i]; an engine "
        "that adds +0 to the product (max(x, 0) + α·min(x, 0)) returns +0.",
    ),
}
BACKEND_DIVERGENCES = {
    "test_leakyrelu_default": Divergence(
        "GR4",
        "The model gives no alpha, for which ONNX takes 0.01; the profile has no default values, so the "
        "spec refuses the model.",
    ),
}
BACKEND_RULES: dict = {}
SEMANTICS = "LEAKYRELU_S1"
