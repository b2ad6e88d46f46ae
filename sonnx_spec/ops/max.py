"""Max (ONNX Max-13 in the SONNX profile): element-wise maximum of broadcast inputs."""

from __future__ import annotations

import numpy as np

from ..checks import new_array
from ..errors import SonnxError
from ..families import VARIADIC, member
from ..families.variadic import common_shape, shapes_of
from ..order import ordered_max
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def max(*X: Array) -> np.ndarray:  # noqa: A001 - the operator's name
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
    shape = common_shape(X)
    if shape is None:
        raise SonnxError("MAX_E1", f"max: input shapes {shapes_of(X)} do not broadcast")
    # MAX_P2, MAX_C3: Y is made with the common shape and the inputs' type
    Y = new_array("max", shape, X[0].dtype)
    return ordered_max(X, Y)  # MAX_S1, MAX_S2: the greatest, in the order of the draft


max = operator(  # noqa: A001 - the operator's name
    max,
    onnx="Max",
    version=13,
    inputs=(Tensor("X", "data_0", "T", variadic=True, doc="the tensors compared, broadcast together"),),
    outputs=(Tensor("Y", "max", "T", doc="the element-wise maximum, of the common shape"),),
    types={"T": ("int", "float")},
)
member(VARIADIC, max)
