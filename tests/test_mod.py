"""Mod: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    FLOATS,
    INTS,
    SIGNED_INTS,
    Member,
    assert_same,
    correctly_rounded,
    elementwise,
    raises_req,
    req,
    scalar,
    shapes,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import FLOAT_TYPES, INT_TYPES, mod

UNSIGNED = [t for t in INT_TYPES if t.kind == "u"]


def floored_remainder(a: int, b: int) -> int:
    """fmod = 0: a − ⌊a/b⌋·b, in Python integers (whose // floors)."""
    return a - (a // b) * b


def truncated_remainder(a: int, b: int) -> int:
    """fmod = 1: a − trunc(a/b)·b, in Python integers: the magnitude's remainder with a's sign."""
    magnitude = abs(a) % abs(b)
    return -magnitude if a < 0 else magnitude


def mpfr_fmod(dtype: np.dtype) -> object:
    """MPFR's fmod, rounded to ``dtype`` (it is exact: the rounding changes nothing)."""
    return lambda a, b: correctly_rounded(dtype, "fmod", a, b)


def mod_oracle(dtype: np.dtype) -> object:
    """With fmod = 1, the family's tests' attribute: MOD_S2 for the integers, MPFR's fmod for the floats."""
    return truncated_remainder if dtype in INT_TYPES else mpfr_fmod(dtype)


def nonzero(A: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """B with the integer divisors Mod refuses (0) replaced by 1; floats unchanged."""
    if A.dtype.kind not in "iu":
        return A, B
    return A, np.where(B == 0, np.ones_like(B), B)


FAMILY_MEMBER = Member(
    oracle=mod_oracle,
    shapes="MOD_C1",
    results=("MOD_C1", "MOD_C2"),
    semantics=("MOD_S2", "MOD_S3", "MOD_S4", "MOD_S5"),
    defined=nonzero,
    attributes={"fmod": 1},
)
"""The family's shared tests (tests/test_family_binary.py), with fmod = 1, which every type takes; the tests
below take fmod = 0 for the integers."""


@st.composite
def operands(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """A and B of one shape, any values of ``dtype``."""
    shape = draw(shapes())
    return draw(tensors(dtype, shape)), draw(tensors(dtype, shape))


def test_the_oracles_give_the_values_worked_out_by_hand() -> None:
    assert [floored_remainder(a, b) for a, b in ((-7, 3), (7, -3), (-7, -3), (7, 3))] == [2, -2, -1, 1]
    assert [truncated_remainder(a, b) for a, b in ((-7, 3), (7, -3), (-7, -3), (7, 3))] == [-1, 1, -1, 1]
    f16 = np.dtype(np.float16)
    assert mpfr_fmod(f16)(5.5, 2.0) == 1.5
    assert math.copysign(1, mpfr_fmod(f16)(-4.0, 2.0)) == -1


# -- MOD_C3, MOD_C4: the attribute ------------------------------------------------------------------


@req("MOD_C3")
@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.uint64), np.dtype(np.float32)])
@pytest.mark.parametrize("fmod", [-1, 2, 10, 2**40])
def test_C3_fmod_is_0_or_1(dtype: np.dtype, fmod: int) -> None:
    A, B = np.array([7, 5], dtype), np.array([3, 2], dtype)
    inputs_unchanged = unchanged(A, B)
    with raises_req("MOD_C3") as info:
        mod(A, B, fmod=fmod)
    inputs_unchanged()
    assert info.value.problem == f"mod: fmod is {fmod}, neither 0 nor 1"
    with raises_req("MOD_C3"):  # checked before the shapes
        mod(A, B[:1], fmod=fmod)


@req("MOD_C3")
def test_C3_a_numpy_integer_fmod_is_taken() -> None:
    A, B = np.array([-7], np.int8), np.array([3], np.int8)
    assert mod(A, B, fmod=np.int64(0)).tolist() == [2]
    assert mod(A, B, fmod=np.uint8(1)).tolist() == [-1]


@req("MOD_C4")
@FLOATS
def test_C4_fmod_0_is_refused_for_floating_point(dtype: np.dtype) -> None:
    A, B = np.array([7.0, -7.0], dtype), np.array([3.0, 3.0], dtype)
    inputs_unchanged = unchanged(A, B)
    with raises_req("MOD_C4") as info:
        mod(A, B, fmod=0)
    inputs_unchanged()
    assert info.value.problem == (
        f"mod: fmod is 0 for {dtype} tensors: a floating-point remainder is C's fmod (fmod = 1)"
    )
    with raises_req("MOD_C4"):  # whatever the values: a zero divisor, a 0-d or an empty tensor
        mod(scalar(dtype, 1), scalar(dtype, 0), fmod=0)
    with raises_req("MOD_C4"):
        mod(np.zeros((0, 2), dtype), np.zeros((0, 2), dtype), fmod=0)


# -- MOD_E1: a zero integer divisor ------------------------------------------------------------------


@req("MOD_E1")
@INTS
@pytest.mark.parametrize("fmod", [0, 1])
def test_E1_a_zero_divisor_is_refused(dtype: np.dtype, fmod: int) -> None:
    A, B = np.array([[4, 0], [7, 0]], dtype), np.array([[1, 2], [0, 0]], dtype)
    inputs_unchanged = unchanged(A, B)
    with raises_req("MOD_E1") as info:
        mod(A, B, fmod=fmod)
    inputs_unchanged()
    assert info.value.problem == "mod: B[1, 0] is 0: an integer remainder by zero has no value"
    with raises_req("MOD_E1") as info:
        mod(scalar(dtype, 0), scalar(dtype, 0), fmod=fmod)
    assert info.value.problem == "mod: B[] is 0: an integer remainder by zero has no value"


@req("MOD_E1", "MOD_S1", "MOD_S2")
@INTS
@given(data=st.data())
def test_E1_refused_exactly_when_B_holds_a_zero(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(operands(dtype))
    fmod = data.draw(st.sampled_from([0, 1]))
    zero = B == 0
    if not zero.any():
        oracle = floored_remainder if fmod == 0 else truncated_remainder
        assert_same(mod(A, B, fmod=fmod), elementwise(oracle, dtype, A, B))
        return
    first = [int(i) for i in np.unravel_index(int(np.argmax(zero)), B.shape)]
    with raises_req("MOD_E1") as info:
        mod(A, B, fmod=fmod)
    assert info.value.problem == f"mod: B{first} is 0: an integer remainder by zero has no value"


# -- MOD_S1, MOD_S2, MOD_S3: integers ----------------------------------------------------------------


@req("MOD_S1")
@SIGNED_INTS
def test_S1_the_sign_of_the_divisor(dtype: np.dtype) -> None:
    A = np.array([-7, 7, -7, 7, -6, 6, 0, 5, -5], dtype)
    B = np.array([3, -3, -3, 3, 3, -3, -4, 7, 7], dtype)
    C = mod(A, B, fmod=0)
    assert C.dtype == dtype
    assert C.tolist() == [2, -2, -1, 1, 0, 0, 0, 5, 2]


@req("MOD_S2")
@SIGNED_INTS
def test_S2_the_sign_of_the_dividend(dtype: np.dtype) -> None:
    A = np.array([-7, 7, -7, 7, -6, 6, 0, 5, -5], dtype)
    B = np.array([3, -3, -3, 3, 3, -3, -4, 7, 7], dtype)
    C = mod(A, B, fmod=1)
    assert C.dtype == dtype
    assert C.tolist() == [-1, 1, -1, 1, 0, 0, 0, 5, -5]


@req("MOD_S1", "MOD_S2")
@pytest.mark.parametrize("dtype", UNSIGNED, ids=[t.name for t in UNSIGNED])
@pytest.mark.parametrize("fmod", [0, 1])
def test_S1_S2_unsigned_types_give_one_remainder(dtype: np.dtype, fmod: int) -> None:
    highest = int(np.iinfo(dtype).max)
    A = np.array([0, 7, highest, highest, highest, highest - 1], dtype)
    B = np.array([5, 3, 2, highest, highest - 1, highest], dtype)
    assert mod(A, B, fmod=fmod).tolist() == [0, 1, 1, 0, 1, highest - 1]


@req("MOD_S1", "MOD_S2")
@pytest.mark.parametrize(
    ("dtype", "a", "b"),
    [
        (
            np.int64,
            [2**63 - 1, -(2**63), 2**53 + 1, -(2**53) - 1, -(2**63) + 1],
            [2**32 + 1, 3, 2, 10, 2**62],
        ),
        (np.uint64, [2**64 - 1, 2**64 - 1, 2**53 + 1, 2**63 + 1], [3, 2**32 + 1, 2, 2**63]),
        (np.int32, [2**31 - 1, -(2**31), -(2**31) + 1], [-7, 7, 2**30]),
        (np.uint32, [2**32 - 1, 2**32 - 1], [2**16 + 1, 2**31]),
    ],
    ids=["int64", "uint64", "int32", "uint32"],
)
def test_S1_S2_exact_over_the_whole_range(dtype: type, a: list[int], b: list[int]) -> None:
    """Values float64 cannot hold: a remainder through floating point would round them."""
    A, B = np.array(a, dtype), np.array(b, dtype)
    floored, truncated = mod(A, B, fmod=0), mod(A, B, fmod=1)
    assert floored.dtype == truncated.dtype == dtype
    assert floored.tolist() == [floored_remainder(x, y) for x, y in zip(a, b, strict=True)]
    assert truncated.tolist() == [truncated_remainder(x, y) for x, y in zip(a, b, strict=True)]


@req("MOD_S3")
@SIGNED_INTS
@pytest.mark.parametrize("fmod", [0, 1])
def test_S3_the_lowest_value_modulo_minus_one_is_0(dtype: np.dtype, fmod: int) -> None:
    lowest, highest = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    A = np.array([lowest, lowest, highest, lowest + 1, lowest], dtype)
    B = np.array([-1, 1, -1, -1, lowest], dtype)
    inputs_unchanged = unchanged(A, B)
    C = mod(A, B, fmod=fmod)
    inputs_unchanged()
    assert C.tolist() == [0, 0, 0, 0, 0]
    assert mod(scalar(dtype, lowest), scalar(dtype, -1), fmod=fmod).tolist() == 0


@req("MOD_S3")
@SIGNED_INTS
@given(data=st.data())
def test_S3_no_overflow_at_the_extremes(dtype: np.dtype, data: st.DataObject) -> None:
    """Operands drawn among the extremes and small values: every remainder is the exact one."""
    shape = data.draw(shapes())
    lowest, highest = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    values = st.sampled_from([lowest, lowest + 1, -2, -1, 1, 2, highest - 1, highest])
    n = math.prod(shape)
    A = np.array(data.draw(st.lists(values, min_size=n, max_size=n)), dtype).reshape(shape)
    B = np.array(data.draw(st.lists(values, min_size=n, max_size=n)), dtype).reshape(shape)
    fmod = data.draw(st.sampled_from([0, 1]))
    oracle = floored_remainder if fmod == 0 else truncated_remainder
    assert mod(A, B, fmod=fmod).tolist() == elementwise(oracle, np.int64, A, B).tolist()


# -- MOD_S4, MOD_S5: floating point -------------------------------------------------------------------


@req("MOD_S4")
@FLOATS
def test_S4_the_sign_of_the_dividend_and_exact_values(dtype: np.dtype) -> None:
    A = np.array([5.5, -5.5, 5.5, -5.5, 7.0, -6.0, 6.0, 0.75, 1.0], dtype)
    B = np.array([2.0, 2.0, -2.0, -2.0, 0.5, 3.0, -3.0, 1.0, 0.75], dtype)
    expected = np.array([1.5, -1.5, 1.5, -1.5, 0.0, -0.0, 0.0, 0.75, 0.25], dtype)
    assert_same(mod(A, B, fmod=1), expected)


@req("MOD_S4")
@FLOATS
def test_S4_exact_at_the_extremes(dtype: np.dtype) -> None:
    """Quotients far beyond the significand's precision: the remainder is still exact (no rounding of
    A/B, as A − trunc(A/B)·B computed in the type would give)."""
    info = ml_dtypes.finfo(dtype)
    highest, tiny, normal = float(info.max), float(info.smallest_subnormal), float(info.smallest_normal)
    a = [highest, highest, highest, -highest, 3 * tiny, normal, highest, tiny]
    b = [3.0, tiny, normal * 3, 0.75, 2 * tiny, 3 * tiny, highest, highest]
    A, B = np.array(a, dtype), np.array(b, dtype)
    expected = [
        Fraction(x) - Fraction(y) * int(Fraction(x) / Fraction(y))
        for x, y in zip(A.tolist(), B.tolist(), strict=True)
    ]
    C = mod(A, B, fmod=1)
    for c, e, x in zip(C.tolist(), expected, A.tolist(), strict=True):
        assert Fraction(float(c)) == e
        if e == 0:
            assert math.copysign(1, float(c)) == math.copysign(1, float(x))
    assert_same(C, elementwise(mpfr_fmod(dtype), dtype, A, B))


@req("MOD_S4", "MOD_S5")
@FLOATS
@given(data=st.data())
def test_S4_S5_every_bit_pattern_gives_c_fmod(dtype: np.dtype, data: st.DataObject) -> None:
    """Any two bit patterns: MPFR's fmod, and, where it is defined, Python's math.fmod in float64 (exact
    too, and the float64 result is the type's value)."""
    A, B = data.draw(operands(dtype))
    C = mod(A, B, fmod=1)
    assert_same(C, elementwise(mpfr_fmod(dtype), dtype, A, B))
    for a, b, c in zip(
        map(to_python, A.ravel()), map(to_python, B.ravel()), map(to_python, C.ravel()), strict=True
    ):
        if math.isfinite(a) and not math.isnan(b) and b != 0:
            expected = math.fmod(a, b)
            assert c == expected and math.copysign(1, c) == math.copysign(1, expected)


@req("MOD_S5")
@FLOATS
def test_S5_special_values(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    cases = [  # a, b, fmod(a, b) by C (ISO C F.10.7.1) and IEEE 754
        (1.0, 0.0, nan),
        (1.0, -0.0, nan),
        (0.0, 0.0, nan),
        (-0.0, -0.0, nan),
        (inf, 2.0, nan),
        (-inf, 2.0, nan),
        (inf, inf, nan),
        (-inf, 0.0, nan),
        (1.0, inf, 1.0),
        (-1.0, inf, -1.0),
        (1.0, -inf, 1.0),
        (-0.0, inf, -0.0),
        (0.0, -inf, 0.0),
        (0.0, 1.0, 0.0),
        (-0.0, 1.0, -0.0),
        (-0.0, -1.0, -0.0),
        (0.0, -1.0, 0.0),
        (nan, 1.0, nan),
        (1.0, nan, nan),
        (nan, 0.0, nan),
        (inf, nan, nan),
        (nan, nan, nan),
    ]
    A = np.array([a for a, _, _ in cases], dtype)
    B = np.array([b for _, b, _ in cases], dtype)
    assert_same(mod(A, B, fmod=1), np.array([c for _, _, c in cases], dtype))


@req("MOD_S5")
@FLOATS
def test_S5_a_zero_divisor_is_not_refused_in_floating_point(dtype: np.dtype) -> None:
    """As Div: a floating-point division by zero has IEEE 754's value, here NaN, and no error."""
    C = mod(np.array([3.0, -3.0, 0.0], dtype), np.array([0.0, -0.0, 0.0], dtype), fmod=1)
    assert np.isnan(np.asarray(C, np.float64)).all()


# -- MOD_P1: a remainder ------------------------------------------------------------------------------


@req("MOD_P1")
@pytest.mark.parametrize(
    "dtype", [*INT_TYPES, *FLOAT_TYPES], ids=[t.name for t in (*INT_TYPES, *FLOAT_TYPES)]
)
@given(data=st.data())
def test_P1_a_multiple_of_B_away_and_smaller_than_B(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = nonzero(*data.draw(operands(dtype)))
    modes = [0, 1] if dtype in INT_TYPES else [1]
    for fmod in modes:
        C = mod(A, B, fmod=fmod)
        for a, b, c in zip(
            map(to_python, A.ravel()), map(to_python, B.ravel()), map(to_python, C.ravel()), strict=True
        ):
            if not all(math.isfinite(v) for v in (a, b, c)) or b == 0:
                continue
            quotient = (Fraction(a) - Fraction(c)) / Fraction(b)
            assert quotient.denominator == 1
            assert abs(Fraction(c)) < abs(Fraction(b))
            if fmod == 0 and c != 0:
                assert (c < 0) == (b < 0)
            if fmod == 1 and c != 0:
                assert (c < 0) == (a < 0)
