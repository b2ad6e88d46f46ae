"""Accumulating operators (MatMul, Gemm, Conv, the reductions…): sums of products, exact, rounded once.

**What.** For the floating-point types, an element of the result is the exact real sum of the exact
products, rounded once to the type, to nearest with ties to even: the one value every engine's result can
be compared with, whatever order it sums in and however wide its accumulator (issue 22). IEEE 754 decides
the special cases, and they do not depend on the order: a NaN term, 0·∞, or two infinite terms of opposite
signs give NaN; otherwise an infinite term gives its infinity; an exact zero is −0 only if every product is
−0; an empty sum is +0.

**How** (Ziv's strategy, as :mod:`sonnx_spec.correctly_rounded`). For float16, bfloat16 and float32, the
product of two elements is exact in float64 (at most 2 × 24 significant bits, exponents far inside
float64's range: no overflow, no subnormal), so numpy's float64 ``matmul`` makes only the errors of its
additions. Whatever their order, blocked or with fused multiply-adds, ``n`` terms summed in float64 are
within γₙ₋₁·Σ|aₖ·bₖ| of the exact sum, γₖ = k·u/(1 − k·u), u = 2⁻⁵³ (Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., §3.1 and §4.2); Σ|aₖ·bₖ| is itself computed by a float64 ``matmul`` of
the magnitudes, within the same relative error. :func:`decided` rounds both ends of the interval this
bound gives; where they round alike the rounded float64 value is the correctly rounded one, elsewhere
(a share of about n·2⁻²⁸ of a float32 result's elements, times the sum's condition number
Σ|aₖ·bₖ|/|Σaₖ·bₖ|) the sum is made exactly in Python integers and rounded once. A float64 result cannot
be decided from a float64 evaluation: every element is summed exactly.

What the bound trusts: numpy's ``matmul`` evaluates each element as some sum of the n products in float64
arithmetic (any order, any tree); BLAS libraries do, and none that numpy uses multiplies by Strassen's or
another fast scheme, which would break the bound.
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import new_array
from ..rounding import rounded_to

Array = np.ndarray | np.generic

UNIT_ROUNDOFF = 2.0**-53
"""u: the largest relative error of one float64 addition rounded to nearest."""

SCALE = 2**1074
"""Every finite float64, hence every finite value of the float types, is an integer multiple of 1/SCALE;
every product of two of them an integer multiple of 1/SCALE²."""


def gamma(n: int) -> float:
    """The factor c of the bound c·Ŝ of an n-term float64 sum's error, Ŝ the float64 sum of the terms'
    magnitudes: c = 2n·u.

    Summed in any order, the error is at most γₙ₋₁·S, S the exact sum of magnitudes, and Ŝ ≥ (1 − γₙ₋₁)·S
    (its terms are all positive); γₙ₋₁/(1 − γₙ₋₁) = (n − 1)·u/(1 − 2(n − 1)·u) ≤ 2n·u·(1 − u) while
    n·u ≤ 1/4, the (1 − u) covering the rounding of the product c·Ŝ. c is exact in float64.
    """
    return 2 * n * UNIT_ROUNDOFF


def decided(approx: np.ndarray, bound: np.ndarray, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """``approx`` (float64) rounded once to ``dtype``, and where that is the exact value's rounding.

    The exact value lies in [approx − bound, approx + bound]. Each end, moved one float64 step outward
    (the float64 subtraction and addition round by less), is rounded to ``dtype``: where both round to the
    same value (bit for bit, so −0 and +0 differ) every value between does too, the exact one included.
    A bound of 0 says ``approx`` is the exact value; for a float64 result, the only place it is decided.
    """
    rounded = rounded_to(approx, dtype)
    # No float64 overflow: a finite approx and its bound are below n·2^128; an infinite approx has bound 0.
    low = rounded_to(step_down(approx - bound), dtype)
    high = rounded_to(-step_down(-(approx + bound)), dtype)
    words = np.dtype(f"u{dtype.itemsize}")
    alike = low.view(words) == high.view(words)
    return rounded, alike | (bound == 0)


def step_down(x: np.ndarray) -> np.ndarray:
    """The float64 below each element of ``x``, as ``np.nextafter(x, -np.inf)`` gives it (−∞ for −∞; a NaN
    stays itself), in a new array: one step on the words, which order the floats of each sign by magnitude
    (nextafter calls the C library once per element: most of the time ``decided`` took)."""
    words = x.view(np.int64)
    below = words + 1  # away from 0 below +0 (−0 included) …
    below -= 2 * (x > 0)  # … toward it above (arithmetic, not np.where: no branch on each element's sign)
    below[x == 0] = MINUS_SMALLEST  # below ±0: the negative subnormal nearest 0
    # −∞ and a NaN as they came: a step on −∞'s word, or on a NaN's, may make a (signalling) NaN
    np.copyto(below, words, where=~(x > -np.inf))
    return below.view(np.float64)


MINUS_SMALLEST = np.array(-(2.0**-1074)).view(np.int64)
"""The word of −2⁻¹⁰⁷⁴, the float64 just below ±0."""


def exact_matmul(operator: str, A: Array, B: Array, C: Array | None = None) -> np.ndarray:
    """A·B as numpy's ``matmul`` shapes it (``A`` of shape (…, m, n), ``B`` of (…, n, p), the leading axes
    broadcast), of the floating-point type of both: each element the exact Σₖ A[…, i, k]·B[…, k, j] rounded
    once to that type, in a new array. With an addend ``C`` of the result's shape and type (Gemm's), each
    element is the exact Σₖ A[…, i, k]·B[…, k, j] + C[…, i, j] rounded once: C's element is one more term,
    the product C[…, i, j]·1, for the bound, IEEE 754's special cases and the sign of a zero alike."""
    A, B = np.asarray(A), np.asarray(B)
    dtype = A.dtype
    n = A.shape[-1]
    shape = (*np.broadcast_shapes(A.shape[:-2], B.shape[:-2]), A.shape[-2], B.shape[-1])
    out = new_array(operator, shape, dtype)
    if dtype == np.float64:  # a float64 evaluation decides no float64 rounding: every element exact
        undecided = np.ones(shape, bool)
    else:
        wide_a, wide_b = _wide(A), _wide(B)
        a, b = _finite_part(wide_a), _finite_part(wide_b)
        approx = np.matmul(a, b)
        magnitudes = np.matmul(np.abs(a), np.abs(b))
        wide_c = None
        if C is not None:  # one more term, exact in float64: n + 1 terms in all
            wide_c = _wide(np.asarray(C))
            c = _finite_part(wide_c)
            approx += c
            magnitudes += np.abs(c)
        bound = magnitudes * gamma(n if C is None else n + 1)
        _special(wide_a, wide_b, approx, bound, wide_c)
        out[...], ok = decided(approx, bound, dtype)
        undecided = ~ok
    if undecided.any():
        a_rows = np.broadcast_to(A[..., :, None, :], (*shape, n))  # views: element (…, i, j) sums row i
        b_columns = np.broadcast_to(np.swapaxes(B, -1, -2)[..., None, :, :], (*shape, n))  # and column j
        to_odd = dtype != np.float64  # to odd in float64, then once to the type: one rounding (rounding.py)
        where = [tuple(i) for i in np.argwhere(undecided)]
        # C's element as the product C[…, i, j]·1 (boolean indexing reads in argwhere's row-major order)
        addends = [[]] * len(where) if C is None else [[c] for c in _floats(np.asarray(C)[undecided])]
        ones = [] if C is None else [1.0]
        sums = [
            _exact_dot(_floats(a_rows[i]) + c, _floats(b_columns[i]) + ones, to_odd)
            for i, c in zip(where, addends, strict=True)
        ]
        out[undecided] = rounded_to(np.array(sums), dtype)  # Python floats: float64
    return out


