"""Where (ONNX Where-16 in the SONNX profile): Z[i] is X[i] where C[i] is true, Y[i] elsewhere."""

from __future__ import annotations

import numpy as np

from ..checks import new_array, same_shape
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def where(C: Array, X: Array, Y: Array) -> np.ndarray:
    """Element-wise selection: ``X[i]`` where ``C[i]`` is true, ``Y[i]`` where it is false.

    ``C`` is a bool tensor; ``X`` and ``Y`` have one type; all three have one
    shape: the profile does not broadcast (WHERE_C1). The selected element is
    copied unchanged (a zero keeps its sign, NaN stays NaN); the element not
    selected plays no part, even if it is NaN.

    Returns a new array of the inputs' shape and of the type of ``X`` and ``Y``.

    >>> import numpy as np, sonnx_spec
    >>> C = np.array([True, False, True])
    >>> sonnx_spec.where(C, np.array([9, 8, 7], dtype=np.int16), np.array([6, 5, 4], dtype=np.int16))
    array([9, 5, 7], dtype=int16)
    """
    same_shape("where", "WHERE_C1", C=C, X=X, Y=Y)
    Z = new_array("where", X.shape, X.dtype)  # WHERE_C1, WHERE_C2: the inputs' shape, X's and Y's type
    np.copyto(Z, Y)  # WHERE_S1, WHERE_S2: copies, never arithmetic: only the selected element counts
    np.copyto(Z, X, where=C)
    return Z


where = operator(
    where,
    onnx="Where",
    version=16,
    inputs=(
        Tensor("C", "condition", "bool", doc="true where Z takes the element of X, false where that of Y"),
        Tensor("X", "X", "T", doc="the elements selected where C is true"),
        Tensor("Y", "Y", "T", doc="the elements selected where C is false"),
    ),
    outputs=(Tensor("Z", "output", "T", doc="X[i] or Y[i] at each index, as C[i] selects"),),
    types={"T": ("int", "float")},
)
