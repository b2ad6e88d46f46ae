"""Add (ONNX Add-14 in the SONNX profile): C[i] = A[i] + B[i], for A and B of one type and one shape."""

from __future__ import annotations

import numpy as np

from ..checks import same_shape
from ..families import BINARY_ARITHMETIC, member
from ..families.elementwise import arithmetic
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def add(A: Array, B: Array) -> np.ndarray:
    """Element-wise sum of two tensors of one type and one shape.

    Integers wrap around modulo 2^n (in int8, 100 + 100 = -56). Floating-point
    sums are IEEE 754 additions rounded once to the tensors' own type, float16
    and bfloat16 included: inf + -inf is NaN, -0 + -0 is -0, x + -x is +0.
    Tensors of different shapes are refused (ADD_C1): ONNX broadcasts them,
    the profile does not.

    Returns a new array of the shape and type of A and B.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.add(np.array([100, -100], dtype=np.int8), np.array([100, -100], dtype=np.int8))
    array([-56,  56], dtype=int8)
    """
    same_shape("add", "ADD_C1", A=A, B=B)
    # ADD_C2, ADD_C3: a new array of the shape and the type of A and B. ADD_S2: integers, the sum
    # modulo 2^n; ADD_S3, ADD_S4, ADD_S5: floating point, IEEE 754 addition rounded once in the type.
    return arithmetic("add", np.add, A, B)


add = operator(
    add,
    onnx="Add",
    version=14,
    inputs=(
        Tensor("A", "A", "T", doc="the first operand"),
        Tensor("B", "B", "T", doc="the second operand, of the shape of A"),
    ),
    outputs=(Tensor("C", "C", "T", doc="the element-wise sum, of the shape of A and B"),),
    types={"T": ("int", "float")},
)
member(BINARY_ARITHMETIC, add)
