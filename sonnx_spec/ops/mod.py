"""Mod (ONNX Mod-13 in the SONNX profile): C[i] = A[i] mod B[i], the remainder of a division."""

from __future__ import annotations

import numpy as np

from ..checks import first_index, new_array, same_shape
from ..errors import SonnxError
from ..families import BINARY_ARITHMETIC, member
from ..families.elementwise import in_type
from ..registry import Attribute, Tensor, operator
from ..types import FLOAT_TYPES

Array = np.ndarray | np.generic


def mod(A: Array, B: Array, *, fmod: int) -> np.ndarray:
    """Element-wise remainder of the division of two tensors of one shape and one type.

    ``fmod`` is given explicitly, 0 or 1. Integers: with ``fmod=0`` the
    remainder of the division rounded toward minus infinity, of the sign of
    B (Python's ``%``: ``-7 mod 3`` is ``2``); with ``fmod=1`` the remainder
    of the division truncated toward zero, of the sign of A (C's ``fmod``:
    ``-7 mod 3`` is ``-1``); a zero divisor is refused (MOD_E1), the lowest
    value modulo -1 is 0. Floating point: ``fmod=1`` only (MOD_C4), C's and
    IEEE 754's exact ``fmod``, with its special values (``fmod(x, ±0)`` and
    ``fmod(±inf, y)`` are NaN, ``fmod(x, ±inf)`` is ``x``). No broadcasting
    (MOD_C1).

    Returns a new array of the shape and type of ``A``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.mod(np.array([-7, 7], dtype=np.int8), np.array([3, 3], dtype=np.int8), fmod=0)
    array([2, 1], dtype=int8)
    """
    if fmod not in (0, 1):
        raise SonnxError("MOD_C3", f"mod: fmod is {fmod}, neither 0 nor 1")
    same_shape("mod", "MOD_C1", A=A, B=B)
    if A.dtype in FLOAT_TYPES:
        if fmod != 1:
            raise SonnxError(
                "MOD_C4",
                f"mod: fmod is 0 for {A.dtype} tensors: a floating-point remainder is C's fmod (fmod = 1)",
            )
        # MOD_C1, MOD_C2: a new array of the shape and the type of A and B. MOD_S4, MOD_S5: C's fmod,
        # exact in every format (no rounding), with its NaNs, its infinite divisor and its zeros' signs.
        return in_type("mod", np.fmod, A, B)
    C = new_array("mod", A.shape, A.dtype)  # MOD_C1, MOD_C2: the shape of A and B, their type
    zero = B == 0
    if zero.any():
        index = first_index(np.asarray(zero))
        raise SonnxError("MOD_E1", f"mod: B{list(index)} is 0: an integer remainder by zero has no value")
    # MOD_S1 (fmod = 0: np.remainder, floored, of B's sign), MOD_S2 (fmod = 1: np.fmod, truncated, of A's
    # sign), MOD_S3: numpy computes both exactly in the type; the lowest value modulo -1 gives 0.
    (np.fmod if fmod == 1 else np.remainder)(A, B, out=C)
    return C


mod = operator(
    mod,
    onnx="Mod",
    version=13,
    inputs=(
        Tensor("A", "A", "T", doc="the dividend"),
        Tensor("B", "B", "T", doc="the divisor, of the shape of A"),
    ),
    attributes=(
        Attribute("fmod", "fmod", "int", doc="0: the remainder has B's sign (integers only); 1: A's sign"),
    ),
    outputs=(Tensor("C", "C", "T", doc="the element-wise remainder of A by B"),),
    types={"T": ("int", "float")},
)
member(BINARY_ARITHMETIC, mod)
