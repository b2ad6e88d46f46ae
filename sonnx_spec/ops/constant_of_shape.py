"""ConstantOfShape (ONNX ConstantOfShape-25 in the SONNX profile): a tensor of the shape S lists, every
element the one element of ``value``."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families.movement import copied, int_values
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def output_shape(S: Array) -> tuple[int, ...]:
    """The shape S lists: its elements, each a dimension of 0 or more."""
    wanted = int_values(S)
    negative = [d for d in wanted if d < 0]
    if negative:
        problem = f"constant_of_shape: S holds {negative[0]}; a dimension is 0 or more"
        raise SonnxError("CONSTANTOFSHAPE_C2", problem)
    return wanted  # CONSTANTOFSHAPE_S1: S as written; S empty gives a 0-d Y


def constant_of_shape(S: Array, *, value: Array) -> np.ndarray:
    """A tensor of the shape ``S`` lists, each element a copy of the one element of ``value``.

    ``S`` is an int64 vector of dimensions, 0 or more (empty: ``Y`` is 0-d).
    ``value`` is a tensor of one element, of any rank; ``Y`` has its type and
    every element of ``Y`` is that element, copied bit for bit. ONNX's
    default (a float32 0 when ``value`` is left out) is not in the profile.

    Returns a new array of ``value``'s type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.constant_of_shape(np.array([2, 3]), value=np.array([7], dtype=np.int8))
    array([[7, 7, 7],
           [7, 7, 7]], dtype=int8)
    """
    shape = output_shape(S)  # CONSTANTOFSHAPE_C2, CONSTANTOFSHAPE_S1
    if np.size(value) != 1:
        problem = f"constant_of_shape: value has {np.size(value)} elements (shape {np.shape(value)}), not one"
        raise SonnxError("CONSTANTOFSHAPE_C3", problem)
    # copyto repeats value's one element at every index (its dimensions, all 1, set aside first)
    return copied(value, shape)  # CONSTANTOFSHAPE_S2: every element a bit-for-bit copy of value's


constant_of_shape = operator(
    constant_of_shape,
    onnx="ConstantOfShape",
    version=25,
    inputs=(
        Tensor(
            "S",
            "input",
            "int64",
            rank=1,
            rank_rule="CONSTANTOFSHAPE_C1",
            sets_shape=True,
            doc="the shape of Y: a list of dimensions, 0 or more (empty: Y is 0-d)",
        ),
    ),
    attributes=(Attribute("value", "value", "tensor", "T", doc="the one element every element of Y copies"),),
    outputs=(Tensor("Y", "output", "T", doc="a tensor of shape S, each element value's element"),),
    types={"T": ("int", "float", "bool")},
)
