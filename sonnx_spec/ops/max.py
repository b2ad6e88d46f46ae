"""Max (ONNX Max-13 in the SONNX profile): element-wise maximum of broadcast inputs."""

from __future__ import annotations

import numpy as np

from ..checks import describe, is_explicit, is_sparse, sonnx_family
from ..errors import SonnxError
from ..order import ordered_max

Tensor = np.ndarray | np.generic


def max(*X: Tensor) -> np.ndarray:  # noqa: A001 - the operator's name
    """Element-wise maximum of one or more tensors of one type, broadcast together.

    Floating-point values are ordered NaN > +inf > positive > +0 > -0 > negative
    > -inf: a NaN element gives NaN, and ``max(+0, -0)`` is +0 in either order.
    Inputs that do not broadcast are refused (MAX_E1). One input gives a copy.

    Returns a new array of the broadcast shape and the inputs' type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.max(np.array([1, 5], dtype=np.int16), np.array([[3], [4]], dtype=np.int16))
    array([[3, 5],
           [4, 5]], dtype=int16)
    """
    if len(X) == 0:
        raise SonnxError("MAX_C1", "max: no input given")
    for m, value in enumerate(X):
        if is_sparse(value):
            raise SonnxError("MAX_R1", f"max: X{m} is a sparse tensor ({describe(value)})")
        if not is_explicit(value):
            raise SonnxError("MAX_R2", f"max: X{m} is a {describe(value)}, not a numpy array or scalar")
        if sonnx_family(value) is None:
            raise SonnxError("MAX_C2", f"max: X{m} has element type {value.dtype}, not a SONNX type")
        if value.dtype != X[0].dtype:
            raise SonnxError("MAX_R3", f"max: X{m} has element type {value.dtype} but X0 has {X[0].dtype}")
    try:
        shape = np.broadcast_shapes(*(value.shape for value in X))
    except ValueError:
        shapes = ", ".join(str(value.shape) for value in X)
        raise SonnxError("MAX_E1", f"max: input shapes {shapes} do not broadcast") from None
    # MAX_S1, MAX_S2 in the order of the draft; Y is made with the broadcast
    # shape, so MAX_E2 cannot arise here, and with the inputs' type (MAX_C3).
    return ordered_max(X, shape)
