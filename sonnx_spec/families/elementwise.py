"""Element-wise families: a new array of the operands' shape, each element computed from the
elements at its index, in the operands' own type.

The scalar semantics of the types are written here once, generic over the bit width (as
WebAssembly's numerics are): integers modulo 2^n, floating-point operations IEEE 754's, rounded
once in the type (numpy computes float16 and bfloat16 in float32 and rounds once, which is the
correctly rounded result for +, −, ×, ÷ and √: float32 has more than 2p + 2 bits for both).
"""

from __future__ import annotations

import numpy as np

from ..checks import first_index, new_array
from ..modular import modulo_2n
from ..types import INT_TYPES, is_signed_int

Array = np.ndarray | np.generic


def in_type(operator: str, ufunc: np.ufunc, *operands: Array) -> np.ndarray:
    """``ufunc`` of the operands (of one shape and one type) in a new array of that shape and type: for
    the floating-point types each element IEEE 754's result, rounded once; for the integers numpy's,
    exact where the type holds it (a caller refuses, or wraps, what it does not)."""
    out = new_array(operator, operands[0].shape, operands[0].dtype)
    with np.errstate(all="ignore"):  # an infinity, a NaN or an underflow is a specified result, not an error
        ufunc(*operands, out=out)
    return out


def arithmetic(operator: str, ufunc: np.ufunc, A: Array, B: Array) -> np.ndarray:
    """``ufunc(A, B)`` for A and B of one shape and one type, in a new array of that shape and type:
    modulo 2^n for the integer types, IEEE 754's result rounded once for the floating-point types."""
    if A.dtype in INT_TYPES:
        return modulo_2n(ufunc, A, B, out=new_array(operator, A.shape, A.dtype))
    return in_type(operator, ufunc, A, B)


def where_lowest(X: Array) -> tuple[int, ...] | None:
    """The index of the first element of X that is the lowest value of its signed integer type
    (whose absolute value and negation the type cannot represent), or None if there is none."""
    if not is_signed_int(X.dtype):
        return None
    lowest = np.asarray(X == np.iinfo(X.dtype).min)
    return first_index(lowest) if lowest.any() else None


def keep_bits(keep: np.ndarray, X: Array) -> np.ndarray:
    """A new array of X's shape and type: X[i] where ``keep[i]``, bit for bit, and every bit 0 elsewhere
    (the integer 0, or +0). One multiplication of the bit patterns by 1 or 0: select_bits with a zero
    ``other``, at a third of its cost."""
    bits = np.dtype(f"u{X.dtype.itemsize}")
    out = np.empty(X.shape, X.dtype)
    np.multiply(np.asarray(X).view(bits), keep, out=out.view(bits))
    return out


def select_bits(keep: np.ndarray, X: Array, other: Array) -> np.ndarray:
    """A new array of X's shape and type: X[i] where ``keep[i]``, ``other[i]`` elsewhere, bit for bit
    (a zero keeps its sign, a NaN its payload). The bit patterns are multiplied by 1 or 0 and
    added: a selection without a branch per element."""
    bits = np.dtype(f"u{X.dtype.itemsize}")
    out = np.empty(X.shape, X.dtype)
    np.add(np.asarray(X).view(bits) * keep, np.asarray(other).view(bits) * ~keep, out=out.view(bits))
    return out
