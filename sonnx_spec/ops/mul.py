"""Mul (ONNX Mul-14 in the SONNX profile): C[i] = A[i] × B[i], for A and B of one type and one shape."""

from __future__ import annotations

import numpy as np

from ..checks import same_shape
from ..families import BINARY_ARITHMETIC, member
from ..families.elementwise import arithmetic
from ..registry import Tensor, operator

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
    # MUL_C2, MUL_C3: a new array of the shape and the type of A and B. MUL_S2: integers, the product
    # modulo 2^n; MUL_S3, MUL_S4, MUL_S5: floating point, IEEE 754 multiplication rounded once in the type.
    return arithmetic("mul", np.multiply, A, B)


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
member(BINARY_ARITHMETIC, mul)
