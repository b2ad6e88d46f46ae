"""GlobalAveragePool's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "no spatial axis",
    "empty and 0-d",
    "extreme values",
    "cancellation",
    "rounding",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


BENCH_LIMIT = 60.0
"""ReduceMean's guard (its exact mean is this operator's): two float64 sums per channel, the rounding
decided channel by channel, the exact sums of the few channels left undecided."""


def numpy(X: np.ndarray) -> np.ndarray:
    """As a developer writes it: numpy's mean over every axis after the first two, kept, in X's type."""
    return np.asarray(np.mean(X, axis=tuple(range(2, X.ndim)), keepdims=True, dtype=X.dtype))


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    eps = float(ml_dtypes.finfo(v.dtype).eps)
    big = float(v.highest) / 4

    def one(values: list) -> np.ndarray:  # one batch, one channel: the values along one spatial axis
        return v([[values]])

    return [
        ("two batches, three channels, 2 × 2", ORDINARY, (v(np.arange(24).reshape(2, 3, 2, 2)),)),
        ("one spatial axis", ORDINARY, (v([[[1, 9, 2], [4, 2, 6]]]),)),
        ("three spatial axes", ORDINARY, (v(np.arange(16).reshape(1, 2, 2, 2, 2)),)),
        ("a 1 × 1 image: Y is X", ORDINARY, (v([[[[3]], [[5]]]]),)),
        ("rank 2: no spatial axis", "no spatial axis", (v([[1, 2], [3, 4]]),)),
        ("rank 1", "no spatial axis", (v([1, 2]),)),
        ("an empty spatial axis", "empty and 0-d", (v(np.zeros((1, 2, 0))),)),
        ("no batch: no mean at all", "empty and 0-d", (v(np.zeros((0, 2, 3))),)),
        ("the highest twice", "extreme values", (one([v.highest, v.highest]),)),
        ("highest and lowest", "extreme values", (one([v.highest, v.lowest]),)),
        ("[big, 1, −big]", "cancellation", (one([big, 1.0, -big]),)),
        ("[1, 2, 4]: 7/3", "rounding", (one([1.0, 2.0, 4.0]),)),
        ("(1 + eps/2 + eps/4)/3", "rounding", (one([1.0, eps / 2, eps / 4]),)),
        ("−0 and −0", "signed zero", (one([-0.0, -0.0]),)),
        ("−0 and +0", "signed zero", (one([-0.0, 0.0]),)),
        ("a NaN", "NaN", (v([[[1.0, nan], [2.0, 3.0]]]),)),
        ("+∞ and −∞", "NaN", (one([inf, -inf]),)),
        ("+∞ and numbers", "infinity", (one([inf, 1.0, -2.0]),)),
        ("tiny/2", "subnormal", (one([tiny, 0.0]),)),
        ("−tiny/4", "subnormal", (v([[[[-tiny, 0.0], [0.0, 0.0]]]]),)),
        ("3·tiny/2", "subnormal", (one([3 * tiny, 0.0]),)),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: X as channels of 1,000 elements (25 × 40 images), each averaged."""
    return [X.reshape(-1, 10, 25, 40)], {}


EXPLAINED = {
    "no spatial axis": Explanation(
        "GLOBALAVERAGEPOOL_C1",
        "ONNX writes X as N × C × D1 × … × Dn; the profile refuses an X of rank below 3, as onnxruntime does "
        "('Input dimension cannot be less than 3'). The ONNX reference averages over no axis and returns X.",
    ),
    "empty and 0-d": Explanation(
        "GLOBALAVERAGEPOOL_C2",
        "A mean of no element has no value: the profile refuses an empty spatial axis, as onnxruntime does; "
        "the ONNX reference gives NaN. With N or C 0 and no empty spatial axis, Y is empty; the ONNX "
        "reference then fails (numpy's average divides by its zero weights).",
    ),
    "extreme values": Explanation(
        "GLOBALAVERAGEPOOL_S2",
        "The mean of [max, max] is max: the exact sum is never rounded on its own. numpy's mean in the "
        "type and every engine summing in float32 or float64 give ∞ for float32, float64 and bfloat16; "
        "for float16 the ONNX reference and onnxruntime sum in float32 and give max (GLOBALAVERAGEPOOL_P1 "
        "does not bind a sum beyond the type's range).",
    ),
    "cancellation": Explanation(
        "GLOBALAVERAGEPOOL_S2",
        "The exact mean of [big, 1, −big] is 1/3; an engine summing in the type loses the 1 and gives 0. "
        "GLOBALAVERAGEPOOL_P1 bounds how far it may be.",
    ),
    "rounding": Explanation(
        "GLOBALAVERAGEPOOL_S2",
        "The exact mean is rounded once; an engine rounds its partial sums, then its quotient (or "
        "multiplies by a rounded 1/n): a unit in the last place apart at most here, within "
        "GLOBALAVERAGEPOOL_P1's bound.",
    ),
    "signed zero": Explanation(
        "GLOBALAVERAGEPOOL_S2",
        "The mean of −0 and −0 is −0 (their sum is −0); numpy, the ONNX reference and onnxruntime start "
        "their sum from +0 and give +0.",
    ),
    "subnormal": Explanation(
        "GLOBALAVERAGEPOOL_S2",
        "A mean below the smallest subnormal rounds once, keeping its sign (−tiny/4 is −0); an engine "
        "multiplying by 1/n or rounding twice may give another neighbour.",
    ),
}


def within_bound(X: np.ndarray, Y: np.ndarray) -> bool:
    """Whether every element of Y is within GLOBALAVERAGEPOOL_P1's γₙ₊₁·Σ|x|/n + η of the exact mean of its
    channel, in exact rationals."""
    N, C = X.shape[:2]
    n = math.prod(X.shape[2:])
    info = ml_dtypes.finfo(X.dtype)
    u = Fraction(1, 2 ** (info.nmant + 1))
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    eta = Fraction(float(info.smallest_subnormal))
    for terms, y in zip(X.reshape(N * C, n).tolist(), np.asarray(Y).reshape(-1).tolist(), strict=True):
        exact = sum(map(Fraction, terms), Fraction(0)) / n
        if abs(Fraction(y) - exact) > gamma * sum(abs(Fraction(t)) for t in terms) / n + eta:
            return False
    return True


def _backend_within(inputs: tuple, expected: tuple) -> bool:
    return within_bound(inputs[0], expected[0])


BACKEND_DIVERGENCES = {
    "test_globalaveragepool": Divergence(
        "GLOBALAVERAGEPOOL_P1",
        "ONNX's expected output is numpy's float32 mean of 25 random values, summed pairwise in float32 and "
        "divided in float32: it differs from the exact mean rounded once in a last bit, within "
        "GLOBALAVERAGEPOOL_P1's bound.",
        within=_backend_within,
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "GLOBALAVERAGEPOOL_S2"
SAMPLE_FROM_CASES = True
"""The shared tests' sample call (a tensor of shape (2, 3)) has no spatial axis (GLOBALAVERAGEPOOL_C1)."""
