"""``check_model`` on small graphs built here: each rule broken one way at a time, for every operator.

A model of one node of each operator, for each type it takes, is in the profile;
each test breaks it once and expects the rule, the node and a reason.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from graphs import (
    OPERATORS,
    make_model,
    not_in_profile,
    sample_node,
    value_info,
)
from onnx import helper, numpy_helper
from support import each_operator_and_type, req

from sonnx_spec import Operator, SonnxError, check_model, rule, rules
from sonnx_spec.models.check import DRY_RUN_LIMIT
from sonnx_spec.models.findings import Finding, NodeError, NodeRef, Report
from sonnx_spec.registry import ATTRIBUTE_KINDS
from sonnx_spec.types import BOOL, TYPES

F32 = np.dtype(np.float32)


def only(report: Report, rule_id: str) -> list[Finding]:
    """The findings of ``rule_id``, after asserting every finding is one."""
    assert {f.rule for f in report.findings} == {rule_id}, [(f.rule, f.message) for f in report.findings]
    return report.findings


def unary(op_type: str = "Abs", dtype: np.dtype = F32, **kwargs: object) -> onnx.ModelProto:
    node = helper.make_node(op_type, ["x"], ["y"], name="node")
    return make_model([node], [value_info("x", dtype, [3])], [value_info("y", dtype, [3])], **kwargs)


@req("GR1", "GR2", "GR3", "GR4", "GEN_C1", "MODEL_C1", "MODEL_C3", "MODEL_R1", "MODEL_C4")
@each_operator_and_type()
def test_a_node_of_every_operator_and_type_is_in_the_profile(op: Operator, dtype: np.dtype) -> None:
    report = check_model(sample_node(op, dtype).model())
    assert report.in_profile, [(f.rule, f.message) for f in report.findings]


@req("GR4")
@each_operator_and_type()
def test_GR4_every_omitted_input_is_named_on_its_node(op: Operator, dtype: np.dtype) -> None:
    for position, tensor in enumerate(op.inputs):
        if tensor.variadic:
            continue  # an empty name among variadic inputs: below
        sample = sample_node(op, dtype)
        sample.node.input[position] = ""
        while sample.node.input and not sample.node.input[-1]:
            sample.node.input.pop()  # ONNX leaves trailing omitted inputs out
        findings = check_model(sample.model()).findings
        assert {f.rule for f in findings} <= {"GR4", "MODEL_C1"}  # ONNX's checker refuses a required one
        [finding] = [f for f in findings if f.rule == "GR4"]
        assert finding.node is not None and (finding.node.index, finding.node.name) == (0, "n")
        assert f"input {tensor.name} (ONNX {tensor.onnx!r}) is omitted" in finding.message


@req("GR4")
def test_GR4_clip_without_its_upper_bound_names_the_rule_its_old_id_and_its_page() -> None:
    node = helper.make_node("Clip", ["x", "low"], ["y"], name="limit")
    model = make_model(
        [node], [value_info("x", F32, [3])], [value_info("y", F32, [3])], {"low": np.float32(0)}
    )
    [finding] = check_model(model).findings
    assert (finding.rule, finding.node.op_type, finding.node.name) == ("GR4", "Clip", "limit")
    assert "input M (ONNX 'max') is omitted" in finding.message
    assert (finding.draft_labels, finding.formerly) == (("R2",), ("CLIP_R2",))  # R1 was about L
    assert finding.link() == "general-rules.html#GR4"
    assert finding.link("https://example.org/sonnx/") == "https://example.org/sonnx/general-rules.html#GR4"


@req("GR3", "GR4", "GEN_C1")
def test_a_finding_names_the_drafts_label_for_the_tensor_at_fault() -> None:
    x, b = value_info("x", F32, [3]), value_info("b", np.dtype(np.float64), [3])
    y = value_info("y", F32, [3])
    no_low = helper.make_node("Clip", ["x", "", "high"], ["y"])
    [finding] = check_model(make_model([no_low], [x], [y], {"high": np.float32(1)})).findings
    assert (finding.rule, finding.draft_labels, finding.formerly) == ("GR4", ("R1",), ("CLIP_R1",))
    add = helper.make_node("Add", ["x", "b"], ["y"])
    [finding] = only(check_model(make_model([add], [x, b], [y])), "GR3")
    assert finding.draft_labels == ("E_ADD_FLOAT_CONSTR_B_0020", "E_ADD_INT_CONSTR_B_0020")
    boolean = value_info("x", np.dtype(bool), [3])
    [finding] = only(
        check_model(make_model([helper.make_node("Abs", ["x"], ["y"])], [boolean], [y])), "GEN_C1"
    )
    assert (finding.draft_labels, finding.formerly) == (("R1",), ("ABS_R1",))
    no_alpha = helper.make_node("LeakyRelu", ["x"], ["y"])
    [finding] = only(check_model(make_model([no_alpha], [x], [y])), "GR4")
    assert finding.draft_labels == ("R1",)  # LeakyRelu's R1: "attribute alpha must be set"


@req("GR4")
def test_a_node_error_keeps_the_drafts_label_of_the_refusal() -> None:
    refusal = SonnxError("GR4", "clip: input M is not given", operator="clip", tensor="M")
    error = NodeError(NodeRef(3, "Clip", "limit"), refusal)
    assert (error.operator, error.tensor, error.draft_labels) == ("clip", "M", ("R2",))
    assert str(error).startswith(
        'node 3 (Clip "limit"): clip: input M is not given — GR4 (Clip\'s draft: R2): '
    )


WITH_ATTRIBUTES = [op for op in OPERATORS if op.attributes]
VARIADIC = [op for op in OPERATORS if any(t.variadic for t in op.inputs)]
WITH_INPUTS = [op for op in OPERATORS if any(not t.sets_shape for t in op.inputs)]  # a graph input: not
# an initializer, which an input that sets a shape is in a sample model (ConstantOfShape has none)


@req("GR4")
def test_GR4_every_attribute_left_to_its_default_is_named() -> None:
    for op in WITH_ATTRIBUTES:  # none until an operator with attributes joins the registry
        for attribute in op.attributes:
            sample = sample_node(op, op.dtypes(op.main_type)[0])
            kept = [a for a in sample.node.attribute if a.name != attribute.onnx]
            del sample.node.attribute[:]
            sample.node.attribute.extend(kept)
            findings = [f for f in check_model(sample.model()).findings if f.rule == "GR4"]
            assert [f"attribute {attribute.onnx!r} is not given" in f.message for f in findings] == [True]


@req("GR4")
@pytest.mark.parametrize("op", VARIADIC, ids=str)
def test_GR4_an_empty_name_among_variadic_inputs(op: Operator) -> None:
    sample = sample_node(op, op.dtypes(op.main_type)[0])
    sample.node.input.append("")
    assert "GR4" in {f.rule for f in check_model(sample.model()).findings}


@req("GEN_C1")
@pytest.mark.parametrize("op", WITH_INPUTS, ids=str)
@pytest.mark.parametrize(
    "outside", [onnx.TensorProto.COMPLEX64, onnx.TensorProto.STRING, onnx.TensorProto.FLOAT8E4M3FN]
)
def test_GEN_C1_a_type_outside_the_signature_is_named(op: Operator, outside: int) -> None:
    dtype = op.dtypes(op.main_type)[0]
    sample = sample_node(op, dtype)
    sample.inputs[0].type.tensor_type.elem_type = outside
    findings = [f for f in check_model(sample.model()).findings if f.rule == "GEN_C1"]
    name = onnx.TensorProto.DataType.Name(outside).lower()
    assert findings and f"is {name}, not one of" in findings[0].message


@req("GEN_C1")
def test_GEN_C1_an_attribute_of_another_kind_is_named() -> None:
    for op in WITH_ATTRIBUTES:  # none until an operator with attributes joins the registry
        sample = sample_node(op, op.dtypes(op.main_type)[0])
        spec = next(a for a in op.attributes if a.onnx == sample.node.attribute[0].name)
        other = 1 if spec.kind == "string" else "text"  # a value of another kind than the declared one
        sample.node.attribute[0].CopyFrom(helper.make_attribute(spec.onnx, other))
        findings = [f for f in check_model(sample.model()).findings if f.rule == "GEN_C1"]
        kind = "INT" if spec.kind == "string" else "STRING"
        assert findings and f"is of type {kind}, not {ATTRIBUTE_KINDS[spec.kind]}" in findings[0].message


def _alike(op: Operator) -> int:
    """How many graph inputs of a sample node the main type variable types: an input that sets the result's
    shape is an initializer there (Range's start, limit and delta), whose type is its data's."""
    return sum(2 if t.variadic else 1 for t in op.inputs if t.type == op.main_type and not t.sets_shape)


@req("GR3")
@pytest.mark.parametrize("op", [op for op in OPERATORS if _alike(op) >= 2], ids=str)
def test_GR3_tensors_of_one_type_variable_of_two_types(op: Operator) -> None:
    sample = sample_node(op, np.dtype(np.float32))
    main = {  # by name, as sample_node names them: an initializer (Pad's pads) is no input
        f"{t.onnx}{copy if t.variadic else ''}"
        for t in op.inputs
        if t.type == op.main_type
        for copy in range(2 if t.variadic else 1)
    }
    typed = [(i, t) for i, t in enumerate(sample.inputs) if t.name in main]
    typed[-1][1].type.tensor_type.elem_type = onnx.TensorProto.DOUBLE
    findings = only(check_model(sample.model()), "GR3")
    assert "is double but" in findings[0].message and "is float32" in findings[0].message


def _type_variable(op: Operator, position: int) -> str:
    specs = [t for t in op.inputs for _ in range(2 if t.variadic else 1)]
    return specs[position].type


@req("GR2")
def test_GR2_symbolic_and_unknown_dimensions_are_named_once_per_tensor() -> None:
    nodes = [helper.make_node("Abs", ["x"], ["a"]), helper.make_node("Abs", ["a"], ["y"])]
    model = make_model(nodes, [value_info("x", F32, ["N", 3])], [value_info("y", F32, ["N", 3])])
    findings = only(check_model(model), "GR2")
    assert [(f.node.index, f.message.split(" is ")[0]) for f in findings] == [
        (0, "the shape of X (ONNX 'X') 'x'"),
        (0, "the shape of Y (ONNX 'Y') 'a'"),
        (1, "the shape of Y (ONNX 'Y') 'y'"),
    ]
    assert "dimension 0 is the symbol 'N'" in findings[0].message


@req("GR2")
def test_GR2_an_unknown_element_type_and_a_negative_dimension() -> None:
    model = unary()
    model.graph.input[0].type.tensor_type.elem_type = onnx.TensorProto.UNDEFINED
    assert any("element type of X" in f.message for f in check_model(model).findings if f.rule == "GR2")
    model = unary()
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -3
    assert any("dimension 0 is negative" in f.message for f in check_model(model).findings if f.rule == "GR2")


@req("GR1")
def test_GR1_sparse_initializers_and_attributes() -> None:
    model = unary()
    values = numpy_helper.from_array(np.array([1.0], np.float32), "w")
    sparse = helper.make_sparse_tensor(values, numpy_helper.from_array(np.array([0], np.int64)), [3])
    model.graph.sparse_initializer.append(sparse)
    assert any("sparse initializer, 'w'" in f.message for f in check_model(model).findings if f.rule == "GR1")
    model = unary()
    model.graph.node[0].attribute.append(helper.make_attribute("s", sparse))
    assert "GR1" in {f.rule for f in check_model(model).findings}


@pytest.mark.parametrize(
    "op", [op for op in OPERATORS if any(t.rank is not None and t.rank_rule for t in op.inputs)], ids=str
)
@req(*sorted({t.rank_rule for op in OPERATORS for t in op.inputs if t.rank_rule}))
def test_declared_ranks_are_decided_by_the_rule_that_requires_them(op: Operator) -> None:
    for tensor in op.inputs:
        if tensor.rank is None or not tensor.rank_rule:
            continue
        sample = sample_node(op, op.dtypes(op.main_type)[0])
        if tensor.sets_shape:  # an initializer (GR2): its value given one more dimension
            sample.initializers[tensor.onnx] = sample.initializers[tensor.onnx][np.newaxis]
        else:
            declared = next(i for i in sample.inputs if i.name == tensor.onnx)  # by name, as above
            shape = declared.type.tensor_type.shape
            shape.dim.add().dim_value = 1  # one more dimension than declared
        findings = only(check_model(sample.model()), tensor.rank_rule)
        assert f"{tensor.name} (ONNX {tensor.onnx!r})" in findings[0].message


@req("MAX_E1")
def test_an_operator_rule_the_declaration_does_not_give_is_decided_by_the_reference() -> None:
    node = helper.make_node("Max", ["a", "b"], ["y"], name="m")
    inputs = [value_info("a", F32, [3]), value_info("b", F32, [4])]
    [finding] = check_model(make_model([node], inputs, [value_info("y", F32, ["n"])])).findings
    assert (finding.rule, finding.node.name) == ("MAX_E1", "m")
    assert "(3,), (4,) do not broadcast" in finding.message


@req("MAX_C1")
def test_a_variadic_operator_without_inputs() -> None:
    node = helper.make_node("Max", [], ["y"], name="m")
    report = check_model(make_model([node], [], [value_info("y", F32, [1])]))
    assert {"MAX_C1", "MODEL_C1"} <= {f.rule for f in report.findings}


def test_a_refusal_that_depends_on_values_is_left_to_run_time() -> None:
    # The reference refuses Abs of -128 in int8 (ABS_E1, not static); its placeholders are ones, and
    # every static rule is decided from types and shapes alone.
    assert not rule("ABS_E1").static
    assert check_model(unary(dtype=np.dtype(np.int8))).in_profile


@req("MODEL_C1")
def test_MODEL_C1_the_onnx_checker_refuses_an_unknown_attribute_and_a_missing_ir_version() -> None:
    model = unary()
    model.graph.node[0].attribute.append(helper.make_attribute("alpha", 1.0))
    messages = [f.message for f in check_model(model).findings if f.rule == "MODEL_C1"]
    assert messages and "Unrecognized attribute: alpha" in messages[0]
    model = unary()
    model.ir_version = 0
    assert "MODEL_C1" in {f.rule for f in check_model(model).findings}


@req("MODEL_C2")
def test_MODEL_C2_a_cycle_names_its_nodes() -> None:
    nodes = [
        helper.make_node("Abs", ["b"], ["a"], name="first"),
        helper.make_node("Max", ["x", "a"], ["b"], name="second"),
        helper.make_node("Abs", ["b"], ["y"], name="third"),
    ]
    report = check_model(make_model(nodes, [value_info("x", F32, [3])], [value_info("y", F32, [3])]))
    [cycle] = [f for f in report.findings if f.rule == "MODEL_C2"]
    assert "a cycle" in cycle.message and all(f'"{n}"' in cycle.message for n in ("first", "second", "third"))


@req("MODEL_C2")
def test_MODEL_C2_undefined_and_twice_produced_tensors() -> None:
    nodes = [helper.make_node("Abs", ["nowhere"], ["y"])]
    report = check_model(make_model(nodes, [value_info("x", F32, [3])], [value_info("y", F32, [3])]))
    assert any("'nowhere'" in f.message for f in report.findings if f.rule == "MODEL_C2")
    nodes = [helper.make_node("Abs", ["x"], ["y"]), helper.make_node("Abs", ["x"], ["y"])]
    report = check_model(make_model(nodes, [value_info("x", F32, [3])], [value_info("y", F32, [3])]))
    assert any("more than once" in f.message for f in report.findings if f.rule == "MODEL_C2")


@req("MODEL_C3")
@pytest.mark.parametrize("op", OPERATORS, ids=str)
def test_MODEL_C3_an_opset_that_gives_another_version_of_the_operator(op: Operator) -> None:
    dtype = op.dtypes(op.main_type)[0]
    assert check_model(sample_node(op, dtype).model(opset=op.version)).in_profile
    if op.version == 1:
        return  # Not-1: no opset comes before the first, so none gives another version
    earlier = [v for v in range(1, op.version) if _version_at(op.onnx, v) != op.version]
    opset = earlier[-1] if earlier else op.version - 1  # an opset with another version, or none, of it
    findings = check_model(sample_node(op, dtype).model(opset=opset)).findings
    [finding] = [f for f in findings if f.rule == "MODEL_C3"]
    assert f"the profile specifies {op.onnx}-{op.version}" in finding.message


def _version_at(op_type: str, opset: int) -> int | None:
    try:
        return onnx.defs.get_schema(op_type, opset).since_version
    except onnx.defs.SchemaError:
        return None


@req("MODEL_C3")
def test_MODEL_C3_clip_of_opset_11_is_clip_11() -> None:
    node = helper.make_node("Clip", ["x", "low", "high"], ["y"], name="c")
    bounds = {"low": np.float32(0), "high": np.float32(1)}
    model = make_model([node], [value_info("x", F32, [3])], [value_info("y", F32, [3])], bounds, opset=11)
    [finding] = check_model(model).findings
    assert finding.rule == "MODEL_C3"
    assert finding.message.startswith(
        "ONNX opset 11 gives Clip-11; the profile specifies Clip-13 (import an opset from 13"
    )


@req("MODEL_R1")
def test_MODEL_R1_operators_outside_the_profile_are_listed() -> None:
    other = not_in_profile()
    nodes = [
        helper.make_node(other, ["x"], ["a"], name="outside"),
        helper.make_node("Abs", ["a"], ["b"]),
        helper.make_node("Foo", ["b"], ["y"], domain="com.example"),
    ]
    model = make_model(nodes, [value_info("x", F32, [3])], [value_info("y", F32, [3])])
    model.opset_import.append(helper.make_opsetid("com.example", 1))
    report = check_model(model)
    outside = [f for f in report.findings if f.rule == "MODEL_R1"]
    assert [(f.node.index, f.message) for f in outside] == [
        (0, f"{other} is not specified by SONNX (yet)"),
        (2, "com.example.Foo is not specified by SONNX (yet)"),
    ]
    assert report.unspecified == {other: 1, "com.example.Foo": 1}


@req("MODEL_R1")
@pytest.mark.parametrize("op", OPERATORS, ids=str)
def test_MODEL_R1_inputs_and_outputs_the_profile_does_not_have(op: Operator) -> None:
    sample = sample_node(op, op.dtypes(op.main_type)[0])
    if not any(t.variadic for t in op.inputs):
        sample.node.input.append(sample.node.input[0] if sample.node.input else "")
    # A variadic output (Split's) has no extra output by position: its count is checked once the node is
    # run (test_split.py); more outputs than Split's num_outputs abort onnx's shape inference.
    variadic_output = any(t.variadic for t in op.outputs)
    if not variadic_output:
        sample.node.output.append("extra")
    messages = [f.message for f in check_model(sample.model()).findings if f.rule == "MODEL_R1"]
    extra = "input 'input'" if variadic_output else "output 'extra'"
    assert any(f"{extra} is not one the profile specifies" in m for m in messages), messages


@req("MODEL_R2")
def test_MODEL_R2_a_graph_input_with_an_initializer_is_a_default_value() -> None:
    node = helper.make_node("Max", ["x", "w"], ["y"])
    inputs = [value_info("x", F32, [3]), value_info("w", F32, [3])]
    model = make_model([node], inputs, [value_info("y", F32, [3])], {"w": np.zeros(3, np.float32)})
    findings = only(check_model(model), "MODEL_R2")
    assert "graph input 'w' has an initializer" in findings[0].message


@req("MODEL_C4")
def test_MODEL_C4_a_declared_output_the_operator_does_not_give() -> None:
    node = helper.make_node("Max", ["a", "b"], ["y"], name="m")
    inputs = [value_info("a", F32, [2, 1]), value_info("b", F32, [3])]
    model = make_model([node], inputs, [value_info("y", F32, [2, 1])])
    findings = [f for f in check_model(model).findings if f.rule == "MODEL_C4"]
    assert [f.message for f in findings] == [
        "output 'y' is declared of shape (2, 1); Max gives float32 of shape (2, 3)"
    ]


@req("MODEL_C5")
def test_MODEL_C5_a_huge_dimension() -> None:
    model = unary()
    for value in (model.graph.input[0], model.graph.output[0]):
        value.type.tensor_type.shape.dim[0].dim_value = 2**62
    report = check_model(model)
    assert {f.rule for f in report.errors} == {"MODEL_C5"}
    assert "holds 18446744073709551616 bytes" in report.errors[0].message
    assert [f.rule for f in report.undecided] == ["MODEL_C4"]  # Abs is not computed on it


@req("MAX_E1", "MAX_C1")
def test_rules_the_checker_cannot_compute_on_are_undecided_not_passed() -> None:
    size = DRY_RUN_LIMIT // 4 + 1
    node = helper.make_node("Max", ["a", "b"], ["y"], name="m")
    inputs = [value_info("a", F32, [size]), value_info("b", F32, [1])]
    report = check_model(make_model([node], inputs, [value_info("y", F32, [size])]))
    assert not report.in_profile and not report.errors
    undecided = {f.rule for f in report.undecided}
    assert undecided == {r.id for r in rules().values() if r.operator == "max" and r.static} | {"MODEL_C4"}


def test_the_types_of_the_registry_are_all_checked() -> None:
    # Every SONNX type goes through the checker in test_a_node_of_every_operator_and_type_is_in_the_profile,
    # and bool where an operator's type variable takes it (Equal)
    taken = {t for op in OPERATORS for t in op.dtypes(op.main_type)}
    assert set(TYPES) <= taken <= {*TYPES, BOOL}
