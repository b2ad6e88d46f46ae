"""Cast's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np
from onnx import helper

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "float to a narrower float: one rounding",
    "integer to float: one rounding",
    "float to integer: truncation",
    "float to integer: out of range",
    "NaN to an integer or bool",
    "integer to a narrower integer: wrap",
    "to and from bool",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)
FLOAT32, INT8, UINT8, INT32, BOOL, FLOAT16, FLOAT64, BFLOAT16 = 1, 3, 2, 6, 9, 10, 11, 16


def numpy(X: np.ndarray, *, to: int) -> np.ndarray:
    return X.astype(helper.tensor_dtype_to_np_dtype(to))  # how a developer converts: one astype


def rows(v: Values) -> list[tuple]:
    name = v.dtype.name
    rows = [
        ("0, 1, 2 to float32", ORDINARY, (v([0, 1, 2]),), {"to": FLOAT32}),
        ("0, 1, 2 to uint8", ORDINARY, (v([0, 1, 2]),), {"to": UINT8}),
        ("0, 1, 2 to int32", ORDINARY, (v([0, 1, 2]),), {"to": INT32}),
        ("0, 1 to float64", ORDINARY, (v([[0, 1], [1, 0]]),), {"to": FLOAT64}),
        ("0-d X to int8", "empty and 0-d", (v(1),), {"to": INT8}),
        ("empty X to float16", "empty and 0-d", (v(np.zeros((0, 2))),), {"to": FLOAT16}),
        ("0 and 1 to bool", "to and from bool", (v([0, 1, 1, 0]),), {"to": BOOL}),
    ]
    if name == "bool":
        return [
            ("false and true to float16", "to and from bool", (v([False, True]),), {"to": FLOAT16}),
            ("false and true to bfloat16", "to and from bool", (v([False, True]),), {"to": BFLOAT16}),
            ("false and true to int8", "to and from bool", (v([False, True]),), {"to": INT8}),
            ("false and true to bool", "to and from bool", (v([False, True]),), {"to": BOOL}),
            ("0-d true to float32", "empty and 0-d", (v(True),), {"to": FLOAT32}),
        ]
    if not v.is_float:
        rows += [
            ("2 to bool", "to and from bool", (v([2, 0]),), {"to": BOOL}),
            ("extremes to float64", "extreme values", (v([v.lowest, v.highest]),), {"to": FLOAT64}),
            (
                "extremes to int8",
                "integer to a narrower integer: wrap",
                (v([v.lowest, v.highest]),),
                {"to": INT8},
            ),
            (
                "extremes to uint8",
                "integer to a narrower integer: wrap",
                (v([v.lowest, v.highest]),),
                {"to": UINT8},
            ),
        ]
        if v.signed:
            rows.append(("−1 to uint8", "integer to a narrower integer: wrap", (v([-1, -2]),), {"to": UINT8}))
        if v.dtype.itemsize >= 2:
            rows.append(
                (
                    "200 to int8 (ONNX's example)",
                    "integer to a narrower integer: wrap",
                    (v([200]),),
                    {"to": INT8},
                )
            )
        if v.dtype.itemsize >= 4:
            ties = [2**24 + 1, 2**24 + 3, 65519, 65520]
            rows += [
                ("ties of float32", "integer to float: one rounding", (v(ties),), {"to": FLOAT32}),
                ("beyond float16", "integer to float: one rounding", (v(ties),), {"to": FLOAT16}),
                (
                    "ties of bfloat16",
                    "integer to float: one rounding",
                    (v([2**30 + 2**22 + 1, 259]),),
                    {"to": BFLOAT16},
                ),
            ]
        if v.dtype.itemsize == 8:
            big = [2**62 + 2**38 + 1, 2**53 + 1, 2**62 + 2**31 + 1]
            rows += [
                ("beyond 2^53 to float32", "integer to float: one rounding", (v(big),), {"to": FLOAT32}),
                ("beyond 2^53 to float64", "integer to float: one rounding", (v(big),), {"to": FLOAT64}),
                ("beyond 2^53 to bfloat16", "integer to float: one rounding", (v(big),), {"to": BFLOAT16}),
            ]
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    rows += [
        ("fractions to int32", "float to integer: truncation", (v([2.5, -2.5, 0.75, -0.75]),), {"to": INT32}),
        ("fractions to uint8", "float to integer: truncation", (v([0.5, 1.75, -0.5]),), {"to": UINT8}),
        ("−0 to int8", "signed zero", (v([-0.0, 0.0]),), {"to": INT8}),
        ("±0 to bool", "signed zero", (v([-0.0, 0.0]),), {"to": BOOL}),
        ("300 to int8", "float to integer: out of range", (v([300.0]),), {"to": INT8}),
        ("−1 to uint8", "float to integer: out of range", (v([-1.0]),), {"to": UINT8}),
        ("∞ to int32", "float to integer: out of range", (v([inf, -inf]),), {"to": INT32}),
        ("NaN to int32", "NaN to an integer or bool", (v([nan]),), {"to": INT32}),
        ("NaN to bool", "NaN to an integer or bool", (v([nan]),), {"to": BOOL}),
        ("NaN to float16", "NaN", (v([nan]),), {"to": FLOAT16}),
        ("infinities to bool", "infinity", (v([-inf, inf]),), {"to": BOOL}),
        ("infinities to float32", "infinity", (v([-inf, inf]),), {"to": FLOAT32}),
        ("subnormals to float64", "subnormal", (v([tiny, -tiny]),), {"to": FLOAT64}),
        ("subnormals to bool", "subnormal", (v([tiny, -tiny]),), {"to": BOOL}),
        ("extremes to float64", "extreme values", (v([v.lowest, v.highest]),), {"to": FLOAT64}),
        (
            "extremes to float16",
            "float to a narrower float: one rounding",
            (v([v.lowest, v.highest]),),
            {"to": FLOAT16},
        ),
    ]
    if name == "float64":
        rows += [
            (
                "1 + 2^-11 + 2^-40 to float16",
                "float to a narrower float: one rounding",
                (v([1 + 2**-11 + 2**-40]),),
                {"to": FLOAT16},
            ),
            (
                "1 + 2^-8 + 2^-30 to bfloat16",
                "float to a narrower float: one rounding",
                (v([1 + 2**-8 + 2**-30]),),
                {"to": BFLOAT16},
            ),
            ("3e9 to int32", "float to integer: out of range", (v([3e9, -3e9]),), {"to": INT32}),
        ]
    if name in ("float32", "float64"):
        rows += [
            (
                "1 + 2^-8 + 2^-20 to bfloat16",
                "float to a narrower float: one rounding",
                (v([1 + 2**-8 + 2**-20, 1 + 2**-9]),),
                {"to": BFLOAT16},
            ),
            (
                "65519, 65520 to float16",
                "float to a narrower float: one rounding",
                (v([65519.0, 65520.0, 2.0**-25]),),
                {"to": FLOAT16},
            ),
        ]
    return rows


_TWICE = (
    "The spec rounds the exact value once to the target ({0}). {1} rounds it twice on these inputs: first "
    "to a wider intermediate type, then to the target, and where the first rounding lands on a tie of the "
    "second the result is one unit in the last place off."
)
EXPLAINED = {
    "float to a narrower float: one rounding": Explanation(
        "CAST_S2",
        _TWICE.format(
            "float64 to float16 and to bfloat16",
            "onnxruntime converts float64 to float16 through float32, and the ONNX reference (like "
            "ml_dtypes) float64 to bfloat16 through float32:",
        ),
    ),
    "integer to float: one rounding": Explanation(
        "CAST_S3",
        _TWICE.format(
            "int64 and uint64 to bfloat16",
            "numpy and the ONNX reference convert integers to bfloat16 through float32 (ml_dtypes):",
        ),
    ),
    "float to integer: out of range": Explanation(
        "CAST_E2",
        "ONNX leaves a float outside the integer type's range undefined; the spec refuses it (an infinity "
        "included). The engines return whatever their conversion gives: the lowest value of the type, or "
        "the low bits of a wider integer (300 to uint8 gives 44).",
    ),
    "NaN to an integer or bool": Explanation(
        "CAST_E1",
        "ONNX leaves NaN to an integer undefined and its text makes NaN true; the spec refuses NaN for both. "
        "The engines return the lowest integer (C's conversion of NaN on x86) and true.",
    ),
}

_PAIRS_C1 = [
    *(
        f"{src}_to_{dst}"
        for src in ("FLOAT16", "FLOAT")
        for dst in ("FLOAT4E2M1", "INT2", "INT4", "UINT2", "UINT4")
    ),
    *(
        f"{src}_to_{dst}"
        for src in ("FLOAT16", "FLOAT")
        for dst in ("FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ")
    ),
]
_NARROW_SOURCES = (
    "FLOAT4E2M1",
    "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2",
    "FLOAT8E5M2FNUZ",
    "INT2",
    "INT4",
    "UINT2",
    "UINT4",
)
_PAIRS_GEN_C1 = [
    *(f"{src}_to_{dst}" for src in _NARROW_SOURCES for dst in ("FLOAT", "FLOAT16")),
    "INT2_to_INT8",
    "INT4_to_INT8",
    "UINT2_to_UINT8",
    "UINT4_to_UINT8",
]
_NO_SATURATE = [
    f"{src}_to_{dst}"
    for src in ("FLOAT16", "FLOAT")
    for dst in ("FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ")
]
_OUTSIDE = "the profile's thirteen types (ONNX's float8, float4, int4, int2 types are outside it)"
_SATURATE = (
    "the node sets saturate (or round_mode), which ONNX applies to the float8 types only: the profile's Cast "
    "has the one attribute to, and a call or a model that gives another is refused"
)
BACKEND_DIVERGENCES = {
    **{
        f"test_cast_{pair}": Divergence("CAST_C1", f"to names a type outside {_OUTSIDE}.")
        for pair in _PAIRS_C1
    },
    **{
        f"test_cast_{pair}": Divergence("GEN_C1", f"X has a type outside {_OUTSIDE}.")
        for pair in _PAIRS_GEN_C1
    },
    "test_cast_e8m0_FLOAT8E8M0_to_FLOAT": Divergence("GEN_C1", f"X has a type outside {_OUTSIDE}."),
    "test_cast_e8m0_FLOAT8E8M0_to_FLOAT16": Divergence("GEN_C1", f"X has a type outside {_OUTSIDE}."),
    "test_cast_e8m0_FLOAT16_to_FLOAT8E8M0": Divergence("GEN_C2", _SATURATE[0].upper() + _SATURATE[1:] + "."),
    "test_cast_e8m0_FLOAT_to_FLOAT8E8M0": Divergence("GEN_C2", _SATURATE[0].upper() + _SATURATE[1:] + "."),
    **{
        f"test_cast_no_saturate_{pair}": Divergence("GEN_C2", _SATURATE[0].upper() + _SATURATE[1:] + ".")
        for pair in _NO_SATURATE
    },
    **{
        f"test_castlike_{pair}_expanded": Divergence(
            "GEN_C2", "CastLike's expansion into Cast always sets saturate: " + _SATURATE + "."
        )
        for pair in [
            "BFLOAT16_to_FLOAT",
            "DOUBLE_to_FLOAT16",
            "DOUBLE_to_FLOAT",
            "FLOAT16_to_DOUBLE",
            "FLOAT16_to_FLOAT",
            "FLOAT_to_BFLOAT16",
            "FLOAT_to_DOUBLE",
            "FLOAT_to_FLOAT16",
            *_PAIRS_C1,
            *_PAIRS_GEN_C1,
            *(f"no_saturate_{pair}" for pair in _NO_SATURATE),
        ]
    },
}
BACKEND_RULES = {
    "test_cast_BFLOAT16_to_FLOAT": "CAST_S1",
    "test_cast_FLOAT16_to_DOUBLE": "CAST_S1",
    "test_cast_FLOAT16_to_FLOAT": "CAST_S1",
    "test_cast_FLOAT_to_DOUBLE": "CAST_S1",
}
SEMANTICS = "CAST_S2"
