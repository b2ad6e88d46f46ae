"""The twelve SONNX element types and their two type families."""

from __future__ import annotations

import ml_dtypes
import numpy as np

INT_TYPES: tuple[np.dtype, ...] = tuple(
    np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
)
FLOAT_TYPES: tuple[np.dtype, ...] = tuple(
    np.dtype(t) for t in (np.float16, np.float32, np.float64, ml_dtypes.bfloat16)
)
TYPES: tuple[np.dtype, ...] = INT_TYPES + FLOAT_TYPES

FAMILIES: dict[str, tuple[np.dtype, ...]] = {"int": INT_TYPES, "float": FLOAT_TYPES}
"""Type family name -> its element types, in the order the site lists them."""


def family_of(dtype: np.dtype) -> str | None:
    """The family of ``dtype`` ("int" or "float"), or None if it is not a SONNX type."""
    for name, members in FAMILIES.items():
        if dtype in members and dtype.isnative:
            return name
    return None


def is_signed_int(dtype: np.dtype) -> bool:
    return dtype in INT_TYPES and np.issubdtype(dtype, np.signedinteger)
