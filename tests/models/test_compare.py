"""``compare_model`` against onnxruntime and the ONNX reference: where they agree and where they do not.

The divergences shown are ones the specification decides on purpose and that do
not depend on how Clip treats a NaN bound: Max orders -0 below +0 (MAX_S2), and
Abs refuses the lowest int8 (ABS_E1) where the engines wrap around.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import onnx
import pytest
from graphs import make_model, value_info
from onnx import helper
from support import req

from sonnx_spec.models import compare_model
from sonnx_spec.models.values import exact

F32 = np.dtype(np.float32)
ENGINES = ["onnxruntime", "onnx-reference"]


def binary_max(dtype: np.dtype = F32) -> onnx.ModelProto:
    node = helper.make_node("Max", ["a", "b"], ["y"], name="max")
    return make_model(
        [node], [value_info("a", dtype, [3]), value_info("b", dtype, [3])], [value_info("y", dtype, [3])]
    )


@req("MAX_S2")
def test_max_of_plus_and_minus_zero_differs_from_onnxruntime_at_the_element_shown_exactly() -> None:
    a = np.array([0.0, -0.0, 2.5], F32)
    b = np.array([-0.0, 0.0, np.nan], F32)
    comparison = compare_model(binary_max(), {"a": a, "b": b}, "onnxruntime")
    assert not comparison.agree
    [output] = comparison.outputs
    differing = [(d.index, d.reference, d.engine) for d in output.differences]
    # onnxruntime returns its second operand for max(-0, +0): -0 where the spec says +0
    assert ((1,), "0.0", "-0.0") in differing
    assert all(d.reference == "0.0" and d.engine == "-0.0" for d in output.differences)


@req("ABS_E1")
@pytest.mark.parametrize("engine", ENGINES)
def test_abs_of_the_lowest_int8_is_refused_by_the_reference_and_wraps_in_the_engines(engine: str) -> None:
    int8 = np.dtype(np.int8)
    node = helper.make_node("Abs", ["x"], ["y"], name="abs")
    model = make_model([node], [value_info("x", int8, [2])], [value_info("y", int8, [2])])
    comparison = compare_model(model, {"x": np.array([-128, 7], int8)}, engine)
    assert not comparison.agree and comparison.reference_rule == "ABS_E1"
    assert comparison.reference_refusal.startswith('node 0 (Abs "abs"): abs: X[0] is -128')
    assert comparison.outputs[0].engine.tolist() == [-128, 7]


@pytest.mark.parametrize("engine", ENGINES)
def test_ordinary_values_agree_bit_for_bit(engine: str) -> None:
    a = np.array([1.5, -3.0, np.inf], F32)
    b = np.array([2.0, -4.0, 0.0], F32)
    comparison = compare_model(binary_max(), {"a": a, "b": b}, engine)
    assert comparison.agree, comparison
    assert comparison.outputs[0].engine.tolist() == [2.0, -3.0, math.inf]


def test_an_engine_without_a_kernel_for_a_type_is_a_failure_reported_not_raised() -> None:
    comparison = compare_model(binary_max(np.dtype(np.int16)), {k: np.ones(3, np.int16) for k in "ab"})
    assert not comparison.agree and "NOT_IMPLEMENTED" in comparison.engine_failure


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (np.float32(0.1), "0.1"),
        (np.float32(-0.0), "-0.0"),
        (np.float16(65504), "6.55e+04"),  # the shortest text that reads back as 65504 in float16
        (np.float64(5e-324), "5e-324"),
        (ml_dtypes.bfloat16(0.1), "0.1"),
        (ml_dtypes.bfloat16(-0.0), "-0.0"),
        (ml_dtypes.bfloat16(3.0), "3.0"),
        (np.float32(np.nan), "nan"),
        (np.float16(-np.inf), "-inf"),
        (np.uint64(2**64 - 1), "18446744073709551615"),
        (np.int8(-128), "-128"),
    ],
    ids=str,
)
def test_values_are_shown_as_the_shortest_text_that_reads_back(value: np.generic, text: str) -> None:
    assert exact(value) == text
    if value.dtype.kind in "iu":
        assert int(text) == value.item()
    elif text != "nan":
        read_back = np.array(float(text), value.dtype)[()]
        assert read_back == value and np.signbit(read_back) == np.signbit(value)
