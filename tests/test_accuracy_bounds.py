"""The three kinds of bound of sonnx_spec.accuracy, each judged where numpy's defaults would hide a slip:
the types of the masks, warnings raised as errors (a NaN or an infinity must not warn), a subtraction that
float32 would round, a bound that depends on the reference's own value, a declaration made at run time."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import ml_dtypes
import numpy as np
import pytest

import sonnx_spec
from sonnx_spec import accuracy
from sonnx_spec.accuracy import Ulps, Unchecked, Within, engine_bound, engines_within, half_spacing, judge
from sonnx_spec.registry import Tensor, registered

BF16 = np.dtype(ml_dtypes.bfloat16)
SIGNALLING_NAN = np.array([0x7F81], np.uint16).view(BF16)  # bfloat16 flags it as invalid when compared


@pytest.fixture(autouse=True)
def warnings_are_errors() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("op", ["exp", "hard_swish", "add"])
def test_the_masks_are_boolean_arrays_of_the_results_shape(op: str) -> None:
    X = np.array([[0.5, 1.0], [2.0, -1.0]], np.float32)
    inputs = [X] * len(sonnx_spec.operators()[op].inputs)
    Y = sonnx_spec.operators()[op].function(*inputs)
    judgement = judge(op, Y.copy(), Y, inputs)
    for mask in (judgement.outside_at, judgement.undecided_at):
        assert mask.dtype == np.bool_ and mask.shape == Y.shape and not mask.any()
    assert judgement.distance.dtype == np.int64


def test_an_integer_distance_is_an_int64_count_of_steps() -> None:
    reference = np.array([1, 2], np.int16)
    judgement = judge("add", np.array([1, 3], np.int16), reference, [reference, reference])
    assert judgement.distance.dtype == np.int64 and judgement.undecided_at.dtype == np.bool_


def test_nans_and_infinities_of_bfloat16_judge_without_a_warning() -> None:
    X = np.concatenate([SIGNALLING_NAN, np.array([np.inf, -2.0, 1.0], BF16)])
    for op in ("exp", "log", "tanh"):
        Y = sonnx_spec.operators()[op].function(X)
        assert judge(op, Y.copy(), Y, [X]).verdict == "conforms"
    assert Ulps(1, "LOG_P2", exact_where=lambda X: X <= 0).allowed(X, [X]).tolist() == [0, 0, 0, 1]


def test_within_judges_overflowing_and_infinite_differences_without_a_warning() -> None:
    big = np.finfo(np.float64).max
    reference = np.array([big, np.inf, np.nan, 1.0])
    engine = np.array([-big, np.finfo(np.float64).max, np.nan, 1.0])
    outside, undecided = Within("TEST_P2", lambda Y, *X: np.ones(4)).judge(engine, reference, [reference])
    assert outside.tolist() == [True, True, False, False] and not undecided.any()


def test_within_an_exact_special_value_one_step_is_outside() -> None:
    reference = np.array([np.inf, 2.0], np.float32)
    engine = np.array([np.finfo(np.float32).max, 2.0], np.float32)  # the neighbour of +∞
    outside, _ = Within("TEST_P2", lambda Y, *X: np.full(2, np.inf)).judge(engine, reference, [reference])
    assert outside.tolist() == [True, False]


def test_within_subtracts_exactly_where_float32_would_round() -> None:
    reference = np.array([0.5], np.float32)
    engine = np.array([2.0**24 + 2], np.float32)  # 2²⁴ + 1.5 apart, exactly; float32 would make it 2²⁴ + 2
    bound = Within("TEST_P2", lambda Y, *X: np.array([2.0**24 + 1.75]))
    assert bound.judge(engine, reference, [reference])[0].tolist() == [False]


def test_a_signalling_nan_of_bfloat16_is_no_step_from_itself_and_raises_no_warning() -> None:
    assert accuracy.step_distance(SIGNALLING_NAN, SIGNALLING_NAN).tolist() == [0]


def test_within_a_bound_computed_from_the_reference() -> None:
    relative = Within("TEST_P2", lambda Y, *X: np.abs(Y.astype(np.float64)) * 2.0**-10)
    reference = np.array([1024.0, 1.0], np.float32)
    engine = np.array([1025.0, 1.5], np.float32)  # 1 within 1024·2⁻¹⁰; 0.5 beyond 2⁻¹⁰
    assert relative.judge(engine, reference, [reference])[0].tolist() == [False, True]
    exact = Within("TEST_P2", lambda Y, *X: np.zeros(2))
    assert exact.judge(reference.copy(), reference, [reference])[0].tolist() == [False, False]
    assert exact.judge(engine, reference, [reference])[0].tolist() == [True, True]


def test_half_spacing_of_zero_infinity_nan_and_the_largest_value() -> None:
    values = np.array([0.0, np.inf, np.nan, 65504.0, -0.0], np.float16)
    spacing = half_spacing(values)
    assert spacing.dtype == np.float64
    assert spacing[[0, 4]].tolist() == [2.0**-25, 2.0**-25]  # half the smallest subnormal, below float16's
    assert np.isnan(spacing[1]) and np.isnan(spacing[2]) and spacing[3] == np.inf
    assert half_spacing(np.array([1.0], BF16)).tolist() == [2.0**-8]


def test_a_bound_declared_at_run_time_is_the_one_judged() -> None:
    def stretched(X: np.ndarray) -> np.ndarray:
        """Y = X, for this test."""
        return X.copy()

    declaration = {
        "onnx": "TestStretched",
        "version": 1,
        "inputs": (Tensor("X", "X", "T"),),
        "outputs": (Tensor("Y", "Y", "T"),),
        "types": {"T": ("float",)},
    }
    with registered(stretched, **declaration) as op:
        try:
            engines_within(op, Ulps(2, "EXP_P2"))
            assert engine_bound("stretched") == Ulps(2, "EXP_P2")
            X = np.array([1.0], np.float32)
            two = np.nextafter(np.nextafter(X, np.float32(2)), np.float32(2))
            assert judge("stretched", two, X, [X]).verdict == "conforms"
            engines_within(op, Unchecked("EXP_P2"))
            assert judge("stretched", two, X, [X]).verdict == "undecided"
        finally:
            accuracy._BOUNDS.pop("stretched", None)


def test_an_operator_whose_rules_bound_engines_but_declares_no_bound_is_judged_undecided() -> None:
    assert "hard_swish" not in accuracy._BOUNDS  # its module declares nothing
    assert engine_bound("hard_swish") == Unchecked("HARDSWISH_P2")  # from its rule "An engine meets …"
    X = np.array([1.0], np.float32)
    Y = sonnx_spec.hard_swish(X)
    engine = np.nextafter(Y, np.float32(2))
    assert judge("hard_swish", engine, Y, [X]).verdict == "undecided"
    assert engine_bound("add") is None and engine_bound("abs") is None  # no rule on engines: bit for bit
