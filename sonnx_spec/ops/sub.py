"""Sub (ONNX Sub-14 in the SONNX profile): C[i] = A[i] - B[i], for A and B of one type and one shape."""

from __future__ import annotations

import numpy as np

from ..checks import same_shape
from ..families import BINARY_ARITHMETIC, member
from ..families.elementwise import arithmetic
from ..registry import Tensor, operator

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
    # SUB_C2, SUB_C3: a new array of the shape and the type of A and B. SUB_S2: integers, the difference
    # modulo 2^n; SUB_S3, SUB_S4, SUB_S5: floating point, IEEE 754 subtraction rounded once in the type.
    return arithmetic("sub", np.subtract, A, B)


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
member(BINARY_ARITHMETIC, sub)
