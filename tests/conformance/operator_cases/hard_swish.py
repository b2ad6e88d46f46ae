"""HardSwish's conformance cases, explained divergences and ONNX backend expectations (ONNX's outputs judged
by the accuracy bound an engine must meet, HARDSWISH_P2)."""

from __future__ import annotations

import math

import numpy as np

from sonnx_spec.ops.hard_swish import meets_accuracy

from . import ORDINARY, Divergence, Explanation, Inputs, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "rounding",
    "extreme values",
    "signed zero",
    "infinity",
    "NaN",
)


def numpy(X: np.ndarray) -> np.ndarray:
    """As a developer writes it: x·min(max(x + 3, 0), 6)/6 in X's type (np.clip would turn bfloat16 into
    float32)."""
    return X * np.minimum(np.maximum(X + 3, 0), 6) / 6


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        ("the linear pieces", ORDINARY, (v([-1000.0, -4.0, -3.0, 0.0, 3.0, 4.0, 8.0]),)),
        ("rank 2", ORDINARY, (v([[-4.0, 3.5], [3.0, 8.0]]),)),
        ("0-d X", "empty and 0-d", (v(4.0),)),
        ("exact values", "rounding", (v([-1.5, 0.75, 1.5, -0.75]),)),
        ("empty X", "empty and 0-d", (v(np.zeros((2, 0))),)),
        ("thirds", "rounding", (v([-1.0, 1.0, 2.0, -2.0]),)),
        ("ONNX's backend inputs", "rounding", (v([1.7640524, 0.4001572, 0.978738, 2.2408931, -0.9772779]),)),
        ("just above −3", "rounding", (v([-2.9990234375, -2.875, -2.5]),)),
        ("smallest subnormals", "rounding", (v([tiny, -tiny, 3 * tiny, -3 * tiny]),)),
        ("−3 and below", "signed zero", (v([-3.0, -3.5, -1000.0]),)),
        ("highest and lowest", "extreme values", (v([v.highest, v.lowest]),)),
        ("large values", "extreme values", (v([1000.0, 12000.0, 30000.0]),)),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),)),
        ("infinities", "infinity", (v([inf, -inf]),)),
        ("NaN", "NaN", (v([nan, -nan]),)),
    ]


EXPLAINED = {
    "rounding": Explanation(
        "HARDSWISH_S1",
        "The spec rounds the exact value once. numpy rounds x + 3, the product and the quotient, each in "
        "X's type; the ONNX reference and onnxruntime compute x·(x·α + β) with α the float32 nearest to "
        "1/6, and round three times: results a unit in the last place apart (in float64 the ONNX "
        "reference keeps α in float32, ONNX's type of a float attribute, 2⁻²⁶ away from 1/6: hundreds of "
        "millions of units, beyond HARDSWISH_P2, even where the result is exact, 1.5 giving 1.125000011). "
        "Near −3, where the value vanishes, x·α + β cancels and the error of α and of x·α is large "
        "against the result (up to hundreds of thousands of its units in the last place, within "
        "HARDSWISH_P2's floor of one unit of x). For the smallest subnormal s the exact value s/2 + s²/6 "
        "is just above the midpoint s/2: the spec rounds it up to s, an engine that computes s·0.5 rounds "
        "the midpoint to even, 0.",
    ),
    "extreme values": Explanation(
        "HARDSWISH_P1",
        "The spec's result is X[i] itself from 3 up, and never exceeds |X[i]|. numpy's x·min(max(x + 3, "
        "0), 6) rounds x·6 in X's type, so x·6/6 need not be x (1000 gives 1004 in bfloat16), and overflows "
        "in float16 above 65504/6 (10922), before the division brings it back: +∞ for a finite value.",
    ),
    "infinity": Explanation(
        "HARDSWISH_S3",
        "The spec gives −∞ the value of every x ≤ −3, −0, the function's limit. Evaluated in IEEE "
        "arithmetic, ONNX's formula multiplies −∞ by 0: NaN in numpy, the ONNX reference and onnxruntime.",
    ),
}


def _backend_within(inputs: Inputs, expected: tuple[np.ndarray, ...]) -> bool:
    (X,) = inputs
    return bool(meets_accuracy(X, expected[0]).all())


_FLOAT32_FORMULA = (
    "ONNX's expected outputs are numpy's x·max(0, min(1, x·α + β)) in float32, α = float32(1/6), rounded "
    "three times; the spec rounds the exact value once (HARDSWISH_S1): 19 of the 60 elements differ by one "
    "unit in the last place, within the bound an engine must meet."
)
BACKEND_DIVERGENCES = {"test_hardswish": Divergence("HARDSWISH_P2", _FLOAT32_FORMULA, within=_backend_within)}
BACKEND_RULES: dict = {}
SEMANTICS = "HARDSWISH_S1"

BENCH_LIMIT = 4.0
"""The bench's limit: rounded once from an evaluation with a proven bound (measured 2.7x to 3.0x numpy's
formula in float32, which rounds three times and overflows in float16), with a margin for a busy machine."""
