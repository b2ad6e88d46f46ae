"""ScatterND's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "negative indices",
    "indices addressing a slice twice",
    "indices out of range",
    "reductions",
    "refused shapes",
    "0-d X",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)

REDUCE = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


def numpy(X: np.ndarray, I: np.ndarray, U: np.ndarray, reduction: str) -> np.ndarray:  # noqa: E741
    """As a developer writes it (and as ONNX's text does): a copy of X, then X's slices at I's indices
    assigned U's, by numpy's advanced indexing; a reduction by its ufunc's ``at``."""
    Y = X.copy()
    where = tuple(np.moveaxis(I, -1, 0))  # one array of components per axis addressed
    if reduction == "none":
        Y[where] = U
    else:
        REDUCE[reduction].at(Y, where, U)
    return Y


def rows(v: Values) -> list[tuple]:
    def i(values: list) -> np.ndarray:
        return v(values, np.int64)

    def data(values: object) -> np.ndarray:
        values = np.array(values)
        return v(values % 2 if v.dtype == np.bool_ else values)

    none = {"reduction": "none"}
    eight = data(np.arange(1, 9))
    cube = data(np.arange(24).reshape(2, 3, 4))
    rows = [
        (
            "ONNX's example 1: elements of a vector",
            ORDINARY,
            (eight, i([[4], [3], [1], [7]]), data([9, 10, 11, 12])),
            none,
        ),
        ("rows of a block (k < rank)", ORDINARY, (cube, i([[1], [0]]), data(np.ones((2, 3, 4)) * 5)), none),
        ("elements of a block (k = rank)", ORDINARY, (cube, i([[0, 2, 3], [1, 0, 0]]), data([7, 8])), none),
        (
            "lines of a block (k = 2)",
            ORDINARY,
            (cube, i([[[1, 2]], [[0, 0]]]), data([[[1] * 4], [[0] * 4]])),
            none,
        ),
        ("k = 0: X replaced whole", ORDINARY, (eight, i([[]]), data([np.arange(8)[::-1]])), none),
        ("no index: X copied", ORDINARY, (eight, np.zeros((0, 1), np.int64), data([])), none),
        ("I of rank 1: one index", ORDINARY, (cube, i([1, 2]), data([0, 1, 0, 1])), none),
        ("the last element as −1", "negative indices", (eight, i([[-1], [0]]), data([0, 1])), none),
        ("−d, the first", "negative indices", (cube, i([[-2, -3]]), data([[1, 1, 1, 1]])), none),
        (
            "the same index twice",
            "indices addressing a slice twice",
            (eight, i([[2], [2]]), data([0, 1])),
            none,
        ),
        ("−1 and d − 1", "indices addressing a slice twice", (eight, i([[7], [-1]]), data([0, 1])), none),
        (
            "k = 0, two indices",
            "indices addressing a slice twice",
            (eight, i([[], []]), data(np.ones((2, 8)))),
            none,
        ),
        ("d", "indices out of range", (eight, i([[8]]), data([0])), none),
        ("−d − 1", "indices out of range", (eight, i([[-9]]), data([0])), none),
        ("INT64_MAX", "indices out of range", (eight, i([[2**63 - 1]]), data([0])), none),
        ("add", "reductions", (eight, i([[1], [2]]), data([1, 1])), {"reduction": "add"}),
        ("mul", "reductions", (eight, i([[1], [2]]), data([1, 0])), {"reduction": "mul"}),
        ("max", "reductions", (eight, i([[1], [2]]), data([0, 5])), {"reduction": "max"}),
        ("min", "reductions", (eight, i([[1], [2]]), data([0, 5])), {"reduction": "min"}),
        ("U of another shape", "refused shapes", (eight, i([[1]]), data([0, 1])), none),
        ("k larger than X's rank", "refused shapes", (eight, i([[1, 0]]), data([0])), none),
        ("0-d X", "0-d X", (data(1), i([]), data(0)), none),
        (
            "extremes",
            "extreme values",
            (v([v.lowest, v.highest, v.lowest]), i([[2], [0]]), v([v.highest, v.highest])),
            none,
        ),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("signed zeros", "signed zero", (v([0.0, -0.0, 0.0]), i([[0], [1]]), v([-0.0, 0.0])), none),
        ("NaN of both signs", "NaN", (v([1.0, nan, 1.0]), i([[2], [0]]), v([nan, -nan])), none),
        ("infinities", "infinity", (v([[-inf, 0.0], [inf, 0.0]]), i([[1, 1]]), v([-inf])), none),
        ("subnormals", "subnormal", (v([-tiny, tiny]), i([[-1]]), v([-tiny])), none),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: X as rows of 1000, ten of them replaced by the first ten rows."""
    rows = X.reshape(-1, 1000)
    indices = np.arange(0, rows.shape[0], max(1, rows.shape[0] // 10), dtype=np.int64)[:10, None]
    return [rows, indices, rows[: indices.shape[0]].copy()], {"reduction": "none"}


EXPLAINED = {
    "indices addressing a slice twice": Explanation(
        "SCATTERND_C6",
        "ONNX's text says indices should not address a slice twice, and leaves the result to the order of "
        "the updates; the profile refuses it. numpy's assignment, the ONNX reference (a loop in row-major "
        "order) and onnxruntime keep the last update.",
    ),
    "indices out of range": Explanation(
        "SCATTERND_C5",
        "An index outside its axis is refused by the profile with its id; numpy, the ONNX reference and "
        "onnxruntime refuse it with errors of their own.",
    ),
    "reductions": Explanation(
        "SCATTERND_C1",
        "The profile admits reduction 'none' only: add and mul would round (or wrap) in an order ONNX "
        "leaves open where indices repeat, and max and min are not data movement. The engines compute them.",
    ),
    "refused shapes": Explanation(
        "SCATTERND_C4",
        "U must have the shape I.shape[:-1] + X.shape[k:], and k is at most X's rank (SCATTERND_C3); "
        "onnxruntime refuses both, the ONNX reference and numpy broadcast U where they can.",
    ),
    "0-d X": Explanation(
        "SCATTERND_C2",
        "ONNX's text asks X of rank 1 or more: the profile and onnxruntime refuse a 0-d X; the ONNX "
        "reference and numpy replace it by U.",
    ),
}
BACKEND_DIVERGENCES = {
    "test_scatternd": Divergence(
        "GR4",
        "The node leaves reduction out, which ONNX defaults to 'none'; the profile has no default value and "
        "refuses a node without it.",
    ),
    **{
        name: Divergence(
            "SCATTERND_C1",
            f"The node asks reduction '{reduction}'; the profile admits 'none' only (with add and mul, "
            "repeated indices leave the order of the operations, hence the rounding, to the engine).",
        )
        for name, reduction in (
            ("test_scatternd_add", "add"),
            ("test_scatternd_multiply", "mul"),
            ("test_scatternd_max", "max"),
            ("test_scatternd_min", "min"),
            ("test_scatternd_max_with_element_indices", "max"),
            ("test_scatternd_min_with_element_indices", "min"),
        )
    },
}
BACKEND_RULES: dict = {}
SEMANTICS = "SCATTERND_S2"
