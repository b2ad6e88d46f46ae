"""The element types of the profile: twelve numeric types in two families, and bool.

An operator's signature draws the types of its tensors from named *type sets*
(``int``, ``signed``, ``float``…); the site and the tests read the same sets.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

SIGNED_INT_TYPES: tuple[np.dtype, ...] = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
UNSIGNED_INT_TYPES: tuple[np.dtype, ...] = tuple(
    np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)
)
INT_TYPES: tuple[np.dtype, ...] = SIGNED_INT_TYPES + UNSIGNED_INT_TYPES
FLOAT_TYPES: tuple[np.dtype, ...] = tuple(
    np.dtype(t) for t in (np.float16, np.float32, np.float64, ml_dtypes.bfloat16)
)
TYPES: tuple[np.dtype, ...] = INT_TYPES + FLOAT_TYPES
"""The twelve SONNX types, in the order the site lists them."""
BOOL = np.dtype(np.bool_)

FAMILIES: dict[str, tuple[np.dtype, ...]] = {"int": INT_TYPES, "float": FLOAT_TYPES, "bool": (BOOL,)}
"""Type family name -> its element types. A page specifies an operator once per family (bool is a
family of its own for the operators whose type variable takes it: Not)."""

TYPE_SETS: dict[str, tuple[np.dtype, ...]] = {
    "int": INT_TYPES,
    "signed": SIGNED_INT_TYPES,
    "unsigned": UNSIGNED_INT_TYPES,
    "float": FLOAT_TYPES,
    "bool": (BOOL,),
    "int8": (np.dtype(np.int8),),  # MaxPool takes int8 and uint8 of the integers
    "uint8": (np.dtype(np.uint8),),
    "int16": (np.dtype(np.int16),),  # single integer types: a signature that takes some of them (Range)
    "int32": (np.dtype(np.int32),),
    "int64": (np.dtype(np.int64),),  # shapes, axes and indices (Reshape's shape, Shape's result)
}
"""The names a signature gives the types of a type variable."""

ONNX_DATA_TYPES: dict[int, np.dtype] = {
    1: np.dtype(np.float32),
    2: np.dtype(np.uint8),
    3: np.dtype(np.int8),
    4: np.dtype(np.uint16),
    5: np.dtype(np.int16),
    6: np.dtype(np.int32),
    7: np.dtype(np.int64),
    9: BOOL,
    10: np.dtype(np.float16),
    11: np.dtype(np.float64),
    12: np.dtype(np.uint32),
    13: np.dtype(np.uint64),
    16: np.dtype(ml_dtypes.bfloat16),
}
"""ONNX's TensorProto data type codes of the profile's types, bool included (an attribute naming a type,
such as Cast's ``to``, holds one); the other codes (string, complex, float8…) name types outside it."""


def is_signed_int(dtype: np.dtype) -> bool:
    return dtype in SIGNED_INT_TYPES


def type_names(dtypes: tuple[np.dtype, ...]) -> str:
    """``int8, int16, …``: how a message lists types."""
    return ", ".join(t.name for t in dtypes)