def _wide(X: np.ndarray) -> np.ndarray:
    """X in float64, exactly (float64 holds every value of the float types)."""
    with np.errstate(invalid="ignore"):  # bfloat16 flags its signalling NaNs: they are NaNs here
        return np.asarray(X, np.float64)


def _finite_part(X: np.ndarray) -> np.ndarray:
    """X (float64) with its infinities and NaNs as 0: the finite products, summed by ``matmul``."""
    return np.where(np.isfinite(X), X, 0.0)


def _floats(X: np.ndarray) -> list[float]:
    """The elements of X as Python floats, exactly."""
    return _wide(X).tolist()


def _special(
    A: np.ndarray, B: np.ndarray, approx: np.ndarray, bound: np.ndarray, C: np.ndarray | None = None
) -> None:
    """Writes into ``approx`` the elements decided without adding (A, B and the addend C in float64): NaN
    or ±∞ where a term is not finite, and the sign of an exact zero where every term is zero; their bound
    is 0.

    Which terms there are is found by boolean matrix products (numpy's matmul of bool arrays: whether
    some k has both factors of a kind), whatever the shapes broadcast; C's element is a term of its own."""
    sa, sb = np.signbit(A), np.signbit(B)
    zero = bound == 0  # every finite term ±0 (the others are below)
    if zero.any():  # −0 only where every term is −0: where no product is +0 (factors of one sign), nor C
        positive_zero = np.matmul(sa, sb) | np.matmul(~sa, ~sb)
        if C is None:
            positive_zero |= A.shape[-1] == 0  # Σ∅ = +0
        else:
            positive_zero |= ~np.signbit(C)
        approx[zero] = np.where(positive_zero[zero], 0.0, -0.0)
    if np.isfinite(A).all() and np.isfinite(B).all() and (C is None or np.isfinite(C).all()):
        return
    inf_a, inf_b = np.isinf(A), np.isinf(B)
    every_a, every_b = np.ones(A.shape, bool), np.ones(B.shape, bool)
    # A NaN term: a NaN factor, or 0·∞. An infinite term: ∞·x for x ≠ 0 (x = 0 is a NaN term, which
    # wins), +∞ where its factors' signs agree, −∞ where they differ.
    nans = np.matmul(np.isnan(A), every_b) | np.matmul(every_a, np.isnan(B))
    nans |= np.matmul(inf_a, B == 0) | np.matmul(A == 0, inf_b)
    plus = np.matmul(inf_a & ~sa, ~sb) | np.matmul(inf_a & sa, sb) | np.matmul(~sa, inf_b & ~sb)
    plus |= np.matmul(sa, inf_b & sb)
    minus = np.matmul(inf_a & ~sa, sb) | np.matmul(inf_a & sa, ~sb) | np.matmul(~sa, inf_b & sb)
    minus |= np.matmul(sa, inf_b & ~sb)
    if C is not None:  # C's element: NaN, +∞ or −∞ on its own
        nans |= np.isnan(C)
        plus |= C == np.inf
        minus |= C == -np.inf
    nan = nans | (plus & minus)
    infinite = ~nan & (plus | minus)
    approx[infinite] = np.where(plus[infinite], np.inf, -np.inf)
    approx[nan] = np.nan
    bound[nan | infinite] = 0.0


