"""Conv's conformance cases, explained divergences and ONNX backend expectations."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import ORDINARY, Divergence, Explanation, Values

TOPICS = (
    ORDINARY,
    "padding",
    "dilation",
    "groups",
    "automatic padding",
    "empty sums",
    "summation order",
    "extreme values",
    "overflow to infinity",
    "signed zero",
    "NaN",
    "infinity",
    "subnormal",
)


def plain(rank: int = 1, **given: object) -> dict:
    """The attributes of a call without padding, strides, dilations or groups, unless ``given``."""
    return {
        "auto_pad": "NOTSET",
        "dilations": (1,) * rank,
        "group": 1,
        "kernel_shape": (1,) * rank,
        "pads": (0,) * (2 * rank),
        "strides": (1,) * rank,
        **given,
    }


def numpy(
    X: np.ndarray,
    W: np.ndarray,
    B: np.ndarray,
    *,
    auto_pad: str,
    dilations: tuple,
    group: int,
    kernel_shape: tuple,
    pads: tuple,
    strides: tuple,
) -> np.ndarray:
    """Conv as a developer writes it with numpy: X padded with zeros, its windows, and a sum of products
    per group in the operands' type by matmul, plus B (auto_pad is taken as NOTSET)."""
    rank = X.ndim - 2
    padded = np.pad(X, [(0, 0), (0, 0)] + [(pads[i], pads[rank + i]) for i in range(rank)])
    extents = [d * (k - 1) + 1 for k, d in zip(kernel_shape, dilations, strict=True)]
    every = sliding_window_view(padded, extents, axis=tuple(range(2, 2 + rank)))
    taken = every[(slice(None), slice(None), *(slice(None, None, s) for s in strides))]
    taken = taken[(Ellipsis, *(slice(None, None, d) for d in dilations))]  # (N, C, o…, k…)
    per_in, per_out = X.shape[1] // group, W.shape[0] // group
    outputs = []
    for g in range(group):  # im2col: (N, o…, c·k…) times (c·k…, m)
        part = np.moveaxis(taken[:, g * per_in : (g + 1) * per_in], 1, 1 + rank)
        rows = part.reshape(*part.shape[: 1 + rank], -1)
        kernels = W[g * per_out : (g + 1) * per_out].reshape(per_out, -1)
        outputs.append(np.moveaxis(np.matmul(rows, kernels.T), -1, 1))
    Y = np.concatenate(outputs, axis=1).astype(X.dtype)  # numpy's bfloat16 matmul gives float32
    return Y + B.reshape(1, -1, *(1,) * rank)


SAMPLE_FROM_CASES = True
"""The general rules' sample call takes the first case: Conv's attributes are lists, and its inputs are of
three ranks."""
BENCH_LIMIT = 60.0
"""Gemm's limit: the same float64 matmuls over the windows, the rounding decided element by element and
the exact sums of the few elements left undecided."""


def bench_call(X: np.ndarray) -> tuple[list[np.ndarray], dict]:
    """A (1, 16, 32, 32) input of the bench's standard normal values, 16 kernels of 3 × 3 over 16 channels,
    their bias; padding 1."""
    size = 16 * 32 * 32
    weights = 16 * 16 * 9
    inputs = [
        X[:size].reshape(1, 16, 32, 32).copy(),
        X[size : size + weights].reshape(16, 16, 3, 3).copy(),
        X[size + weights : size + weights + 16].copy(),
    ]
    return inputs, plain(2, kernel_shape=(3, 3), pads=(1, 1, 1, 1))


