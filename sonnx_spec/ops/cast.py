"""Cast (ONNX Cast-25 in the SONNX profile): Y[i] is X[i] converted to the type ``to`` names."""

from __future__ import annotations

import numpy as np

from ..checks import first_index, new_array
from ..errors import SonnxError
from ..registry import Attribute, Tensor, operator
from ..rounding import rounded_to
from ..types import BOOL, FLOAT_TYPES, ONNX_DATA_TYPES

Array = np.ndarray | np.generic


def target_type(to: int) -> np.dtype:
    """The type ONNX's data type code ``to`` names; CAST_C1 for a code of no type of the profile."""
    if to not in ONNX_DATA_TYPES:
        names = ", ".join(f"{code} ({t.name})" for code, t in sorted(ONNX_DATA_TYPES.items()))
        problem = f"cast: to is {to}, which names no type of the profile (its codes: {names})"
        raise SonnxError("CAST_C1", problem, operator="cast", tensor="to")
    return ONNX_DATA_TYPES[to]


def float64_rounded_to_odd(X: np.ndarray) -> np.ndarray:
    """Each integer rounded once to float64 *to odd*: itself where float64 holds it, else the one of its
    two float64 neighbours whose last bit is 1.

    The integer, read as int64 or uint64, is split into ``high·2³² + low`` (each part exact in float64);
    their float64 sum ``s`` is rounded to nearest and its error ``e`` is exact (Knuth's TwoSum). Where
    ``e`` is not 0 and ``s`` is even, the exact value lies between ``s`` and its neighbour toward ``e``,
    which is odd.
    """
    wide = X.astype(np.int64 if X.dtype.kind == "i" else np.uint64)
    high = (wide >> 32).astype(np.float64) * 2.0**32  # exact: at most 32 significant bits
    low = (wide & 0xFFFFFFFF).astype(np.float64)  # exact: less than 2³²
    s = high + low  # CAST_S3: the integer rounded once to nearest, ties to even (float64's result)
    b = s - high  # TwoSum: s + e = high + low exactly
    e = (high - (s - b)) + (low - b)
    even = (s.view(np.uint64) & 1) == 0
    step = (e != 0) & even
    return np.where(step, np.nextafter(s, np.copysign(np.inf, e)), s)


def int_to_float(X: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """CAST_S3: each integer rounded once to ``dtype``, to nearest, ties to even."""
    if dtype == np.float64:
        wide = X.astype(np.int64 if X.dtype.kind == "i" else np.uint64)
        high = (wide >> 32).astype(np.float64) * 2.0**32
        return high + (wide & 0xFFFFFFFF).astype(np.float64)  # CAST_S3: one rounding of an exact sum
    # Rounding to odd at 53 bits, then to nearest at 24 bits or fewer, is one rounding to nearest (Boldo
    # and Melquiond): numpy's own int64 to float32 conversion need not be.
    return rounded_to(float64_rounded_to_odd(X), dtype)  # CAST_S3


def float_to_int(X: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """CAST_S4: each float truncated toward zero; NaN (CAST_E1), infinities and values whose truncation
    ``dtype`` does not hold (CAST_E2) refused."""
    wide = X.astype(np.float64)  # exact: every float of the profile is a float64
    nan = np.isnan(wide)
    if nan.any():
        raise SonnxError(  # CAST_E1
            "CAST_E1", f"cast: X{list(first_index(nan))} is NaN, which no {dtype.name} value stands for"
        )
    truncated = np.trunc(wide)  # CAST_S4: toward zero (exact)
    info = np.iinfo(dtype)
    # the range as float64 bounds, both exact: lowest = −2^(n−1) or 0, and 2^(n−1) or 2^n just past max
    outside = (truncated < float(info.min)) | (truncated >= float(info.max) + 1.0)
    if outside.any():
        at = first_index(outside)
        raise SonnxError(  # CAST_E2
            "CAST_E2",
            f"cast: X{list(at)} is {wide[at]!r}, which truncated toward zero is outside the range of "
            f"{dtype.name} [{info.min}, {info.max}]",
        )
    return truncated.astype(dtype)  # CAST_S4: exact, every value in range


def float_to_bool(X: np.ndarray) -> np.ndarray:
    """CAST_S6: false for ±0, true for any other number, infinities included; NaN refused (CAST_E1)."""
    nan = np.isnan(X.astype(np.float64))
    if nan.any():
        raise SonnxError(  # CAST_E1
            "CAST_E1", f"cast: X{list(first_index(nan))} is NaN, which is neither true nor false"
        )
    return X != 0  # CAST_S6: −0 == 0


def converted(X: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """X's elements as values of ``dtype``, by the rule of the pair of types."""
    source_float = X.dtype in FLOAT_TYPES
    if X.dtype == dtype:
        return X  # CAST_S1: the same type, every element unchanged
    if dtype == BOOL:
        return float_to_bool(X) if source_float else X != 0  # CAST_S6
    if X.dtype == BOOL:
        return X.astype(dtype)  # CAST_S6: false → 0, true → 1, exact in every type
    if source_float and dtype in FLOAT_TYPES:
        # CAST_S2: from the float64 holding X exactly, rounded once (never through an intermediate type)
        return rounded_to(X.astype(np.float64), dtype)
    if source_float:
        return float_to_int(X, dtype)
    if dtype in FLOAT_TYPES:
        return int_to_float(X, dtype)
    wide = X.astype(np.uint64)  # the two's complement bits, sign-extended to 64 (C's conversion, modulo 2^64)
    # CAST_S5: the residue modulo 2^n (unsigned narrowing keeps the low n bits), read in the target's type
    return wide.astype(np.dtype(f"u{dtype.itemsize}")).view(dtype)


def cast(X: Array, *, to: int) -> np.ndarray:
    """Element-wise conversion of ``X`` to the type whose ONNX data type code is ``to``.

    ``to`` is one of ONNX's TensorProto codes of the profile's types: 1 float32,
    2 uint8, 3 int8, 4 uint16, 5 int16, 6 int32, 7 int64, 9 bool, 10 float16,
    11 float64, 12 uint32, 13 uint64, 16 bfloat16 (any other is refused). A value
    the target type holds is kept exactly; a float is rounded once to a narrower
    float (to nearest, ties to even, an infinity beyond its range); an integer is
    rounded once to a float; a float is truncated toward zero to an integer, and
    refused where it is NaN, infinite or out of the integer's range; an integer
    wraps modulo 2^n to a narrower integer; zero is false and anything else true
    (NaN is refused), false is 0 and true is 1.

    Returns a new array of ``X``'s shape and of the type ``to`` names.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.cast(np.array([2.7, -2.7, 300.0], dtype=np.float32), to=5)
    array([  2,  -2, 300], dtype=int16)
    """
    dtype = target_type(to)
    X = np.asarray(X)
    Y = new_array("cast", X.shape, dtype)  # CAST_C2: X's shape, the type to names
    with np.errstate(invalid="ignore"):  # numpy and ml_dtypes flag a NaN converted: NaN is a value here
        np.copyto(Y, converted(X, dtype))
    return Y


cast = operator(
    cast,
    onnx="Cast",
    version=25,
    inputs=(Tensor("X", "input", "T1", doc="the tensor converted"),),
    attributes=(
        Attribute("to", "to", "int", doc="the ONNX data type code (TensorProto) of the output's type"),
    ),
    outputs=(Tensor("Y", "output", "T2", type_from="to", doc="X's elements as values of the type to names"),),
    types={"T1": ("int", "float", "bool"), "T2": ("int", "float", "bool")},
)
