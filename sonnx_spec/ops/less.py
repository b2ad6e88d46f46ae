"""Less (ONNX Less-13 in the SONNX profile): C[i] is true where A[i] < B[i]."""

from __future__ import annotations

import numpy as np

from ..checks import new_array, same_shape
from ..registry import Tensor, operator
from ..types import BOOL

Array = np.ndarray | np.generic


def less(A: Array, B: Array) -> np.ndarray:
    """Element-wise comparison A < B: a bool tensor, true where A[i] is less than B[i].

    ``A`` and ``B`` have one type and one shape: the profile does not broadcast
    (LESS_C1). Floating-point values compare as IEEE 754 says: a comparison with
    NaN is false, and ``-0 < +0`` is false, the two zeros being equal. Integers
    compare exactly, int64 and uint64 included.

    Returns a new bool array of the shape of ``A`` and ``B``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.less(np.array([2, 3, 7], dtype=np.int8), np.array([3, 3, 5], dtype=np.int8))
    array([ True, False, False])
    """
    same_shape("less", "LESS_C1", A=A, B=B)
    C = new_array("less", A.shape, BOOL)  # LESS_C1, LESS_C2: the shape of A and B, bool elements
    # LESS_S1, LESS_S2: numpy's < on two arrays of one type is that type's own comparison: IEEE 754's for
    # the floating-point types (bfloat16 and float16 widened exactly), the integers' for int64 and uint64.
    with np.errstate(invalid="ignore"):  # bfloat16 flags comparisons with NaN; NaN is a value here
        np.less(A, B, out=C)
    return C


less = operator(
    less,
    onnx="Less",
    version=13,
    inputs=(
        Tensor("A", "A", "T", doc="the tensor compared"),
        Tensor("B", "B", "T", doc="the tensor A is compared with, of A's shape"),
    ),
    outputs=(Tensor("C", "C", "bool", doc="true where A[i] < B[i], false elsewhere"),),
    types={"T": ("int", "float")},
)
