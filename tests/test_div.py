"""Div: one test (or more) per requirement id, named after it."""

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
    is_nan,
    raises_req,
    req,
    scalar,
    shapes,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import INT_TYPES, div

UNSIGNED = [t for t in INT_TYPES if t.kind == "u"]
SIXTEEN_BITS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]


def truncated_quotient(a: int, b: int) -> int:
    """The algebraic quotient with its fractional part discarded, in Python integers."""
    magnitude = abs(a) // abs(b)
    return magnitude if (a < 0) == (b < 0) else -magnitude


def divisible(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """B with the divisors Div refuses (0; -1 under the lowest value) replaced by 1; floats unchanged."""
    if A.dtype.kind not in "iu":
        return B
    B = np.where(B == 0, np.ones_like(B), B)
    if A.dtype.kind == "i":
        B = np.where((A == np.iinfo(A.dtype).min) & (B == -1), np.ones_like(B), B)
    return B


def ieee_quotient(dtype: np.dtype) -> object:
    return lambda a, b: correctly_rounded(dtype, "div", a, b)


def div_oracle(dtype: np.dtype) -> object:
    """DIV_S1's truncated quotient for the integers, DIV_S2's correctly rounded one for the floats."""
    return truncated_quotient if dtype in INT_TYPES else ieee_quotient(dtype)


FAMILY_MEMBER = Member(
    oracle=div_oracle,
    shapes="DIV_C1",
    results=("DIV_C1", "DIV_C2"),
    semantics=("DIV_S1", "DIV_S2", "DIV_S3"),
    defined=lambda A, B: (A, divisible(A, B)),
)
"""The family's shared tests (tests/test_family_binary.py): shapes, types, every element by the oracle."""


@st.composite
def operands(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """A and B of one shape, any values of ``dtype``."""
    shape = draw(shapes())
    return draw(tensors(dtype, shape)), draw(tensors(dtype, shape))


# -- DIV_C1, DIV_C2: shapes and types -------------------------------------------------------------


# -- DIV_E1, DIV_E2: refused integer divisions ------------------------------------------------------


@req("DIV_E1")
@INTS
def test_E1_a_zero_divisor_is_refused(dtype: np.dtype) -> None:
    A, B = np.array([[4, 0], [7, 0]], dtype), np.array([[1, 2], [0, 0]], dtype)
    inputs_unchanged = unchanged(A, B)
    with raises_req("DIV_E1") as info:
        div(A, B)
    inputs_unchanged()
    assert info.value.problem == "div: B[1, 0] is 0: an integer division by zero has no result"
    with raises_req("DIV_E1") as info:
        div(scalar(dtype, 0), scalar(dtype, 0))
    assert info.value.problem == "div: B[] is 0: an integer division by zero has no result"


@req("DIV_E1", "DIV_S1")
@INTS
@given(data=st.data())
def test_E1_refused_exactly_when_B_holds_a_zero(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(operands(dtype))
    A = np.where((A == np.iinfo(dtype).min) & (B == -1), np.zeros_like(A), A)  # no DIV_E2 here
    zero = B == 0
    if not zero.any():
        assert_same(div(A, B), elementwise(truncated_quotient, dtype, A, B))
        return
    first = [int(i) for i in np.unravel_index(int(np.argmax(zero)), B.shape)]
    with raises_req("DIV_E1") as info:
        div(A, B)
    assert info.value.problem == f"div: B{first} is 0: an integer division by zero has no result"


@req("DIV_E2")
@SIGNED_INTS
def test_E2_the_lowest_value_divided_by_minus_one_is_refused(dtype: np.dtype) -> None:
    lowest = int(np.iinfo(dtype).min)
    A = np.array([lowest, lowest, lowest + 1, lowest, -1], dtype)
    B = np.array([1, 2, -1, -1, -1], dtype)
    inputs_unchanged = unchanged(A, B)
    with raises_req("DIV_E2") as info:
        div(A, B)
    inputs_unchanged()
    assert info.value.problem == (
        f"div: A[3] is {lowest}, the lowest {dtype}, and B[3] is -1: "
        f"the quotient {-lowest} is not representable in {dtype}"
    )
    # The same values without that pair: every quotient exists.
    assert div(A[:3], B[:3]).tolist() == [lowest, lowest // 2, -(lowest + 1)]
    with raises_req("DIV_E2"):
        div(scalar(dtype, lowest), scalar(dtype, -1))


@req("DIV_E2")
@SIGNED_INTS
@given(data=st.data())
def test_E2_refused_exactly_when_the_quotient_is_not_representable(
    dtype: np.dtype, data: st.DataObject
) -> None:
    shape = data.draw(shapes())
    lowest = np.iinfo(dtype).min
    values = st.sampled_from([scalar(dtype, v) for v in (lowest, lowest + 1, -1, 1, 2)])
    A = np.array(data.draw(st.lists(values, min_size=math.prod(shape), max_size=math.prod(shape))), dtype)
    B = np.array(data.draw(st.lists(values, min_size=math.prod(shape), max_size=math.prod(shape))), dtype)
    A, B = A.reshape(shape), B.reshape(shape)
    exact = elementwise(
        lambda a, b: truncated_quotient(a, b) if (a, b) != (lowest, -1) else 0, np.int64, A, B
    )
    overflows = (A == lowest) & (B == -1)
    if not overflows.any():
        assert div(A, B).tolist() == exact.tolist()
        return
    with raises_req("DIV_E2") as info:
        div(A, B)
    first = [int(i) for i in np.unravel_index(int(np.argmax(overflows)), shape)]
    assert info.value.problem.startswith(f"div: A{first} is {lowest}, the lowest {dtype}, and B{first} is -1")


@req("DIV_E1", "DIV_E2")
@SIGNED_INTS
def test_E1_is_checked_before_E2(dtype: np.dtype) -> None:
    lowest = np.iinfo(dtype).min
    with raises_req("DIV_E1") as info:
        div(np.array([lowest, 1], dtype), np.array([-1, 0], dtype))
    assert info.value.problem == "div: B[1] is 0: an integer division by zero has no result"


@req("DIV_E2")
@pytest.mark.parametrize("dtype", UNSIGNED, ids=[t.name for t in UNSIGNED])
def test_E2_does_not_concern_unsigned_types(dtype: np.dtype) -> None:
    highest = int(np.iinfo(dtype).max)
    C = div(np.array([0, highest, highest, highest], dtype), np.array([highest, 1, highest, 2], dtype))
    assert C.tolist() == [0, highest, 1, highest // 2]


# -- DIV_S1, DIV_P1: integers -------------------------------------------------------------------------


@req("DIV_S1")
@SIGNED_INTS
def test_S1_truncation_not_floor(dtype: np.dtype) -> None:
    A = np.array([-35, 35, -35, 35, -7, 7, -1, 1, 6, 5], dtype)
    B = np.array([3, 3, -3, -3, 2, 2, 2, -2, 3, 3], dtype)
    assert div(A, B).tolist() == [-11, 11, 11, -11, -3, 3, 0, 0, 2, 1]


@req("DIV_S1")
@pytest.mark.parametrize(
    ("dtype", "a", "b"),
    [
        (
            np.int64,
            [2**63 - 1, -(2**63 - 1), 2**53 + 1, -(2**63), -(2**63), 2**62 + 3],
            [3, 7, 1, 3, 2**32, -1],
        ),
        (np.uint64, [2**64 - 1, 2**64 - 1, 2**53 + 1, 2**63 + 1, 2**64 - 2], [3, 2**32 + 1, 1, 1, 2**64 - 1]),
        (np.int32, [2**31 - 1, -(2**31), -(2**31) + 1], [-1, 7, -1]),
        (np.uint32, [2**32 - 1, 2**32 - 1], [2**16 + 1, 2**32 - 1]),
    ],
    ids=["int64", "uint64", "int32", "uint32"],
)
def test_S1_exact_over_the_whole_range(dtype: type, a: list[int], b: list[int]) -> None:
    """Values float64 cannot hold: a division through floating point would round them."""
    C = div(np.array(a, dtype), np.array(b, dtype))
    assert C.dtype == dtype
    assert C.tolist() == [truncated_quotient(x, y) for x, y in zip(a, b, strict=True)]


@req("DIV_P1")
@INTS
@given(data=st.data())
def test_P1_the_integer_nearest_the_quotient_on_the_side_of_zero(
    dtype: np.dtype, data: st.DataObject
) -> None:
    A, B = data.draw(operands(dtype))
    B = divisible(A, B)
    for a, b, c in zip(A.ravel().tolist(), B.ravel().tolist(), div(A, B).ravel().tolist(), strict=True):
        quotient = Fraction(a, b)
        assert abs(c) <= abs(quotient) < abs(c) + 1
        assert c * quotient >= 0


# -- DIV_S2, DIV_S3, DIV_P2: floating point -----------------------------------------------------------


def significands(dtype: np.dtype, step: int = 1) -> list[float]:
    """The significands 1, 1 + 2^-p+1, …, 2 - 2^-p+1 of ``dtype`` (every ``step``-th one)."""
    bits = ml_dtypes.finfo(dtype).nmant
    return [1 + k / 2**bits for k in range(0, 2**bits, step)]


def quotient_ranges(dtype: np.dtype) -> list[tuple[str, int, int]]:
    """(what, exponent of A, exponent of B): where the quotient of two significands lands."""
    info = ml_dtypes.finfo(dtype)
    emin, emax, bits = info.minexp, info.maxexp - 1, info.nmant
    return [
        ("near 1", 0, 0),
        ("subnormal", emin, 1),
        ("deep subnormal", emin, bits - 1),
        ("around the smallest subnormal", emin, bits + 1),
        ("below half the smallest subnormal", emin, bits + 2),
        ("around the overflow threshold", emax, -1),
    ]


@req("DIV_S2")
@pytest.mark.parametrize("dtype", SIXTEEN_BITS, ids=[t.name for t in SIXTEEN_BITS])
@pytest.mark.parametrize("where", range(6), ids=[w for w, _, _ in quotient_ranges(np.dtype(np.float16))])
def test_S2_rounding_once_through_float32_is_exact(dtype: np.dtype, where: int) -> None:
    """Every pair of significands (every 32nd divisor for float16) scaled so that the quotient lands near
    1, in the subnormals, below the smallest subnormal, at the overflow threshold: numpy computes in
    float32 and rounds once, and the result is the correctly rounded one."""
    _, exponent_a, exponent_b = quotient_ranges(dtype)[where]
    step = 1 if dtype == np.dtype(ml_dtypes.bfloat16) else 32
    a = [m * 2.0**exponent_a for m in significands(dtype)]
    b = [m * 2.0**exponent_b for m in significands(dtype, step)]
    A = np.repeat(np.array(a, dtype), len(b))
    B = np.tile(np.array(b, dtype), len(a))
    assert_same(div(A, B), elementwise(ieee_quotient(dtype), dtype, A, B))


@req("DIV_S3")
@FLOATS
def test_S3_special_values(dtype: np.dtype) -> None:
    nan, inf = math.nan, math.inf
    cases = [  # a, b, a / b by IEEE 754: the sign of a zero or an infinity is the exclusive or of both
        (1.0, 0.0, inf),
        (1.0, -0.0, -inf),
        (-1.0, 0.0, -inf),
        (-1.0, -0.0, inf),
        (inf, -0.0, -inf),
        (0.0, 1.0, 0.0),
        (-0.0, 1.0, -0.0),  # the draft's "sign from B" would give +0
        (0.0, -1.0, -0.0),
        (-0.0, -1.0, 0.0),
        (0.0, inf, 0.0),
        (-0.0, -inf, 0.0),
        (1.0, inf, 0.0),
        (-1.0, inf, -0.0),
        (1.0, -inf, -0.0),
        (-1.0, -inf, 0.0),
        (inf, 2.0, inf),
        (inf, -2.0, -inf),
        (-inf, 0.0, -inf),
        (0.0, 0.0, nan),
        (-0.0, 0.0, nan),
        (0.0, -0.0, nan),
        (inf, inf, nan),
        (-inf, inf, nan),
        (inf, -inf, nan),
        (nan, 1.0, nan),
        (1.0, nan, nan),
        (nan, 0.0, nan),
        (0.0, nan, nan),
        (inf, nan, nan),
        (nan, nan, nan),
    ]
    A = np.array([a for a, _, _ in cases], dtype)
    B = np.array([b for _, b, _ in cases], dtype)
    assert_same(div(A, B), np.array([c for _, _, c in cases], dtype))


@req("DIV_S2", "DIV_S3")
@FLOATS
def test_S2_S3_overflow_and_underflow_round_to_infinity_and_zero(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    highest, tiny = float(info.max), float(info.smallest_subnormal)
    A = np.array([highest, -highest, tiny, -tiny, tiny, 3 * tiny], dtype)
    B = np.array([0.5, 0.5, 2.0, 2.0, 0.5, 2.0], dtype)
    # tiny/2 is a tie between 0 and tiny (ties to even: 0); 3·tiny/2 a tie between tiny and 2·tiny (2·tiny)
    expected = np.array([math.inf, -math.inf, 0.0, -0.0, 2 * tiny, 2 * tiny], dtype)
    assert_same(div(A, B), expected)


@req("DIV_P2")
@FLOATS
@given(data=st.data())
def test_P2_the_error_is_at_most_half_an_ulp(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(operands(dtype))
    info = ml_dtypes.finfo(dtype)
    u, smallest_normal = Fraction(1, 2 ** (info.nmant + 1)), Fraction(float(info.smallest_normal))
    C = div(A, B)
    for a, b, c in zip(
        map(to_python, A.ravel()), map(to_python, B.ravel()), map(to_python, C.ravel()), strict=True
    ):
        if not all(math.isfinite(v) for v in (a, b, c)) or b == 0:
            continue
        exact = Fraction(a) / Fraction(b)
        assert abs(Fraction(c) - exact) <= u * max(abs(exact), smallest_normal)


def test_the_oracle_rounds_as_ieee_754_does() -> None:
    """Values worked out by hand: the oracle rounds to the type, with its subnormals, ties to even."""
    f16, bf16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
    assert correctly_rounded(f16, "div", 1.0, 3.0) == 1365 / 4096  # 0.01010101010|1… rounds up
    assert correctly_rounded(bf16, "div", 1.0, 3.0) == 171 / 512  # 0.01010101|01… rounds up
    assert correctly_rounded(f16, "div", 2.0**-24, 2.0) == 0.0  # half the smallest subnormal: tie, to 0
    assert correctly_rounded(f16, "div", 3 * 2.0**-24, 2.0) == 2.0**-23  # 1.5 subnormal steps: to 2
    assert correctly_rounded(f16, "div", 65504.0, 0.5) == math.inf
    assert math.copysign(1, correctly_rounded(f16, "div", -0.0, 1.0)) == -1
    assert is_nan(correctly_rounded(bf16, "div", 0.0, 0.0))
