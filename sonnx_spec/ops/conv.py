"""Conv (ONNX Conv-22 in the SONNX profile): each element of Y the exact sum of a window of X times a kernel,
plus the bias, rounded once."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..accuracy import Within, engines_within
from ..errors import SonnxError
from ..families.accumulation import exact_matmul
from ..families.windows import AUTO_PADS, automatic_pads, output_spatial_shape, windows
from ..registry import Attribute, Tensor, operator
from . import gemm as gemm_module

Array = np.ndarray | np.generic


def refuse(rule: str, tensor: str, problem: str) -> None:
    raise SonnxError(rule, f"conv: {problem}", operator="conv", tensor=tensor)


def check_ranks(X: Array, W: Array) -> int:
    """CONV_C1: X is (N, C, d1, …, dr) with r ≥ 1 spatial axes, W (M, C/group, k1, …, kr) of X's rank.
    Returns r."""
    if np.ndim(X) < 3:
        refuse("CONV_C1", "X", f"X has shape {np.shape(X)}: a batch, a channel and at least one spatial axis")
    if np.ndim(W) != np.ndim(X):
        refuse("CONV_C1", "W", f"W has rank {np.ndim(W)}, X rank {np.ndim(X)}: they have the same rank")
    return np.ndim(X) - 2


def check_attributes(
    rank: int,
    dilations: Sequence[int],
    kernel_shape: Sequence[int],
    pads: Sequence[int],
    strides: Sequence[int],
) -> None:
    """CONV_C2, CONV_C3: one value per spatial axis (two for pads), each in its domain."""
    for name, values, length in (
        ("dilations", dilations, rank),
        ("kernel_shape", kernel_shape, rank),
        ("pads", pads, 2 * rank),
        ("strides", strides, rank),
    ):
        if len(values) != length:
            refuse("CONV_C2", name, f"{name} has {len(values)} values; X's {rank} spatial axes need {length}")
    for name, values, least in (
        ("dilations", dilations, 1),
        ("kernel_shape", kernel_shape, 1),
        ("pads", pads, 0),
        ("strides", strides, 1),
    ):
        if min(values) < least:  # one value at least: CONV_C1 gave a spatial axis, CONV_C2 their count
            refuse("CONV_C3", name, f"{name} is {list(values)}: each value is at least {least}")


def check_shapes(X: Array, W: Array, B: Array, group: int, kernel_shape: Sequence[int]) -> None:
    """CONV_C4 to CONV_C6: the kernel, the groups and the bias fit X and W."""
    if tuple(kernel_shape) != np.shape(W)[2:]:
        refuse(
            "CONV_C4",
            "kernel_shape",
            f"kernel_shape is {list(kernel_shape)}, W's spatial dimensions {list(np.shape(W)[2:])}",
        )
    channels, maps = np.shape(X)[1], np.shape(W)[0]
    if group < 1 or channels % group or maps % group:
        refuse(
            "CONV_C5",
            "group",
            f"group is {group}: it divides X's {channels} channels and W's {maps} output channels",
        )
    if np.shape(W)[1] * group != channels:
        refuse(
            "CONV_C5",
            "W",
            f"W has {np.shape(W)[1]} input channels per group; X's {channels} channels in {group} groups"
            f" are {channels // group}",
        )
    if np.shape(B) != (maps,):
        refuse("CONV_C6", "B", f"B has shape {np.shape(B)}; W's {maps} output channels need ({maps},)")


def explicit_pads(
    auto_pad: str,
    spatial: Sequence[int],
    dilations: Sequence[int],
    kernel_shape: Sequence[int],
    strides: Sequence[int],
) -> None:
    """CONV_C7: auto_pad is NOTSET; the padding is the pads given. VALID, SAME_UPPER and SAME_LOWER are
    refused with the pads they stand for: ONNX forbids pads beside them, and GR4 requires pads."""
    if auto_pad == "NOTSET":
        return
    if auto_pad in AUTO_PADS:
        meant = automatic_pads(auto_pad, spatial, kernel_shape, strides, dilations)
        refuse(
            "CONV_C7",
            "auto_pad",
            f"auto_pad is {auto_pad}; the profile takes NOTSET, the padding stated by pads: here"
            f" auto_pad = NOTSET and pads = {list(meant)}",
        )
    refuse("CONV_C7", "auto_pad", f"auto_pad is {auto_pad!r}; the profile takes NOTSET")


def conv(
    X: Array,
    W: Array,
    B: Array,
    *,
    auto_pad: str,
    dilations: tuple[int, ...],
    group: int,
    kernel_shape: tuple[int, ...],
    pads: tuple[int, ...],
    strides: tuple[int, ...],
) -> np.ndarray:
    """Convolution of X by W plus the bias B: exact sums of exact products and of B, rounded once.

    ``X`` has shape (N, C, d1, …, dr), ``W`` (M, C/group, k1, …, kr) and ``B``
    (M,) (CONV_C1, CONV_C4 to CONV_C6). ``Y[n, m, o…]`` is the sum, over the
    C/group channels of m's group and the kernel's positions j…, of
    ``W[m, c, j…]`` times X padded with zeros at ``o·strides + j·dilations``,
    plus ``B[m]`` (CONV_S1, CONV_S2); ``Y`` has shape (N, M, o1, …, or), each
    oi the number of windows on axis i (CONV_C8, CONV_C9). Every attribute is
    given (GR4), ``auto_pad`` as NOTSET: the padding is ``pads`` (CONV_C7).
    The exact real sum is rounded once to the type (to nearest, ties to
    even), whatever order an engine sums in; NaN and infinities as IEEE 754
    gives them for any order, a padded zero times an infinite weight
    included; an exact zero is −0 only if every product and B[m] are −0. An
    engine need not give this value: CONV_P1 bounds how far from the exact
    sum its result may be.

    Returns a new array of the type of X, W and B.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[[1e8, 1.0, -1e8]]], dtype=np.float32)
    >>> W = np.ones((1, 1, 3), dtype=np.float32)
    >>> sonnx_spec.conv(X, W, np.zeros(1, np.float32), auto_pad="NOTSET", dilations=(1,), group=1,
    ...                 kernel_shape=(3,), pads=(0, 0), strides=(1,))
    array([[[1.]]], dtype=float32)
    """
    rank = check_ranks(X, W)  # CONV_C1
    check_attributes(rank, dilations, kernel_shape, pads, strides)  # CONV_C2, CONV_C3
    check_shapes(X, W, B, group, kernel_shape)  # CONV_C4, CONV_C5, CONV_C6
    spatial = np.shape(X)[2:]
    explicit_pads(auto_pad, spatial, dilations, kernel_shape, strides)  # CONV_C7
    counts = output_spatial_shape(spatial, kernel_shape, pads, strides, dilations)  # CONV_C8
    if min(counts) < 1:
        refuse(
            "CONV_C9", "X", f"X's spatial dimensions {list(spatial)} hold no window on some axis: {counts}"
        )
    X, W, B = np.asarray(X), np.asarray(W), np.asarray(B)
    batch, maps = X.shape[0], W.shape[0]
    per_group, terms = maps // group, W.shape[1] * math.prod(kernel_shape)
    # CONV_S2: the padding is X's zeros (+0), each a term 0·w; the dilation's holes are not read.
    views = windows(X, kernel_shape, pads, strides, dilations, fill=X.dtype.type(0))  # (N, C, o…, k…)
    # im2col: the rows (g, n·o…, c·k…) of each group's windows, W's columns (g, c·k…, m), B as the addend
    rows = np.moveaxis(views, 1, 1 + rank).reshape(batch, *counts, group, terms)
    rows = np.moveaxis(rows, -2, 0).reshape(group, batch * math.prod(counts), terms)
    columns = np.swapaxes(W.reshape(group, per_group, terms), 1, 2)
    addend = np.broadcast_to(B.reshape(group, 1, per_group), (group, rows.shape[1], per_group))
    # CONV_S1, CONV_S3, CONV_S4, CONV_S5, CONV_S6: the exact sum of the products and of B, rounded once.
    sums = exact_matmul("conv", rows, columns, addend)  # (g, n·o…, m)
    Y = sums.reshape(group, batch, *counts, per_group)
    return np.moveaxis(Y, (0, -1), (1, 2)).reshape(batch, maps, *counts)  # CONV_C10: X's type


conv = operator(
    conv,
    onnx="Conv",
    version=22,
    inputs=(
        Tensor("X", "X", "T", doc="the input, of shape (N, C, d1, …, dr)"),
        Tensor("W", "W", "T", doc="the kernels, of shape (M, C/group, k1, …, kr)"),
        Tensor("B", "B", "T", rank=1, rank_rule="CONV_C6", doc="the bias, of shape (M,)"),
    ),
    attributes=(
        Attribute("auto_pad", "auto_pad", "string", doc="NOTSET only: the padding is pads (CONV_C7)"),
        Attribute("dilations", "dilations", "ints", doc="the spacing of a kernel's positions on X, per axis"),
        Attribute("group", "group", "int", doc="how many groups the channels are divided into (CONV_C5)"),
        Attribute("kernel_shape", "kernel_shape", "ints", doc="W's spatial dimensions (CONV_C4)"),
        Attribute(
            "pads", "pads", "ints", doc="the zeros added at the beginning of each axis, then at its end"
        ),
        Attribute("strides", "strides", "ints", doc="the spacing of the windows on X, per axis"),
    ),
    outputs=(Tensor("Y", "Y", "T", doc="the convolution, of shape (N, M, o1, …, or)"),),
    types={"T": ("float",)},
)


def engine_error(Y: np.ndarray, X: np.ndarray, W: np.ndarray, B: np.ndarray) -> np.ndarray:
    """CONV_P1's bound at each element of Y, from the inputs alone (the judge passes no attributes): Gemm's
    bound (GEMM_P1: n + 1 terms, n = C/group·∏k) for the row of the largest magnitudes of X on each channel
    of the batch element, times the kernel, plus B. Every window's magnitudes are at most those, so this is
    at least the bound of every element of (n, m); it is wider where X's magnitudes vary."""
    batch, maps, channels = Y.shape[0], Y.shape[1], X.shape[1]
    group = channels // W.shape[1] if W.shape[1] else 1  # CONV_C5; no channel: n = 0 in any grouping
    per_group, kernel = maps // group, math.prod(W.shape[2:])
    # A non-finite x makes its elements NaN or infinite, exact: the finite elements' windows hold none.
    finite = np.where(np.isfinite(X), np.abs(X), 0)  # in X's type, exactly
    largest = finite.reshape(batch, channels, math.prod(X.shape[2:])).max(axis=2, initial=0)
    shape = np.empty((batch, per_group), Y.dtype)  # the type and shape Gemm's bound reads of its Y
    errors = []
    for g in range(group):
        rows = np.repeat(largest[:, g * W.shape[1] : (g + 1) * W.shape[1]], kernel, axis=1)
        weights = W[g * per_group : (g + 1) * per_group].reshape(per_group, W.shape[1] * kernel).T
        bias = np.broadcast_to(
            B[g * per_group : (g + 1) * per_group], (batch, per_group)
        )  # Gemm's bound: float64
        errors.append(gemm_module.engine_error(shape, rows, weights, bias))
    error = np.concatenate(errors, axis=1)  # group >= 1: one block at least
    return np.broadcast_to(error.reshape(batch, maps, *(1,) * (Y.ndim - 2)), Y.shape)  # the judge reads it


engines_within(conv, Within("CONV_P1", engine_error, of_exact=True))
