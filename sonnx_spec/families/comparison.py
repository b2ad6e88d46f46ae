"""The comparison family (Less, Equal; Greater… to come): a bool tensor, true where the comparison of
the elements of A and B at its index holds, for A and B of one type and one shape."""

from __future__ import annotations

import numpy as np

from ..checks import new_array
from ..types import BOOL

Array = np.ndarray | np.generic


def compare(operator: str, ufunc: np.ufunc, A: Array, B: Array) -> np.ndarray:
    """``ufunc(A, B)``, a comparison, in a new bool array of the shape of A and B.

    On two arrays of one type numpy compares in that type: IEEE 754's comparison for the
    floating-point types (a comparison with NaN is false, −0 equals +0), exact for the integers,
    int64 and uint64 included (never through a float).
    """
    out = new_array(operator, A.shape, BOOL)
    with np.errstate(invalid="ignore"):  # bfloat16 flags comparisons with NaN; NaN is a value here
        ufunc(A, B, out=out)
    return out
