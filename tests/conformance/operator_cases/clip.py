"""Clip's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "empty and 0-d",
    "L > M",
    "L omitted",
    "M omitted",
    "extreme values",
    "signed zero",
    "NaN in X",
    "NaN with L > M",
    "NaN bound",
    "infinity",
    "subnormal",
)

numpy = np.clip  # an omitted bound is None, numpy's own way to leave a side unbounded


def rows(v: Values) -> list[tuple]:
    rows = [
        ("inside and outside [L, M]", ORDINARY, (v([0, 1, 2, 3, 4, 5]), v(1), v(4))),
        ("L = M", ORDINARY, (v([0, 3, 5]), v(3), v(3))),
        ("rank 2", ORDINARY, (v([[0, 5, 2], [4, 1, 3]]), v(1), v(3))),
        ("0-d X", "empty and 0-d", (v(7), v(1), v(4))),
        ("empty X", "empty and 0-d", (v(np.zeros((2, 0))), v(1), v(4))),
        ("L > M", "L > M", (v([0, 1, 2, 3]), v(2), v(1))),
        ("L omitted", "L omitted", (v([0, 5]), None, v(4))),
        ("L and M omitted", "L omitted", (v([0, 5]), None, None)),
        ("M omitted", "M omitted", (v([0, 5]), v(1), None)),
        ("extremes as bounds", "extreme values", (v([v.lowest, v.highest]), v(v.lowest), v(v.highest))),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, -1, 0, 2]), v(-2), v(1))))
    if not v.is_float:
        extremes = v([v.lowest, v.lowest + 1, v.highest - 1, v.highest])
        rows.append(("next to the extremes", "extreme values", (extremes, v(v.lowest + 1), v(v.highest - 1))))
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (v([-2.5, -0.5, 0.5, 2.5]), v(-1.5), v(1.5))),
        ("L = +0 raises -0", "signed zero", (v([-0.0, 0.0]), v(0.0), v(1))),
        ("M = -0 lowers +0", "signed zero", (v([-0.0, 0.0]), v(-1), v(-0.0))),
        ("L = -0, M = +0", "signed zero", (v([-0.0, 0.0, -1, 1]), v(-0.0), v(0.0))),
        ("L = +0 > M = -0", "signed zero", (v([-0.0, 0.0, 1]), v(0.0), v(-0.0))),
        ("NaN in X", "NaN in X", (v([nan, -2, 2, -nan]), v(-1), v(1))),
        ("NaN in X, L > M", "NaN with L > M", (v([nan, 0]), v(2), v(1))),
        ("L is NaN", "NaN bound", (v([0, 5]), v(nan), v(4))),
        ("M is NaN", "NaN bound", (v([0, 5]), v(1), v(nan))),
        ("M is NaN (draft, example 3)", "NaN bound", (v([-inf, 0, inf, nan]), v(-1), v(nan))),
        ("L and M are NaN (draft, example 4)", "NaN bound", (v([-inf, 0, inf, nan]), v(nan), v(nan))),
        ("infinite X", "infinity", (v([-inf, inf]), v(-1), v(1))),
        ("infinite bounds", "infinity", (v([-inf, -1, inf]), v(-inf), v(inf))),
        ("subnormal bounds", "subnormal", (v([-1, 0, 1]), v(-tiny), v(tiny))),
    ]


_OMITTED = (
    "ONNX lets a model omit {0}, and engines then use no bound on that side; the profile "
    "has no default values, so the spec refuses the input."
)
EXPLAINED = {
    "L omitted": Explanation("GR4", _OMITTED.format("L (min)")),
    "M omitted": Explanation("GR4", _OMITTED.format("M (max)")),
    "signed zero": Explanation(
        "CLIP_S1",
        "IEEE 754 finds -0 and +0 equal; the spec takes L where X[i] <= L and M where X[i] >= M, so a zero "
        "meeting a zero bound takes the bound's sign. An engine computing min(max(X, L), M) returns "
        "whichever of two equal zeros its max and min keep.",
    ),
    "NaN in X": Explanation(
        "CLIP_S3",
        "A NaN element fails both comparisons, so the spec leaves it NaN; an engine that computes with "
        "comparisons the other way round returns a bound.",
    ),
    "NaN with L > M": Explanation(
        "CLIP_S2",
        "When L > M the spec gives M everywhere, NaN elements of X included (ONNX's text: every value is "
        "set to max); computing min(M, max(X, L)) instead lets a NaN of X through.",
    ),
    "NaN bound": Explanation(
        "CLIP_S5",
        "The spec reads a NaN bound as no bound (-inf for L, +inf for M), as the working group's draft "
        "does; an engine computing min(max(X, L), M) with NaN-propagating max and min returns NaN "
        "everywhere instead.",
    ),
}

_NO_DEFAULT = "; the profile has no default values, so the spec refuses the model."
_L = "The model omits min, for which ONNX takes the lowest value of the type" + _NO_DEFAULT
_M = "The model omits max, for which ONNX takes the highest value of the type" + _NO_DEFAULT
_LM = "The model omits min and max, so ONNX copies X" + _NO_DEFAULT
BACKEND_DIVERGENCES = {
    "test_clip_default_inbounds": Divergence("GR4", _LM),
    "test_clip_default_int8_inbounds": Divergence("GR4", _LM),
    "test_clip_default_int8_max": Divergence("GR4", _L),  # "default_max": only max is given
    "test_clip_default_int8_min": Divergence("GR4", _M),  # "default_min": only min is given
    "test_clip_default_max": Divergence("GR4", _L),
    "test_clip_default_min": Divergence("GR4", _M),
}
BACKEND_RULES = {"test_clip_min_greater_than_max": "CLIP_S2"}
SEMANTICS = "CLIP_S1"
