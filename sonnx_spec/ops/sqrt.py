"""Sqrt (ONNX Sqrt-13 in the SONNX profile): Y[i] = √X[i], for the floating-point types."""

from __future__ import annotations

import numpy as np

from ..families import UNARY, member
from ..families.elementwise import in_type
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def sqrt(X: Array) -> np.ndarray:
    """Element-wise square root of a floating-point tensor.

    IEEE 754's square root, correctly rounded in X's type: ``√-0 = -0``,
    ``√+inf = +inf``, and the square root of NaN or of any value below -0 is
    NaN. Integer tensors are refused (GEN_C1): ONNX Sqrt-13 has no integer type.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.sqrt(np.array([4.0, -0.0, 2.0], dtype=np.float32))
    array([ 2.       , -0.       ,  1.4142135], dtype=float32)
    """
    # SQRT_C1, SQRT_C2: X's shape alone, X's type. SQRT_S1, SQRT_S2: IEEE 754's square root, rounded once
    # in the type; a negative element gives NaN, a result here rather than an accident.
    return in_type("sqrt", np.sqrt, X)


sqrt = operator(
    sqrt,
    onnx="Sqrt",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the square root of each element of X"),),
    types={"T": ("float",)},
)
member(UNARY, sqrt)
