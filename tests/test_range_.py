"""Range: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: K from fractions.Fraction (exact), each element S + i·D as a
Python integer for the integer types and, for the floating-point types, MPFR's fused multiply-add of the
exact i, D and S rounded once at the type's precision (gmpy2), which is S + i·D rounded once. Results
are compared bit for bit.
"""

from __future__ import annotations

import math
from fractions import Fraction

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import assert_same, ieee_context, raises_req, req, unchanged

from sonnx_spec import range_
from sonnx_spec.ops.range_ import rounded_once

INTS = [np.dtype(t) for t in (np.int16, np.int32, np.int64)]
FLOATS = [np.dtype(t) for t in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64)]
TYPES = INTS + FLOATS
ALL = pytest.mark.parametrize("dtype", TYPES, ids=[t.name for t in TYPES])
INT = pytest.mark.parametrize("dtype", INTS, ids=[t.name for t in INTS])
FLOAT = pytest.mark.parametrize("dtype", FLOATS, ids=[t.name for t in FLOATS])


def s(value: float | int, dtype: np.dtype) -> np.ndarray:
    return np.array(value, dtype)


def exact(x: np.ndarray) -> Fraction:
    return Fraction(int(x)) if x.dtype.kind in "iu" else Fraction(float(x))


def oracle_count(S: np.ndarray, L: np.ndarray, D: np.ndarray) -> int:
    """K: the number of i >= 0 with S + i·D strictly before L, counted one by one (small K only)."""
    start, limit, delta = exact(S), exact(L), exact(D)
    k = 0
    while (start + k * delta < limit) if delta > 0 else (start + k * delta > limit):
        k += 1
    return k


def oracle(S: np.ndarray, L: np.ndarray, D: np.ndarray, K: int) -> np.ndarray:
    """Each element from the rules: S + i·D exactly (integers), or MPFR's fma(i, D, S) rounded once."""
    dtype = S.dtype
    if dtype.kind in "iu":
        values = [int(S) + i * int(D) for i in range(K)]
        return np.array(values, dtype)
    context = ieee_context(dtype)
    values = [
        float(context.fma(gmpy2.mpz(i), gmpy2.mpfr(float(D), 53), gmpy2.mpfr(float(S), 53))) for i in range(K)
    ]
    Y = np.array(values, np.float64).astype(dtype)  # values of the type: exact
    if K:
        Y[0] = S
    return Y


def int_inputs(dtype: np.dtype) -> st.SearchStrategy:
    info = np.iinfo(dtype)
    return st.integers(int(info.min), int(info.max))


def float_inputs(dtype: np.dtype) -> st.SearchStrategy:
    info = ml_dtypes.finfo(dtype)
    width = 16 if dtype == np.float16 else 64 if dtype == np.float64 else 32  # bfloat16: from float32s
    return (
        st.floats(-float(info.max), float(info.max), width=width)
        .map(lambda v: np.array(v, np.float64).astype(dtype))
        .filter(np.isfinite)
    )


@req("RANGE_S1", "RANGE_S2")
@INT
@given(data=st.data())
def test_S1_S2_integers_exact_every_element(dtype: np.dtype, data: st.DataObject) -> None:
    start = data.draw(int_inputs(dtype))
    delta = data.draw(st.integers(-300, 300).filter(bool) | int_inputs(dtype).filter(bool))
    k = data.draw(st.integers(0, 40))
    info = np.iinfo(dtype)
    end = (
        start
        + k * delta
        + data.draw(st.integers(-abs(delta) + 1, abs(delta) - 1) if abs(delta) > 1 else st.just(0))
    )
    limit = min(max(end, int(info.min)), int(info.max))
    S, L, D = s(start, dtype), s(limit, dtype), s(delta, dtype)
    K = oracle_count(S, L, D)
    inputs_unchanged = unchanged(S, L, D)
    Y = range_(S, L, D)
    inputs_unchanged()
    assert Y.shape == (K,) and Y.dtype == dtype
    assert [int(v) for v in Y] == [start + i * delta for i in range(K)]
    assert not any(np.shares_memory(Y, x) for x in (S, L, D))


