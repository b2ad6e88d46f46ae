"""The model tools on the kinds of operator the profile is about to have, registered for these tests
only (tests/registered_operators.py): several outputs, int-list and string attributes, an output whose
shape an input's values set, an input of which only the shape is read."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from graphs import make_model, value_info
from onnx import helper, numpy_helper
from registered_operators import OPSET, new_kinds  # noqa: F401 (the fixture)
from support import raises_req, req

from sonnx_spec import check_model, operators, run_model
from sonnx_spec.models.binding import attribute_value
from sonnx_spec.models.compare import compare_model
from sonnx_spec.models.findings import Report
from sonnx_spec.models.known import VALUE_LIMIT

pytestmark = pytest.mark.usefixtures("new_kinds")
F32 = np.dtype(np.float32)
I64 = np.dtype(np.int64)


def model(nodes: list, inputs: list, outputs: list, initializers: dict | None = None) -> onnx.ModelProto:
    return make_model(nodes, inputs, outputs, initializers, opset=OPSET)


def findings(report: Report) -> list[tuple[str, str, str]]:
    return [(f.rule, f.level, f.message) for f in report.findings]


def halves(second_shape: list[int] | None = None) -> onnx.ModelProto:
    node = helper.make_node("Split", ["x"], ["a", "b"], name="cut", axis=0, num_outputs=2)
    outputs = [value_info("a", F32, [2, 2]), value_info("b", F32, second_shape or [2, 2])]
    return model([node], [value_info("x", F32, [4, 2])], outputs)


@req("MODEL_S1")
def test_MODEL_S1_an_operator_of_two_outputs_gives_both() -> None:
    assert check_model(halves()).in_profile, findings(check_model(halves()))
    x = np.arange(8, dtype=F32).reshape(4, 2)
    outputs = run_model(halves(), {"x": x})
    assert outputs["a"].tolist() == [[0, 1], [2, 3]] and outputs["b"].tolist() == [[4, 5], [6, 7]]


@req("MODEL_C4")
def test_MODEL_C4_the_shape_of_a_second_output_is_checked() -> None:
    assert findings(check_model(halves([3, 2]))) == [
        ("MODEL_C4", "error", "output 'b' is declared of shape (3, 2); Split gives float32 of shape (2, 2)")
    ]


@pytest.mark.parametrize("engine", ["onnxruntime", "onnx-reference"])
def test_both_outputs_are_compared_with_an_engine(engine: str) -> None:
    comparison = compare_model(halves(), {"x": np.arange(8, dtype=F32).reshape(4, 2)}, engine)
    assert comparison.agree, comparison
    assert [o.name for o in comparison.outputs] == ["a", "b"]


def transpose(perm: onnx.AttributeProto) -> onnx.ModelProto:
    node = helper.make_node("Transpose", ["x"], ["y"], name="t")
    node.attribute.append(perm)
    return model([node], [value_info("x", F32, [2, 3])], [value_info("y", F32, [3, 2])])


@req("MODEL_S1")
def test_MODEL_S1_an_int_list_attribute_is_read() -> None:
    x = np.arange(6, dtype=F32).reshape(2, 3)
    perm = helper.make_attribute("perm", [1, 0])
    assert run_model(transpose(perm), {"x": x})["y"].tolist() == x.T.tolist()


@req("GEN_C1")
def test_GEN_C1_an_int_where_a_list_of_ints_is_declared() -> None:
    report = check_model(transpose(helper.make_attribute("perm", 1)))
    messages = [f.message for f in report.findings if f.rule == "GEN_C1"]
    assert messages == ["attribute 'perm' is of type INT, not a list of ints"]


def depth_to_space(mode: onnx.AttributeProto) -> onnx.ModelProto:
    node = helper.make_node("DepthToSpace", ["x"], ["y"], name="d", blocksize=2)
    node.attribute.append(mode)
    return model([node], [value_info("x", F32, [1, 8, 1, 1])], [value_info("y", F32, [1, 2, 2, 2])])


@req("MODEL_S1")
@pytest.mark.parametrize(
    ("mode", "expected"),  # ONNX's definition: channel i·4 + j·2 + c (DCR), c·4 + i·2 + j (CRD)
    [("DCR", [[[0, 2], [4, 6]], [[1, 3], [5, 7]]]), ("CRD", [[[0, 1], [2, 3]], [[4, 5], [6, 7]]])],
)
def test_MODEL_S1_a_string_attribute_is_read(mode: str, expected: list) -> None:
    x = np.arange(8, dtype=F32).reshape(1, 8, 1, 1)
    depth = depth_to_space(helper.make_attribute("mode", mode))
    assert run_model(depth, {"x": x})["y"][0].tolist() == expected
    assert compare_model(depth, {"x": x}, "onnx-reference").agree


@req("GEN_C1")
def test_GEN_C1_a_string_attribute_of_another_kind_or_not_utf8() -> None:
    report = check_model(depth_to_space(helper.make_attribute("mode", [1, 2])))
    assert [f.message for f in report.findings if f.rule == "GEN_C1"] == [
        "attribute 'mode' is of type INTS, not a string"
    ]
    spec = next(a for a in operators()["depth_to_space"].attributes if a.name == "mode")
    with raises_req("GEN_C1") as info:
        attribute_value(spec, helper.make_attribute("mode", b"\xff"))
    assert info.value.problem == "attribute 'mode' is not a UTF-8 string"


@req("GEN_C1")
def test_GEN_C1_every_kind_is_read_as_the_reference_takes_it() -> None:
    by_name = {a.name: a for op in operators().values() for a in op.attributes}
    assert attribute_value(by_name["perm"], helper.make_attribute("perm", [2, 0, 1])) == (2, 0, 1)
    assert attribute_value(by_name["mode"], helper.make_attribute("mode", "CRD")) == "CRD"
    assert attribute_value(by_name["axis"], helper.make_attribute("axis", -1)) == -1
    with raises_req("GEN_C1") as info:
        attribute_value(by_name["axis"], helper.make_attribute("axis", 1.0))
    assert info.value.problem == "attribute 'axis' is of type FLOAT, not an int"


def filled(shape_source: str, declared: list, *extra_nodes: onnx.NodeProto, **initializers) -> Report:
    """x -> … -> ConstantOfShape(``shape_source``) -> y, y declared of shape ``declared``."""
    fill = helper.make_node(
        "ConstantOfShape",
        [shape_source],
        ["y"],
        name="fill",
        value=numpy_helper.from_array(np.array([2.5], F32)),
    )
    inputs = [value_info("x", F32, [2, 3])]
    if shape_source == "s" and not initializers and not extra_nodes:
        inputs.append(value_info("s", I64, [2]))
    nodes = [*extra_nodes, fill]
    return check_model(model(nodes, inputs, [value_info("y", F32, declared)], initializers))


FILL_GIVES = "ConstantOfShape gives float32 of shape "
SHAPE_OF_X = helper.make_node("Shape", ["x"], ["s"], name="shape", start=0, end=2)


@req("MODEL_C4")
def test_MODEL_C4_an_output_whose_shape_is_set_by_values_is_checked_with_the_real_values() -> None:
    # Placeholders of ones would give ConstantOfShape a shape (1, 1): the checker uses Shape's real result.
    assert filled("s", [2, 3], SHAPE_OF_X).in_profile
    assert findings(filled("s", [3, 2], SHAPE_OF_X)) == [
        (
            "MODEL_C4",
            "error",
            "output 'y' is declared of shape (3, 2); ConstantOfShape gives float32 of shape (2, 3)",
        )
    ]


@req("MODEL_C4")
def test_MODEL_C4_initializers_constants_and_nodes_computed_from_them_are_known() -> None:
    assert filled("s", [4, 1], s=np.array([4, 1], I64)).in_profile
    constant = helper.make_node("Constant", [], ["s"], value=numpy_helper.from_array(np.array([5, 2], I64)))
    assert filled("s", [5, 2], constant).in_profile
    add = helper.make_node("Add", ["s0", "s1"], ["s"], name="add")
    report = filled("s", [2, 2], add, s0=np.array([1, 1], I64), s1=np.array([2, 3], I64))
    assert findings(report) == [
        (
            "MODEL_C4",
            "error",
            "output 'y' is declared of shape (2, 2); ConstantOfShape gives float32 of shape (3, 4)",
        )
    ]


@req("MODEL_C4", "GR2")
def test_a_shape_set_by_a_graph_input_breaks_GR2() -> None:
    """A value that sets a shape must be known before the model runs, whatever the output declares."""
    value = "the value of S (ONNX 'input') 's' depends on the input 's'"
    general = ("GR2", "MODEL_C4")  # the operator's own rules on S are undecided too, when it has some
    assert [f for f in findings(filled("s", [2, 3])) if f[0] in general] == [
        (
            "GR2",
            "error",
            f"{value}: it sets an output's shape, so it must be known before the model runs (an "
            "initializer, a Constant, or computed from them)",
        ),
        (
            "MODEL_C4",
            "undecided",
            f"not decided: whether ConstantOfShape gives output 'y' the declared shape (2, 3): {value}",
        ),
    ]
    report = filled("s", ["n", "m"])
    found = [f for f in report.findings if f.rule in general]
    assert [(f.rule, f.level) for f in found] == [("GR2", "error"), ("GR2", "error")]
    assert found[1].message.endswith("'n'; it depends on the input 's'")
    # Computed from a graph input, through Add: still the graph input it depends on.
    add = helper.make_node("Add", ["x64", "one"], ["s"], name="add")
    fill = helper.make_node("ConstantOfShape", ["s"], ["y"], name="fill")
    fill.attribute.append(helper.make_attribute("value", numpy_helper.from_array(np.array([1], F32))))
    inputs = [value_info("x64", I64, [2])]
    report = check_model(model([add, fill], inputs, [value_info("y", F32, [2, 3])], {"one": np.ones(2, I64)}))
    assert [f.rule for f in report.findings if f.rule in general] == ["GR2", "MODEL_C4"]
    assert report.findings[1].message.endswith("the value of S (ONNX 'input') 's' depends on the input 'x64'")


@req("MODEL_C4")
def test_a_shape_set_by_a_large_initializer_is_undecided_with_the_reason() -> None:
    large = np.ones(VALUE_LIMIT // 8 + 1, I64)
    add = helper.make_node("Add", ["big", "big"], ["twice"], name="add")
    nodes = [add, helper.make_node("Max", ["twice"], ["s"], name="max")]
    report = filled("s", [2, 2], *nodes, big=large)
    assert {(f.rule, f.level) for f in report.findings} >= {("MODEL_C4", "undecided")}
    assert f"holds more than {VALUE_LIMIT} bytes" in report.findings[-1].message
