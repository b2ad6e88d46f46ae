"""Multidirectional broadcasting (ONNX's, numpy's): the common shape of several shapes."""

from __future__ import annotations

from collections.abc import Sequence


def broadcast_shape(shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The common shape ``shapes`` broadcast to, or None if they do not broadcast.

    Each shape is extended on the left with 1s to the largest rank; in each
    dimension the sizes must be equal or 1, and the common size is the one that
    is not 1 (or 1). Computed on Python ints: no size is too large to compute.
    """
    rank = max((len(s) for s in shapes), default=0)
    common = []
    for sizes in zip(*((1,) * (rank - len(s)) + tuple(s) for s in shapes), strict=True):
        others = {d for d in sizes if d != 1}
        if len(others) > 1:
            return None
        common.append(others.pop() if others else 1)
    return tuple(common)
