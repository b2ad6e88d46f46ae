"""Transpose's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative axes",
    "refused permutations",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, *, perm: tuple[int, ...]) -> np.ndarray:
    """As a developer writes it: numpy's transpose (a view), copied."""
    return np.transpose(X, perm).copy()


def rows(v: Values) -> list[tuple]:
    six = v(np.arange(6).reshape(2, 3) % 2 if v.dtype == np.bool_ else np.arange(6).reshape(2, 3))
    block = v(
        np.arange(24).reshape(2, 3, 4) % 3 == 0 if v.dtype == np.bool_ else np.arange(24).reshape(2, 3, 4)
    )
    rows = [
        ("a matrix transposed", ORDINARY, (six,), {"perm": (1, 0)}),
        ("the identity permutation", ORDINARY, (six,), {"perm": (0, 1)}),
        ("rank 3, axes reversed", ORDINARY, (block,), {"perm": (2, 1, 0)}),
        ("rank 3, a rotation", ORDINARY, (block,), {"perm": (1, 2, 0)}),
        ("rank 3, the last two swapped", ORDINARY, (block,), {"perm": (0, 2, 1)}),
        ("−1 for the last axis", "negative axes", (six,), {"perm": (-1, 0)}),
        ("perm shorter than the rank", "refused permutations", (block,), {"perm": (1, 0)}),
        ("an axis X does not have", "refused permutations", (six,), {"perm": (0, 2)}),
        ("an axis twice", "refused permutations", (block,), {"perm": (0, 0, 1)}),
        ("0-d, perm empty", "empty and 0-d", (v(1),), {"perm": ()}),
        ("a vector", "empty and 0-d", (v([1, 0, 1]),), {"perm": (0,)}),
        ("an empty matrix", "empty and 0-d", (v(np.zeros((0, 3))),), {"perm": (1, 0)}),
        ("extremes", "extreme values", (v([[v.lowest, v.highest]]),), {"perm": (1, 0)}),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([[0.0, -0.0]]),), {"perm": (1, 0)}),
        ("NaN of both signs", "NaN", (v([[nan], [-nan]]),), {"perm": (1, 0)}),
        ("infinities", "infinity", (v([[-inf, inf]]),), {"perm": (1, 0)}),
        ("subnormals", "subnormal", (v([[-tiny], [tiny]]),), {"perm": (1, 0)}),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X made a matrix of 1000 columns, transposed."""
    return [X.reshape(-1, 1000)], {"perm": (1, 0)}


EXPLAINED = {
    "negative axes": Explanation(
        "TRANSPOSE_C2",
        "ONNX's text asks for axes from 0 to n − 1; the profile refuses a negative entry where numpy and the "
        "ONNX reference count it from the end.",
    ),
    "refused permutations": Explanation(
        "TRANSPOSE_C1",
        "The profile refuses a perm that is not a permutation of X's axes (too short, an axis X does not "
        "have, an axis twice); an engine refuses it with an error of its own.",
    ),
}
BACKEND_DIVERGENCES = {
    "test_transpose_default": Divergence(
        "GR4",
        "The node leaves perm out, which ONNX then takes to reverse the axes; the profile has no default "
        "value and refuses a node without it.",
    ),
}
BACKEND_RULES: dict = {}
SEMANTICS = "TRANSPOSE_S2"