def _exact_dot(a: list[float], b: list[float], to_odd: bool) -> float:
    """Σ a[k]·b[k], exact, rounded to float64: to nearest, ties to even (float64 factors), or to odd (the
    factors of the narrower types); IEEE 754's special cases as the module says."""
    pairs = list(zip(a, b, strict=True))
    special = [x * y for x, y in pairs if not (math.isfinite(x) and math.isfinite(y))]  # IEEE's products
    if any(math.isnan(p) for p in special) or {math.inf, -math.inf} <= set(special):
        return math.nan
    if special:
        return special[0]
    if not to_odd:  # float64 factors: their products are not exact in float64; Python's integers are
        total = 0
        for x, y in pairs:
            (nx, dx), (ny, dy) = x.as_integer_ratio(), y.as_integer_ratio()
            total += nx * ny * (SCALE // dx) * (SCALE // dy)  # exact, in units of 1/SCALE²
        return _float64_of(total, SCALE * SCALE) if total else _zero(pairs)
    # The narrower types: each product is exact in float64, and fsum's sum of exact terms is the exact sum
    # rounded to nearest (CPython's math.fsum: Shewchuk's partials, correctly rounded); what is left of the
    # exact sum after it, summed the same way, has the sign of the exact remainder (zero only if none is).
    products = [x * y for x, y in pairs]
    nearest = math.fsum(products)
    if nearest == 0:  # a nonzero sum of multiples of 2^-298 below 2^300 rounds to no zero in float64
        return _zero(pairs)
    remainder = math.fsum([*products, -nearest])
    if remainder == 0 or np.float64(nearest).view(np.uint64) & 1:
        return nearest
    return math.nextafter(
        nearest, math.inf if remainder > 0 else -math.inf
    )  # the odd one of the two around it


def _zero(pairs: list[tuple[float, float]]) -> float:
    """An exact sum that is zero: −0 only if every product is −0 (factors of opposite signs, at least one
    product), +0 otherwise."""
    every_negative = all(math.copysign(1, x) != math.copysign(1, y) for x, y in pairs)
    return -0.0 if pairs and every_negative else 0.0


def _float64_of(total: int, scale: int) -> float:
    """total/scale (scale a power of 2) rounded to float64, to nearest, ties to even."""
    try:
        return total / scale  # Python's int division: correctly rounded, subnormals included
    except OverflowError:
        return math.inf if total > 0 else -math.inf  # beyond float64's range: infinite in every type
