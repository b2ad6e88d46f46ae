"""Min (ONNX Min-13 in the SONNX profile): element-wise minimum of broadcast inputs."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..checks import new_array
from ..errors import SonnxError
from ..families import VARIADIC, member
from ..families.variadic import common_shape, shapes_of
from ..registry import Tensor, operator
from ..types import FLOAT_TYPES

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
    return _ordered_min(X, Y)  # MIN_S1, MIN_S2: the least, in the order of MIN_S2


def _ordered_min(operands: Sequence[Array], out: np.ndarray) -> np.ndarray:
    """Element-wise min of ``operands`` broadcast to ``out``'s shape, written to ``out``.

    numpy's ``minimum`` propagates NaN and is exact on every type, but of two equal
    zeros returns whichever its kernel keeps (the first or the second, by type): the
    zeros of the result are given their sign afterwards.
    """
    np.copyto(out, operands[0])
    # ml_dtypes' bfloat16 kernels flag NaN operands as invalid; NaN is a value here.
    with np.errstate(invalid="ignore"):
        for operand in operands[1:]:
            np.minimum(out, operand, out=out)
        if out.dtype in FLOAT_TYPES:
            _sign_zeros(out, operands)
    return out


def _sign_zeros(out: np.ndarray, operands: Sequence[Array]) -> None:
    """Give each zero of ``out`` the sign of MIN_S2: where the min is a zero, every operand is a zero
    or positive, and the min is -0 if some operand has its sign bit set (is -0)."""
    zeros = out == 0
    if zeros.any():
        negative = np.logical_or.reduce([np.signbit(np.broadcast_to(x, out.shape)[zeros]) for x in operands])
        out[zeros] = np.where(negative, -0.0, 0.0)  # MIN_S2: exact in every type


min = operator(  # noqa: A001 - the operator's name
    min,
    onnx="Min",
    version=13,
    inputs=(Tensor("X", "data_0", "T", variadic=True, doc="the tensors compared, broadcast together"),),
    outputs=(Tensor("Y", "min", "T", doc="the element-wise minimum, of the common shape"),),
    types={"T": ("int", "float")},
)
member(VARIADIC, min)
