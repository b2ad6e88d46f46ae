"""Range (ONNX Range-27 in the SONNX profile): the vector S, S + D, S + 2·D, … of the values before L,
each computed exactly and rounded once to the type."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np

from ..checks import ResultTooLarge, allocated
from ..errors import SonnxError
from ..registry import Tensor, operator
from ..rounding import rounded_to

Array = np.ndarray | np.generic

FLOAT64_EXACT = 2**53
"""Every integer of magnitude up to 2^53 is a float64, so is every sum or product of two of them that
stays within it, and so is such an integer times a power of two the inputs' type reaches."""


def exact(value: Array) -> Fraction:
    """The exact value of an element: numpy's item() gives a Python int for an integer type and a Python
    float, which holds every value of the four floating-point types, for the others."""
    return Fraction(value.item())


def count(S: Fraction, L: Fraction, D: Fraction) -> int:
    """K = max(⌈(L − S) / D⌉, 0), of the exact values: the number of S + i·D strictly before L."""
    return max(math.ceil((L - S) / D), 0)


def scaled(S: Fraction, D: Fraction) -> tuple[int, int, int]:
    """(s, d, e) with S = s·2^e and D = d·2^e, s and d integers: 2^e is the lower of their last bits."""
    e = min(last_bit(S), last_bit(D))
    return int(S / Fraction(2) ** e), int(D / Fraction(2) ** e), e


def last_bit(x: Fraction) -> int:
    """The exponent of the lowest bit set in a binary float's exact value (−1 for 0, of which every power
    of two is a divisor: any exponent would do)."""
    n, d = x.numerator, x.denominator  # d is a power of two
    return (n & -n).bit_length() - d.bit_length()


def rounded_once(n: int, e: int, dtype: np.dtype) -> float:
    """n·2^e rounded once to ``dtype``, to nearest, ties to even, as the float64 that holds the result.
    2^e is at least the type's smallest subnormal, so only a significand longer than the type's rounds."""
    shift = abs(n).bit_length() - (ml_dtypes.finfo(dtype).nmant + 1)  # the bits beyond the precision
    if shift <= 0:
        return math.ldexp(n, e)
    q, r = divmod(n, 1 << shift)  # n = q·2^shift + r, 0 <= r < 2^shift: n / 2^shift lies in [q, q + 1)
    half = 1 << shift - 1
    if r > half or (r == half and q % 2 == 1):  # to nearest; a tie to the even q
        q += 1
    return math.ldexp(q, e + shift)  # q has at most the type's bits (2^p after a carry): exact


def integer_range(S: Array, K: int, D: Array) -> np.ndarray:
    """S + i·D for i < K, of an integer type of n bits. Each exact value lies between S and L, in the
    type's range (RANGE_P1): computed modulo 2^n, in the unsigned type whose arithmetic wraps, its bits are
    those of the exact value."""
    unsigned = np.dtype(f"u{S.dtype.itemsize}")
    Y = allocated((K,), unsigned)
    Y[...] = np.arange(K)  # K <= 2^n: every i is a value of the unsigned type
    Y *= D.view(unsigned)  # i·D modulo 2^n
    Y += S.view(unsigned)  # S + i·D modulo 2^n
    return Y.view(S.dtype)


def indices(K: int, dtype: np.dtype) -> np.ndarray:
    """0, 1, …, K − 1 in ``dtype`` (each a value of it), a new array the caller may scale in place."""
    try:
        return np.arange(K, dtype=dtype)
    except (MemoryError, ValueError):  # as allocated(): ValueError is more bytes than an address counts
        raise ResultTooLarge((K,), dtype) from None


def float_range(S: Array, K: int, D: Array) -> np.ndarray:
    """S + i·D for i < K, of a floating-point type: each exact value rounded once."""
    s, d, e = scaled(exact(S), exact(D))  # S + i·D = (s + i·d)·2^e exactly
    reach = abs(s) + max(K - 1, 1) * abs(d)  # no s + i·d, i < K, is of a greater magnitude
    if reach <= 2 ** (ml_dtypes.finfo(S.dtype).nmant + 1):  # every i, i·D and S + i·D a value of the type
        Y = indices(K, S.dtype)
        Y *= D  # i·D exact, and so S + i·D: the type's own arithmetic rounds nothing
        Y += S
    elif reach <= FLOAT64_EXACT:  # d, every i·d and s + i·d exact float64s
        Y = allocated((K,), S.dtype)
        i = np.arange(K)  # int64: i·d + s exact, and exact in float64 too
        Y[...] = rounded_to(np.ldexp(i * d + s, e), S.dtype)  # exact in float64, then rounded once
    else:  # exact integers, each rounded once
        Y = allocated((K,), S.dtype)
        Y[...] = [rounded_once(s + i * d, e, S.dtype) for i in range(K)]  # values of the type: no rounding
    Y[:1] = S  # RANGE_S3: Y[0] is S itself, bit for bit (−0 stays −0); an exact 0 further on is +0
    return Y


def range_(S: Array, L: Array, D: Array) -> np.ndarray:
    """The values S + i·D before L: S, S + D, S + 2·D, …, each exact value rounded once to the type.

    ``S``, ``L`` and ``D`` are 0-d tensors of one type: int16, int32, int64, float16, bfloat16,
    float32 or float64. ``Y`` is a vector of K = max(⌈(L − S) / D⌉, 0) elements, K computed
    exactly; ``Y[i]`` is S + i·D, exact for an integer type (it lies between S and L, so never
    outside the type) and rounded once, to nearest, ties to even, for a floating-point one. D = 0
    is refused, and so is a NaN or an infinity in any input.

    Returns a new array of the inputs' type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.range_(np.array(10, np.int32), np.array(4, np.int32), np.array(-2, np.int32))
    array([10,  8,  6], dtype=int32)
    """
    integer = np.issubdtype(S.dtype, np.integer)
    for name, value in (("S", S), ("L", L), ("D", D)):
        if not integer and not np.isfinite(value):
            raise SonnxError("RANGE_E1", f"range: {name} is {float(value)}; S, L and D are finite")
    start, limit, delta = exact(S), exact(L), exact(D)
    if delta == 0:
        raise SonnxError("RANGE_C2", f"range: D is {D.item()}; a step of 0 never reaches L")
    K = count(start, limit, delta)  # RANGE_S1
    return integer_range(S, K, D) if integer else float_range(S, K, D)  # RANGE_S2, RANGE_S3


range_ = operator(
    range_,
    onnx="Range",
    version=27,
    inputs=(
        Tensor("S", "start", "T", rank=0, rank_rule="RANGE_C1", sets_shape=True, doc="the first value"),
        Tensor(
            "L",
            "limit",
            "T",
            rank=0,
            rank_rule="RANGE_C1",
            sets_shape=True,
            doc="the limit: every value is before it",
        ),
        Tensor("D", "delta", "T", rank=0, rank_rule="RANGE_C1", sets_shape=True, doc="the step, not 0"),
    ),
    outputs=(Tensor("Y", "output", "T", doc="the K values S + i·D, i from 0 to K − 1"),),
    types={"T": ("int16", "int32", "int64", "float")},
)
