"""Pow: one test (or more) per requirement id, named after it.

Three oracles, none of them the reference's route (numpy's float64 power, decided and rounded, else MPFR):
IEEE 754's special cases written out here in Python (:func:`ieee_pow`), the exact power of an integer
exponent as a ``fractions.Fraction`` rounded here to the type (:func:`round_fraction`), and MPFR's pow
(gmpy2), called element by element, for the finite cases whose exponent is not an integer. The integer
results are checked against Python's exact integers.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import (
    FLOATS,
    assert_same,
    correctly_rounded,
    raises_req,
    req,
    tensors,
    to_python,
    unchanged,
    wrapped,
)

from sonnx_spec import mul
from sonnx_spec import pow as pow_
from sonnx_spec.accuracy import judge
from sonnx_spec.correctly_rounded import RELATIVE_ERROR, ulp_distance
from sonnx_spec.ops.pow import exact_cases

F16, BF16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
SIXTEEN_BITS = [F16, BF16]
INTEGERS = [np.dtype(np.int32), np.dtype(np.int64)]
INT_TYPES = pytest.mark.parametrize("dtype", INTEGERS, ids=[t.name for t in INTEGERS])
nan, inf = math.nan, math.inf


# -- the oracles ---------------------------------------------------------------------------------------


def is_odd_integer(y: float) -> bool:
    return math.isfinite(y) and y == math.floor(y) and int(y) % 2 == 1


def ieee_special(x: float, y: float) -> float | None:
    """IEEE 754-2019 9.2.1's pow where it names the result (C99 Annex F.9.4.4 says the same), in the order
    the rules give them (POW_S3 first); None for a finite real power, which is rounded."""
    if y == 0 or x == 1:
        return 1.0  # POW_S3
    if math.isnan(x) or math.isnan(y):
        return nan  # POW_S7
    if math.isinf(y):  # POW_S5
        if x == -1:
            return 1.0
        return (0.0 if abs(x) < 1 else inf) if y > 0 else (inf if abs(x) < 1 else 0.0)
    if x == 0:  # POW_S4
        if y < 0:
            return math.copysign(inf, x) if is_odd_integer(y) else inf
        return x if is_odd_integer(y) else 0.0
    if math.isinf(x):  # POW_S6
        if x > 0:
            return inf if y > 0 else 0.0
        if y > 0:
            return -inf if is_odd_integer(y) else inf
        return -0.0 if is_odd_integer(y) else 0.0
    if x < 0 and y != math.floor(y):
        return nan  # POW_S7
    return None


def round_fraction(value: Fraction, dtype: np.dtype) -> float:
    """The rational ``value`` rounded once to ``dtype``, to nearest with ties to even, with the type's
    subnormals and its overflow to ±∞: written out on integers, without MPFR."""
    if value == 0:
        return 0.0
    info = ml_dtypes.finfo(dtype)
    p, emin = info.nmant + 1, info.minexp - 1  # emin: the exponent of the smallest normal value, minus 1
    sign, magnitude = (-1.0 if value < 0 else 1.0), abs(value)
    e = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** e > magnitude:
        e -= 1  # 2^e ≤ magnitude < 2^(e+1)
    quantum = Fraction(2) ** (max(e, emin + 1) - p + 1)  # the spacing of the type's values there
    units, rest = divmod(magnitude / quantum, 1)
    units = int(units)
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and units % 2 == 1):
        units += 1
    rounded = units * quantum
    if rounded > Fraction(float(info.max)):
        return sign * inf
    return sign * float(rounded)


def exact_integer_power(x: float, n: int) -> Fraction:
    return Fraction(x) ** n


def ieee_pow(dtype: np.dtype, x: float, y: float) -> float:
    """The oracle of POW_S1, POW_S3 … POW_S7: the special cases written out, an integer exponent's exact
    power rounded by :func:`round_fraction`, MPFR's pow for the others."""
    special = ieee_special(x, y)
    if special is not None:
        return special
    if abs(y) <= 4096:  # the exact power is a fraction of reasonable size
        if y == math.floor(y):
            return round_fraction(exact_integer_power(x, int(y)), dtype)
    return correctly_rounded(dtype, "pow", x, y)


