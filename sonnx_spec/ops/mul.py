"""Mul (ONNX Mul-14 in the SONNX profile): C[i] = A[i] × B[i], for A and B of one type and one shape."""

from __future__ import annotations

import numpy as np

from ..checks import new_array, same_shape
from ..modular import modulo_2n
from ..registry import Tensor, operator
from ..types import INT_TYPES

Array = np.ndarray | np.generic


def mul(A: Array, B: Array) -> np.ndarray:
    """Element-wise product of two tensors of one type and one shape.

    Integers wrap around modulo 2^n (in uint8, 9 × 100 = 132). Floating-point
    products are IEEE 754 multiplications rounded once to the tensors' own
    type, float16 and bfloat16 included: 0 × inf is NaN, and the sign of a
    product, a zero's included, is the exclusive or of the operands' signs.
    Tensors of different shapes are refused (MUL_C1): ONNX broadcasts them,
    the profile does not.

    Returns a new array of the shape and type of A and B.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.mul(np.array([-9, 9], dtype=np.int8), np.array([-100, 100], dtype=np.int8))
    array([-124, -124], dtype=int8)
    """
    same_shape("mul", "MUL_C1", A=A, B=B)
    C = new_array("mul", A.shape, A.dtype)  # MUL_C2, MUL_C3: the shape and the type of A and B
    if A.dtype in INT_TYPES:
        return modulo_2n(np.multiply, A, B, out=C)  # MUL_S2: the product modulo 2^n
    # MUL_S3, MUL_S4, MUL_S5: IEEE 754 multiplication in C's type. numpy multiplies float16 and bfloat16
    # in float32 and rounds once, which gives the correctly rounded product (the page says why).
    with np.errstate(all="ignore"):  # an infinity, a NaN or an underflow is the specified result here
        np.multiply(A, B, out=C)
    return C


mul = operator(
    mul,
    onnx="Mul",
    version=14,
    inputs=(
        Tensor("A", "A", "T", doc="the first factor"),
        Tensor("B", "B", "T", doc="the second factor, of the shape of A"),
    ),
    outputs=(Tensor("C", "C", "T", doc="the element-wise product, of the shape of A and B"),),
    types={"T": ("int", "float")},
)
