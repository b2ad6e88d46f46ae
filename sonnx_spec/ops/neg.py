"""Neg (ONNX Neg-13 in the SONNX profile): Y[i] = −X[i]."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import UNARY, member
from ..families.elementwise import in_type, where_lowest
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def neg(X: Array) -> np.ndarray:
    """Element-wise negation.

    For floating-point types the sign is flipped, and only the sign:
    ``−(+0) = −0``, ``−(±inf) = ∓inf``, ``−NaN`` is NaN. Unsigned integers are
    not taken (ONNX Neg has none). The lowest value of a signed integer type has
    no negation in that type: it is refused (NEG_E1), not wrapped around.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.neg(np.array([2, -3, 0], dtype=np.int8))
    array([-2,  3,  0], dtype=int8)
    """
    index = where_lowest(X)  # the one value whose negation wraps around to itself
    if index is not None:
        raise SonnxError(
            "NEG_E1",
            f"neg: X{list(index)} is {np.asarray(X)[index]}, the lowest {X.dtype}; "
            f"its negation is not representable in {X.dtype}",
        )
    # NEG_C1, NEG_C2: X's shape alone, X's type; NEG_S1, NEG_S2: exact in the integers left, a sign flip
    # for floats.
    return in_type("neg", np.negative, X)


neg = operator(
    neg,
    onnx="Neg",
    version=13,
    inputs=(Tensor("X", "X", "T", doc="the input tensor (the draft's A)"),),
    outputs=(Tensor("Y", "Y", "T", doc="the negation of each element of X (the draft's B)"),),
    types={"T": ("signed", "float")},
)
member(UNARY, neg)