def oracle(dtype: np.dtype, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """:func:`ieee_pow` at every index, in a new array of ``dtype``."""
    with np.errstate(invalid="ignore"):  # signalling NaNs among bit patterns
        xs, ys = np.asarray(X).astype(F64).ravel().tolist(), np.asarray(Y).astype(F64).ravel().tolist()
    values = [ieee_pow(dtype, x, y) for x, y in zip(xs, ys, strict=True)]
    return np.array(values, F64).astype(dtype).reshape(np.shape(X))  # values of dtype: converted exactly


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


def exponents(dtype: np.dtype) -> list[float]:
    """The exponents every 16-bit base is raised to: integers (odd, even, negative, the largest), halves and
    a third, the signed zeros, infinities and NaN, the smallest subnormal, the largest values."""
    info = ml_dtypes.finfo(dtype)
    tiny, largest = float(info.smallest_subnormal), float(info.max)
    third = float(np.array(1 / 3, F32).astype(dtype))
    integers = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 10.0, -11.0, 100.0, largest, -largest]
    return [*integers, 0.5, -0.5, 1.5, 2.5, third, 1 + float(info.eps), inf, -inf, nan, tiny, -tiny]


# -- constraints ---------------------------------------------------------------------------------------


@req("POW_C1")
@pytest.mark.parametrize("dtype", [F32, np.dtype(np.int64)], ids=["float32", "int64"])
@pytest.mark.parametrize(("shape_x", "shape_y"), [((3,), (1,)), ((2, 3), (3,)), ((), (1,)), ((2,), ())])
def test_C1_operands_of_different_shapes_are_refused_even_if_they_broadcast(
    dtype: np.dtype, shape_x: tuple[int, ...], shape_y: tuple[int, ...]
) -> None:
    X, Y = np.ones(shape_x, dtype), np.ones(shape_y, dtype)
    inputs_unchanged = unchanged(X, Y)
    with raises_req("POW_C1") as info:
        pow_(X, Y)
    inputs_unchanged()
    assert info.value.problem == f"pow: Y has shape {shape_y} but X has shape {shape_x}"


