"""MaxPool (ONNX MaxPool-22 in the SONNX profile): the greatest element of each window of X, as Max orders."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..checks import new_array
from ..errors import SonnxError
from ..families.windows import (
    AUTO_PADS,
    automatic_pads,
    dilated_size,
    inside,
    output_spatial_shape,
    windows,
)
from ..order import ordered_max
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def max_pool(
    X: Array,
    *,
    auto_pad: str,
    ceil_mode: int,
    dilations: tuple[int, ...],
    kernel_shape: tuple[int, ...],
    pads: tuple[int, ...],
    storage_order: int,
    strides: tuple[int, ...],
) -> np.ndarray:
    """The greatest element of each window of X, a box of ``kernel_shape`` positions ``dilations`` apart
    placed every ``strides`` positions on X padded by ``pads``.

    X has shape (N, C, d1, …, dk), k from 1 to 3. Only the positions of a window that lie on X count: the
    padding is no value and never wins. Elements are ordered as Max orders them: NaN above +∞ (a window
    holding a NaN gives its first NaN), +0 above −0. ``auto_pad`` NOTSET takes ``pads`` as given; VALID,
    SAME_UPPER and SAME_LOWER stand for pads, which ``pads`` must then state. ``ceil_mode`` and
    ``storage_order`` are 0. Every window has at least one position on X.

    Returns a new array (N, C, o1, …, ok) of X's type, each element an element of X, bit for bit.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[[3, 1, 4, 1, 5]]], np.int8)
    >>> sonnx_spec.max_pool(X, auto_pad="NOTSET", ceil_mode=0, dilations=(1,), kernel_shape=(2,),
    ...                     pads=(1, 0), storage_order=0, strides=(2,))
    array([[[3, 4, 5]]], dtype=int8)
    """
    rank = np.ndim(X) - 2
    if rank not in (1, 2, 3):
        raise SonnxError(
            "MAXPOOL_C1", f"max_pool: X has shape {np.shape(X)}, not (N, C) and 1 to 3 spatial axes"
        )
    _positive_per_axis("MAXPOOL_C2", "kernel_shape", kernel_shape, rank)
    _positive_per_axis("MAXPOOL_C3", "strides", strides, rank)
    _positive_per_axis("MAXPOOL_C4", "dilations", dilations, rank)
    if len(pads) != 2 * rank or min(pads) < 0:
        raise SonnxError("MAXPOOL_C5", f"max_pool: pads is {pads}, not {2 * rank} values at least 0")
    if auto_pad not in AUTO_PADS:
        raise SonnxError(
            "MAXPOOL_C6", f"max_pool: auto_pad is {auto_pad!r}, not one of {', '.join(AUTO_PADS)}"
        )
    spatial = np.shape(X)[2:]
    if auto_pad != "NOTSET":
        stated = automatic_pads(auto_pad, spatial, kernel_shape, strides, dilations)
        if tuple(pads) != stated:
            problem = f"max_pool: auto_pad {auto_pad} stands for pads {stated}, but pads is {tuple(pads)}"
            raise SonnxError("MAXPOOL_C7", problem)
    if ceil_mode != 0:
        raise SonnxError("MAXPOOL_C8", f"max_pool: ceil_mode is {ceil_mode}, not 0")
    if storage_order != 0:
        raise SonnxError("MAXPOOL_C9", f"max_pool: storage_order is {storage_order}, not 0")
    extents = [dilated_size(kernel_shape[a], dilations[a]) for a in range(rank)]
    if any(max(pads[a], pads[rank + a]) >= extents[a] for a in range(rank)):  # axis a's begin and end
        problem = f"max_pool: pads {tuple(pads)} not each smaller than the dilated kernel {tuple(extents)}"
        raise SonnxError("MAXPOOL_C10", problem)
    counts = output_spatial_shape(spatial, kernel_shape, pads, strides, dilations)  # MAXPOOL_S1
    if min(counts) < 1:
        raise SonnxError("MAXPOOL_C11", f"max_pool: window counts {counts}: not one window fits on some axis")
    on_x = inside(spatial, kernel_shape, pads, strides, dilations)
    window_axes = tuple(range(rank, 2 * rank))
    if not on_x.any(axis=window_axes).all():
        raise SonnxError("MAXPOOL_C12", "max_pool: a window has no position on X, only padding")
    Y = new_array("max_pool", (*np.shape(X)[:2], *counts), np.asarray(X).dtype)  # MAXPOOL_S1
    # MAXPOOL_S2, MAXPOOL_S3: Max's order over the positions on X. The padding is filled with the type's
    # lowest value (−∞, or the integers' least): every window holds an element of X, at least as great.
    boxes = windows(X, kernel_shape, pads, strides, dilations, fill=_lowest(Y.dtype))
    flat = boxes.reshape(*Y.shape, math.prod(kernel_shape))  # the window positions in row-major order
    return ordered_max([flat[..., j] for j in range(flat.shape[-1])], Y)  # MAXPOOL_P1: an element of X


def _positive_per_axis(rule: str, name: str, values: Sequence[int], rank: int) -> None:
    """The rule of an attribute of one positive integer per spatial axis."""
    if len(values) != rank or min(values) < 1:
        raise SonnxError(rule, f"max_pool: {name} is {tuple(values)}, not {rank} values at least 1")


def _lowest(dtype: np.dtype) -> int | float:
    """−∞ for a float type, the least value for an integer one: no element of X is below it (np.pad
    converts it to X's type, exactly)."""
    return int(np.iinfo(dtype).min) if np.issubdtype(dtype, np.integer) else -math.inf


max_pool = operator(
    max_pool,
    onnx="MaxPool",
    version=22,
    inputs=(Tensor("X", "X", "T", doc="the tensor pooled: (N, C) and 1 to 3 spatial axes"),),
    attributes=(
        Attribute(
            "auto_pad", "auto_pad", "string", doc="NOTSET: pads as given; VALID, SAME_UPPER, SAME_LOWER"
        ),
        Attribute("ceil_mode", "ceil_mode", "int", doc="0: the window count rounded down (1 is refused)"),
        Attribute(
            "dilations", "dilations", "ints", doc="the spacing of a window's positions, per spatial axis"
        ),
        Attribute("kernel_shape", "kernel_shape", "ints", doc="the window's positions per spatial axis"),
        Attribute(
            "pads", "pads", "ints", doc="the padding at the beginning of each spatial axis, then the end"
        ),
        Attribute("storage_order", "storage_order", "int", doc="0 (Indices is not specified; 1 is refused)"),
        Attribute("strides", "strides", "ints", doc="the distance between windows, per spatial axis"),
    ),
    outputs=(Tensor("Y", "Y", "T", doc="the greatest element of each window"),),
    types={"T": ("int8", "uint8", "float")},
)
