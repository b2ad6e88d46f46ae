"""The shared module of the correctly rounded operators (sonnx_spec.correctly_rounded): which elements its
float64 evaluation decides, and how it rounds them.

A probe function whose "float64 evaluation" gives values the test chooses (the operands are indices into a
table) and whose "MPFR evaluation" records what it is asked: the elements left to MPFR must be exactly those
the module's docstring names (within the window of a midpoint of the type, or below its smallest normal
value and not 0), each decided element the table's value rounded once (MPFR, independently). The windows
are computed here in exact fractions from the error bound, not from the module's bit patterns.
"""

from __future__ import annotations

import math
from fractions import Fraction

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from support import assert_same, correctly_rounded

from sonnx_spec import exp
from sonnx_spec.correctly_rounded import (
    CHUNK,
    RELATIVE_ERROR,
    Elementary,
    mpfr_context,
    rounded,
    ulp_distance,
)

NARROW = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)]


def window_in_units(dtype: np.dtype) -> Fraction:
    """e·2⁵⁴ units of y's last place (2^(k−52) for 2^k ≤ |y| < 2^(k+1)), in units of the type's last place
    at y (2^(k−p+1)): the distance to a midpoint within which the module leaves y to MPFR."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    return Fraction(RELATIVE_ERROR) * 2**54 * Fraction(2) ** (p - 53)


def left_to_mpfr(y: float, dtype: np.dtype) -> bool:
    info = ml_dtypes.finfo(dtype)
    if not math.isfinite(y) or y == 0:
        return False
    if abs(y) < float(info.smallest_normal):
        return True
    _, e = math.frexp(abs(y))  # |y| = m·2^e with 1/2 ≤ m < 1: the type's last place there is 2^(e − p)
    units = Fraction(abs(y)) / Fraction(2) ** (e - info.nmant - 1)
    return abs(units - math.floor(units) - Fraction(1, 2)) <= window_in_units(dtype)


def table(dtype: np.dtype) -> list[float]:
    """At most 256 float64 values (bfloat16 holds the integers up to 256 exactly, the indices): a midpoint
    of the type and the float64 values a window away on either side, one unit inside and outside it, at
    several magnitudes and both signs, the overflow threshold, the edge of the subnormal range, zeros,
    infinities, NaN, and a few arbitrary values."""
    info = ml_dtypes.finfo(dtype)
    p = info.nmant + 1
    window = int(window_in_units(dtype) * 2 ** (53 - p))  # in float64 units
    values = []
    for scale in (1.0, 2.0**5, -1.0, -(2.0**-3), 2.0 ** (info.maxexp - 2)):
        midpoint = scale * (1 + 2.0**-p + 2.0 ** (1 - p))  # 1 + 1.5 units of the type: a midpoint
        for k in (-window - 1, -window, -window + 1, -1, 0, 1, window - 1, window, window + 1):
            values.append(midpoint + k * 2.0**-52 * scale)
    threshold = float(info.max) + 2.0 ** (info.maxexp - 1 - p)  # the midpoint above the largest value
    values += [
        threshold + k * 2.0 ** (info.maxexp - 53) for k in (-window - 1, -window, 0, window, window + 1)
    ]
    smallest = float(info.smallest_normal)
    values += [smallest, float(np.nextafter(smallest, 0)), float(np.nextafter(smallest, 1)), -smallest]
    values += [-float(np.nextafter(smallest, 0)), smallest / 3, 5e-324, -5e-324, 0.0, -0.0]
    values += [math.inf, -math.inf, math.nan, 1.0, 1.5, -2.75, 3.0 + 2.0**-40, 1 / 3, -2 / 3, 1e5]
    return values


def probed(dtype: np.dtype, values: np.ndarray, size: int) -> None:
    """``size`` elements, the table's values in turn: those asked of MPFR and the others' rounding."""
    indices = np.arange(size) % values.size
    asked: list[int] = []

    def float64(out: np.ndarray, X: np.ndarray) -> None:
        out[...] = values[X.astype(np.int64)]

    def mpfr(context: object, x: object) -> float:
        asked.append(int(x))
        return 0.0

    with np.errstate(over="ignore"):  # values beyond float16's range
        Y = rounded("probe", Elementary("probe", float64=float64, mpfr=mpfr), indices.astype(dtype))
    undecided = [left_to_mpfr(float(y), dtype) for y in values]
    assert asked == [int(i) for i in indices if undecided[i]]
    expected = [
        0.0 if undecided[i] else correctly_rounded(dtype, "mul", float(values[i]), 1.0) for i in indices
    ]
    assert_same(Y, np.array(expected, np.float64).astype(dtype))


def test_the_judge_takes_a_signalling_nan_of_bfloat16_for_a_nan() -> None:
    """0x7F81 is a signalling NaN of bfloat16, which numpy flags as invalid as it looks at it."""
    snan = np.array([0x7F81, 0x7F81, 0x3F80], np.uint16).view(ml_dtypes.bfloat16)
    other = np.array([math.nan, 1.0, math.nan], ml_dtypes.bfloat16)
    assert ulp_distance(snan, other).tolist() == [0, 2**62, 2**62]


@pytest.mark.parametrize("dtype", NARROW, ids=[t.name for t in NARROW])
def test_the_float64_evaluation_decides_every_element_but_those_near_a_midpoint_or_subnormal(
    dtype: np.dtype,
) -> None:
    """Over more than two chunks, so that the indices of the undecided elements are offset by each chunk's
    start."""
    values = table(dtype)
    assert any(left_to_mpfr(y, dtype) for y in values) and not all(left_to_mpfr(y, dtype) for y in values)
    probed(dtype, np.array(values), 2 * CHUNK + 77)


@pytest.mark.parametrize("dtype", NARROW, ids=[t.name for t in NARROW])
def test_a_chunk_of_one_sign_below_or_above_the_normal_range(dtype: np.dtype) -> None:
    """Each element once: below the normal range, all to MPFR but 0; above it, none."""
    smallest = float(ml_dtypes.finfo(dtype).smallest_normal)
    tiny = [smallest / 3, 5e-324, float(np.nextafter(smallest, 0)), 0.0]
    for sign in (1, -1):
        probed(dtype, sign * np.array(tiny), 8)
        probed(dtype, sign * np.array([smallest, 1.0, 3.0 + 2.0**-40]), 8)


# Each type's precision p, largest exponent and smallest subnormal, as IEEE 754 (and bfloat16's definition)
# give them.
FORMATS = {
    "float16": (11, 15, 2**-24),
    "bfloat16": (8, 127, 2**-133),
    "float32": (24, 127, 2**-149),
    "float64": (53, 1023, 2**-1074),
}


@pytest.mark.parametrize("name", list(FORMATS))
def test_the_mpfr_context_rounds_as_the_type_does(name: str) -> None:
    """Ties to even at 1 and in the subnormal range, overflow past the midpoint above the largest value."""
    p, emax, tiny = FORMATS[name]
    context = mpfr_context(np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name))
    unit, largest = Fraction(2) ** (1 - p), Fraction(2) ** (emax + 1) * (1 - Fraction(2) ** -p)
    threshold = largest + Fraction(2) ** (emax - p)
    cases = {
        1 + unit / 2: 1,  # a tie, to the even 1
        1 + 3 * unit / 2: 1 + 2 * unit,  # a tie, to the even 1 + 2u
        1 + unit / 2 + unit / 2**20: 1 + unit,
        threshold: math.inf,
        threshold - Fraction(2) ** (emax - p - 20): largest,
        Fraction(tiny) / 2: 0,  # a tie, to the even 0
        Fraction(tiny) * 5 / 2: 2 * tiny,  # a tie, to the even 2·tiny: 2.5·tiny has p bits, not a value
        Fraction(tiny) * 3 / 4: tiny,
    }
    for value, expected in cases.items():
        rounded_value = context.div(gmpy2.mpz(value.numerator), gmpy2.mpz(value.denominator))
        assert float(rounded_value) == expected, (name, value)


def test_the_judge_counts_float64_neighbours_in_integers() -> None:
    """1 and the next float64 are words 2⁶² − 2⁵² and one more: 1 apart, which a float64 count would lose."""
    ones = np.array([1.0, -1.0, 5e-324])
    others = np.nextafter(ones, np.array([2.0, -2.0, -1.0]))
    distance = ulp_distance(ones, others)
    assert distance.dtype == np.int64 and distance.tolist() == [1, 1, 1]


def test_the_callers_mpfr_context_changes_nothing() -> None:
    """MPFR's results are computed from the exact operands, whatever precision the caller's gmpy2 context has:
    float64 elements, and a float32 element the float64 evaluation leaves to MPFR (a result below the normal
    range)."""
    X = np.array([0.1, 1 / 3, -2.5, 700.1, -745.0])
    tiny = np.array([-100.0, -90.123], np.float32)
    expected = [correctly_rounded(np.dtype(np.float64), "exp", x) for x in X.tolist()]
    expected_tiny = [correctly_rounded(np.dtype(np.float32), "exp", x) for x in tiny.tolist()]
    with gmpy2.context(precision=12):
        Y, Y_tiny = exp(X), exp(tiny)
    assert_same(Y, np.array(expected))
    assert_same(Y_tiny, np.array(expected_tiny, np.float32))