@req("RANGE_S1")
@ALL
@pytest.mark.parametrize(
    ("start", "limit", "delta", "K"),
    [
        (0, 10, 1, 10),
        (10, 2, -3, 3),
        (10, 10, -3, 0),
        (30, 10, 3, 0),
        (3, 9, 3, 2),
        (10, 4, -2, 3),
        (1, 8, 7, 1),
    ],
)
def test_S1_the_draft_s_and_ONNX_s_counts(
    dtype: np.dtype, start: int, limit: int, delta: int, K: int
) -> None:
    Y = range_(s(start, dtype), s(limit, dtype), s(delta, dtype))
    assert Y.shape == (K,)
    assert [float(v) for v in Y] == [start + i * delta for i in range(K)]


@req("RANGE_S1")
def test_S1_the_count_is_exact_where_float32_arithmetic_is_not() -> None:
    """The review's first question: (L − S)/D = 8388608.5 exactly; in float32 it is 8388608."""
    f = np.dtype(np.float32)
    cases = [
        (0.5, -8388608.0, -1.0, 8388609),
        (0.5, -8388608.0, -16.0, 524289),
        (float(np.float32(1e-5)), -256.0, -1.0, 257),
        (2.0**-24, -2.0, -2.0, 2),
    ]
    for start, limit, delta, K in cases:
        S, L, D = s(start, f), s(limit, f), s(delta, f)
        assert K == math.ceil((exact(L) - exact(S)) / exact(D))
        assert range_(S, L, D).shape == (K,)


@req("RANGE_S1")
def test_S1_the_count_does_not_overflow() -> None:
    """The review's second question: L − S overflows no exact arithmetic; int16's L − S is beyond int16."""
    Y = range_(s(-32768, np.int16), s(32767, np.int16), s(1, np.int16))
    assert Y.shape == (65535,) and int(Y[0]) == -32768 and int(Y[-1]) == 32766
    assert [int(v) for v in Y[::4096]] == list(range(-32768, 32767, 4096))
    Y = range_(s(-(2**63), np.int64), s(2**63 - 1, np.int64), s(2**62, np.int64))
    assert [int(v) for v in Y] == [-(2**63), -(2**62), 0, 2**62]


@req("GEN_E1")
def test_GEN_E1_a_count_beyond_memory_is_refused() -> None:
    with raises_req("GEN_E1"):
        range_(s(0.0, np.float64), s(8.98846567431158e307, np.float64), s(0.5, np.float64))
    with raises_req("GEN_E1"):
        range_(s(-(2**63), np.int64), s(2**63 - 1, np.int64), s(1, np.int64))
    with raises_req("GEN_E1"):
        range_(s(0.0, np.float32), s(1.0, np.float32), s(2.0**-149, np.float32))
    with raises_req("GEN_E1") as refused:  # 1, 2, …, 2^53 − 1: values of the type, computed in it
        range_(s(1.0, np.float64), s(2.0**53, np.float64), s(1.0, np.float64))
    assert "shape (9007199254740991,) and type float64" in str(refused.value)


@req("RANGE_S2", "RANGE_P1")
@INT
def test_S2_P1_the_extremes_never_wrap(dtype: np.dtype) -> None:
    lo, hi = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    cases = [(lo, hi, hi, [lo, lo + hi, lo + 2 * hi]), (hi, lo, lo, [hi, hi + lo]), (lo, lo + 1, 1, [lo])]
    cases += [(hi, hi - 1, -1, [hi]), (hi - 1, hi, hi, [hi - 1]), (lo, hi, -1, []), (hi, lo, hi, [])]
    for start, limit, delta, expected in cases:
        Y = range_(s(start, dtype), s(limit, dtype), s(delta, dtype))
        assert [int(v) for v in Y] == expected, (start, limit, delta)
        assert all(min(start, limit) <= int(v) <= max(start, limit) for v in Y)


