"""Cast: one test (or more) per requirement id, named after it.

The oracle converts one element in Python: integers exactly (wrapped modulo 2^n by hand), floats rounded
once by MPFR at the target's precision and exponent range from the exact value (gmpy2), truncation by
``math.trunc``. No expected value comes from numpy's conversions.
"""

from __future__ import annotations

import math

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from support import (
    INTS,
    assert_same,
    ieee_context,
    raises_req,
    req,
    special_values,
    to_python,
    unchanged,
    wrapped,
)

from sonnx_spec import FLOAT_TYPES, INT_TYPES, TYPES, SonnxError
from sonnx_spec import cast as sonnx_cast

BOOL = np.dtype(np.bool_)
ALL13 = (*TYPES, BOOL)
CODES = {
    "float32": 1,
    "uint8": 2,
    "int8": 3,
    "uint16": 4,
    "int16": 5,
    "int32": 6,
    "int64": 7,
    "bool": 9,
    "float16": 10,
    "float64": 11,
    "uint32": 12,
    "uint64": 13,
    "bfloat16": 16,
}
"""ONNX's TensorProto codes, written out from onnx.proto (not read from the reference)."""
PAIRS = pytest.mark.parametrize(
    ("source", "target"),
    [(s, t) for s in ALL13 for t in ALL13],
    ids=[f"{s.name}-{t.name}" for s in ALL13 for t in ALL13],
)
F16, BF16, F32, F64 = (np.dtype(t) for t in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64))


class Refused(Exception):
    """The oracle's refusal, with the rule."""

    def __init__(self, rule: str) -> None:
        self.rule = rule


def oracle(x: int | float | bool, target: np.dtype) -> int | float | bool:
    """X[i] cast to ``target``, by the rules, on Python values."""
    is_float = isinstance(x, float)
    if is_float and math.isnan(x) and (target == BOOL or target in INT_TYPES):
        raise Refused("CAST_E1")
    if target == BOOL:
        return x != 0  # CAST_S6: −0.0 != 0 is False in Python too
    if isinstance(x, bool | np.bool_):
        return int(x) if target in INT_TYPES else float(int(x))  # CAST_S6
    if target in INT_TYPES:
        if not is_float:
            return wrapped(x, target)  # CAST_S5 (CAST_S1 where it fits)
        if math.isinf(x):
            raise Refused("CAST_E2")
        t = math.trunc(x)  # CAST_S4
        info = np.iinfo(target)
        if not int(info.min) <= t <= int(info.max):
            raise Refused("CAST_E2")
        return t
    # CAST_S2, CAST_S3: the exact value rounded once by MPFR (x + (−0) keeps every value, −0 included)
    exact = gmpy2.mpfr(x, 128)
    return float(ieee_context(target).add(exact, gmpy2.mpfr("-0")))


def python_values(dtype: np.dtype, count: int = 300, seed: int = 7) -> list[int | float | bool]:
    """The specials of ``dtype`` and ``count`` values drawn from its bit patterns (fixed seed)."""
    if dtype == BOOL:
        return [False, True]
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2 ** (8 * dtype.itemsize), size=count, dtype=np.uint64, endpoint=False)
    drawn = bits.astype(f"u{dtype.itemsize}").view(dtype)
    return special_values(dtype) + [to_python(v) for v in drawn]


def array_of(values: list, dtype: np.dtype) -> np.ndarray:
    if dtype in INT_TYPES or dtype == BOOL:
        return np.array(values, dtype=dtype)
    return np.array(values, dtype=np.float64).astype(dtype)  # exact: the values are of dtype


def expected_array(values: list, target: np.dtype) -> np.ndarray:
    out = [oracle(v, target) for v in values]
    if target in INT_TYPES or target == BOOL:
        return np.array(out, dtype=target)
    return np.array(out, dtype=np.float64).astype(target)  # exact: the oracle's values are of target


@req("CAST_S1", "CAST_S2", "CAST_S3", "CAST_S4", "CAST_S5", "CAST_S6", "CAST_C2", "CAST_E1", "CAST_E2")
@PAIRS
def test_every_pair_element_by_element(source: np.dtype, target: np.dtype) -> None:
    """Every pair of the 13 types, on the source's specials and 300 drawn bit patterns: each element the
    oracle computes is the reference's, each element the oracle refuses is refused alone, with its rule."""
    values = python_values(source)
    kept, refused = [], []
    for v in values:
        try:
            oracle(v, target)
            kept.append(v)
        except Refused as refusal:
            refused.append((v, refusal.rule))
    X = array_of(kept, source).reshape(-1, 1)
    inputs_unchanged = unchanged(X)
    Y = sonnx_cast(X, to=CODES[target.name])
    inputs_unchanged()
    assert Y.dtype == target and Y.shape == X.shape and not np.shares_memory(X, Y)
    assert_same(Y, expected_array(kept, target).reshape(-1, 1))
    for v, rule in refused:
        with raises_req(rule):
            sonnx_cast(array_of([0, v] if source in INT_TYPES else [0.0, v], source), to=CODES[target.name])


