"""The variadic family (Max, Min): one or more tensors of one type, broadcast together, each
element of the result computed from the elements of every input at its index."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..broadcast import broadcast_shape

Array = np.ndarray | np.generic


def common_shape(X: Sequence[Array]) -> tuple[int, ...] | None:
    """The shape the inputs (at least one) broadcast to, or None if they do not broadcast."""
    return broadcast_shape([value.shape for value in X])


def shapes_of(X: Sequence[Array]) -> str:
    """``(2, 3), (4,)``: how a message lists the inputs' shapes."""
    return ", ".join(str(value.shape) for value in X)
