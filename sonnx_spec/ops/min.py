"""Min (ONNX Min-13 in the SONNX profile): element-wise minimum of broadcast inputs."""

from __future__ import annotations

import numpy as np

from ..checks import new_array
from ..errors import SonnxError
from ..families import VARIADIC, member
from ..families.variadic import common_shape, shapes_of
from ..order import ordered_min
from ..registry import Tensor, operator

Array = np.ndarray | np.generic


def min(*X: Array) -> np.ndarray:  # noqa: A001 - the operator's name
    """Element-wise minimum of one or more tensors of one type, broadcast together.

    Floating-point values are ordered NaN < -inf < negative < -0 < +0 < positive
    < +inf: a NaN element gives NaN, and ``min(+0, -0)`` is -0 in either order.
    Inputs that do not broadcast are refused (MIN_E1). One input gives a copy.

    Returns a new array of the broadcast shape and the inputs' type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.min(np.array([1, 5], dtype=np.int16), np.array([[3], [4]], dtype=np.int16))
    array([[1, 3],
           [1, 4]], dtype=int16)
    """
    if len(X) == 0:
        raise SonnxError("MIN_C1", "min: no input given")
    shape = common_shape(X)
    if shape is None:
        raise SonnxError("MIN_E1", f"min: input shapes {shapes_of(X)} do not broadcast")
    # MIN_P2, MIN_C2: Y is made with the common shape and the inputs' type
    Y = new_array("min", shape, X[0].dtype)
    return ordered_min(X, Y)  # MIN_S1, MIN_S2: the least, in the order of MIN_S2


min = operator(  # noqa: A001 - the operator's name
    min,
    onnx="Min",
    version=13,
    inputs=(Tensor("X", "data_0", "T", variadic=True, doc="the tensors compared, broadcast together"),),
    outputs=(Tensor("Y", "min", "T", doc="the element-wise minimum, of the common shape"),),
    types={"T": ("int", "float")},
)
member(VARIADIC, min)
