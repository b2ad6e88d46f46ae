"""LeakyRelu: one test (or more) per requirement id, named after it.

The oracle is MPFR (gmpy2): α′·x computed at the precision and exponent range of the
tensor's type, subnormals included, rounded to nearest, ties to even. It never
goes through numpy or ml_dtypes, whose bfloat16 cast from float64 rounds twice.
"""

from __future__ import annotations

import math

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from onnx import helper
from support import FLOATS, Member, assert_same, ieee_context, raises_req, req, tensors, unchanged

from sonnx_spec import leaky_relu
from sonnx_spec.rounding import float32_rounded_to_odd, rounded_to

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
FLOAT32_OVERFLOW = 2.0**128 - 2.0**103
"""The least magnitude float32 rounds to an infinity: float32's maximum plus half a unit in its last place."""
FLOAT32_MAX = float(np.finfo(np.float32).max)
FLOAT32_TINY = float(np.finfo(np.float32).smallest_subnormal)


def rounded(value: float, dtype: np.dtype) -> float:
    """``value`` (a float64, given exactly to MPFR) rounded to nearest in ``dtype``'s format."""
    return float(ieee_context(dtype).mul(gmpy2.mpfr(value), 1))


def leaky_oracle(x: float, alpha32: float, dtype: np.dtype) -> float:
    """The cases of LEAKYRELU_S1 on a Python float: x unless x < 0, else α′·x rounded once (MPFR)."""
    if not x < 0:  # −0 and NaN are not < 0
        return x
    return float(ieee_context(dtype).mul(gmpy2.mpfr(alpha32), gmpy2.mpfr(x)))  # exact operands, one rounding


def expected(X: np.ndarray, alpha32: float) -> np.ndarray:
    """The oracle on every element, written back in X's type (exactly: each value is of that type)."""
    values = [leaky_oracle(float(np.float64(x)), alpha32, X.dtype) for x in X.ravel()]
    return np.array(values, np.float64).astype(X.dtype).reshape(X.shape)


def stored(alpha: float) -> float:
    """α′ as an independent oracle sees it: MPFR at float32's precision."""
    return rounded(alpha, np.dtype(np.float32))


FAMILY_MEMBER = Member(
    oracle=lambda dtype: lambda x: leaky_oracle(x, stored(0.1), dtype),
    results=("LEAKYRELU_C1", "LEAKYRELU_C2"),
    semantics=("LEAKYRELU_S1", "LEAKYRELU_S3"),
    attributes={"alpha": 0.1},
)
"""The family's shared tests (tests/test_family_unary.py) with α = 0.1, whose float32 is inexact; the
tests below vary α."""


# -- the oracle itself rounds as IEEE 754 does --------------------------------------------------------


def test_the_oracle_rounds_ties_to_even_and_subnormals_in_each_format() -> None:
    assert rounded(1 + 2.0**-8, BFLOAT16) == 1.0  # a tie between 1 and 1 + 2^-7: the even one
    assert rounded(1 + 3 * 2.0**-8, BFLOAT16) == 1 + 2.0**-6
    assert rounded(1.5 * 2.0**-133, BFLOAT16) == 2.0**-132  # subnormal tie, to even
    assert rounded(2.0**-134, BFLOAT16) == 0.0  # half the least subnormal: to even, zero
    assert rounded(2.0**-25 * 1.5, np.dtype(np.float16)) == 2.0**-24
    assert rounded(65520.0, np.dtype(np.float16)) == math.inf  # float16's max + half an ulp
    assert rounded(FLOAT32_OVERFLOW, np.dtype(np.float32)) == math.inf
    assert rounded(math.nextafter(FLOAT32_OVERFLOW, 0), np.dtype(np.float32)) == FLOAT32_MAX
    assert math.isnan(float(ieee_context(BFLOAT16).mul(gmpy2.mpfr(0.0), gmpy2.mpfr(-math.inf))))


# -- constraints --------------------------------------------------------------------------------------


@req("LEAKYRELU_C3")
@pytest.mark.parametrize(
    "alpha",
    [FLOAT32_OVERFLOW, -FLOAT32_OVERFLOW, 1e39, -1e300, np.float64(1e300), np.longdouble(2.0) ** 200],
    ids=repr,
)
def test_C3_a_finite_alpha_beyond_float32_is_refused(alpha: float) -> None:
    X = np.array([-1.0, 1.0], np.float32)
    inputs_unchanged = unchanged(X)
    with raises_req("LEAKYRELU_C3") as info:
        leaky_relu(X, alpha=alpha)
    inputs_unchanged()
    sign = "-" if alpha < 0 else ""
    assert info.value.problem == (
        f"leaky_relu: alpha is {alpha!r}, beyond the range of float32, in which ONNX stores it "
        f"(its nearest float32 is {sign}inf)"
    )


