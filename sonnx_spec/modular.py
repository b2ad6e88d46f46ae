"""Integer arithmetic modulo 2^n, defined once for every width and signedness."""

from __future__ import annotations

import numpy as np


def modulo_2n(
    ufunc: np.ufunc, A: np.ndarray | np.generic, B: np.ndarray | np.generic, out: np.ndarray
) -> np.ndarray:
    """``ufunc(A, B)`` modulo 2^n into ``out``, for A, B and ``out`` of one integer type of n bits.

    Computed on the unsigned type of the same width, whose machine arithmetic is defined modulo 2^n
    (numpy's signed overflow is not); the bits of a two's complement value are its residue, so the
    unsigned result read back as signed is the signed result.
    """
    bits = np.dtype(f"u{out.dtype.itemsize}")
    ufunc(np.asarray(A).view(bits), np.asarray(B).view(bits), out=out.view(bits))
    return out