@req("CAST_C1")
@pytest.mark.parametrize("to", [0, 8, 14, 15, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, -1, 255, 2**40])
def test_C1_a_code_of_no_profile_type_is_refused(to: int) -> None:
    X = np.array([1.0, 2.0], np.float32)
    with raises_req("CAST_C1") as info:
        sonnx_cast(X, to=to)
    assert f"to is {to}, which names no type of the profile" in str(info.value)
    assert "(its codes: 1 (float32), 2 (uint8), 3 (int8), 4 (uint16)," in str(info.value)
    assert "13 (uint64), 16 (bfloat16))" in str(info.value)
    assert info.value.tensor == "to" and info.value.operator == "cast"


@req("CAST_C1", "CAST_C2")
@pytest.mark.parametrize("name", list(CODES))
def test_C1_C2_each_code_names_its_type(name: str) -> None:
    for shape in [(), (0,), (2, 0, 3), (1, 2, 3)]:
        Y = sonnx_cast(np.zeros(shape, np.int32), to=CODES[name])
        assert Y.dtype.name == name and Y.shape == shape and type(Y) is np.ndarray


@req("CAST_S1")
@pytest.mark.parametrize("dtype", ALL13, ids=[t.name for t in ALL13])
def test_S1_to_its_own_type_every_bit_is_kept(dtype: np.dtype) -> None:
    values = python_values(dtype)
    X = array_of([v for v in values if not (isinstance(v, float) and math.isnan(v))], dtype)
    if dtype in FLOAT_TYPES:  # every NaN pattern too: a copy keeps the bits
        bits = np.dtype(f"u{dtype.itemsize}")
        step = 2 ** (8 * dtype.itemsize) // 65536 + 4099
        X = np.arange(0, 2 ** (8 * dtype.itemsize), step, dtype=np.uint64).astype(bits).view(dtype)
    Y = sonnx_cast(X, to=CODES[dtype.name])
    assert Y.dtype == dtype and Y.tobytes() == X.tobytes() and not np.shares_memory(X, Y)


@req("CAST_S2")
def test_S2_float64_to_float16_rounds_once_not_through_float32() -> None:
    x = 1.0 + 2.0**-11 + 2.0**-40  # float32 rounds it to 1 + 2^-11, a tie of float16 that goes to 1
    Y = sonnx_cast(np.array([x, -x]), to=10)
    assert Y.tolist() == [1.0 + 2.0**-10, -(1.0 + 2.0**-10)]
    assert np.array(x).astype(np.float32).astype(np.float16) == 1.0  # two roundings would give 1


@req("CAST_S2")
def test_S2_float32_and_float64_to_bfloat16_round_to_nearest_not_truncate() -> None:
    x32 = np.array([1.0 + 2.0**-8 + 2.0**-20, 1.0 + 2.0**-9, 1.0 + 3 * 2.0**-8], np.float32)
    assert sonnx_cast(x32, to=16).astype(np.float64).tolist() == [1.0078125, 1.0, 1.015625]  # ties to even
    x64 = np.array([1.0 + 2.0**-8 + 2.0**-30, -(1.0 + 2.0**-8 + 2.0**-30)])  # float32: a tie of bfloat16
    assert sonnx_cast(x64, to=16).astype(np.float64).tolist() == [1.0078125, -1.0078125]


@req("CAST_S2")
def test_S2_overflow_gives_an_infinity_underflow_a_signed_zero() -> None:
    X = np.array([65519.0, 65520.0, -70000.0, 2.0**-25, 2.0**-25 + 2.0**-35, -(2.0**-26), 3.0e38], np.float32)
    Y = sonnx_cast(X, to=10)
    assert Y.astype(np.float64).tolist()[:6] == [65504.0, math.inf, -math.inf, 0.0, 2.0**-24, -0.0]
    assert math.copysign(1.0, float(Y[5])) == -1.0 and math.isinf(float(Y[6]))
    B = sonnx_cast(np.array([3.5e38, -1e300, 1e-300, math.nan]), to=16).astype(np.float64)
    assert B[:2].tolist() == [math.inf, -math.inf] and B[2] == 0.0 and math.isnan(B[3])
    F = sonnx_cast(np.array([1e39, 2.0**-150, 2.0**-150 + 2.0**-200]), to=1).astype(np.float64)
    assert F.tolist() == [math.inf, 0.0, 2.0**-149]