@req("LEAKYRELU_C3", "LEAKYRELU_S2")
@pytest.mark.parametrize(
    ("alpha", "alpha32"),
    [
        (math.nextafter(FLOAT32_OVERFLOW, 0), FLOAT32_MAX),  # the largest alpha accepted
        (-math.nextafter(FLOAT32_OVERFLOW, 0), -FLOAT32_MAX),
        (math.inf, math.inf),  # infinities and NaN are values of float32: kept
        (-math.inf, -math.inf),
        (math.nan, math.nan),
        (1e-50, 0.0),  # below float32's least subnormal: rounded to zero, as ONNX stores it
        (-1e-50, -0.0),
    ],
)
def test_C3_S2_the_edges_of_float32s_range(alpha: float, alpha32: float) -> None:
    Y = leaky_relu(np.array([-1.0, 2.0], np.float64), alpha=alpha)  # α′·(−1) is exact in float64
    assert_same(Y, np.array([-alpha32, 2.0]))


# -- alpha is the float32 ONNX stores -----------------------------------------------------------------

ALPHAS_GIVEN = [
    0.01,
    0.1,
    1 / 3,
    1 + 2.0**-24,  # a tie: to even, 1
    1 + 3 * 2.0**-24,  # a tie: to even, 1 + 2^-22
    -(1 + 2.0**-24 + 2.0**-40),  # just above a tie: away from 1
    1.5 * FLOAT32_TINY,  # a subnormal tie
    0.7 * FLOAT32_TINY,
    0.5 * FLOAT32_TINY,  # half the least subnormal: to even, +0
    3.4028235e38,
    -1e-40,
    123456789.0,
]


@req("LEAKYRELU_S2")
@pytest.mark.parametrize("alpha", ALPHAS_GIVEN, ids=repr)
def test_S2_alpha_is_the_nearest_float32_as_onnx_stores_it(alpha: float) -> None:
    alpha32 = stored(alpha)
    assert helper.make_attribute("alpha", alpha).f == alpha32  # what ONNX's serialization keeps
    X = np.array([-1.0, -0.0, 3.0], np.float64)
    for given_as in (alpha, np.float64(alpha), np.longdouble(alpha)):
        assert_same(leaky_relu(X, alpha=given_as), np.array([-alpha32, -0.0, 3.0]))


@req("LEAKYRELU_S2")
@pytest.mark.parametrize("narrow", [np.float16, np.float32], ids=lambda t: t.__name__)
def test_S2_an_alpha_of_a_narrower_type_is_its_own_value(narrow: type) -> None:
    alpha = narrow(-0.3)
    X = np.array([-1.0, -4.0], np.float64)
    exact = float(np.float64(alpha))
    assert_same(leaky_relu(X, alpha=alpha), np.array([-exact, -4 * exact]))


# -- the cases and the products -----------------------------------------------------------------------


def every_value(dtype: np.dtype) -> np.ndarray:
    return np.arange(2**16, dtype=np.uint16).view(dtype)


SEEDED = np.random.default_rng(20260117).uniform(-4, 4, 6).astype(np.float32)
ALPHAS = [0.01, 0.1, 0.2, -0.3, 1 / 3, 1.7, 3.0, 100.5, -2.5e-5, 1e30, FLOAT32_TINY, 2.0**-126]
ALPHAS += [float(a) for a in SEEDED]
"""Coefficients with long patterns of bits (products near ties), extremes, and six drawn once."""


@req("LEAKYRELU_S1", "LEAKYRELU_S3")
@pytest.mark.parametrize("dtype", [np.dtype(np.float16), BFLOAT16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("alpha", ALPHAS, ids=repr)
def test_S1_S3_every_float16_and_bfloat16_against_mpfr(dtype: np.dtype, alpha: float) -> None:
    X = every_value(dtype)  # all 65536 values: every negative number, both zeros, infinities, NaNs
    Y = leaky_relu(X, alpha=alpha)
    assert_same(Y, expected(X, stored(alpha)))


@req("LEAKYRELU_S1", "LEAKYRELU_S3")
def test_S1_S3_a_plain_cast_to_bfloat16_would_round_twice() -> None:
    """Where float64 → float32 → bfloat16 rounding differs from one rounding, the spec rounds once."""
    X = every_value(BFLOAT16)
    with np.errstate(invalid="ignore", over="ignore"):
        negative = X < 0
        twice = (np.float64(np.float32(1.7)) * X[negative].astype(np.float64)).astype(BFLOAT16)
    once = expected(X[negative], stored(1.7))
    differ = twice.view(np.uint16) != once.view(np.uint16)
    assert differ.sum() > 0  # such elements exist: this test can tell the two apart
    assert_same(leaky_relu(X[negative][differ], alpha=1.7), once[differ])


@req("LEAKYRELU_S1", "LEAKYRELU_S3")
@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float64)], ids=["float32", "float64"])
@given(data=st.data())
def test_S1_S3_float32_and_float64_against_mpfr(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))
    alpha = data.draw(st.one_of(st.floats(width=32), st.floats(-1e38, 1e38)))
    inputs_unchanged = unchanged(X)
    Y = leaky_relu(X, alpha=alpha)
    inputs_unchanged()
    assert not np.shares_memory(Y, X)
    assert_same(Y, expected(X, stored(alpha)))


