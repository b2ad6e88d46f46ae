"""Sub (ONNX Sub-14 in the SONNX profile): C[i] = A[i] - B[i], for A and B of one type and one shape."""

from __future__ import annotations

import numpy as np

from ..checks import new_array, same_shape
from ..modular import modulo_2n
from ..registry import Tensor, operator
from ..types import INT_TYPES

Array = np.ndarray | np.generic


def sub(A: Array, B: Array) -> np.ndarray:
    """Element-wise difference A - B of two tensors of one type and one shape.

    Integers wrap around modulo 2^n (in uint8, 100 - 200 = 156). Floating-point
    differences are IEEE 754 subtractions rounded once to the tensors' own
    type, float16 and bfloat16 included: inf - inf is NaN, x - x is +0 and
    -0 - +0 is -0. Tensors of different shapes are refused (SUB_C1): ONNX
    broadcasts them, the profile does not.

    Returns a new array of the shape and type of A and B.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.sub(np.array([6, 100], dtype=np.uint8), np.array([3, 200], dtype=np.uint8))
    array([  3, 156], dtype=uint8)
    """
    same_shape("sub", "SUB_C1", A=A, B=B)
    C = new_array("sub", A.shape, A.dtype)  # SUB_C2, SUB_C3: the shape and the type of A and B
    if A.dtype in INT_TYPES:
        return modulo_2n(np.subtract, A, B, out=C)  # SUB_S2: the difference modulo 2^n
    # SUB_S3, SUB_S4, SUB_S5: IEEE 754 subtraction in C's type. numpy subtracts float16 and bfloat16 in
    # float32 and rounds once, which gives the correctly rounded difference (see the Add page).
    with np.errstate(all="ignore"):  # an infinity or a NaN is the specified result here, not an error
        np.subtract(A, B, out=C)
    return C


sub = operator(
    sub,
    onnx="Sub",
    version=14,
    inputs=(
        Tensor("A", "A", "T", doc="the tensor subtracted from"),
        Tensor("B", "B", "T", doc="the tensor subtracted, of the shape of A"),
    ),
    outputs=(Tensor("C", "C", "T", doc="the element-wise difference A − B, of the shape of A and B"),),
    types={"T": ("int", "float")},
)
