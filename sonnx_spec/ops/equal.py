"""Equal (ONNX Equal-19 in the SONNX profile): C[i] is true where A[i] = B[i]."""

from __future__ import annotations

import numpy as np

from ..checks import same_shape
from ..families import COMPARISON, member
from ..families.comparison import compare
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def equal(A: Array, B: Array) -> np.ndarray:
    """Element-wise comparison A = B: a bool tensor, true where A[i] equals B[i].

    ``A`` and ``B`` have one type and one shape: the profile does not broadcast
    (EQUAL_C1). Floating-point values compare as IEEE 754 says: NaN equals
    nothing, itself included, and ``-0 = +0`` is true. Integers compare
    exactly, int64 and uint64 included; two bools are equal when both are true
    or both are false.

    Returns a new bool array of the shape of ``A`` and ``B``.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.equal(np.array([2, 3, 7], dtype=np.int8), np.array([3, 3, 5], dtype=np.int8))
    array([False,  True, False])
    """
    same_shape("equal", "EQUAL_C1", A=A, B=B)
    # EQUAL_C1, EQUAL_C2: a new bool array of the shape of A and B. EQUAL_S1, EQUAL_S2, EQUAL_S3:
    # A[i] = B[i] in their type: exact for the integers and bool, IEEE 754's equality for the floats.
    return compare("equal", np.equal, A, B)


equal = operator(
    equal,
    onnx="Equal",
    version=19,
    inputs=(
        Tensor("A", "A", "T", doc="the tensor compared"),
        Tensor("B", "B", "T", doc="the tensor A is compared with, of A's shape"),
    ),
    outputs=(Tensor("C", "C", "bool", doc="true where A[i] = B[i], false elsewhere"),),
    types={"T": ("int", "float", "bool")},
)
member(COMPARISON, equal)
