"""BatchNormalization's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty",
    "rounding",
    "cancellation",
    "epsilon",
    "rank 1",
    "parameter shapes",
    "negative variance",
    "overflow to infinity",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

PLAIN = {"epsilon": 1e-5, "momentum": 0.9, "training_mode": 0}
"""ONNX's defaults, which the profile requires to be stated (GR4)."""
EXACT = {**PLAIN, "epsilon": 0.25}
"""With var = 0.75 (or 3.75, 15.75), var + ε is a square: 1 (4, 16), and every result is exact."""


def numpy(
    X: np.ndarray,
    scale: np.ndarray,
    B: np.ndarray,
    input_mean: np.ndarray,
    input_var: np.ndarray,
    *,
    epsilon: float,
    momentum: float,
    training_mode: int,
) -> np.ndarray:
    """ONNX's formula as a developer writes it, in X's type, ε in that type too."""
    along = (-1,) + (1,) * (X.ndim - 2)
    s, b, m, v = (np.reshape(p, along) for p in (scale, B, input_mean, input_var))
    return s * (X - m) / np.sqrt(v + X.dtype.type(epsilon)) + b


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """X as (N, 64, 16, 16) channels of the bench's standard normal values; parameters from its head."""
    size = X.size // (64 * 256) * (64 * 256)
    image = X[:size].reshape(-1, 64, 16, 16).copy()
    s, b, m = (X[k * 64 : (k + 1) * 64].copy() for k in range(3))
    return [image, s, b, m, np.abs(X[192:256]).copy()], dict(PLAIN)


SAMPLE_FROM_CASES = True
"""The shared sample call (tensors of ones of one shape, int attributes 1) does not fit: parameters are of
shape (C,) and training_mode = 1 is refused; the first case is the sample."""
BENCH_LIMIT = 25.0
"""numpy's formula rounds five times in float32; the reference broadcasts the four parameters to X's shape,
evaluates the formula in float64, decides each element's rounding and sends the undecided and cancelling
ones to the exact evaluation. Measured 16x numpy's float32 formula on 2²⁰ float32 elements, on a machine
loaded by a mutation run."""


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, float(v.subnormal)
    big, lowest = float(v.highest), float(v.lowest)
    normal = float(ml_dtypes.finfo(v.dtype).smallest_normal)
    one, zero = v([1.0]), v([0.0])
    return [
        (
            "draft, real example 2 (var + ε = 1 here)",
            ORDINARY,
            (
                v([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]),
                v([2.0, 1.0]),
                v([0.5, -0.5]),
                v([2.0, 6.0]),
                v([0.75, 0.75]),
            ),
            EXACT,
        ),
        (
            "two channels, rank 4",
            ORDINARY,
            (
                v(np.arange(16).reshape(2, 2, 2, 2)),
                v([1.0, -2.0]),
                v([0.0, 1.0]),
                v([4.0, 8.0]),
                v([3.75, 15.75]),
            ),
            EXACT,
        ),
        ("empty batch", "empty", (v(np.zeros((0, 2))), v([1, 1]), v([0, 0]), v([0, 0]), v([1, 1])), PLAIN),
        (
            "draft, real example 1",
            "rounding",
            (v([[2.0], [4.0], [6.0]]), one, zero, v([4.0]), v([2.0])),
            PLAIN,
        ),
        (
            "draft, float example 2",
            "rounding",
            (
                v([[3.0, 4.5], [16.0, 1.0], [25.5, 24.25]]),
                v([1.0, 1.0]),
                v([0.0, 0.0]),
                v([3.0, 4.5]),
                v([4.0, 2.25]),
            ),
            PLAIN,
        ),
        (
            "x − mean cancels B",
            "cancellation",
            (v([[3.0], [3.5]]), one, v([-1.5]), v([1.5]), v([0.75])),
            EXACT,
        ),
        (
            "a tenth against B",
            "cancellation",
            (v([[0.1], [0.3]]), v([3.0]), v([-0.3]), zero, zero),
            {**PLAIN, "epsilon": 1.0},
        ),
        ("ε dominates: var = 0", "epsilon", (v([[1.0], [-2.0]]), one, zero, zero, zero), PLAIN),
        ("X of rank 1", "rank 1", (v([1.0, 2.0, 3.0]), one, zero, zero, one), PLAIN),
        (
            "scale of size 2 for C = 1",
            "parameter shapes",
            (v([[1.0]]), v([1.0, 1.0]), zero, zero, one),
            PLAIN,
        ),
        ("a negative variance", "negative variance", (v([[1.0]]), one, zero, zero, v([-1.0])), PLAIN),
        ("max − lowest", "overflow to infinity", (v([[big]]), one, zero, v([lowest]), v([0.75])), EXACT),
        ("max·2 − max", "overflow to infinity", (v([[big]]), v([2.0]), v([lowest]), zero, v([0.75])), EXACT),
        ("largest scale and X", "extreme values", (v([[big], [lowest]]), one, zero, zero, v([0.75])), EXACT),
        ("−0 all round", "signed zero", (v([[-0.0], [0.0]]), one, v([-0.0]), zero, one), PLAIN),
        ("x = mean, scale < 0", "signed zero", (v([[2.0]]), v([-1.0]), v([-0.0]), v([2.0]), one), PLAIN),
        ("NaN in X", "NaN", (v([[nan], [1.0]]), one, zero, zero, v([0.75])), EXACT),
        ("NaN variance", "NaN", (v([[1.0]]), one, zero, zero, v([nan])), PLAIN),
        ("∞ − ∞", "NaN", (v([[inf]]), one, zero, v([inf]), one), PLAIN),
        ("infinite X", "infinity", (v([[inf], [-inf]]), v([2.0]), zero, zero, one), PLAIN),
        ("infinite variance", "infinity", (v([[3.0]]), one, v([1.5]), zero, v([inf])), PLAIN),
        ("subnormal results", "subnormal", (v([[tiny], [3 * tiny]]), one, zero, zero, v([3.75])), EXACT),
        ("normal over √4", "subnormal", (v([[normal]]), one, zero, zero, v([3.75])), EXACT),
    ]


