"""Constant: one test (or more) per rule id, named after it; and what the profile leaves out of ONNX's
Constant (its seven other attributes), for the reference and for the model checker."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import onnx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from onnx import helper, numpy_helper
from support import ALL, FLOATS, INTS, assert_same, raises_req, req, scalar, shapes, tensors, unchanged

from sonnx_spec import check_model, constant

NAN, INF = math.nan, math.inf


@req("CONSTANT_C1", "CONSTANT_S1", "CONSTANT_S2")
@ALL
@given(data=st.data())
def test_C1_S1_S2_C_is_a_new_copy_of_value(dtype: np.dtype, data: st.DataObject) -> None:
    value = data.draw(tensors(dtype, data.draw(shapes(max_dims=5))))
    value_unchanged = unchanged(value)
    C = constant(value=value)
    value_unchanged()
    assert type(C) is np.ndarray and C.dtype == dtype and C.shape == value.shape
    assert not np.shares_memory(C, value) and C.flags.writeable
    assert_same(C, value)


@req("CONSTANT_C1")
@ALL
def test_C1_a_0_d_value_gives_a_0_d_tensor(dtype: np.dtype) -> None:
    for value in (scalar(dtype, 7), np.array(7, dtype)):
        C = constant(value=value)
        assert type(C) is np.ndarray and C.shape == () and C.dtype == dtype and C[()] == 7
    C = constant(value=np.array([7], dtype))  # a vector of one element stays a vector
    assert C.shape == (1,)


@req("CONSTANT_C1")
@ALL
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3, 1)])
def test_C1_an_empty_value_gives_an_empty_tensor_of_its_shape(dtype: np.dtype, shape: tuple) -> None:
    C = constant(value=np.zeros(shape, dtype))
    assert C.shape == shape and C.dtype == dtype and C.size == 0


@req("CONSTANT_S1")
@INTS
def test_S1_integer_extremes_are_copied_exactly(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    value = np.array([[info.min, info.max], [info.max - 1, 0]], dtype)
    assert constant(value=value).tolist() == [[int(info.min), int(info.max)], [int(info.max) - 1, 0]]


@req("CONSTANT_S1")
@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.uint64)], ids=["int64", "uint64"])
def test_S1_64_bit_values_beyond_float64_are_exact(dtype: np.dtype) -> None:
    value = np.array([2**53 + 1, np.iinfo(dtype).max], dtype)
    assert constant(value=value).tolist() == [2**53 + 1, int(np.iinfo(dtype).max)]


@req("CONSTANT_S2")
@FLOATS
def test_S2_special_values_are_copied_unchanged(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    values = [-0.0, 0.0, -INF, INF, NAN, float(info.smallest_subnormal), -float(info.max)]
    C = constant(value=np.array(values, dtype))
    assert_same(C, np.array(values, dtype))  # bit for bit but NaN: -0 keeps its sign
    assert np.signbit(C[0]) and not np.signbit(C[1])


@req("GEN_E1")
def test_GEN_E1_a_result_too_large_for_memory_is_refused() -> None:
    value = np.broadcast_to(np.zeros((1, 1), np.float32), (2**30, 2**30))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        constant(value=value)
    assert info.value.problem == (
        "constant: a result of shape (1073741824, 1073741824) and type float32 "
        "does not fit in this machine's memory"
    )


# -- ONNX's other attributes are not in the profile --------------------------------------------------

OTHER_ATTRIBUTES = {
    "value_float": 1.5,
    "value_floats": [1.5, 2.5],
    "value_int": 3,
    "value_ints": [3, 4],
    "value_string": "a",
    "value_strings": ["a", "b"],
}


def constant_model(**attributes: object) -> onnx.ModelProto:
    node = helper.make_node("Constant", [], ["c"], name="k", **attributes)
    output = helper.make_tensor_value_info("c", onnx.TensorProto.FLOAT, [2])
    graph = helper.make_graph([node], "constant", [], [output])
    opset = [helper.make_opsetid("", constant.operator.version)]
    return helper.make_model(graph, opset_imports=opset, ir_version=helper.find_min_ir_version_for(opset))


@req("GR4", "GEN_C2", "MODEL_R1")
def test_the_reference_takes_value_and_nothing_else() -> None:
    value = np.array([1.0, 2.0], np.float32)
    for name, other in OTHER_ATTRIBUTES.items():
        with raises_req("GEN_C2") as info:  # not an attribute of the profile's Constant
            constant(**{name: other})
        assert (
            info.value.problem == f"constant: {name}= is not an attribute of constant (its attributes: value)"
        )
        with raises_req("GEN_C2"):
            constant(value=value, **{name: other})
    with raises_req("GR4") as info:
        constant()
    assert info.value.problem == "constant: attribute value is not given"
    with raises_req("GR4") as info:
        constant(value=None)  # how the reference is told that a model omits an attribute
    assert info.value.problem == "constant: attribute value is not given"


@req("MODEL_R1", "GR4")
@pytest.mark.parametrize("name", OTHER_ATTRIBUTES)
def test_a_model_giving_the_constant_by_another_attribute_breaks_MODEL_R1_and_GR4(name: str) -> None:
    report = check_model(constant_model(**{name: OTHER_ATTRIBUTES[name]}))
    found = {(f.rule, f.message) for f in report.findings if f.rule in ("MODEL_R1", "GR4")}
    assert found == {
        ("MODEL_R1", f"attribute {name!r} is not one the profile specifies for Constant"),
        ("GR4", "attribute 'value' is not given"),
    }
    assert not report.in_profile


@req("GR1", "GR4")
def test_a_model_giving_the_constant_as_a_sparse_tensor_breaks_GR1_and_GR4() -> None:
    values = numpy_helper.from_array(np.array([1.0], np.float32))
    sparse = helper.make_sparse_tensor(values, numpy_helper.from_array(np.array([0], np.int64)), [2])
    report = check_model(constant_model(sparse_value=sparse))
    found = {(f.rule, f.message) for f in report.findings if f.rule in ("GR1", "GR4", "MODEL_R1")}
    assert found == {
        ("GR1", "attribute 'sparse_value' is a sparse tensor"),
        ("GR4", "attribute 'value' is not given"),
    }


@req("CONSTANT_C1", "MODEL_C4")
def test_a_model_giving_the_constant_by_value_is_in_the_profile() -> None:
    value = numpy_helper.from_array(np.array([1.5, -0.0], np.float32))
    report = check_model(constant_model(value=value))
    assert report.in_profile, [(f.rule, f.message) for f in report.findings]
    wrong = constant_model(value=numpy_helper.from_array(np.array([1.5, -0.0, 2.0], np.float32)))
    [finding] = check_model(wrong).findings  # declared of shape (2,), value has three elements
    assert (finding.rule, finding.message) == (
        "MODEL_C4",
        "output 'c' is declared of shape (2,); Constant gives float32 of shape (3,)",
    )
