"""Multidirectional broadcasting (ONNX's, numpy's): the common shape of several shapes."""

from __future__ import annotations

from collections.abc import Sequence


def broadcast_shape(shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The common shape ``shapes`` (at least one) broadcast to, or None if they do not broadcast.

    Each shape is extended on the left with 1s to the largest rank; in each
    dimension the sizes must be equal or 1, and the common size is the one that
    is not 1 (or 1). Computed on Python ints: no size is too large to compute.
    """
    rank = max(len(s) for s in shapes)
    extended = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    common = []
    for axis in range(rank):
        sizes = {shape[axis] for shape in extended} - {1}
        if len(sizes) > 1:
            return None
        common.append(sizes.pop() if sizes else 1)
    return tuple(common)
