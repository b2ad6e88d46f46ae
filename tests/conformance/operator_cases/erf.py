"""Erf's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Accuracy, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "rounding",
    "saturation",
    "extreme values",
    "signed zero",
    "infinity",
    "NaN",
    "subnormal",
)


def numpy(X: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy has no error function; scipy's (scipy.special.erf, float64 for a
    16-bit input, float32 for float32), converted back to X's type."""
    from scipy.special import erf  # the tests' dependency, not the reference's

    return np.asarray(erf(X)).astype(X.dtype)


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        ("erf(0) = 0", ORDINARY, (v([0.0, 0.0]),)),
        ("rank 2 of zeros", ORDINARY, (v([[0.0], [0.0]]),)),
        ("0-d X", "empty and 0-d", (v(0.0),)),
        ("empty X", "empty and 0-d", (v(np.zeros((2, 0))),)),
        ("ones and twos", "rounding", (v([0.0, 1.0, -1.0, 2.0, -2.0]),)),
        ("halves and tenths", "rounding", (v([0.5, -0.5, 0.1, 3.0, -0.25]),)),
        ("±1 from ±6 on", "saturation", (v([6.0, -6.0, 100.0]),)),
        ("the largest finite values", "saturation", (v([v.highest, v.lowest]),)),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),)),
        ("infinities", "infinity", (v([inf, -inf]),)),
        ("NaN", "NaN", (v([nan, -nan]),)),
        ("infinities and NaN", "NaN", (v([inf, nan, -inf]),)),
        ("subnormals", "subnormal", (v([tiny, -tiny, 7 * tiny]),)),
    ]


EXPLAINED: dict = {
    "rounding": Explanation(
        "ERF_S1",
        "The spec's error function is correctly rounded: erf x rounded once to the type. scipy's erf (what "
        "a numpy user calls) computes in float64 or float32 and rounds again; the ONNX reference evaluates "
        "math.erf, rounds it to float32, then to X's type; onnxruntime's float32 kernel is a fast "
        "approximation: erf(0.1) or erf(−0.25) may come out one unit in the last place off. The page "
        "measures each engine's error (ERF_P2 bounds what a conforming engine may do).",
    ),
    "extreme values": Explanation(
        "ERF_S1",
        "The special-values table runs erf(±1) and erf(2) on the engines: correctly rounded in the spec, "
        "within a unit in the last place in the engines (ERF_P2).",
    ),
    "subnormal": Explanation(
        "ERF_S1",
        "erf x of a subnormal x is 2x/√π rounded (1.128·x: erf of seven times the smallest subnormal is "
        "eight times it). The ONNX reference rounds math.erf to float32 first, where a float64 subnormal "
        "result is 0; onnxruntime's float32 kernel flushes subnormals to zero and returns ±0 (ERF_P2 allows "
        "one unit).",
    ),
}
BACKEND_DIVERGENCES: dict = {}  # ONNX's test_erf: the spec gives its expected output bit for bit
BACKEND_RULES: dict = {}
SEMANTICS = "ERF_S1"
ACCURACY = Accuracy(mpfr="erf", rule="ERF_P2", ulps=1, float32_range=(-4.5, 4.5))
"""The engines' accuracy, measured by tests/conformance/test_engine_accuracy.py and shown on the page."""

BENCH_LIMIT = 12.0
"""The bench's limit, a guard against regression, against scipy.special.erf (numpy has none): the float64
evaluation is Python's math.erf, one call per element, which alone costs several times scipy's float32
loop. Measured 6.0x on 10^7 float32 elements (156x onnxruntime's kernel) on a loaded machine."""
