"""Constant (ONNX Constant-25 in the SONNX profile): the tensor its attribute ``value`` holds."""

from __future__ import annotations

import numpy as np

from ..checks import new_array
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def constant(*, value: Array) -> np.ndarray:
    """The tensor ``value``, as a new array: same shape, same type, same elements.

    ``value`` is the one attribute of Constant in the profile: ONNX's
    ``sparse_value``, ``value_float(s)``, ``value_int(s)`` and ``value_string(s)``
    are not (a model that uses one breaks MODEL_R1). A 0-d ``value`` gives a 0-d
    tensor; every element is copied unchanged, −0, infinities and NaN included.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.constant(value=np.array([[1, 2], [3, 4]], dtype=np.uint8))
    array([[1, 2],
           [3, 4]], dtype=uint8)
    """
    C = new_array("constant", value.shape, value.dtype)  # CONSTANT_C1: value's shape (0-d too) and type
    np.copyto(C, value)  # CONSTANT_S1, CONSTANT_S2: a copy, element for element
    return C


constant = operator(
    constant,
    onnx="Constant",
    version=25,
    inputs=(),
    outputs=(Tensor("C", "output", "T", doc="a new tensor equal to value"),),
    types={"T": ("int", "float")},
    attributes=(Attribute("value", "value", "tensor", "T", doc="the tensor the operator gives"),),
)
