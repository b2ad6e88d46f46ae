"""The inputs the spec and the engines are run on: small named cases, each with a topic.

Every case is written out by hand (no randomness), so the same sources give the
same report. A case isolates one question an implementer would ask ("what is
max(+0, -0)?") on as few elements as answer it: the case is its own minimal
input. Values are exact in every type of their family, so most cases read the
same in float16, bfloat16, float32 and float64.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from sonnx_spec import FLOAT_TYPES
from sonnx_spec.ops import input_names

OPERATORS = ("clip", "max", "abs")

ORDINARY = "ordinary"  # the one topic on which every engine must agree with the spec
TOPICS = (  # in the order the page lists them
    ORDINARY,
    "several inputs",
    "broadcasting",
    "not broadcastable",
    "empty and 0-d",
    "L > M",
    "L omitted",
    "M omitted",
    "extreme values",
    "lowest signed integer",
    "signed zero",
    "NaN",
    "NaN in X",
    "NaN with L > M",
    "NaN bound",
    "infinity",
    "subnormal",
)

Inputs = tuple[np.ndarray | None, ...]  # in the order of the operator's inputs; None where omitted


@dataclass(frozen=True)
class Case:
    op: str  # "clip", "max" or "abs"
    name: str
    topic: str
    inputs: Inputs

    def __post_init__(self) -> None:
        assert self.op in OPERATORS and self.topic in TOPICS, (self.op, self.topic)

    @property
    def input_names(self) -> list[str]:
        """The names the spec gives the inputs: X, L, M for Clip, X0, X1, … for Max."""
        return input_names(self.op, len(self.inputs))


class _Values:
    """Makes arrays of one element type, and knows that type's extremes."""

    def __init__(self, dtype: np.dtype) -> None:
        self.dtype = dtype
        self.is_float = dtype in FLOAT_TYPES
        self.signed = self.is_float or np.issubdtype(dtype, np.signedinteger)
        info = ml_dtypes.finfo(dtype) if self.is_float else np.iinfo(dtype)
        self.lowest, self.highest = info.min, info.max
        self.subnormal = info.smallest_subnormal if self.is_float else None

    def __call__(self, values: object) -> np.ndarray:
        array = np.array(values, dtype=self.dtype)
        array.flags.writeable = False  # the spec and every engine see the same input
        return array


_Row = tuple[str, str, Inputs]  # name, topic, inputs


def _clip(v: _Values) -> list[_Row]:
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
        ("infinite X", "infinity", (v([-inf, inf]), v(-1), v(1))),
        ("infinite bounds", "infinity", (v([-inf, -1, inf]), v(-inf), v(inf))),
        ("subnormal bounds", "subnormal", (v([-1, 0, 1]), v(-tiny), v(tiny))),
    ]


def _max(v: _Values) -> list[_Row]:
    rows = [
        ("two inputs", ORDINARY, (v([0, 5, 2]), v([3, 1, 4]))),
        ("rank 2", ORDINARY, (v([[0, 5], [7, 1]]), v([[3, 1], [4, 9]]))),
        ("one input", "several inputs", (v([0, 5, 2]),)),
        ("four inputs", "several inputs", (v([0, 5, 2]), v([3, 1, 4]), v([1, 6, 0]), v([2, 2, 8]))),
        ("column and row", "broadcasting", (v([[0], [5]]), v([1, 2, 3]))),
        ("0-d and vector", "broadcasting", (v(2), v([1, 2, 3]))),
        ("three ranks", "broadcasting", (v([[[1]], [[4]]]), v([[0], [2], [3]]), v([2, 0, 5, 1]))),
        ("shapes (2,) and (3,)", "not broadcastable", (v([0, 1]), v([0, 1, 2]))),
        ("0-d inputs", "empty and 0-d", (v(3), v(5))),
        ("empty and (1,)", "empty and 0-d", (v(np.zeros(0)), v([1]))),
        ("extremes", "extreme values", (v([v.lowest, v.highest]), v([v.highest, v.lowest]))),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-3, 2, -1]), v([-1, -5, -2]))))
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (v([-2.5, 0.5]), v([-0.5, -1.5]))),
        ("+0 and -0", "signed zero", (v([0.0, -0.0, -0.0]), v([-0.0, 0.0, -0.0]))),
        ("-0, -0 and +0", "signed zero", (v([-0.0]), v([-0.0]), v([0.0]))),
        ("NaN and a number", "NaN", (v([nan, 1, -nan]), v([1, nan, 1]))),
        ("NaN and infinity", "NaN", (v([nan, inf]), v([inf, nan]))),
        ("infinities", "infinity", (v([-inf, inf, -inf]), v([0, 0, inf]))),
        ("subnormals", "subnormal", (v([tiny, -tiny]), v([-tiny, -0.0]))),
    ]


def _abs(v: _Values) -> list[_Row]:
    rows = [
        ("non-negative values", ORDINARY, (v([0, 1, 5]),)),
        ("rank 2", ORDINARY, (v([[0, 5], [7, 1]]),)),
        ("0-d X", "empty and 0-d", (v(3),)),
        ("empty X", "empty and 0-d", (v(np.zeros((0, 2))),)),
    ]
    if v.signed:
        rows.append(("negative values", ORDINARY, (v([-5, -1, 0, 1, 5]),)))
    if not v.signed:
        return [*rows, ("extremes", "extreme values", (v([v.lowest, v.highest]),))]
    if not v.is_float:
        return [
            *rows,
            ("next to the lowest", "extreme values", (v([v.lowest + 1, v.highest]),)),
            ("lowest value", "lowest signed integer", (v([1, v.lowest]),)),
        ]
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("fractions", ORDINARY, (v([-2.5, 0.5]),)),
        ("extremes", "extreme values", (v([v.lowest, v.highest]),)),
        ("signed zeros", "signed zero", (v([-0.0, 0.0]),)),
        ("NaN", "NaN", (v([nan, -nan]),)),
        ("infinities", "infinity", (v([-inf, inf]),)),
        ("subnormals", "subnormal", (v([-tiny, tiny]),)),
    ]


_ROWS: dict[str, Callable[[_Values], list[_Row]]] = {"clip": _clip, "max": _max, "abs": _abs}


def cases(op: str, dtype: np.dtype) -> list[Case]:
    """The cases of ``op`` for ``dtype``, in the order of their topics; names are unique."""
    result = [Case(op, *row) for row in _ROWS[op](_Values(np.dtype(dtype)))]
    assert len({case.name for case in result}) == len(result), [case.name for case in result]
    return sorted(result, key=lambda case: TOPICS.index(case.topic))