@req("RANGE_S3", "RANGE_S1")
@FLOAT
@given(data=st.data())
def test_S1_S3_floats_each_element_rounded_once(dtype: np.dtype, data: st.DataObject) -> None:
    S = data.draw(float_inputs(dtype))
    D = data.draw(float_inputs(dtype).filter(lambda d: d != 0))
    k = data.draw(st.integers(0, 30))
    big = float(ml_dtypes.finfo(dtype).max)
    end = min(max(exact(S) + k * exact(D), Fraction(-big)), Fraction(big))
    L = np.array(float(end), np.float64).astype(dtype)
    K = math.ceil((exact(L) - exact(S)) / exact(D))
    assume(K <= 200)
    Y = range_(S, L, D)
    assert Y.shape == (max(K, 0),) and Y.dtype == dtype
    assert_same(Y, oracle(S, L, D, max(K, 0)))


@req("RANGE_S3")
@FLOAT
def test_S3_rounded_once_not_accumulated(dtype: np.dtype) -> None:
    """0.1 + i·0.1: the exact sums rounded once, never a running sum (which drifts from it)."""
    S = D = s(0.1, dtype)
    L = s(3.0, dtype)
    Y = range_(S, L, D)
    K = math.ceil((exact(L) - exact(S)) / exact(D))
    assert_same(Y, oracle(S, L, D, K))
    running = [S.copy()]
    for _ in range(K - 1):
        running.append((running[-1] + D).astype(dtype))
    if dtype != np.float64:
        return
    assert any(float(a) != float(b) for a, b in zip(Y, running, strict=True))


@req("RANGE_S3")
@FLOAT
def test_S3_Y0_is_S_bit_for_bit_and_an_exact_zero_is_plus_zero(dtype: np.dtype) -> None:
    Y = range_(s(-0.0, dtype), s(3.0, dtype), s(1.0, dtype))
    assert np.signbit(Y[0]) and [float(v) for v in Y] == [0.0, 1.0, 2.0]
    Y = range_(s(-2.0, dtype), s(1.0, dtype), s(1.0, dtype))
    assert float(Y[2]) == 0.0 and not np.signbit(Y[2])
    Y = range_(s(2.0, dtype), s(-1.0, dtype), s(-1.0, dtype))
    assert float(Y[2]) == 0.0 and not np.signbit(Y[2])


@req("RANGE_S3")
@pytest.mark.parametrize(
    ("dtype", "start", "delta"),
    [
        (np.dtype(np.float64), 0.1, 1.0),  # s + i·d beyond 2^53: the exact integers
        (np.dtype(np.float64), 1e300, -1e284),
        (np.dtype(np.float32), 2.0**100, -(2.0**70)),
        (np.dtype(np.float16), 2.0**-24, 2.0**10),
        (np.dtype(ml_dtypes.bfloat16), 2.0**-133, 2.0**100),
        (np.dtype(np.float64), 2.0**-1074, 1.0),
    ],
)
def test_S3_far_apart_exponents_rounded_once(dtype: np.dtype, start: float, delta: float) -> None:
    S, D = s(start, dtype), s(delta, dtype)
    L = np.array(float(exact(S) + 20 * exact(D)), np.float64).astype(dtype)
    K = math.ceil((exact(L) - exact(S)) / exact(D))
    assert_same(range_(S, L, D), oracle(S, L, D, K))


@req("RANGE_S3")
@pytest.mark.parametrize("dtype", FLOATS, ids=[t.name for t in FLOATS])
@given(data=st.data())
def test_S3_the_integer_rounding_is_MPFR_s(dtype: np.dtype, data: st.DataObject) -> None:
    """n·2^e rounded once, for 2^e a multiple of the smallest subnormal and a value within the type."""
    info = ml_dtypes.finfo(dtype)
    lowest = int(math.log2(float(info.smallest_subnormal)))
    e = data.draw(st.integers(lowest, info.maxexp - 1))
    top = int(Fraction(float(info.max)) / Fraction(2) ** e)
    n = data.draw(st.integers(-min(top, 2**80), min(top, 2**80)))
    assert rounded_once(n, e, dtype) == float(ieee_context(dtype).mul(gmpy2.mpz(n), gmpy2.exp2(e)))


