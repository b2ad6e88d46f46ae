"""Mod's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from elementwise_cases import SHAPE_TOPICS, broadcast_refused, shape_rows

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    *SHAPE_TOPICS,
    "floored remainder",
    "truncated remainder",
    "extreme values",
    "zero divisor",
    "lowest modulo −1",
    "fmod = 0 on floating point",
    "exactness",
    "signed zero",
    "infinity",
    "NaN",
    "subnormal",
)

FLOORED, TRUNCATED = {"fmod": 0}, {"fmod": 1}


def numpy(A: np.ndarray, B: np.ndarray, *, fmod: int) -> np.ndarray:
    """What a developer writes: numpy's ``%`` (np.remainder, floored) or np.fmod (truncated)."""
    return np.fmod(A, B) if fmod == 1 else A % B


def rows(v: Values) -> list[tuple]:
    rows = [
        ("exact remainders", ORDINARY, (v([7, 8, 0, 9]), v([3, 2, 5, 4])), TRUNCATED),
        ("rank 2", ORDINARY, (v([[10, 21], [30, 9]]), v([[4, 8], [7, 3]])), TRUNCATED),
        *[(*row, TRUNCATED) for row in shape_rows(v, [8, 4, 6], [3, 3, 5])],
        ("extremes by 1", "extreme values", (v([v.lowest, v.highest]), v([1, 1])), TRUNCATED),
        ("highest by itself", "extreme values", (v([v.highest]), v([v.highest])), TRUNCATED),
    ]
    if not v.is_float:
        rows += [
            ("fmod = 0, positive values", ORDINARY, (v([7, 8, 0, 9]), v([3, 2, 5, 4])), FLOORED),
            ("highest by 2 and 3", "extreme values", (v([v.highest, v.highest]), v([2, 3])), FLOORED),
            ("zero divisor, fmod = 0", "zero divisor", (v([5, 1]), v([1, 0])), FLOORED),
            ("zero divisor, fmod = 1", "zero divisor", (v([5, 1]), v([1, 0])), TRUNCATED),
            ("0 mod 0", "zero divisor", (v([0]), v([0])), TRUNCATED),
        ]
    if v.signed and not v.is_float:
        signs = (v([-7, 7, -7, 7]), v([3, -3, -3, 3]))
        rows += [
            ("signs of A and B, fmod = 0", "floored remainder", signs, FLOORED),
            ("signs of A and B, fmod = 1", "truncated remainder", signs, TRUNCATED),
            (
                "lowest by 2 and highest",
                "extreme values",
                (v([v.lowest, v.lowest]), v([2, v.highest])),
                FLOORED,
            ),
            ("highest by lowest", "extreme values", (v([v.highest]), v([v.lowest])), FLOORED),
        ]
        # onnxruntime's int32 and int64 kernels compute the remainder with the processor's instruction,
        # which traps on this input and kills the process (SIGFPE): the case is run for int8 and int16
        # only, where the kernels compute in a wider int. The page says so.
        if v.dtype.itemsize <= 2:
            pair = (v([4, v.lowest]), v([3, -1]))
            rows += [
                ("lowest mod -1, fmod = 0", "lowest modulo −1", pair, FLOORED),
                ("lowest mod -1, fmod = 1", "lowest modulo −1", pair, TRUNCATED),
            ]
    if not v.is_float:
        return rows
    nan, inf, tiny, normal = math.nan, math.inf, v.subnormal, ml_dtypes.finfo(v.dtype).smallest_normal
    return [
        *rows,
        ("signs of A and B", ORDINARY, (v([-7, 7, -7, 7]), v([3, -3, -3, 3])), TRUNCATED),
        ("fractions", ORDINARY, (v([5.5, -5.5, 0.75]), v([2, 2, 0.5])), TRUNCATED),
        ("fmod = 0", "fmod = 0 on floating point", (v([-7, 7]), v([3, 3])), FLOORED),
        ("highest by 3", "exactness", (v([v.highest, v.lowest]), v([3, 3])), TRUNCATED),
        ("highest by the smallest normal", "exactness", (v([v.highest]), v([normal])), TRUNCATED),
        ("zero remainders", "signed zero", (v([6, -6, 0.0, -0.0]), v([3, 3, 1, 1])), TRUNCATED),
        ("zero divisors", "signed zero", (v([1, -1, 0.0]), v([0.0, -0.0, 0.0])), TRUNCATED),
        ("infinite dividend", "infinity", (v([inf, -inf, inf]), v([2, 2, inf])), TRUNCATED),
        ("infinite divisor", "infinity", (v([1, -1, -0.0, v.highest]), v([inf, inf, -inf, -inf])), TRUNCATED),
        ("NaN operands", "NaN", (v([nan, 1, nan, 0]), v([1, nan, nan, nan])), TRUNCATED),
        ("subnormals", "subnormal", (v([3 * tiny, tiny, normal]), v([2 * tiny, 3, 3 * tiny])), TRUNCATED),
    ]


SHAPES_EXPLAINED, SHAPES_BACKEND = broadcast_refused("Mod", "MOD_C1")
EXPLAINED = {
    **SHAPES_EXPLAINED,
    "extreme values": Explanation(
        "MOD_S2",
        "The spec's integer remainders are exact over the whole range. onnxruntime computes an int64 or "
        "uint64 remainder with fmod = 1 in float64, which rounds values beyond 2^53: the highest int64 "
        "modulo 2 gives 0 there instead of 1.",
    ),
    "zero divisor": Explanation(
        "MOD_E1",
        "An integer remainder by zero has no value: the spec refuses it; numpy (and ONNX's reference, "
        "which computes with numpy) returns 0 with a warning, onnxruntime fails the run.",
    ),
    "fmod = 0 on floating point": Explanation(
        "MOD_C4",
        "Mod-13 requires fmod = 1 for the floating-point types: the spec refuses fmod = 0, as onnxruntime "
        "does; numpy's % and ONNX's reference (np.mod) return a floored remainder, rounded.",
    ),
}
_NO_FMOD = (
    "The model gives no fmod, for which ONNX takes 0; the profile has no default values, so the spec "
    "refuses the model."
)
_FLOAT_FMOD_0 = (
    "A floored remainder of floating-point tensors (fmod = 0) is Mod-28's, not Mod-13's, on which the "
    "profile is based: the spec refuses it."
)
BACKEND_DIVERGENCES = {
    **{f"test_mod_mixed_sign_int{n}": Divergence("GR4", _NO_FMOD) for n in (8, 16, 32, 64)},
    **{f"test_mod_uint{n}": Divergence("GR4", _NO_FMOD) for n in (8, 16, 32, 64)},
    "test_mod_broadcast": Divergence(
        "GR4", _NO_FMOD + " (Its B of shape (1,) would be refused too: MOD_C1.)"
    ),
    **{f"test_mod_float{n}_mixed_sign_fmod_0": Divergence("MOD_C4", _FLOAT_FMOD_0) for n in (16, 32, 64)},
    **{
        f"test_mod_float_edge_cases_fmod_0_float{n}": Divergence("MOD_C4", _FLOAT_FMOD_0)
        for n in (16, 32, 64)
    },
}
BACKEND_RULES = {"test_mod_int64_fmod": "MOD_S2"}
SEMANTICS = "MOD_S4"


def table_left_out(inputs: tuple[str, ...], dtype: np.dtype) -> bool:
    """The special-values table's lowest mod −1, in int32 and int64: onnxruntime's kernels trap on it and
    the process dies (SIGFPE), as for the cases "lowest mod -1" above."""
    return inputs == ("min", "−1") and dtype.kind == "i" and dtype.itemsize > 2