def rows(v: Values) -> list[tuple]:
    nan, inf, tiny = math.nan, math.inf, float(v.subnormal)
    big = float(np.array(2.0 ** (ml_dtypes.finfo(v.dtype).nmant + 3), v.dtype))  # 1 is below its ulp
    normal = float(ml_dtypes.finfo(v.dtype).smallest_normal)
    x3 = v([[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]])
    return [
        (
            "2-D, 2 × 2 kernel",
            ORDINARY,
            (x3, v([[[[1, 0], [0, -1]]]]), v([10])),
            plain(2, kernel_shape=(2, 2)),
        ),
        (
            "1-D, two channels, two maps",
            ORDINARY,
            (v([[[1, 2, 3, 4], [0, 1, 0, -1]]]), v([[[1, 1], [2, 0]], [[0, 1], [-1, 1]]]), v([0, 1])),
            plain(1, kernel_shape=(2,)),
        ),
        (
            "3-D, 2 × 2 × 2 kernel",
            ORDINARY,
            (v(np.arange(8).reshape(1, 1, 2, 2, 2)), v(np.ones((1, 1, 2, 2, 2))), v([-1])),
            plain(3, kernel_shape=(2, 2, 2)),
        ),
        (
            "strides 2",
            ORDINARY,
            (v([[[1, 2, 3, 4, 5]]]), v([[[1, 1]]]), v([0])),
            plain(kernel_shape=(2,), strides=(2,)),
        ),
        (
            "pads (1, 0) on a 2-D input",
            "padding",
            (x3, v([[[[1, 0], [0, -1]]]]), v([10])),
            plain(2, kernel_shape=(2, 2), pads=(1, 1, 0, 0)),
        ),
        (
            "a window wholly in the padding",
            "padding",
            (v([[[1, 2, 3]]]), v([[[1]]]), v([5])),
            plain(pads=(2, 2)),
        ),
        (
            "a padded zero times +∞",
            "padding",
            (v([[[1, 2, 3]]]), v([[[inf, 1]]]), v([0])),
            plain(kernel_shape=(2,), pads=(1, 0)),
        ),
        (
            "dilation 2",
            "dilation",
            (v([[[1, 2, 3, 4, 5]]]), v([[[1, 1]]]), v([0])),
            plain(kernel_shape=(2,), dilations=(2,)),
        ),
        (
            "∞ where a dilation passes over",
            "dilation",
            (v([[[1, inf, 3]]]), v([[[1, 1]]]), v([0])),
            plain(kernel_shape=(2,), dilations=(2,)),
        ),
        (
            "depthwise: group = C",
            "groups",
            (v([[[1, 2, 3], [10, 20, 30]]]), v([[[1, 1]], [[1, -1]]]), v([0, 100])),
            plain(kernel_shape=(2,), group=2),
        ),
        (
            "group 2 of 4 channels",
            "groups",
            (v([[[1, 2], [3, 4], [5, 6], [7, 8]]]), v([[[1], [1]], [[1], [-1]]]), v([0, 0])),
            plain(group=2),
        ),
        (
            "auto_pad SAME_UPPER",
            "automatic padding",
            (v([[[1, 2, 3]]]), v([[[1, 1]]]), v([0])),
            plain(kernel_shape=(2,), auto_pad="SAME_UPPER"),
        ),
        (
            "auto_pad VALID",
            "automatic padding",
            (v([[[1, 2, 3]]]), v([[[1, 1]]]), v([0])),
            plain(kernel_shape=(2,), auto_pad="VALID"),
        ),
        (
            "no channel: Y is B",
            "empty sums",
            (v(np.zeros((1, 0, 3))), v(np.zeros((2, 0, 1))), v([1, 2])),
            plain(),
        ),
        (
            "big + 1 − big",
            "summation order",
            (v([[[big, 1.0, -big]]]), v([[[1.0, 1.0, 1.0]]]), v([0])),
            plain(kernel_shape=(3,)),
        ),
        ("max · 2 − max", "overflow to infinity", (v([[[v.highest]]]), v([[[2]]]), v([v.lowest])), plain()),
        (
            "max + max − max",
            "overflow to infinity",
            (v([[[v.highest, v.highest]]]), v([[[1, 1]]]), v([v.lowest])),
            plain(kernel_shape=(2,)),
        ),
        (
            "−0 terms and a −0 bias",
            "signed zero",
            (v([[[-0.0, -0.0]]]), v([[[1.0, 1.0]]]), v([-0.0])),
            plain(kernel_shape=(2,)),
        ),
        (
            "−0 with padding",
            "signed zero",
            (v([[[-0.0]]]), v([[[1.0, 1.0]]]), v([-0.0])),
            plain(kernel_shape=(2,), pads=(1, 1)),
        ),
        ("a NaN in X", "NaN", (v([[[1.0, nan, 2.0]]]), v([[[1.0, 1.0]]]), v([0])), plain(kernel_shape=(2,))),
        (
            "+∞ and −∞ meet",
            "NaN",
            (v([[[inf, 1.0]]]), v([[[1.0, 1.0]]]), v([-inf])),
            plain(kernel_shape=(2,)),
        ),
        ("+∞ in B", "infinity", (v([[[1.0, 2.0]]]), v([[[1.0]]]), v([inf])), plain()),
        ("subnormal sums", "subnormal", (v([[[tiny, normal]]]), v([[[0.5]]]), v([tiny / 2])), plain()),
    ]


