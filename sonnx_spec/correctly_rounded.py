"""Correctly rounded elementary functions (exp and log; tanh, sigmoid, erf, softplus, pow and softmax to
follow): each element is the exact real value of the function rounded once, to nearest with ties to even, in
the result's type. Ziv's strategy, vectorised.

**How.** For a float16, bfloat16 or float32 result, numpy evaluates the function in float64. That value ``y``
is within a relative error ``e`` of the exact value ``v``: ``|y − v| ≤ e·|v|``, with ``e`` =
:data:`RELATIVE_ERROR` = 2⁻⁴⁰, a bound with a wide margin over numpy's float64 functions (not correctly
rounded, but within a few units of 2⁻⁵³). Rounding to nearest changes its result only at a *midpoint*
between two neighbours of the target type; where no midpoint lies between ``y`` and ``v``, both round alike
and ``y`` rounded to the type is the correctly rounded result. The test reads the ``53 − p`` low bits of
``y``'s significand (p the target's precision): ``y`` is undecided when they are within ``e·2⁵⁴`` units of
its last place of ``10…0``, a midpoint. About one float32 result in 2¹⁴ is undecided. Those elements, and
those whose result is below the target's smallest normal value (where the midpoints are spaced otherwise),
go to MPFR (gmpy2), which rounds the exact value once to the target's precision, exponent range and
subnormals: correctly rounded by construction. The overflow threshold is a midpoint too (between the largest
finite value and the next power of two), so overflow to ±∞ is decided like any other rounding. A float64
result cannot be decided from a float64 evaluation: every element goes to MPFR at 53 bits.

**Special values.** NaN, ±∞ and ±0 come from the float64 evaluation, which follows IEEE 754 and C99's Annex F
for them (exp(−∞) = +0, log(±0) = −∞…), or from MPFR, which follows the same rules; an operator gives the
others itself (Log's NaN below −0, :attr:`Elementary.special`).

**Speed.** The work goes in chunks of :data:`CHUNK` elements, which stay in the processor's cache: the
float64 evaluation, two reductions (which find no result below the normal range in most chunks), three
whole-chunk operations on the bits, the rounding (:func:`sonnx_spec.rounding.rounded_to`); only the
undecided elements are looked at one by one.

**Adding a function** (for the operators that follow): give :class:`Elementary` its float64 evaluation, its
MPFR evaluation, and, if the float64 evaluation is not one numpy function (a formula: sigmoid's
``1/(1 + exp(−x))``), a relative error bound derived for that formula (each step's error added up, with a
margin), stated on the operator's page. The MPFR evaluation returns the exact value rounded once in the
context it is given: one MPFR function does (``context.exp(x)``); a formula must be evaluated at a higher
precision until its rounding is decided (Ziv's loop, in MPFR) and then rounded once to the context. A
function of several operands (Pow) takes them broadcast to one shape and one type. The tests of the result
(exhaustive in float16 and bfloat16 against MPFR) are the operator's: see ``tests/test_exp.py``.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np

from .checks import new_array
from .rounding import rounded_to

if TYPE_CHECKING:
    import gmpy2


def _gmpy2() -> Any:
    """gmpy2, imported when MPFR is first needed: its GMP replaces the process's SIGFPE handler by one
    that aborts, which would change how every program importing the reference dies of a SIGFPE."""
    return importlib.import_module("gmpy2")


Array = np.ndarray | np.generic

RELATIVE_ERROR = 2.0**-40
"""The relative error trusted of numpy's float64 exp and log: |y − v| ≤ 2⁻⁴⁰·|v|, 2¹³ times the error of a
correctly rounded float64 result (2⁻⁵³). numpy's float64 functions (its own SIMD kernels, or the C library's)
are documented or measured within a few units in the last place (glibc: at most 1 or 2); the margin covers
any of them. The tests measure the error of the functions against MPFR on every float16 and bfloat16 input
and on a float32 sample and check it is far below this bound."""

CHUNK = 1 << 16
"""Elements per chunk: 512 KiB of float64, which stays in a 1 MiB level-2 cache with its companions."""

F64_BITS = np.dtype(np.uint64)


@dataclass(frozen=True)
class Elementary:
    """A function of the reals, as this module evaluates it.

    ``float64(out, *operands)`` writes into the float64 array ``out`` the function of the operands (arrays of
    one shape and of the result's type) within a relative error ``error`` of the exact value, and IEEE 754's
    special values exactly. ``mpfr(context, *operands)`` returns the exact value of the function of the
    operands (gmpy2 numbers holding them exactly) rounded once in ``context``.
    """

    name: str
    float64: Callable[..., object]
    mpfr: Callable[..., gmpy2.mpfr]
    error: float = RELATIVE_ERROR
    special: Callable[..., object] | None = None
    """``special(out, *operands)``, if given, writes into the rounded results ``out`` (of the operands' type)
    the special values the float64 evaluation does not give (it is cheaper there, on narrower words)."""


def mpfr_context(dtype: np.dtype) -> gmpy2.context:
    """MPFR's arithmetic in ``dtype``: its precision, its exponent range and its subnormals, rounding to
    nearest with ties to even.

    MPFR writes a number as m·2^e with 1/2 ≤ m < 1, one more than IEEE 754's exponent: emax is IEEE's emax
    + 1, and emin, for subnormal results, IEEE's emin − p + 2."""
    info = ml_dtypes.finfo(dtype)
    precision = info.nmant + 1
    return _gmpy2().context(
        precision=precision, emax=info.maxexp, emin=info.minexp - precision + 2, subnormalize=True
    )


def rounded(operator: str, function: Elementary, *operands: Array) -> np.ndarray:
    """``function`` of the operands (of one shape and one floating-point type), each element correctly
    rounded to that type, in a new array of that shape and type."""
    dtype = operands[0].dtype
    out = new_array(operator, operands[0].shape, dtype)
    flat_out = out.ravel()  # a view: out is new, contiguous
    flat = [np.ravel(x) for x in operands]
    if dtype == np.float64:  # a float64 evaluation cannot decide a float64 rounding: MPFR for every element
        undecided = np.arange(flat_out.size)
    else:
        undecided = _fast_path(function, dtype, flat, flat_out)
    if undecided.size:  # by MPFR, one element at a time, written back at once
        context = mpfr_context(dtype)
        mpfr = _gmpy2().mpfr
        # tolist: Python floats, exact; precision 1: each exactly, whatever the caller's gmpy2 context
        values = [[mpfr(v, 1) for v in x[undecided].tolist()] for x in flat]
        exact = [float(y) for y in map(function.mpfr, itertools.repeat(context), *values)]
        flat_out[undecided] = exact  # Python floats holding values of the type: converted exactly
    return out


def _fast_path(function: Elementary, dtype: np.dtype, flat: list[np.ndarray], out: np.ndarray) -> np.ndarray:
    """Writes into ``out`` every element the float64 evaluation decides; returns the indices of the others:
    those within the window of a midpoint, and those below the type's smallest normal value but not 0."""
    info = ml_dtypes.finfo(dtype)
    dropped = 52 - info.nmant  # the float64 bits below the target's last place
    # y = m·2^k with 1 ≤ m < 2 and |y − v| ≤ e·|v| < e·2^(k+1)·(1 + 2e): fewer than e·2⁵⁴ units of y's last
    # place, 2^(k−52). y is undecided when its dropped bits are within that many units of 10…0, a midpoint.
    window = int(function.error * 2.0**54)
    shift = np.uint64(64 - dropped)  # the dropped bits moved to the top: a midpoint is 2⁶³ there
    width = np.uint64(window << (64 - dropped))
    lowest_undecided = np.uint64(2**63) - width  # undecided ⟺ (moved − lowest_undecided) mod 2⁶⁴ ≤ 2·width
    width *= np.uint64(2)
    smallest_normal = float(info.smallest_normal)
    y = np.empty(min(CHUNK, out.size))  # float64
    moved = np.empty(y.size, F64_BITS)
    undecided: list[np.ndarray] = []
    with np.errstate(all="ignore"):  # an infinity, a NaN or an underflow is a specified result, not an error
        for start in range(0, out.size, CHUNK):
            stop = min(start + CHUNK, out.size)
            yc, mc = y[: stop - start], moved[: stop - start]
            function.float64(yc, *(x[start:stop] for x in flat))
            bits = yc.view(F64_BITS)
            if yc.min() >= smallest_normal or yc.max() <= -smallest_normal:  # False with a NaN
                hard = np.zeros(yc.size, bool)  # no y below the normal range: two reductions tell most chunks
            else:  # the midpoints of the subnormal range are spaced otherwise: MPFR (a NaN compares false)
                hard = (np.abs(yc) < smallest_normal) & (yc != 0)
            np.left_shift(bits, shift, out=mc)
            np.subtract(mc, lowest_undecided, out=mc)
            hard |= mc <= width
            if hard.any():
                undecided.append(start + np.flatnonzero(hard))
            out[start:stop] = rounded_to(yc, dtype)
            if function.special is not None:
                function.special(out[start:stop], *(x[start:stop] for x in flat))
    return np.concatenate([np.empty(0, np.intp), *undecided])  # indices, even where there are none


def ulp_distance(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """How many values of the type lie between each element of ``actual`` and of ``expected`` (of one shape
    and one floating-point type), plus one: 0 for the same value (−0 and +0 alike), 1 for neighbours, +∞
    being the neighbour of the largest finite value; for one NaN and one number, :data:`NOT_A_DISTANCE`;
    0 for two NaNs. The accuracy rules of the operators (EXP_P2: at most 1) judge engines with it."""
    words = np.dtype(f"i{actual.dtype.itemsize}")
    ordinals = [_ordinal(np.asarray(a).view(words)) for a in (actual, expected)]
    distance = np.abs(ordinals[0] - ordinals[1])
    with np.errstate(invalid="ignore"):  # bfloat16 flags a signalling NaN as invalid; it is a NaN here
        nan_a, nan_e = np.isnan(actual), np.isnan(expected)
    distance[nan_a ^ nan_e] = NOT_A_DISTANCE
    distance[nan_a & nan_e] = 0
    return distance


NOT_A_DISTANCE = 2**62
"""The distance between a NaN and a number: more than between any two numbers of the profile's types."""


def _ordinal(words: np.ndarray) -> np.ndarray:
    """The rank of each value among the type's values in increasing order, −0 and +0 both 0 (as int64): a
    negative word w (its sign bit set) is −(w − min), min the word of −0."""
    wide = words.astype(np.int64)
    return np.where(wide < 0, np.iinfo(words.dtype).min - wide, wide)
