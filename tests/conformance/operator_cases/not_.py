"""Not's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import numpy as np

from . import ORDINARY, Values

TOPICS = (ORDINARY, "empty and 0-d", "extreme values")

numpy = np.logical_not

T, F = True, False


def rows(v: Values) -> list[tuple]:
    return [
        ("both values", ORDINARY, (v([T, F]),)),
        ("rank 2", ORDINARY, (v([[T, T], [F, T], [F, F]]),)),
        ("rank 3", ORDINARY, (v([[[T, F], [F, F]], [[T, T], [F, T]]]),)),
        ("0-d X", "empty and 0-d", (v(T),)),
        ("empty X", "empty and 0-d", (v(np.zeros((0, 2))),)),
    ]


EXPLAINED: dict = {}
BACKEND_DIVERGENCES: dict = {}
BACKEND_RULES: dict = {}
SEMANTICS = "NOT_S1"