@req("RANGE_P1", "RANGE_S3")
def test_P1_a_value_just_before_L_may_round_to_L() -> None:
    """float16: 1025.5 is before L = 1026 but rounds to it (ties to even); K counts the exact values."""
    f = np.dtype(np.float16)
    Y = range_(s(1023.5, f), s(1026.0, f), s(1.0, f))
    assert Y.shape == (3,) and [float(v) for v in Y] == [1023.5, 1024.0, 1026.0]


@req("RANGE_P1")
@FLOAT
def test_P1_no_element_overflows(dtype: np.dtype) -> None:
    big = float(ml_dtypes.finfo(dtype).max)
    Y = range_(s(-big, dtype), s(big, dtype), s(big, dtype))
    assert [float(v) for v in Y] == [-big, 0.0] and not np.signbit(Y[1])
    Y = range_(s(big, dtype), s(-big, dtype), s(-big / 2, dtype))
    assert [float(v) for v in Y] == [big, big / 2, 0.0, -big / 2]


@req("RANGE_C1")
@ALL
@pytest.mark.parametrize("position", [0, 1, 2])
def test_C1_a_vector_of_one_element_is_refused(dtype: np.dtype, position: int) -> None:
    args = [s(0, dtype), s(3, dtype), s(1, dtype)]
    args[position] = args[position].reshape(1)
    with raises_req("RANGE_C1"):
        range_(*args)


@req("RANGE_C2")
@ALL
def test_C2_a_step_of_0_is_refused(dtype: np.dtype) -> None:
    with raises_req("RANGE_C2") as info:
        range_(s(0, dtype), s(3, dtype), s(0, dtype))
    if dtype.kind in "iu":
        assert info.value.problem == "range: D is 0; a step of 0 never reaches L"
        return
    with raises_req("RANGE_C2"):
        range_(s(5, dtype), s(3, dtype), s(-0.0, dtype))


@req("RANGE_E1")
@FLOAT
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("position", [0, 1, 2])
def test_E1_NaN_and_infinities_are_refused(dtype: np.dtype, bad: float, position: int) -> None:
    args = [s(0.0, dtype), s(3.0, dtype), s(1.0, dtype)]
    args[position] = s(bad, dtype)
    with raises_req("RANGE_E1") as info:
        range_(*args)
    assert info.value.problem == f"range: {'SLD'[position]} is {bad}; S, L and D are finite"


def test_Y_is_a_new_array() -> None:
    S = s(1, np.int32)
    Y = range_(S, s(4, np.int32), s(1, np.int32))
    Y[0] = 9
    assert int(S) == 1 and Y.tolist() == [9, 2, 3] and Y.flags.writeable


def _range_model(declared: list[int], start: object) -> object:
    """A model of one Range node, S, L and D initializers unless S is given as a graph input (None)."""
    import onnx
    from onnx import helper, numpy_helper

    dtype = np.dtype(np.float32)
    code = helper.np_dtype_to_tensor_dtype(dtype)
    values = {"start": start, "limit": np.array(5, dtype), "delta": np.array(1, dtype)}
    initializers = [numpy_helper.from_array(v, n) for n, v in values.items() if v is not None]
    inputs = [helper.make_tensor_value_info(n, code, []) for n, v in values.items() if v is None]
    node = helper.make_node("Range", ["start", "limit", "delta"], ["y"], name="range")
    graph = helper.make_graph(
        [node],
        "range",
        inputs,
        [helper.make_tensor_value_info("y", code, declared)],
        initializer=initializers,
    )
    opset = [helper.make_opsetid("", 27)]
    model = helper.make_model(graph, opset_imports=opset, ir_version=helper.find_min_ir_version_for(opset))
    assert isinstance(model, onnx.ModelProto)
    return model


@req("RANGE_S1")
def test_S1_sonnx_spec_check_knows_the_shape_from_constant_inputs() -> None:
    """S, L, D initializers: the checker computes K = 5 and holds the declared shape to it (MODEL_C4)."""
    from sonnx_spec import check_model

    f = np.dtype(np.float32)
    assert check_model(_range_model([5], np.array(0, f))).in_profile
    assert check_model(_range_model([4], np.array(1, f))).in_profile
    wrong = check_model(_range_model([4], np.array(0, f)))
    assert {finding.rule for finding in wrong.findings} == {"MODEL_C4"}
    from_input = check_model(_range_model([5], None))  # S a graph input: not known before the model runs
    assert "GR2" in {finding.rule for finding in from_input.findings}


