"""Abs (ONNX Abs-13 in the SONNX profile): Y[i] = |X[i]|."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import UNARY, member
from ..families.elementwise import in_type, where_lowest
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def abs(X: Array) -> np.ndarray:  # noqa: A001 - the operator's name
    """Element-wise absolute value.

    ``|-0| = +0``, ``|±inf| = +inf``, ``|NaN|`` is NaN; unsigned integers are
    returned unchanged. The lowest value of a signed integer type has no
    absolute value in that type: it is refused (ABS_E1), not wrapped around.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.abs(np.array([-3, 0, 3], dtype=np.int32))
    array([3, 0, 3], dtype=int32)
    """
    index = where_lowest(X)
    if index is not None:
        raise SonnxError(
            "ABS_E1",
            f"abs: X{list(index)} is {np.asarray(X)[index]}, the lowest {X.dtype}; "
            f"its absolute value is not representable in {X.dtype}",
        )
    return in_type("abs", np.abs, X)  # ABS_C1, ABS_C2: X's shape alone, X's type; ABS_S1, ABS_S2


abs = operator(  # noqa: A001 - the operator's name
    abs,
    onnx="Abs",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "Y", "T", doc="the absolute value of each element of X"),),
    types={"T": ("int", "float")},
)
member(UNARY, abs)