@req("LEAKYRELU_S1")
@FLOATS
def test_S1_elements_not_below_zero_are_kept_bit_for_bit(dtype: np.dtype) -> None:
    bits = np.dtype(f"u{dtype.itemsize}")
    every = np.arange(2**16, dtype=np.uint16).astype(bits) * (2 ** (8 * dtype.itemsize - 16))
    X = every.view(dtype)  # NaN payloads and −0 included
    with np.errstate(invalid="ignore"):
        kept = ~(X < 0)
    for alpha in (0.5, math.nan, -math.inf, 0.0):
        assert np.array_equal(leaky_relu(X, alpha=alpha)[kept].view(bits), every[kept])


@req("LEAKYRELU_S1", "LEAKYRELU_S3")
@FLOATS
def test_S1_S3_the_drafts_special_values(dtype: np.dtype) -> None:
    """The float section's examples 2 to 4: X = [inf, NaN, −inf, −0, +0, 1, −1]."""
    X = np.array([math.inf, math.nan, -math.inf, -0.0, 0.0, 1.0, -1.0], dtype)
    nan, inf = math.nan, math.inf
    cases = [  # a list: a dict would take −0.0 and 0.0 for one key
        (0.5, [inf, nan, -inf, -0.0, 0.0, 1.0, -0.5]),
        (nan, [inf, nan, nan, -0.0, 0.0, 1.0, nan]),
        (-inf, [inf, nan, inf, -0.0, 0.0, 1.0, inf]),
        (inf, [inf, nan, -inf, -0.0, 0.0, 1.0, -inf]),
        (0.0, [inf, nan, nan, -0.0, 0.0, 1.0, -0.0]),  # 0·(−∞) is NaN, 0·(−1) is −0
        (-0.0, [inf, nan, nan, -0.0, 0.0, 1.0, 0.0]),
        (-2.0, [inf, nan, inf, -0.0, 0.0, 1.0, 2.0]),
    ]
    for alpha, values in cases:
        assert_same(leaky_relu(X, alpha=alpha), np.array(values, dtype))
    assert np.signbit(leaky_relu(X, alpha=0.0)[[3, 6]]).all()
    assert not np.signbit(leaky_relu(X, alpha=-0.0)[6])


@req("LEAKYRELU_S3")
@FLOATS
def test_S3_overflow_and_underflow(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    X = np.array([info.min, -float(info.smallest_subnormal)], dtype)
    Y = leaky_relu(X, alpha=FLOAT32_MAX)
    assert Y[0] == -math.inf  # the product overflows X's type
    Y = leaky_relu(X, alpha=FLOAT32_TINY)
    assert Y[1] == 0 and np.signbit(Y[1])  # it underflows to −0


# -- the rounding to odd behind it --------------------------------------------------------------------


@req("LEAKYRELU_S3")
def test_S3_rounding_to_odd_into_float32() -> None:
    one_ulp = 2.0**-23
    values = np.array(
        [
            1.0,  # exact: unchanged
            1 + one_ulp / 4,  # between 1 (even) and 1 + ulp (odd): the odd one
            1 + one_ulp * 1.5,  # between 1 + ulp (odd) and 1 + 2 ulp: the odd one, though nearest is above
            -(1 + one_ulp / 2),  # a tie, negative: the odd neighbour
            1e39,  # beyond float32: its largest, which is odd
            -1e39,
            FLOAT32_TINY / 4,  # below the least subnormal: the least subnormal, odd
            math.inf,
            math.nan,
        ]
    )
    odd = float32_rounded_to_odd(values).astype(np.float64)
    wanted = [
        1.0,
        1 + one_ulp,
        1 + one_ulp,
        -(1 + one_ulp),
        FLOAT32_MAX,
        -FLOAT32_MAX,
        FLOAT32_TINY,
        math.inf,
    ]
    assert odd[:8].tolist() == wanted and math.isnan(odd[8])


@req("LEAKYRELU_S3")
@FLOATS
def test_S3_a_float64_value_is_rounded_once_into_each_type(dtype: np.dtype) -> None:
    """The helper behind the product: its result is of the type, and is MPFR's rounding of the value."""
    values = np.array(
        [-144.50000405311584, 1 + 2.0**-9 + 2.0**-30, 65519.0, 3.0e38, 1e-300, -0.0, math.inf, math.nan]
    )
    Y = rounded_to(values, dtype)
    assert type(Y) is np.ndarray and Y.dtype == dtype
    wanted = [rounded(v, dtype) for v in values]
    assert_same(Y, np.array(wanted, np.float64).astype(dtype))
