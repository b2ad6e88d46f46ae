"""Div (ONNX Div-14 in the SONNX profile): C[i] = A[i] / B[i], for A and B of one shape and one type."""

from __future__ import annotations

import numpy as np

from ..checks import first_index, new_array, same_shape
from ..errors import SonnxError
from ..families import BINARY_ARITHMETIC, member
from ..families.elementwise import in_type
from ..registry import Tensor, operator
from ..types import FLOAT_TYPES, is_signed_int

Array = np.ndarray | np.generic


def div(A: Array, B: Array) -> np.ndarray:
    """Element-wise quotient of two tensors of one shape and one type.

    Integers: the quotient truncated toward zero (``-35 / 3`` is ``-11``),
    computed exactly; a zero divisor (DIV_E1) and the lowest signed value
    divided by -1 (DIV_E2) are refused. Floating point: IEEE 754 division,
    correctly rounded in the tensors' type, with its special values
    (``1 / -0`` is ``-inf``, ``0 / 0`` is NaN). No broadcasting (DIV_C1).

    Returns a new array of the shape and type of ``A``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.div(np.array([6, 5, -35], dtype=np.int8), np.array([3, 3, 3], dtype=np.int8))
    array([  2,   1, -11], dtype=int8)
    """
    same_shape("div", "DIV_C1", A=A, B=B)
    if A.dtype in FLOAT_TYPES:
        # DIV_C1, DIV_C2: a new array of the shape and the type of A and B. DIV_S2, DIV_S3: IEEE 754
        # division rounded once in the type, its infinities and NaNs included.
        return in_type("div", np.divide, A, B)
    C = new_array("div", A.shape, A.dtype)  # DIV_C1, DIV_C2: the shape of A and B, their type
    zero = B == 0
    if zero.any():
        index = first_index(np.asarray(zero))
        raise SonnxError("DIV_E1", f"div: B{list(index)} is 0: an integer division by zero has no result")
    if is_signed_int(A.dtype):
        lowest = np.iinfo(A.dtype).min
        unrepresentable = (A == lowest) & (B == -1)
        if unrepresentable.any():
            index = first_index(np.asarray(unrepresentable))
            raise SonnxError(
                "DIV_E2",
                f"div: A{list(index)} is {lowest}, the lowest {A.dtype}, and B{list(index)} is -1: "
                f"the quotient {-int(lowest)} is not representable in {A.dtype}",
            )
    # DIV_S1: np.fmod is the remainder of the division truncated toward zero (it has the sign of A),
    # so A - fmod(A, B) is an exact multiple of B, never larger than A in magnitude, and flooring its
    # quotient by B loses nothing: the truncated quotient, in integers throughout.
    np.floor_divide(A - np.fmod(A, B), B, out=C)
    return C


div = operator(
    div,
    onnx="Div",
    version=14,
    inputs=(
        Tensor("A", "A", "T", doc="the numerator"),
        Tensor("B", "B", "T", doc="the denominator, of the shape of A"),
    ),
    outputs=(Tensor("C", "C", "T", doc="the element-wise quotient of A by B"),),
    types={"T": ("int", "float")},
)
member(BINARY_ARITHMETIC, div)