@req("CAST_S2")
@pytest.mark.parametrize("dtype", [F16, BF16], ids=["float16", "bfloat16"])
def test_S2_every_value_of_a_16_bit_type_to_every_float(dtype: np.dtype) -> None:
    X = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(dtype)
    with np.errstate(invalid="ignore"):  # ml_dtypes flags NaN in a conversion; they are left out here
        finite = X[np.isfinite(X.astype(np.float64))]
    for target in FLOAT_TYPES:
        Y = sonnx_cast(finite, to=CODES[target.name])
        assert_same(Y, expected_array([to_python(v) for v in finite], target))


@req("CAST_S3")
def test_S3_int64_to_float32_rounds_once() -> None:
    # 2^62 + 2^38 + 1023 rounds to the odd float64 2^62 + 2^38 + 2^10 (kept: odd), above float32's tie
    X = np.array(
        [2**24 + 1, 2**24 + 3, 2**62 + 2**38 + 1, 2**62 + 2**38, -(2**63), 2**63 - 1, 2**62 + 2**38 + 1023],
        np.int64,
    )
    expected = [2.0**24, 2.0**24 + 4, 2.0**62 + 2.0**39, 2.0**62, -(2.0**63), 2.0**63, 2.0**62 + 2.0**39]
    assert sonnx_cast(X, to=1).astype(np.float64).tolist() == expected


@req("CAST_S3")
def test_S3_integers_to_bfloat16_and_float16_round_once() -> None:
    X = np.array([2**30 + 2**22 + 1, 2**30 + 2**22, 257, 259], np.int64)
    assert sonnx_cast(X, to=16).astype(np.float64).tolist() == [2.0**30 + 2.0**23, 2.0**30, 256.0, 260.0]
    H = np.array([65519, 65520, -65520, 2049, 2051, 0], np.int32)
    assert sonnx_cast(H, to=10).astype(np.float64).tolist() == [65504.0, math.inf, -math.inf, 2048, 2052, 0]
    U = np.array([2**64 - 1, 2**53 + 1, 2**53 + 3], np.uint64)
    assert sonnx_cast(U, to=11).tolist() == [2.0**64, 2.0**53, 2.0**53 + 4]
    assert sonnx_cast(U, to=1).astype(np.float64).tolist() == [2.0**64, 2.0**53, 2.0**53]
    assert math.copysign(1.0, float(sonnx_cast(np.array([0], np.int8), to=11)[0])) == 1.0


