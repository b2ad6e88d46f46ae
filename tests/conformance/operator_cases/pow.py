"""Pow's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np
from elementwise_cases import SHAPE_TOPICS, broadcast_refused, shape_rows

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    *SHAPE_TOPICS,
    "negative exponent",
    "integer overflow",
    "extreme values",
    "rounding",
    "midpoint",
    "overflow",
    "underflow",
    "signed zero",
    "infinity",
    "NaN",
    "subnormal",
)


def numpy(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """As a developer writes it: ``X ** Y`` (numpy computes float16 in float32 and rounds, and has no
    bfloat16 loop of its own: through float32 there too)."""
    if X.dtype.name == "bfloat16":
        return np.power(X.astype(np.float32), Y.astype(np.float32)).astype(X.dtype)
    return np.power(X, Y)


def rows(v: Values) -> list[tuple]:
    rows = [
        ("small powers", ORDINARY, (v([2, 3, 5, 1]), v([3, 2, 0, 7]))),
        ("rank 2 (draft, int example 2)", ORDINARY, (v([[5, 2], [3, 4]]), v([[0, 3], [2, 1]]))),
        *shape_rows(v, [2, 3, 4], [2, 1, 3]),
        ("negative bases", ORDINARY, (v([-2, -3, -1, -1]), v([3, 2, 7, 8]))),
        ("zero to the zero", "extreme values", (v([0, 0]), v([0, 1]))),
    ]
    if not v.is_float:
        return [
            *rows,
            ("a negative exponent", "negative exponent", (v([2, 1, 4]), v([1, -1, 2]))),
            (
                "past the highest",
                "integer overflow",
                (v([2, 3, v.highest]), v([8 * v.dtype.itemsize, 40, 2])),
            ),
            ("the lowest squared", "integer overflow", (v([v.lowest, v.lowest]), v([2, 1]))),
            (
                "minus one to the largest powers",
                "extreme values",
                (v([-1, -1]), v([v.highest, v.highest - 1])),
            ),
        ]
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    big = 1e4 if v.dtype.itemsize > 2 else 600.0
    return [
        *rows,
        ("draft, float example 1", "rounding", (v([9.0, 4.0, 16.0, 8.0, 2.0]), v([2, 2.5, 0.5, 1 / 3, 1.5]))),
        ("square roots and thirds", "rounding", (v([2.0, 3.0, 10.0, 0.1]), v([0.5, 1 / 3, -0.5, 0.7]))),
        (
            "draft, float example 2",
            "NaN",
            (v([0.0, 0.0, 5.0, -5.0, -25.0, -8.0]), v([0, 2, 0, 0, 0.6, 1 / 3])),
        ),
        ("draft, float example 5", "NaN", (v([-8.0, -8.0]), v([2.0, 2.00000024]))),
        ("63 squared, a midpoint in float16", "midpoint", (v([63.0, 4097.0]), v([2.0, 2.0]))),
        ("beyond the largest value", "overflow", (v([v.highest, 2.0, -2.0]), v([2.0, big, big + 1]))),
        ("below the smallest subnormal", "underflow", (v([2.0, -2.0, tiny]), v([-big, -big - 1, 2.0]))),
        ("zeros to odd and even powers", "signed zero", (v([-0.0, -0.0, 0.0, -0.0]), v([3, 2, -3, -3]))),
        (
            "draft, float example 3",
            "infinity",
            (v([-2, -2, -1, -1, 0, -0.0, 2, 0.5, 2]), v([0.5, 3, inf, -inf, -3, -3, -inf, inf, nan])),
        ),
        (
            "draft, float example 4",
            "infinity",
            (v([nan, 1, -1, -inf, -inf, inf, 0.5, 2, -0.0]), v([2, -inf, inf, 3, -2, -1, -inf, inf, 3])),
        ),
        ("one and zero exponents with NaN", "NaN", (v([nan, 1.0, nan]), v([0.0, nan, -0.0]))),
        ("subnormal bases", "subnormal", (v([tiny, -tiny, tiny]), v([1.0, 1.0, 0.5]))),
    ]


SHAPES_EXPLAINED, BROADCAST = broadcast_refused("Pow", "POW_C1")
EXPLAINED = {
    **SHAPES_EXPLAINED,
    "negative exponent": Explanation(
        "POW_E1",
        "An integer raised to a negative power is not an integer: the spec refuses it, as the draft's C3 "
        "does, and so do numpy and the ONNX reference ('Integers to negative integer powers are not "
        "allowed'); onnxruntime computes in double and truncates: 2^-1 is 0, 1^-1 is 1.",
    ),
    "integer overflow": Explanation(
        "POW_S2",
        "The spec wraps the exact power modulo 2^n, as Mul wraps a product (numpy and the ONNX reference do "
        "the same); onnxruntime computes the power in double and converts it back, which gives the lowest "
        "value (x86's 'integer indefinite') for every power beyond the type, and loses the low bits of "
        "int64 powers above 2^53.",
    ),
    "rounding": Explanation(
        "POW_S1",
        "The spec's power is correctly rounded: x^y rounded once to the type. numpy's float32 power (which "
        "the ONNX reference calls) and onnxruntime's kernel are the C library's powf, within a unit in the "
        "last place but not always the nearest value. The page measures each engine's error (POW_P2 bounds "
        "what a conforming engine may do).",
    ),
    "midpoint": Explanation(
        "POW_S1",
        "63² = 3969 lies halfway between the float16 values 3968 and 3970, and 4097² halfway between two "
        "float32 values: the spec rounds ties to even; an engine that rounds a wider result to the type "
        "may round a value already rounded once, or round the tie the other way.",
    ),
    "extreme values": Explanation(
        "POW_S1",
        "The special-values table runs powers such as 2^−1 and (−1)^max on the engines: correctly rounded "
        "in the spec; an engine may be a unit in the last place away on a finite power (POW_P2).",
    ),
}
_GR3 = Divergence(
    "GR3",
    "ONNX Pow-15 lets the exponent's type T1 differ from the base's T; the profile takes one type for both, "
    "and a model converts the exponent with a Cast node of its own.",
)
_GEN_C1 = Divergence("GEN_C1", "An unsigned exponent: no type of the profile's Pow (int32, int64, float).")
ONNX_ROUNDS_OTHERWISE = (
    "ONNX's expected output is numpy's float32 power of its random inputs (the C library's powf), which is "
    "not correctly rounded: some elements are one unit in the last place from x^y rounded once, the spec's "
    "result (POW_S1). The spec's output is within POW_P2's bound of ONNX's."
)
BACKEND_DIVERGENCES = {
    "test_pow": Divergence("POW_P2", ONNX_ROUNDS_OTHERWISE, ulps=1),
    "test_pow_bcast_array": BROADCAST["test_pow_bcast"],
    "test_pow_bcast_scalar": BROADCAST["test_pow_bcast"],
    "test_pow_types_float32_int32": _GR3,
    "test_pow_types_float32_int64": _GR3,
    "test_pow_types_float32_uint32": _GEN_C1,
    "test_pow_types_float32_uint64": _GEN_C1,
    "test_pow_types_int32_float32": _GR3,
    "test_pow_types_int64_float32": _GR3,
}
BACKEND_RULES = {"test_pow_types_int32_int32": "POW_S2", "test_pow_types_int64_int64": "POW_S2"}
SEMANTICS = "POW_S1"

BENCH_LIMIT = 6.0
"""The bench's limit, as Exp's: numpy's float64 power, decided and rounded, against numpy's float32 power,
which is not correctly rounded."""
