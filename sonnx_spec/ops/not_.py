"""Not (ONNX Not-1 in the SONNX profile): Y[i] = ¬X[i]."""

from __future__ import annotations

import numpy as np

from ..families import UNARY, member
from ..families.elementwise import in_type
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def not_(X: Array) -> np.ndarray:
    """Element-wise logical negation of a bool tensor.

    Each element of the result is ``True`` where that of ``X`` is ``False`` and
    ``False`` where it is ``True``. Only bool is taken: a numeric tensor is
    refused (GEN_C1), not read as "zero is false".

    Returns a new bool array of ``X``'s shape.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.not_(np.array([True, False]))
    array([False,  True])
    """
    return in_type("not_", np.logical_not, X)  # NOT_C1, NOT_C2: X's shape alone, bool; NOT_S1


not_ = operator(
    not_,
    onnx="Not",
    version=1,
    inputs=(Tensor("X", "X", "T", doc="the input tensor, of bool"),),
    outputs=(Tensor("Y", "Y", "T", doc="the logical negation of each element of X"),),
    types={"T": ("bool",)},
)
member(UNARY, not_)
