"""Sliding windows (Conv, MaxPool, ConvTranspose…): each element of a result computed from a window of X,
a box of ``kernel_shape`` positions on X's spatial axes (every axis after the batch and the channel),
its positions ``dilations`` apart, placed every ``strides`` positions on X padded by ``pads``.

``pads`` lists the positions added at the beginning of each spatial axis, then those added at its end
(ONNX's ``[x1_begin, x2_begin, …, x1_end, x2_end, …]``). An operator checks its attributes itself, each
against its own rule; these helpers compute with attributes already checked (positive kernel sizes,
strides and dilations, pads at least 0, one value per spatial axis).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

Array = np.ndarray | np.generic
AUTO_PADS = ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER")
"""ONNX's values of ``auto_pad``: NOTSET (the pads are given), VALID (no padding), SAME_UPPER and SAME_LOWER
(as many windows as ⌈size / stride⌉, the odd padding position at the end, or at the beginning)."""


def dilated_size(kernel: int, dilation: int) -> int:
    """The extent on X of a window of ``kernel`` positions ``dilation`` apart: from its first position
    to its last, both included."""
    return dilation * (kernel - 1) + 1


def window_count(size: int, kernel: int, begin: int, end: int, stride: int, dilation: int) -> int:
    """How many windows fit on an axis of ``size`` positions padded by ``begin`` and ``end``, placed every
    ``stride`` positions: ⌊(size + begin + end − dilated size) / stride⌋ + 1. Zero or less when not one
    window fits (the operator decides whether that is refused)."""
    return (size + begin + end - dilated_size(kernel, dilation)) // stride + 1


def output_spatial_shape(
    spatial_shape: Sequence[int],
    kernel_shape: Sequence[int],
    pads: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
) -> tuple[int, ...]:
    """The window count of each spatial axis (:func:`window_count`)."""
    rank = len(spatial_shape)
    begins, ends = pads[:rank], pads[rank:]
    axes = zip(spatial_shape, kernel_shape, begins, ends, strides, dilations, strict=True)
    return tuple(window_count(*axis) for axis in axes)


def automatic_pads(
    auto_pad: str,
    spatial_shape: Sequence[int],
    kernel_shape: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
) -> tuple[int, ...]:
    """The pads ``auto_pad`` (VALID, SAME_UPPER or SAME_LOWER) stands for, in ``pads``' order.

    VALID pads nothing. SAME_UPPER and SAME_LOWER pad the fewest positions that give ⌈size / stride⌉
    windows, split evenly between the two ends; an odd one goes at the end (UPPER) or the beginning (LOWER).
    """
    if auto_pad == "VALID":
        return (0,) * (2 * len(spatial_shape))
    begins, ends = [], []
    for size, kernel, stride, dilation in zip(spatial_shape, kernel_shape, strides, dilations, strict=True):
        total = max(0, (math.ceil(size / stride) - 1) * stride + dilated_size(kernel, dilation) - size)
        small, large = total // 2, total - total // 2
        begins.append(small if auto_pad == "SAME_UPPER" else large)
        ends.append(total - begins[-1])
    return (*begins, *ends)


def windows(
    X: Array,
    kernel_shape: Sequence[int],
    pads: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    fill: object,
) -> np.ndarray:
    """The windows of X (shape ``(N, C, d1, …, dk)``), a read-only array of shape ``(N, C, o1, …, ok,
    k1, …, kk)``: element ``[n, c, o…, j…]`` is ``Xp[n, c, o·stride + j·dilation, …]``, where ``Xp`` is X
    with ``fill`` in its padding. A view of one padded copy of X: X itself is never written."""
    rank = np.ndim(X) - 2
    padding = [(0, 0), (0, 0), *zip(pads[:rank], pads[rank:], strict=True)]
    padded = np.pad(np.asarray(X), padding, constant_values=fill)
    extents = [dilated_size(k, d) for k, d in zip(kernel_shape, dilations, strict=True)]
    every = sliding_window_view(padded, extents, axis=tuple(range(2, 2 + rank)))
    placed = tuple(slice(None, None, s) for s in strides)  # a window every stride positions
    spaced = tuple(slice(None, None, d) for d in dilations)  # its positions dilation apart
    return every[(slice(None), slice(None), *placed, *spaced)]


def inside(
    spatial_shape: Sequence[int],
    kernel_shape: Sequence[int],
    pads: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
) -> np.ndarray:
    """Which positions of each window lie on X rather than in its padding: a boolean array of shape
    ``(o1, …, ok, k1, …, kk)``: not the windows of a tensor of False padded with True."""
    padding = np.zeros((1, 1, *spatial_shape), dtype=np.bool_)  # X's positions are not padding
    return ~windows(padding, kernel_shape, pads, strides, dilations, fill=True)[0, 0]
