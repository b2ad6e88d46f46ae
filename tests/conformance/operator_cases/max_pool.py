"""MaxPool's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "strides and dilations 1",
    "padding",
    "dilations",
    "auto_pad",
    "windows off X",
    "ceil_mode and storage_order",
    "empty and 0-d",
    "extreme values",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def numpy(X: np.ndarray, **attributes: object) -> np.ndarray:
    """As a developer writes it: X padded with its type's lowest value, every window cut out with
    ``sliding_window_view`` and reduced by ``max``."""
    kernel, pads = attributes["kernel_shape"], attributes["pads"]
    strides, dilations = attributes["strides"], attributes["dilations"]
    rank = X.ndim - 2
    low = np.iinfo(X.dtype).min if X.dtype.kind in "iu" else -np.inf
    padded = np.pad(X, [(0, 0), (0, 0), *zip(pads[:rank], pads[rank:], strict=True)], constant_values=low)
    extents = [d * (k - 1) + 1 for k, d in zip(kernel, dilations, strict=True)]
    every = sliding_window_view(padded, extents, axis=tuple(range(2, 2 + rank)))
    boxes = every[(..., *(slice(None, None, s) for s in strides), *(slice(None, None, d) for d in dilations))]
    return boxes.max(axis=tuple(range(2 + rank, 2 + 2 * rank)))


def at(
    kernel: list[int], pads: list[int] | None = None, strides: list[int] | None = None, **others: object
) -> dict:
    """The attributes of a call: every one given, as the profile requires."""
    rank = len(kernel)
    return {
        "auto_pad": others.get("auto_pad", "NOTSET"),
        "ceil_mode": others.get("ceil_mode", 0),
        "dilations": tuple(others.get("dilations", [1] * rank)),
        "kernel_shape": tuple(kernel),
        "pads": tuple(pads if pads is not None else [0] * 2 * rank),
        "storage_order": others.get("storage_order", 0),
        "strides": tuple(strides if strides is not None else [1] * rank),
    }


def rows(v: Values) -> list[tuple]:
    grid = v([[[[1, 5, 2, 0], [3, 4, 9, 1], [6, 2, 8, 7], [0, 3, 1, 5]]]])
    line = v([[[3, 1, 4, 1, 5, 9, 2, 6]]])
    draft = v(
        [[[[-12, -13, 5], [-14, -15, 6], [7, 8, -1]]]]
        if v.signed
        else [[[[12, 13, 5], [14, 15, 6], [7, 8, 1]]]]
    )
    block = v(np.arange(2 * 2 * 2 * 3 * 3).reshape(2, 2, 2, 3, 3) % 11)
    lo, hi = v.lowest, v.highest
    rows = [
        ("2-D, kernel 2 (draft, int example 1)", "strides and dilations 1", (draft,), at([2, 2])),
        ("2-D, kernel 2, strides 2", ORDINARY, (grid,), at([2, 2], strides=[2, 2])),
        ("2-D, kernel 3 by 2", ORDINARY, (grid,), at([3, 2], strides=[1, 2])),
        ("1-D, kernel 3, stride 2", ORDINARY, (line,), at([3], strides=[2])),
        ("3-D, kernel 2", "strides and dilations 1", (block,), at([2, 2, 2])),
        ("3-D, kernel 2, strides 2", ORDINARY, (block,), at([2, 2, 2], strides=[1, 2, 2])),
        ("2-D, pads 1 (draft, int example 4)", "padding", (draft,), at([2, 2], [1, 1, 1, 1])),
        ("2-D, pads at the end only (draft, int example 3)", "padding", (draft,), at([2, 2], [0, 1, 1, 1])),
        ("1-D, pads 1 each side", "padding", (line,), at([2], [1, 1])),
        ("2-D, dilations 2", "dilations", (grid,), at([2, 2], dilations=[2, 2])),
        ("1-D, dilation 3 and pads", "dilations", (line,), at([2], [2, 1], [2], dilations=[3])),
        ("VALID", "auto_pad", (grid,), at([3, 3], auto_pad="VALID")),
        (
            "SAME_UPPER, stride 2",
            "auto_pad",
            (grid,),
            at([3, 3], [1, 1, 1, 1], [2, 2], auto_pad="SAME_UPPER"),
        ),
        ("SAME_LOWER, kernel 2", "auto_pad", (grid,), at([2, 2], [1, 1, 0, 0], auto_pad="SAME_LOWER")),
        ("SAME_UPPER with other pads", "auto_pad", (grid,), at([2, 2], [0, 0, 0, 0], auto_pad="SAME_UPPER")),
        ("a dilation that steps over X", "windows off X", (v([[[5, 6]]]),), at([2], [1, 1], dilations=[3])),
        ("a pad as large as the kernel", "windows off X", (line,), at([2], [2, 0], [2])),
        ("ceil_mode 1", "ceil_mode and storage_order", (line,), at([2], strides=[3], ceil_mode=1)),
        ("storage_order 1", "ceil_mode and storage_order", (line,), at([2], storage_order=1)),
        ("an empty batch", "empty and 0-d", (v(np.zeros((0, 1, 3))),), at([2])),
        ("an empty spatial axis", "empty and 0-d", (v(np.zeros((1, 1, 0))),), at([1])),
        ("rank 2", "empty and 0-d", (v([[1, 2, 3]]),), at([2])),
        ("no window fits", "empty and 0-d", (v([[[1, 2]]]),), at([3])),
        (
            "the lowest everywhere, padded",
            "extreme values",
            (v([[[[lo, lo], [lo, lo]]]]),),
            at([2, 2], [1, 1, 1, 1], [2, 2]),
        ),
        ("extremes", "extreme values", (v([[[lo, hi, lo, hi]]]),), at([2])),
    ]
    if not v.is_float:
        return rows
    nan, inf, tiny = math.nan, math.inf, v.subnormal
    return [
        *rows,
        ("−0 then +0", "signed zero", (v([[[-0.0, 0.0, -0.0, -0.0]]]),), at([2])),
        ("+0 then −0", "signed zero", (v([[[0.0, -0.0, -0.0, 0.0]]]),), at([2])),
        ("−0 and padding", "signed zero", (v([[[-0.0, -0.0]]]),), at([2], [1, 1])),
        ("a NaN in the middle", "NaN", (v([[[1, nan, 3, 2]]]),), at([2])),
        ("a NaN first", "NaN", (v([[[nan, 1, 3, 2]]]),), at([2])),
        ("a NaN in a 2-D window", "NaN", (v([[[[1, 2, 3], [4, nan, 6], [7, 8, 9]]]]),), at([2, 2])),
        ("+∞", "infinity", (v([[[1, inf, 3, -inf]]]),), at([2])),
        ("−∞ and padding (draft, float example 3)", "infinity", (v([[[-inf, -inf, 1]]]),), at([2], [1, 1])),
        (
            "−∞ and padding, 2-D (draft, float example 4)",
            "infinity",
            (v([[[[-inf, 9, 4], [2, 3, 2], [2, 3, 5]]]]),),
            at([2, 2], [1, 1, 1, 1]),
        ),
        ("subnormals", "subnormal", (v([[[-tiny, tiny, -tiny, 0.0]]]),), at([2])),
    ]


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """The bench's call: the vector X as (1, 1, n), windows of 3, stride 1, one pad each side."""
    return [X.reshape(1, 1, -1)], at([3], [1, 1])