@req("CAST_S3")
@pytest.mark.parametrize("source", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S3_64_bit_integers_near_ties_round_once(source: np.dtype) -> None:
    """Around the ties of float32, bfloat16 and float16 at large magnitudes, where a rounding to float64
    first would land on the tie."""
    values = []
    for e in (31, 40, 53, 54, 62, 63 if source.kind == "u" else 62):
        for p in (8, 11, 24):
            tie = 2**e + 2 ** (e - p)
            values += [tie - 1, tie, tie + 1, 2**e + 3 * 2 ** (e - p) + 1]
    values = [v for v in values if v < 2 ** (8 * source.itemsize - (source.kind == "i"))]
    X = np.array(values, source)
    for target in FLOAT_TYPES:
        assert_same(sonnx_cast(X, to=CODES[target.name]), expected_array(values, target))


@req("CAST_S4")
@INTS
def test_S4_truncation_toward_zero(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    values = [2.7, 0.5, -0.0, 0.99, 1.0]
    if info.min < 0:
        values += [-2.7, -0.99, -1.5]
    X = np.array(values, np.float64)
    expected = [math.trunc(v) for v in values]
    for source in FLOAT_TYPES:
        Xs = X.astype(source)
        ints = [math.trunc(to_python(v)) for v in Xs]
        assert sonnx_cast(Xs, to=CODES[dtype.name]).tolist() == ints
    assert sonnx_cast(X, to=CODES[dtype.name]).tolist() == expected


@req("CAST_S4", "CAST_E2")
@INTS
def test_S4_E2_the_ends_of_the_range(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    to = CODES[dtype.name]
    if dtype.itemsize < 8:  # float64 holds every value of the type and its neighbours
        Y = sonnx_cast(np.array([lo - 0.99, hi + 0.99, float(lo), float(hi)]), to=to)
        assert Y.tolist() == [lo, hi, lo, hi]
        for outside in (lo - 1.0, hi + 1.0):
            with raises_req("CAST_E2") as info_e:
                sonnx_cast(np.array([0.0, outside]), to=to)
            assert "X[1]" in str(info_e.value) and "outside the range" in str(info_e.value)
    else:  # the largest float64 below 2^63 (or 2^64) is in range, 2^63 (2^64) is not
        top = math.ldexp(1.0, 64 if dtype.kind == "u" else 63)
        below = math.nextafter(top, 0.0)
        assert sonnx_cast(np.array([below]), to=to).tolist() == [int(below)]
        with raises_req("CAST_E2"):
            sonnx_cast(np.array([top]), to=to)
        if dtype.kind == "i":
            assert sonnx_cast(np.array([-top]), to=to).tolist() == [lo]
            with raises_req("CAST_E2"):
                sonnx_cast(np.array([math.nextafter(-top, -math.inf)]), to=to)
        else:
            with raises_req("CAST_E2"):
                sonnx_cast(np.array([-1.0]), to=to)


@req("CAST_E1", "CAST_E2")
@pytest.mark.parametrize("source", FLOAT_TYPES, ids=[t.name for t in FLOAT_TYPES])
@pytest.mark.parametrize("target", [*INT_TYPES, BOOL], ids=[t.name for t in (*INT_TYPES, BOOL)])
def test_E1_E2_NaN_and_infinities_to_an_integer_or_bool(source: np.dtype, target: np.dtype) -> None:
    X = np.array([[1.0, math.nan]], np.float64).astype(source)
    inputs_unchanged = unchanged(X)
    with raises_req("CAST_E1") as info:
        sonnx_cast(X, to=CODES[target.name])
    inputs_unchanged()
    assert "X[0, 1] is NaN" in str(info.value)
    for inf in (math.inf, -math.inf):
        Z = np.array([inf], np.float64).astype(source)
        if target == BOOL:
            assert sonnx_cast(Z, to=9).tolist() == [True]
        else:
            with raises_req("CAST_E2"):
                sonnx_cast(Z, to=CODES[target.name])


@req("CAST_S2")
@pytest.mark.parametrize("source", FLOAT_TYPES, ids=[t.name for t in FLOAT_TYPES])
@pytest.mark.parametrize("target", FLOAT_TYPES, ids=[t.name for t in FLOAT_TYPES])
def test_S2_NaN_and_infinities_to_a_float(source: np.dtype, target: np.dtype) -> None:
    X = np.array([math.nan, math.inf, -math.inf, -0.0], np.float64).astype(source)
    Y = sonnx_cast(X, to=CODES[target.name]).astype(np.float64)
    assert math.isnan(Y[0]) and Y[1:].tolist() == [math.inf, -math.inf, 0.0]
    assert math.copysign(1.0, Y[3]) == -1.0


@req("CAST_S5")
def test_S5_narrower_integers_wrap() -> None:
    assert sonnx_cast(np.array([200, -200, 256, -1], np.int16), to=3).tolist() == [-56, 56, 0, -1]
    assert sonnx_cast(np.array([-1, -128, 127], np.int8), to=2).tolist() == [255, 128, 127]
    assert sonnx_cast(np.array([2**64 - 1, 2**63], np.uint64), to=7).tolist() == [-1, -(2**63)]
    assert sonnx_cast(np.array([-(2**63), 2**32 + 5], np.int64), to=6).tolist() == [0, 5]
    assert sonnx_cast(np.array([-1], np.int8), to=13).tolist() == [2**64 - 1]  # −1 modulo 2^64
    assert sonnx_cast(np.array([-1, -128], np.int8), to=7).tolist() == [-1, -128]  # widening: exact
    assert sonnx_cast(np.array([255], np.uint8), to=3).tolist() == [-1]
    assert sonnx_cast(np.array([65535], np.uint16), to=5).tolist() == [-1]


@req("CAST_S6")
def test_S6_bool_and_numbers() -> None:
    F = np.array([-0.0, 0.0, 5e-324, -math.inf, math.inf, -1.0])
    assert sonnx_cast(F, to=9).tolist() == [False, False, True, True, True, True]
    assert sonnx_cast(np.array([0, 1, -1, 2**63 - 1], np.int64), to=9).tolist() == [False, True, True, True]
    B = np.array([False, True])
    for target in ALL13:
        Y = sonnx_cast(B, to=CODES[target.name])
        assert Y.dtype == target and Y.astype(np.float64).tolist() == [0.0, 1.0]
        if target in FLOAT_TYPES:
            assert math.copysign(1.0, float(Y[0])) == 1.0  # +0, not −0


@req("CAST_E1")
def test_E1_NaN_is_refused_at_its_first_index() -> None:
    X = np.array([[0.0, 1.0], [math.nan, math.nan]], np.float32)
    with raises_req("CAST_E1") as info:
        sonnx_cast(X, to=6)
    assert "X[1, 0] is NaN" in str(info.value)
    assert isinstance(info.value, SonnxError)


@req("GEN_E1", "CAST_C2")
def test_C2_the_result_is_allocated_first_a_result_too_large_is_GEN_E1() -> None:
    X = np.broadcast_to(np.zeros((), np.int8), (2**50,))  # a view: no memory, but a result of 2^53 bytes
    with raises_req("GEN_E1") as info:
        sonnx_cast(X, to=11)
    assert info.value.problem == (
        f"cast: a result of shape ({2**50},) and type float64 does not fit in this machine's memory"
    )
