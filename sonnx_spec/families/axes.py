"""Axes, as the reductions (ReduceSum…) and the data movement operators (Transpose, Concat…) take them.

An operator names the rule an axis breaks; these helpers say whether it breaks it.
"""

from __future__ import annotations

from collections.abc import Sequence


def normalized_axis(axis: int, rank: int) -> int | None:
    """``axis`` counted from 0 in a tensor of rank ``rank``: a negative axis counts from the end (−1 is
    the last); None for an axis outside [−rank, rank − 1] (every axis, for rank 0)."""
    if not -rank <= axis < rank:
        return None
    return axis + rank if axis < 0 else axis


def repeated_axis(axes: Sequence[int]) -> int | None:
    """The first of ``axes`` (normalized) that appears a second time, or None if each appears once."""
    seen: set[int] = set()
    for axis in axes:
        if axis in seen:
            return axis
        seen.add(axis)
    return None