EXPLAINED = {
    "rounding": Explanation(
        "BATCHNORMALIZATION_S1",
        "The spec rounds the exact value once; numpy's formula rounds at each of its five steps, the ONNX "
        "reference likewise, and onnxruntime folds the channel's parameters into x·a + c first: results a "
        "unit or more in the last place away, within BATCHNORMALIZATION_P2's bound.",
    ),
    "cancellation": Explanation(
        "BATCHNORMALIZATION_S1",
        "Where s·(x − m)/√(v + ε) and B nearly cancel, the engines' rounding errors, relative to the terms, "
        "are many units in the last place of the small result; BATCHNORMALIZATION_P2 bounds them by the "
        "terms' magnitudes, the spec gives the exact value rounded once.",
    ),
    "epsilon": Explanation(
        "BATCHNORMALIZATION_S2",
        "ε is the float32 ONNX stores for 1e-5; numpy's formula takes it in X's type (a float16 subnormal, "
        "or float64's 1e-5), a different ε, and with var = 0 the result is 1/√ε.",
    ),
    "rank 1": Explanation(
        "BATCHNORMALIZATION_C1",
        "The spec refuses an X of rank 1; onnxruntime reads it as one channel, the ONNX reference as the "
        "channel axis itself, and numpy's formula broadcasts.",
    ),
    "parameter shapes": Explanation(
        "BATCHNORMALIZATION_C2",
        "The spec refuses a parameter whose size is not C; numpy and the ONNX reference broadcast it.",
    ),
    "negative variance": Explanation(
        "BATCHNORMALIZATION_E1",
        "The spec refuses a negative variance; the engines take the square root of a negative number and "
        "give NaN.",
    ),
    "overflow to infinity": Explanation(
        "BATCHNORMALIZATION_S1",
        "The exact value decides: max − lowest overflows in the type, where the exact value over √1 is still "
        "2·max (∞ too), and max·2 − max is max exactly where an engine gives ∞ (BATCHNORMALIZATION_P2 admits "
        "any value when its terms' magnitudes overflow).",
    ),
    "signed zero": Explanation(
        "BATCHNORMALIZATION_S5",
        "The spec's zero takes the signs of IEEE 754's steps; an engine that computes x·a + (B − m·a) adds "
        "+0 and −0 in another order, a zero of the other sign, which BATCHNORMALIZATION_P2 admits.",
    ),
    "infinity": Explanation(
        "BATCHNORMALIZATION_S4",
        "The spec's special values are IEEE 754's steps over the extended reals, with no overflow between "
        "them: 2·(max − lowest) + (−∞) is −∞ where an engine computing in the type overflows to +∞ first and "
        "gives +∞ − ∞ = NaN; and a finite x over an infinite variance gives the quotient's signed zero plus "
        "B, −0 + (−0) = −0, where a folded x·0 + (B − m·0) gives +0.",
    ),
    "subnormal": Explanation(
        "BATCHNORMALIZATION_S1",
        "A tie below the smallest normal value goes to the even neighbour in the spec; an engine rounding "
        "its steps may land on the other one, within BATCHNORMALIZATION_P2's 8η.",
    ),
}
_DEFAULTS = (
    "ONNX's case leaves epsilon or momentum at their defaults; the profile requires every attribute (GR4)."
)
_TRAINING = "training_mode = 1: the profile specifies inference only (BATCHNORMALIZATION_C6)."
BACKEND_DIVERGENCES = {
    "test_batchnorm_epsilon": Divergence("GR4", _DEFAULTS),
    "test_batchnorm_example": Divergence("GR4", _DEFAULTS),
    "test_batchnorm_epsilon_training_mode": Divergence("GR4", f"{_DEFAULTS} {_TRAINING}"),
    "test_batchnorm_example_training_mode": Divergence("GR4", f"{_DEFAULTS} {_TRAINING}"),
}
BACKEND_RULES: dict = {}
SEMANTICS = "BATCHNORMALIZATION_S1"
