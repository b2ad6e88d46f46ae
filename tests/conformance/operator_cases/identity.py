"""Identity's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Values

TOPICS = (ORDINARY, "empty and 0-d", "extreme values", "signed zero", "NaN", "infinity", "subnormal")

numpy = np.copy


def rows(v: Values) -> list[tuple]:
    rows = [
        ("a vector", ORDINARY, (v([1, 0, 1]),)),
        ("rank 3", ORDINARY, (v([[[1, 0], [0, 0]], [[1, 1], [0, 1]]]),)),
        ("0-d X", "empty and 0-d", (v(1),)),
        ("empty X", "empty and 0-d", (v(np.zeros((0, 2))),)),
        ("extremes", "extreme values", (v([v.lowest, v.highest]),)),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (v([-2.5, 0.5]),)),
        ("signed zeros", "signed zero", (v([0.0, -0.0]),)),
        ("NaN of both signs", "NaN", (v([nan, -nan]),)),
        ("infinities", "infinity", (v([-inf, inf]),)),
        ("subnormals", "subnormal", (v([-tiny, tiny]),)),
    ]


EXPLAINED: dict = {}
BACKEND_DIVERGENCES = {
    "test_identity_sequence": Divergence(
        "GR2",
        "The model's input is a sequence of tensors, which ONNX Identity-14 and later take; the profile "
        "takes a tensor, with its one shape and element type, and refuses a sequence.",
    ),
    "test_identity_opt": Divergence(
        "GR2",
        "The model's input is an optional sequence of tensors, which ONNX Identity-16 and later take; the "
        "profile takes a tensor, and has no optional value: given, a sequence is refused (GR2); absent, the "
        "input is not given (GR4).",
    ),
}
BACKEND_RULES: dict = {}
SEMANTICS = "IDENTITY_S1"