@req("POW_C2", "POW_C3")
@pytest.mark.parametrize("dtype", [*INTEGERS, F16, BF16, F32, F64], ids=lambda t: t.name)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0, 3), (2, 3), (1, 1, 1, 1, 1, 2)])
def test_C2_C3_a_new_array_of_the_shape_and_type_of_X_and_Y(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    X, Y = np.full(shape, 3, dtype), np.full(shape, 2, dtype)
    inputs_unchanged = unchanged(X, Y)
    Z = pow_(X, Y)
    inputs_unchanged()
    assert type(Z) is np.ndarray and Z.shape == shape and Z.dtype == dtype
    assert not np.shares_memory(Z, X) and not np.shares_memory(Z, Y) and Z.flags.writeable
    assert np.all(Z == np.full(shape, 9, dtype))


@req("GR3")
@pytest.mark.parametrize(
    ("x_type", "y_type"), [(F32, np.dtype(np.int64)), (np.dtype(np.int32), np.dtype(np.int64)), (F16, F32)]
)
def test_GR3_an_exponent_of_another_type_than_the_base_is_refused(x_type: np.dtype, y_type: np.dtype) -> None:
    """ONNX Pow-15 lets Y's type differ from X's; the profile does not (the page says why)."""
    with raises_req("GR3"):
        pow_(np.ones(2, x_type), np.ones(2, y_type))


# -- floating point ----------------------------------------------------------------------------------------


@req("POW_S1", "POW_S3", "POW_S4", "POW_S5", "POW_S6", "POW_S7")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S3_to_S7_every_16_bit_base_to_chosen_exponents(dtype: np.dtype) -> None:
    """Every one of the 65536 bit patterns as X, NaNs and subnormals included, raised to each exponent of
    :func:`exponents`: 1.5 million results against the oracle."""
    X = every_value(dtype)
    for y in exponents(dtype):
        Y = np.full(X.shape, y, dtype)
        inputs_unchanged = unchanged(X, Y)
        Z = pow_(X, Y)
        with np.errstate(invalid="ignore"):
            inputs_unchanged()
        assert_same(Z, oracle(dtype, X, Y))


@req("POW_S1", "POW_S3", "POW_S4", "POW_S5", "POW_S6", "POW_S7")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_S3_to_S7_chosen_16_bit_bases_to_every_exponent(dtype: np.dtype) -> None:
    """Every bit pattern as Y, for bases on either side of ±1, zeros, infinities, NaN and extremes."""
    Y = every_value(dtype)
    info = ml_dtypes.finfo(dtype)
    bases = [2.0, 0.5, -2.0, -0.5, 1.0, -1.0, 0.0, -0.0, inf, -inf, nan, 10.0, -3.0]
    bases += [1 + float(info.eps), 1 - float(info.eps) / 2, float(info.max), float(info.smallest_subnormal)]
    for x in bases:
        X = np.full(Y.shape, x, dtype)
        assert_same(pow_(X, Y), oracle(dtype, X, Y))


@req("POW_S1", "POW_S3", "POW_S4", "POW_S5", "POW_S6", "POW_S7")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
def test_S1_random_16_bit_pairs(dtype: np.dtype) -> None:
    rng = np.random.default_rng(15)
    X = rng.integers(0, 2**16, 40_000).astype(np.uint16).view(dtype)
    Y = rng.integers(0, 2**16, 40_000).astype(np.uint16).view(dtype)
    near_one = (1 + rng.uniform(-0.1, 0.1, 20_000)).astype(dtype)  # powers that are neither 0, 1 nor ∞
    moderate = rng.uniform(-30, 30, 20_000).astype(dtype)
    X, Y = np.concatenate([X, near_one, np.abs(moderate)]), np.concatenate([Y, moderate * 8, moderate])
    assert_same(pow_(X, Y), oracle(dtype, X, Y))


def float32_pairs(size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random bit patterns, positive bases with exponents whose power is neither 0 nor ∞, negative bases
    with integer exponents."""
    rng = np.random.default_rng(seed)
    patterns = [rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32).view(F32) for _ in range(2)]
    bases = np.exp2(rng.uniform(-20, 20, size)).astype(F32)
    powers = (rng.uniform(-120, 120, size) / np.log2(bases)).astype(F32)
    negative = -np.exp2(rng.uniform(-8, 8, size)).astype(F32)
    integers = rng.integers(-15, 16, size).astype(F32)
    return np.concatenate([patterns[0], bases, negative]), np.concatenate([patterns[1], powers, integers])


@req("POW_S1")
def test_S1_a_float32_sample() -> None:
    X, Y = float32_pairs(15_000, 21)
    assert_same(pow_(X, Y), oracle(F32, X, Y))


@req("POW_S1")
def test_S1_a_float64_sample() -> None:
    """float64 results all come from MPFR at 53 bits; the oracle's integer powers are exact fractions."""
    rng = np.random.default_rng(64)
    X = np.concatenate([np.exp(rng.uniform(-50, 50, 1_500)), -rng.uniform(0, 10, 500), [2.0, 10.0, -3.0]])
    Y = np.concatenate([rng.uniform(-15, 15, 1_500), rng.integers(-40, 41, 500), [0.5, -1.0, 39.0]])
    assert_same(pow_(X, Y), oracle(F64, X, Y))


@req("POW_S1")
@FLOATS
def test_S1_exact_powers_at_midpoints_round_to_even(dtype: np.dtype) -> None:
    """x² exactly halfway between two values of the type: the float64 evaluation is exact there and cannot
    decide; ties go to the even neighbour. An odd integer m of k bits gives m² of 2k − 1 or 2k bits: a
    midpoint when that is p + 1."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    m = next(m for m in range(2 ** (p // 2), 2 ** (p // 2 + 1)) if m % 2 and (m * m).bit_length() == p + 1)
    expected = round_fraction(Fraction(m * m), dtype)
    assert Fraction(expected) != m * m and abs(Fraction(expected) - m * m) == 2 ** (p + 1 - p) // 2
    Z = pow_(np.array([m, -m], dtype), np.array([2, 2], dtype))
    assert_same(Z, np.array([expected, expected], dtype))
    assert (int(expected) >> 1) % 2 == 0  # the even neighbour (the last significand bit, worth 2, is 0)


@req("POW_S1")
@FLOATS
def test_S1_overflow_and_underflow_take_the_sign_of_the_power(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    X = np.array([-float(info.max), -float(info.max), -float(info.smallest_subnormal), 2.0, -2.0], dtype)
    odd = -255.0 if dtype.itemsize == 2 else -2047.0  # a negative odd integer of the type, 2^odd below it
    Y = np.array([3.0, 2.0, 3.0, 1e4 if dtype != F16 else 60000.0, odd], dtype)
    Z = pow_(X, Y)
    assert_same(Z, np.array([-inf, inf, -0.0, inf, -0.0], dtype))


@req("POW_S3")
@FLOATS
def test_S3_one_whatever_the_other_operand(dtype: np.dtype) -> None:
    others = [nan, -nan, inf, -inf, 0.0, -0.0, 2.0, -2.0, float(ml_dtypes.finfo(dtype).smallest_subnormal)]
    X = np.array([*others, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], dtype)
    Y = np.array([0.0, -0.0] * 4 + [0.0, nan, inf, -inf, -2.5, 1e3, float(ml_dtypes.finfo(dtype).max)], dtype)
    assert_same(pow_(X, Y), np.ones(X.shape, dtype))


@req("POW_S4")
@FLOATS
def test_S4_zero_bases(dtype: np.dtype) -> None:
    X = np.array([-0.0, 0.0, -0.0, 0.0, -0.0, -0.0, -0.0, 0.0, -0.0, -0.0, -0.0], dtype)
    Y = np.array([-3.0, -3.0, -2.0, -0.5, -inf, 3.0, 1.0, 3.0, 2.0, 0.5, inf], dtype)
    expected = np.array([-inf, inf, inf, inf, inf, -0.0, -0.0, 0.0, 0.0, 0.0, 0.0], dtype)
    assert_same(pow_(X, Y), expected)


@req("POW_S5")
@FLOATS
def test_S5_infinite_exponents(dtype: np.dtype) -> None:
    X = np.array([-1.0, -1.0, 0.5, -0.5, 2.0, -2.0, inf, -inf, 0.5, -0.5, 2.0, -2.0, inf, -inf], dtype)
    Y = np.array([inf, -inf] + [inf] * 6 + [-inf] * 6, dtype)
    expected = np.array([1, 1, 0, 0, inf, inf, inf, inf, inf, inf, 0, 0, 0, 0], dtype)
    Z = pow_(X, Y)
    assert_same(Z, expected)
    assert not np.any(np.signbit(Z.astype(F32)))  # every zero +0


@req("POW_S6")
@FLOATS
def test_S6_infinite_bases(dtype: np.dtype) -> None:
    X = np.array([inf, inf, -inf, -inf, -inf, -inf, -inf, -inf], dtype)
    Y = np.array([0.5, -0.5, 3.0, 2.0, 0.5, -3.0, -2.0, -0.5], dtype)
    expected = np.array([inf, 0.0, -inf, inf, inf, -0.0, 0.0, 0.0], dtype)
    assert_same(pow_(X, Y), expected)


@req("POW_S7")
@FLOATS
def test_S7_NaN(dtype: np.dtype) -> None:
    """A negative base and a non-integer exponent: pow(−8, 1/3) is NaN (not −2), as IEEE 754 says; NaN
    operands propagate except where POW_S3 gives 1."""
    third = np.array(1 / 3, F32).astype(dtype)[()]
    X = np.array([-8.0, -8.0, -1.0, -2.0, nan, 2.0, -1.0, -inf, nan], dtype)
    Y = np.array([third, -0.5, 2.5, 0.5, 2.0, nan, nan, nan, inf], dtype)
    assert np.all(np.isnan(pow_(X, Y).astype(F32)))


# -- integers ------------------------------------------------------------------------------------------


@req("POW_S2")
@INT_TYPES
def test_S2_integer_powers_are_exact_modulo_2n(dtype: np.dtype) -> None:
    rng = np.random.default_rng(8 * dtype.itemsize)
    info = np.iinfo(dtype)
    X = np.concatenate([rng.integers(-20, 21, 3000), rng.integers(info.min, info.max, 1000, endpoint=True)])
    Y = np.concatenate([rng.integers(0, 70, 3000), rng.integers(0, info.max, 1000, endpoint=True)])
    X = np.concatenate([X, [0, 0, info.min, info.max, -1, -1, 2, 2, 3]]).astype(dtype)
    Y = np.concatenate(
        [Y, [0, info.max, 0, 2, info.max, info.max - 1, 8 * dtype.itemsize - 1, 8 * dtype.itemsize, 40]]
    )
    Y = Y.astype(dtype)
    inputs_unchanged = unchanged(X, Y)
    Z = pow_(X, Y)
    inputs_unchanged()
    modulus = 2 ** (8 * dtype.itemsize)
    expected = [
        wrapped(pow(int(x), int(y), modulus), dtype) for x, y in zip(X.tolist(), Y.tolist(), strict=True)
    ]
    assert Z.dtype == dtype and Z.tolist() == expected
    assert Z[-9] == 1 and Z[-7] == 1  # 0^0 and min^0


@req("POW_E1")
@INT_TYPES
def test_E1_a_negative_exponent_is_refused(dtype: np.dtype) -> None:
    X = np.array([[2, 1], [0, -1]], dtype)
    for Y, index, value in (
        (np.array([[1, 0], [-1, -2]], dtype), [1, 0], -1),
        (np.array([[3, np.iinfo(dtype).min], [-5, 2]], dtype), [0, 1], int(np.iinfo(dtype).min)),
    ):
        inputs_unchanged = unchanged(X, Y)
        with raises_req("POW_E1") as info:
            pow_(X, Y)
        inputs_unchanged()
        assert info.value.problem == (
            f"pow: Y{index} is {value}: an integer raised to a negative power is not an integer"
        )


@req("POW_P3")
@INT_TYPES
@given(data=st.data())
def test_P3_pow_is_repeated_mul(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    Y = np.array(data.draw(st.lists(st.integers(0, 200), min_size=X.size, max_size=X.size)), dtype)
    Y = Y.reshape(X.shape)
    assert_same(pow_(X, Y + dtype.type(1)), mul(pow_(X, Y), X))


# -- accuracy --------------------------------------------------------------------------------------------


@req("POW_P1")
@FLOATS
@settings(max_examples=60)
@given(data=st.data())
def test_P1_one_rounding_and_the_sign(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    Y = data.draw(tensors(dtype, X.shape))
    Z = pow_(X, Y)
    info = ml_dtypes.finfo(dtype)
    u = gmpy2.mpfr(2.0 ** -(info.nmant + 1))
    tiny = float(info.smallest_normal)
    with gmpy2.context(precision=400, emin=gmpy2.get_emin_min(), emax=gmpy2.get_emax_max()):
        overflow = (2 - gmpy2.mpfr(2) ** -(info.nmant + 1)) * gmpy2.mpfr(2) ** (info.maxexp - 1)
        for x, y, z in zip(
            map(to_python, X.ravel()), map(to_python, Y.ravel()), map(to_python, Z.ravel()), strict=True
        ):
            if ieee_special(x, y) is not None:
                continue
            exact = gmpy2.exp(gmpy2.mpfr(y) * gmpy2.log(abs(gmpy2.mpfr(x))))
            negative = x < 0 and is_odd_integer(y)
            assert math.copysign(1.0, z) == (-1.0 if negative else 1.0)
            if tiny <= exact < overflow / 2:  # away from the threshold: the exp-log route's own error
                assert abs(abs(gmpy2.mpfr(z)) - exact) <= u * exact * (1 + gmpy2.mpfr(2) ** -300)
            elif exact < tiny / 2:
                assert (
                    abs(abs(gmpy2.mpfr(z)) - exact)
                    <= gmpy2.mpfr(float(info.smallest_subnormal)) / 2 + exact * 2**-300
                )


@req("POW_P2")
@FLOATS
def test_P2_the_reference_is_0_ulp_from_the_correctly_rounded_result(dtype: np.dtype) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # float32 values beyond float16: ±∞ there
        X, Y = (v.astype(dtype) for v in float32_pairs(300, 2))
    assert np.all(ulp_distance(pow_(X, Y), oracle(dtype, X, Y)) == 0)


@req("POW_P2")
def test_P2_the_judge_counts_values_of_the_type() -> None:
    """Hand-made: neighbours are 1 apart, −∞ is the neighbour of the lowest value, −0 and +0 are one value."""
    ones = np.array([-65504.0, 1.0, -0.0, 6e-8], F16)
    other = np.array([-inf, 1.0009765625, 0.0, -6e-8], F16)
    assert ulp_distance(ones, other).tolist() == [1, 1, 0, 2]


@req("POW_P2")
def test_P2_is_the_bound_engines_are_judged_by() -> None:
    """One step from the reference is within where both operands are finite and no special value applies
    (a base between 0 and 1 with a non-integer exponent too); two steps are outside; a step at pow(x, 0),
    pow(1, y), pow(0, y), pow(−2, 0.5) is outside."""
    X = np.array([2.0, 3.0, 2.0, 7.0, 1.0, 0.0, -2.0, np.inf, 0.3], np.float32)
    Y = np.array([0.5, 1.5, 0.5, 0.0, 3.0, 2.0, 0.5, 2.0, 1.5], np.float32)
    Z = pow_(X, Y)
    steps = [1, -1, 2, 1, 1, 1, 0, 1, 1]
    engine = Z.copy()
    for i, n in enumerate(steps):
        for _ in range(abs(n)):
            engine[i] = np.nextafter(engine[i], np.float32(np.sign(n) * np.inf))
    engine[6] = np.float32(0.0)  # a number for pow(−2, 0.5), which is NaN
    judged = judge("pow", engine, Z, [X, Y])
    assert judged.rule == "POW_P2"
    assert judged.outside_at.tolist() == [False, False, True, True, True, True, True, False, False]
    assert exact_cases(X, Y).tolist() == [False, False, False, True, True, True, True, False, False]


@req("POW_S1")
def test_S1_numpy_float64_power_is_well_within_the_trusted_bound() -> None:
    """The bound the fast path trusts (2⁻⁴⁰ relative) against numpy's float64 power on random float32 pairs
    whose power is a normal float64: measured against MPFR at 200 bits, it stays below 2⁻⁵⁰."""
    X, Y = float32_pairs(3_000, 5)
    with np.errstate(all="ignore"):  # signalling NaNs among the patterns; invalid powers
        X, Y = X.astype(F64), Y.astype(F64)
        Z = np.power(X, Y)
        keep = np.isfinite(X) & np.isfinite(Y) & (X != 0) & (Y != 0) & ~np.isnan(Z)
        keep &= (np.abs(Z) > 2.0**-1000) & (np.abs(Z) < 2.0**1000)
    worst = 0.0
    with gmpy2.context(precision=200):
        for x, y, z in zip(X[keep].tolist(), Y[keep].tolist(), Z[keep].tolist(), strict=True):
            exact = gmpy2.exp(gmpy2.mpfr(y) * gmpy2.log(abs(gmpy2.mpfr(x))))
            worst = max(worst, float(abs(abs(gmpy2.mpfr(z)) - exact) / exact))
    assert keep.sum() > 3_000 and worst < 2.0**-50 < RELATIVE_ERROR


# -- the values the Why3 specification trusts --------------------------------------------------------------

INSTANCES = {"Float16": F16, "BFloat16": BF16, "Float32": F32, "Float64": F64}


def why3_value(literal: str) -> float:
    """A literal of formal/pow.mlw's instances: (0x1.8p1:F.t), (F.neg (0.0:F.t)), (-0x1p0:F.t)."""
    negative = literal.startswith("(F.neg ")
    text = literal[len("(F.neg ") : -1] if negative else literal
    value = math.inf if "F.div" in text else float.fromhex(text.strip("()").removesuffix(":F.t"))
    return -value if negative else value


@req("POW_S1")
def test_S1_the_values_the_formal_specification_trusts_are_the_correctly_rounded_ones() -> None:
    """formal/pow.mlw states the correctly rounded powers at the page's finite inputs as axioms (Why3 has no
    power of floats): each is checked here against the oracle, independently of the reference."""
    text = (Path(__file__).resolve().parents[1] / "formal" / "pow.mlw").read_text(encoding="utf-8")
    checked = 0
    for name, body in re.findall(r"^module Pow(\w+)\n(.*?)^end", text, re.M | re.S):
        if name not in INSTANCES:
            continue
        for line in body.splitlines():
            found = re.match(r"\s*pow_finite (\(.*?:F\.t\)) (\(.*?:F\.t\)) = (\(.*\))(?: /\\)?$", line)
            if not found:
                continue
            x, y, z = (why3_value(v) for v in found.groups())
            expected = ieee_pow(INSTANCES[name], x, y)
            assert z == expected and math.copysign(1, z) == math.copysign(1, expected), line
            checked += 1
    assert checked > 20


@req("GEN_E1")
def test_GEN_E1_a_result_beyond_memory_is_refused_naming_pow() -> None:
    """Broadcast views of 2^42 elements (no memory of their own): a float32 result of 16 TiB is refused."""
    X = np.broadcast_to(np.ones(1, np.float32), (2**42,))
    with raises_req("GEN_E1") as info:
        pow_(X, X)
    assert info.value.problem == (
        "pow: a result of shape (4398046511104,) and type float32 does not fit in this machine's memory"
    )