_DEFAULTS = (
    "ONNX's case leaves attributes at their defaults and omits B; the profile requires every attribute and "
    "B (GR4)."
)
BACKEND_DIVERGENCES = {
    name: Divergence("GR4", _DEFAULTS)
    for name in (
        "test_basic_conv_with_padding",
        "test_basic_conv_without_padding",
        "test_conv_with_autopad_same",
        "test_conv_with_strides_and_asymmetric_padding",
        "test_conv_with_strides_no_padding",
        "test_conv_with_strides_padding",
    )
}
BACKEND_RULES: dict = {}
SEMANTICS = "CONV_S3"

EXPLAINED = {
    "automatic padding": Explanation(
        "CONV_C7",
        "ONNX computes the pads VALID, SAME_UPPER and SAME_LOWER stand for, and the engines do; the profile "
        "takes NOTSET only and names the pads to write instead (ONNX forbids pads beside auto_pad, and every "
        "attribute is given).",
    ),
    "dilation": Explanation(
        "CONV_S2",
        "The ONNX reference multiplies X by a kernel with zeros inserted between its positions, so that an "
        "infinite or NaN element of X that the dilation passes over makes a NaN; the profile, as "
        "onnxruntime, reads only the kernel's positions.",
    ),
    "empty sums": Explanation(
        "CONV_S6",
        "With no input channel every sum is empty and Y is B; onnxruntime 1.31 gives unread memory (NaN or "
        "anything) beside B's first values.",
    ),
    "summation order": Explanation(
        "CONV_S3",
        "The exact sum big + 1 − big is 1; an engine adding in the type, left to right, loses the 1 to big "
        "and gives 0, which CONV_P1's bound admits (the reference gives the exact sum rounded once).",
    ),
    "overflow to infinity": Explanation(
        "CONV_S3",
        "The exact sum is max; an engine summing in the type overflows to +∞ before B is added, which "
        "CONV_P1 admits: the sum of the magnitudes overflows.",
    ),
    "extreme values": Explanation(
        "CONV_S3",
        "The exact sum max·2 − max is max; an engine rounds the product max·2 to +∞ before adding B = −max, "
        "which CONV_P1 admits: the sum of the magnitudes overflows.",
    ),
    "subnormal": Explanation(
        "CONV_S3",
        "An engine that rounds the product tiny·0.5 to the type first rounds it to 0, a tie; the exact sum "
        "tiny/2 + tiny/2 is tiny. CONV_P1's absolute term, 2(n + 2)·η, admits the difference.",
    ),
    "signed zero": Explanation(
        "CONV_S5",
        "The products −0 and B's −0 give −0 exactly; an engine whose accumulator starts at +0 gives +0, "
        "which CONV_P1 admits (a zero of either sign).",
    ),
}