EXPLAINED = {
    "strides and dilations 1": Explanation(
        "MAXPOOL_S2",
        "The ONNX reference computes a MaxPool whose strides and dilations are all 1 with a pooling "
        "routine of "
        "its own that pads with NaN: it fails on int8 and uint8 (a NaN is no integer) and on a padded 1-D X. "
        "With another stride or dilation it compares window positions one by one, as the profile does.",
    ),
    "NaN": Explanation(
        "MAXPOOL_S3",
        "A window holding a NaN gives its first NaN, as Max propagates NaN. The ONNX reference and "
        "onnxruntime "
        "(float32, float16) pass over a NaN: [1, NaN] gives 1; onnxruntime's float64 kernel gives NaN "
        "only where "
        "the NaN comes first in the window.",
    ),
    "signed zero": Explanation(
        "MAXPOOL_S2",
        "A window holding +0 and −0 as its greatest values gives +0, as Max orders them. onnxruntime "
        "gives the "
        "first zero of the window, and the ONNX reference depends on the type.",
    ),
    "infinity": Explanation(
        "MAXPOOL_S2",
        "The padding is no value: a window of −∞ and padding gives −∞. onnxruntime's float32 kernel pads "
        "with "
        "the least finite float, which wins over −∞ (the draft's example 3); the ONNX reference fails on a "
        "padded 1-D X.",
    ),
    "padding": Explanation(
        "MAXPOOL_S2",
        "The padding never wins. The ONNX reference fails with an index error on a padded 1-D X.",
    ),
    "dilations": Explanation(
        "MAXPOOL_S2",
        "onnxruntime refuses a pad as large as the undilated kernel, which the profile accepts below the "
        "dilated "
        "one (MAXPOOL_C10); the ONNX reference fails on a padded 1-D X.",
    ),
    "auto_pad": Explanation(
        "MAXPOOL_C7",
        "Where auto_pad is not NOTSET, pads must state the pads it stands for: the profile refuses other "
        "pads, "
        "which the ONNX reference and onnxruntime pass over.",
    ),
    "windows off X": Explanation(
        "MAXPOOL_C12",
        "A window with no position on X has no greatest element: the profile refuses it. onnxruntime "
        "refuses a "
        "pad as large as the undilated kernel, but computes a dilation stepping over X; the ONNX reference "
        "gives NaN or fails.",
    ),
    "ceil_mode and storage_order": Explanation(
        "MAXPOOL_C8",
        "The profile refuses ceil_mode 1 and storage_order 1 (MAXPOOL_C9); the engines compute them.",
    ),
    "empty and 0-d": Explanation(
        "MAXPOOL_C1",
        "The profile refuses an X of rank below 3, and an axis where no window fits (MAXPOOL_C11) or no "
        "window "
        "has a position on X (MAXPOOL_C12); an engine may fail with an error of its own.",
    ),
}
_DEFAULTS = (
    "ONNX's case leaves attributes at their defaults; the profile requires every attribute (GR4). Written "
    "out (auto_pad's pads stated), Y is ONNX's expected output bit for bit, except where ceil_mode is 1 "
    "(refused by MAXPOOL_C8) or storage_order 1 (MAXPOOL_C9); the Indices output of the with_argmax cases "
    "is not specified."
)
BACKEND_DIVERGENCES = {
    name: Divergence("GR4", _DEFAULTS)
    for name in (
        "test_maxpool_1d_default",
        "test_maxpool_2d_ceil",
        "test_maxpool_2d_ceil_output_size_reduce_by_one",
        "test_maxpool_2d_default",
        "test_maxpool_2d_dilations",
        "test_maxpool_2d_pads",
        "test_maxpool_2d_precomputed_pads",
        "test_maxpool_2d_precomputed_same_upper",
        "test_maxpool_2d_precomputed_strides",
        "test_maxpool_2d_same_lower",
        "test_maxpool_2d_same_upper",
        "test_maxpool_2d_strides",
        "test_maxpool_2d_uint8",
        "test_maxpool_3d_default",
        "test_maxpool_3d_dilations",
        "test_maxpool_3d_dilations_use_ref_impl",
        "test_maxpool_3d_dilations_use_ref_impl_large",
        "test_maxpool_with_argmax_2d_precomputed_pads",
        "test_maxpool_with_argmax_2d_precomputed_strides",
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "MAXPOOL_S2"
