"""What an engine may return (sonnx_spec.accuracy): bit for bit, or within an operator's accuracy rule.

The oracles are the rules' own words: "the correctly rounded result or one of its two neighbours in the
type", "the special values exactly". The engine results are made here by stepping through the type's values
with numpy's nextafter from the reference's result, so each test knows how far the engine is.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from support import req

import sonnx_spec
from sonnx_spec.accuracy import Ulps, Unchecked, Within, engine_bound, half_spacing, judge
from sonnx_spec.correctly_rounded import NOT_A_DISTANCE

FLOATS = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32), np.dtype(np.float64)]


def stepped(values: np.ndarray, steps: int, towards: float = np.inf) -> np.ndarray:
    """``values`` moved ``steps`` values of their type towards ``towards``."""
    out = values.copy()
    for _ in range(steps):
        out = np.nextafter(out, np.asarray(towards, out.dtype)).astype(values.dtype)
    return out


def verdict(op: str, X: np.ndarray, engine: np.ndarray) -> str:
    return judge(op, engine, sonnx_spec.operators()[op].function(X), [X]).verdict


@pytest.mark.parametrize(
    "op", [pytest.param(op, marks=req(f"{op.upper()}_P2")) for op in ("exp", "tanh", "sigmoid", "softplus")]
)
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_one_step_from_the_correctly_rounded_result_conforms_two_do_not(op: str, dtype: np.dtype) -> None:
    X = np.array([0.25, 1.5, -2.0, 3.0], dtype)
    Y = sonnx_spec.operators()[op].function(X)
    for towards in (np.inf, -np.inf):
        assert verdict(op, X, stepped(Y, 1, towards)) == "conforms"
        assert verdict(op, X, stepped(Y, 2, towards)) == "outside"
    assert judge(op, stepped(Y, 1), Y, [X]).rule == f"{op.upper()}_P2"


@req("LOG_P2")
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_log_within_one_step_except_at_its_special_values(dtype: np.dtype) -> None:
    X = np.array([0.5, 2.0, 3.0, 1e-3], dtype)
    Y = sonnx_spec.log(X)
    assert verdict("log", X, stepped(Y, 1)) == "conforms"
    assert verdict("log", X, stepped(Y, 2)) == "outside"
    for special in (0.0, -0.0, 1.0):  # ln(±0) = −∞ and ln 1 = +0, exactly
        S = np.array([special], dtype)
        near = stepped(sonnx_spec.log(S), 1)  # −∞ to the lowest finite value, +0 to the smallest subnormal
        assert verdict("log", S, near) == "outside", special
    below = np.array([-2.0], dtype)  # NaN, and a number is no neighbour of NaN
    assert verdict("log", below, np.array([0.0], dtype)) == "outside"


@req("TANH_P2")
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_tanh_of_a_zero_keeps_its_sign_exactly(dtype: np.dtype) -> None:
    zeros = np.array([0.0, -0.0], dtype)
    assert verdict("tanh", zeros, -zeros) == "outside"
    tiny = np.array([0.0078125], dtype)
    assert verdict("tanh", tiny, stepped(sonnx_spec.tanh(tiny), 1)) == "conforms"


@req("EXP_P2")
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_special_values_of_an_infinite_or_nan_input_are_exact(dtype: np.dtype) -> None:
    X = np.array([-np.inf, np.inf, np.nan, 1.0], dtype)
    Y = sonnx_spec.exp(X)
    engine = Y.copy()
    engine[0] = np.nextafter(Y[0], np.asarray(1, dtype))  # the smallest subnormal for exp(−∞) = +0
    judgement = judge("exp", engine, Y, [X])
    assert judgement.verdict == "outside"
    assert judgement.worst == (0,)
    assert engine_bound("exp").allowed(Y, [X]).tolist() == [0, 0, 0, 1]
    engine = Y.copy()
    engine[1] = np.finfo(np.float32).max if dtype == np.float32 else 1.0  # +∞ must stay +∞
    assert judge("exp", engine, Y, [X]).verdict == "outside"


def test_an_input_of_another_shape_than_the_result_makes_every_element_exact() -> None:
    reference = np.array([1.0, 2.0], np.float32)
    bound = Ulps(3, "EXP_P2")
    assert bound.allowed(reference, [np.ones(2, np.float32)]).tolist() == [3, 3]
    assert bound.allowed(reference, [np.ones(2, np.float32), np.ones((2, 2), np.float32)]).tolist() == [0, 0]


@pytest.mark.parametrize("op", ["abs", "add", "relu", "div", "clip"])
def test_an_operator_without_an_accuracy_rule_is_judged_bit_for_bit(op: str) -> None:
    assert engine_bound(op) is None
    reference = np.array([1.0, -0.0, np.nan], np.float32)
    judgement = judge(op, stepped(reference, 1), reference, [reference])
    assert (judgement.rule, judgement.verdict, judgement.outside) == ("", "outside", 2)
    assert judge(op, reference.copy(), reference, [reference]).verdict == "conforms"


def test_plus_and_minus_zero_are_one_step_apart_and_every_nan_is_alike() -> None:
    reference = np.array([0.0, -0.0, np.nan, 2.0], np.float32)
    engine = np.array([-0.0, 0.0, -np.nan, 2.0], np.float32)
    judgement = judge("abs", engine, reference, [reference])
    assert judgement.distance.tolist() == [1, 1, 0, 0]
    assert judgement.worst == (0,)


@pytest.mark.parametrize("dtype", ["int8", "uint64", "int32"])
def test_an_integer_result_is_exact_or_wrong(dtype: str) -> None:
    reference = np.array([1, 2, 3], dtype)
    engine = np.array([1, 3, 3], dtype)
    judgement = judge("add", engine, reference, [reference, reference])
    assert judgement.distance.tolist() == [0, NOT_A_DISTANCE, 0]
    assert (judgement.verdict, judgement.worst, judgement.outside) == ("outside", (1,), 1)


def test_an_integer_result_of_an_operator_with_a_bound_is_still_exact() -> None:
    bound = engine_bound("exp")
    assert isinstance(bound, Ulps)
    reference = np.array([5, 6], np.int32)
    judgement = judge("exp", np.array([5, 7], np.int32), reference, [reference])
    assert (judgement.rule, judgement.verdict) == ("", "outside")


@req("HARDSWISH_P2")
def test_hard_swish_bound_is_stated_not_evaluated_a_difference_is_undecided() -> None:
    assert engine_bound("hard_swish") == Unchecked("HARDSWISH_P2")
    X = np.array([1.0, 2.0], np.float32)
    Y = sonnx_spec.hard_swish(X)
    judgement = judge("hard_swish", stepped(Y, 1), Y, [X])
    assert (judgement.rule, judgement.verdict, judgement.undecided, judgement.outside) == (
        "HARDSWISH_P2",
        "undecided",
        2,
        0,
    )
    assert judge("hard_swish", Y.copy(), Y, [X]).verdict == "conforms"


def test_the_worst_element_is_the_farthest_beyond_the_bound_else_the_farthest() -> None:
    X = np.array([0.5, -np.inf, 0.25, 1.0], np.float32)
    Y = sonnx_spec.exp(X)
    engine = np.concatenate([stepped(Y[:1], 1), stepped(Y[1:2], 1), stepped(Y[2:3], 1), Y[3:]])
    judgement = judge("exp", engine, Y, [X])
    assert judgement.worst == (1,)  # one step, none allowed: beyond the bound by 1
    assert judgement.outside == 1
    engine = np.concatenate([stepped(Y[:1], 1), Y[1:3], Y[3:]])
    assert judge("exp", engine, Y, [X]).worst == (0,)
    assert judge("exp", Y.copy(), Y, [X]).worst is None
    empty = np.zeros(0, np.float32)
    assert judge("exp", empty, empty, [empty]).worst is None
    grid = np.array([[0.5, 0.25], [1.0, 2.0]], np.float32)
    far = stepped(sonnx_spec.exp(grid), 1)
    far[1, 0] = stepped(far[1:2, 0], 4)[0]
    assert judge("exp", far, sonnx_spec.exp(grid), [grid]).worst == (1, 0)


def test_a_0d_result_is_judged_as_an_array() -> None:
    reference = np.array(2.0, np.float32)
    judgement = judge(
        "exp", np.nextafter(reference, np.float32(3)), reference, [np.array(np.log(2.0), np.float32)]
    )
    assert judgement.distance.shape == () and int(judgement.distance) == 1
    assert judgement.verdict == "conforms" and judgement.worst == ()


def test_within_an_absolute_error_of_the_reference() -> None:
    reference = np.array([1.0, 2.0, np.inf, np.nan, 1.0], np.float32)
    bound = Within("TEST_P2", lambda Y, X: np.array([0.25, 0.25, 1.0, 1.0, np.nan]))
    engine = np.array([1.25, 2.5, np.float32(3e38), np.nan, 1.0], np.float32)
    outside, undecided = bound.judge(engine, reference, [reference])
    # 0.25 away: within; 0.5 away: outside; +∞ and NaN exactly; NaN error: exact, and equal here
    assert outside.tolist() == [False, True, True, False, False]
    assert not undecided.any()
    same = reference.copy()
    assert not bound.judge(same, reference, [reference])[0].any()


def test_within_a_bound_of_the_exact_value_is_undecided_within_the_references_rounding() -> None:
    reference = np.array([1.0, 1.0, 1.0], np.float32)  # the exact value is within 2⁻²⁴ of each
    half = 2.0**-24
    bound = Within("TEST_P1", lambda Y, X: np.full(3, 2.0**-20), of_exact=True)
    engine = np.array([1.0 + 2.0**-20 - 2.0**-22, 1.0 + 2.0**-20, 1.0 + 2.0**-20 + 2.0**-22], np.float32)
    outside, undecided = bound.judge(engine, reference, [reference])
    # within the bound less the margin: conforms; within the margin of it: undecided; past it: outside
    assert outside.tolist() == [False, False, True]
    assert undecided.tolist() == [False, True, False]
    assert half_spacing(reference).tolist() == [half] * 3


def test_half_spacing_is_away_from_zero_and_infinite_at_the_largest_value() -> None:
    values = np.array([-1.0, 0.0, 65504.0, 2.0], np.float16)
    spacing = half_spacing(values)
    assert spacing.tolist() == [2.0**-11, 2.0**-25, np.inf, 2.0**-10]


def test_an_undecided_element_is_the_worst_only_when_none_is_outside() -> None:
    X = np.array([1.0, 2.0], np.float32)
    Y = sonnx_spec.hard_swish(X)
    engine = Y.copy()
    engine[1] = stepped(Y[1:], 3)[0]
    judgement = judge("hard_swish", engine, Y, [X])
    assert (judgement.verdict, judgement.worst, judgement.undecided) == ("undecided", (1,), 1)
