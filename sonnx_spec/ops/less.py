"""Less (ONNX Less-13 in the SONNX profile): C[i] is true where A[i] < B[i]."""

from __future__ import annotations

import numpy as np

from ..checks import same_shape
from ..families import COMPARISON, member
from ..families.comparison import compare
from ..registry import Tensor, operator

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
    # LESS_C1, LESS_C2: a new bool array of the shape of A and B. LESS_S1, LESS_S2: A[i] < B[i] in their
    # type: exact for the integers, IEEE 754's comparison for the floating-point types.
    return compare("less", np.less, A, B)


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
member(COMPARISON, less)
