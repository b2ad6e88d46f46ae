"""Identity (ONNX Identity-25 in the SONNX profile): Y[i] = X[i], in a new tensor."""

from __future__ import annotations

import numpy as np

from ..checks import new_array
from ..families import UNARY, member
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def identity(X: Array) -> np.ndarray:
    """A copy of the input tensor.

    Every element is copied bit for bit: ``-0`` stays ``-0`` and a NaN keeps its
    sign and payload. The result is a new array, never a view of ``X``:
    writing to it leaves ``X`` as it was.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.identity(np.array([-0.0, 2.5], dtype=np.float32))
    array([-0. ,  2.5], dtype=float32)
    """
    Y = new_array("identity", X.shape, X.dtype)  # IDENTITY_C1, IDENTITY_C2, IDENTITY_P1: a new array
    np.copyto(Y, X)  # IDENTITY_S1, IDENTITY_S2: X has Y's type (GEN_C1), so each element's bytes as they are
    return Y


identity = operator(
    identity,
    onnx="Identity",
    version=25,
    inputs=(Tensor("X", "input", "T", doc="the input tensor"),),
    outputs=(Tensor("Y", "output", "T", doc="a copy of X, element by element and bit for bit"),),
    types={"T": ("int", "float", "bool")},
)
member(UNARY, identity)
