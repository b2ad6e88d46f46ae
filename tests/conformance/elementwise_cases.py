"""The conformance cases a two-operand element-wise family shares (Add, Sub, Mul, Div): shapes.

ONNX broadcasts A and B; the profile requires one shape. The cases, the explanation of the engines'
divergence and the ONNX backend case the profile refuses are written here once; an operator's module
(operator_cases/<op>.py) adds its own values, topics and rules.
"""

from __future__ import annotations

import numpy as np
from operator_cases import Divergence, Explanation, Values

SHAPE_TOPICS = ("empty and 0-d", "different shapes")


def shape_rows(v: Values, A: list[int], B: list[int]) -> list[tuple]:
    """One shape (0-d, empty) and different ones, made of the three elements of ``A`` and of ``B``
    (no zero in B: it may be a divisor)."""
    return [
        ("0-d A and B", "empty and 0-d", (v(A[0]), v(B[0]))),
        ("empty A and B", "empty and 0-d", (v(np.zeros((0, 2))), v(np.zeros((0, 2))))),
        ("(2, 3) and (3,)", "different shapes", (v([A, A]), v(B))),
        ("(3,) and 0-d", "different shapes", (v(A), v(B[0]))),
        ("(2,) and (3,): no common shape", "different shapes", (v(A[:2]), v(B))),
    ]


def broadcast_refused(onnx: str, rule: str) -> tuple[dict[str, Explanation], dict[str, Divergence]]:
    """EXPLAINED and BACKEND_DIVERGENCES for the broadcast ONNX's ``onnx`` does and ``rule`` refuses."""
    explained = Explanation(
        rule,
        f"ONNX's {onnx} broadcasts A and B to a common shape, and numpy and the engines do; the profile "
        "requires one shape and refuses the input (a model makes the broadcast explicit, with Expand).",
    )
    divergence = Divergence(
        rule, "B of shape (5,) is broadcast to A's shape (3, 4, 5); the profile requires one shape."
    )
    return {"different shapes": explained}, {f"test_{onnx.lower()}_bcast": divergence}