@req("RANGE_S3")
@FLOAT
@pytest.mark.parametrize("k", [0, 1, 2, 3])
@pytest.mark.parametrize("sign", [1, -1])
def test_S3_ties_and_neighbours_rounded_to_even(dtype: np.dtype, k: int, sign: int) -> None:
    """n one or two bits longer than the type's significand: halfway cases go to the even neighbour."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    wanted = [2 ** (p + 1) - 1, 2 ** (p + 1) + 1, 2**p - 1]  # a carry to 2^(p+1); exact at p bits
    for shift in (1, 2):
        wanted += [((2 ** (p - 1) + k) << shift) + r for r in range(1 << shift)]
    for n in wanted:
        n *= sign
        assert rounded_once(n, 0, dtype) == float(ieee_context(dtype).mul(gmpy2.mpz(n), gmpy2.mpfr(1))), n


@req("RANGE_S3")
def test_S3_float64_beyond_2_53_is_not_computed_in_float64() -> None:
    """s + i·d of 54 bits: float64 arithmetic rounds i·D and then the sum, twice; the profile once."""
    f = np.dtype(np.float64)
    S, L, D = s(-167962.0, f), s(-1.6e16, f), s(-4060412570308705.0, f)
    Y = range_(S, L, D)
    assert Y.shape == (4,)
    assert_same(Y, oracle(S, L, D, 4))
    assert float(Y[3]) == -1.2181237711094076e16


@req("RANGE_S3")
@pytest.mark.parametrize(
    ("start", "limit", "delta", "K", "last"),
    [
        # 1 + 3·246·2^44 = 184.5·2^46 + 1, 54 bits: float64 drops the 1, bfloat16 (quantum 2^46) rounds up
        (1.0, 4 * 246 * 2.0**44, 246 * 2.0**44, 4, 185 * 2.0**46),
        # 1 + 257·2^16 = 2^24 + 2^16 + 1, 25 bits: float32 drops the 1, bfloat16 (quantum 2^17) rounds up
        (1.0, 258 * 2.0**16, 2.0**16, 258, 2.0**24 + 2.0**17),
    ],
)
def test_S3_bfloat16_rounded_once_not_through_float64_or_float32(
    start: float, limit: float, delta: float, K: int, last: float
) -> None:
    """The last element's exact value lies just above a bfloat16 halfway point; rounded first to float64 or
    float32 it lands on that halfway point, and then on the even neighbour below: the wrong one."""
    b = np.dtype(ml_dtypes.bfloat16)
    S, L, D = s(start, b), s(limit, b), s(delta, b)
    assert float(S) == start and float(L) == limit and float(D) == delta  # bfloat16 values
    Y = range_(S, L, D)
    assert Y.shape == (K,)
    assert_same(Y, oracle(S, L, D, K))
    assert float(Y[-1]) == last


@req("RANGE_S3")
@pytest.mark.parametrize("dtype", FLOATS[:2], ids=[t.name for t in FLOATS[:2]])  # 2^p elements, p <= 11
def test_S3_the_type_s_own_arithmetic_only_where_it_is_exact(dtype: np.dtype) -> None:
    """1 + i·3 from 1 to 2^p + 8, p the precision: beyond 2^p an odd i·3 is no value of the type, so the
    type's arithmetic would round it and then round 1 + i·3 again; up to 2^p it rounds nothing."""
    p = ml_dtypes.finfo(dtype).nmant + 1
    S, D = s(1.0, dtype), s(3.0, dtype)
    for limit, exact_in_the_type in ((2.0**p, True), (2.0**p + 8, False)):
        L = s(limit, dtype)
        K = math.ceil((exact(L) - exact(S)) / exact(D))
        Y = range_(S, L, D)
        assert_same(Y, oracle(S, L, D, K))
        twice = np.arange(K, dtype=dtype) * D + S  # i·D rounded, then 1 + i·D rounded
        assert np.array_equal(twice, Y) == exact_in_the_type, limit
