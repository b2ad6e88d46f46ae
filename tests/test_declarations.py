"""Declaring an operator (sonnx_spec.registry.operator): what a declaration gives, and what it refuses.

Each test registers its operators in an empty registry of its own, never in the project's.
"""

from __future__ import annotations

from collections.abc import Iterator

import ml_dtypes
import numpy as np
import pytest
from support import raises_req

from sonnx_spec import registry
from sonnx_spec.registry import Attribute, Tensor, operator, registered


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict]:
    fresh: dict = {}
    monkeypatch.setattr(registry, "_REGISTRY", fresh)
    yield fresh


def scale(X, S, *, gain):
    """Multiply X by S and by gain.

    More text.
    """
    return X * S * gain


def declare(body=scale, **changes):
    fields = {
        "onnx": "Scale",
        "version": 7,
        "inputs": (Tensor("X", "input", "T"), Tensor("S", "scale", "bool", rank=0, rank_rule="GR2")),
        "outputs": (Tensor("Y", "output", "T"),),
        "types": {"T": ("signed", "float")},
        "attributes": (Attribute("gain", "gain", "float"),),
    }
    return operator(body, **{**fields, **changes})


def test_a_declaration_says_what_the_operator_is(own_registry: dict) -> None:
    checked = declare()
    op = own_registry["scale"]
    assert checked.operator is op and op.function is checked and checked.__wrapped__ is scale
    assert (op.name, op.onnx, op.version, op.prefix, op.page) == (
        "scale",
        "Scale",
        7,
        "SCALE",
        "operators/scale",
    )
    assert op.summary == "Multiply X by S and by gain."
    assert op.dtypes("bool") == (np.dtype(bool),)
    assert [t.name for t in op.dtypes("T")] == [
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "bfloat16",
    ]
    assert [t.name for t in op.numeric_types] == [t.name for t in op.dtypes("T")]
    assert op.families == ("int", "float")
    assert op.main_type == "T"
    assert op.input_names(5) == ["X", "S"]
    assert registry.get("scale") is op
    Y = checked(np.array([1.0, 2.0], np.float32), np.bool_(True), gain=2.0)
    assert Y.tolist() == [2.0, 4.0] and Y.dtype == np.float32


def test_variadic_inputs_and_attribute_types() -> None:
    def many(*X):
        """The first."""
        return X[0]

    op = operator(
        many,
        onnx="Many",
        version=1,
        inputs=(Tensor("X", "data_0", "T", variadic=True),),
        outputs=(Tensor("Y", "y", "T"),),
        types={"T": ("unsigned",)},
    ).operator
    assert op.input_names(3) == ["X0", "X1", "X2"] and op.families == ("int",)

    def constant(*, value):
        """A constant."""
        return value

    op = operator(
        constant,
        onnx="Constant",
        version=13,
        inputs=(),
        outputs=(Tensor("Y", "output", "T"),),
        types={"T": ("float",)},
        attributes=(Attribute("value", "value", "tensor", "T"),),
    ).operator
    assert op.main_type == "T" and op.families == ("float",) and op.input_names(0) == []


def test_the_main_type_passes_over_a_first_input_of_a_fixed_type() -> None:
    def choose(C, X):
        """X where C."""
        return X

    op = operator(
        choose,
        onnx="Choose",
        version=1,
        inputs=(Tensor("C", "condition", "bool"), Tensor("X", "x", "T")),
        outputs=(Tensor("Y", "y", "T"),),
        types={"T": ("unsigned",)},
    ).operator
    assert op.main_type == "T" and op.dtypes(op.main_type)[0] == np.dtype(np.uint8)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"inputs": (Tensor("X", "input", "T"),)}, "inputs ['X'] but the function takes ['X', 'S']"),
        ({"attributes": ()}, "attributes [] but keyword-only parameters ['gain']"),
        ({"types": {"T": ("real",)}}, "type variable T: unknown type set 'real'"),
        ({"outputs": (Tensor("Y", "output", "U"),)}, "type 'U' is neither a type variable nor a type set"),
        (
            {"attributes": (Attribute("gain", "gain", "tensor", "V"),)},
            "type 'V' is neither a type variable nor a type set",
        ),
        (
            {"inputs": (Tensor("X", "input", "T", variadic=True), Tensor("S", "scale", "bool"))},
            "a variadic input is a *parameter, and only that",
        ),
    ],
)
def test_a_declaration_that_does_not_match_its_function_is_refused(changes: dict, message: str) -> None:
    with pytest.raises(TypeError) as info:
        declare(**changes)
    assert str(info.value) == f"operator scale: {message}"


def test_defaults_are_refused_and_an_operator_is_registered_once() -> None:
    def defaulted(X, *, gain=1.0):
        """Defaulted."""
        return X

    with pytest.raises(TypeError, match="a parameter has a default value"):
        operator(
            defaulted,
            onnx="D",
            version=1,
            inputs=(Tensor("X", "x", "T"),),
            outputs=(),
            types={"T": ("int",)},
            attributes=(Attribute("gain", "gain", "float"),),
        )
    declare()
    with pytest.raises(ValueError, match="operator scale is registered twice"):
        declare()


def test_a_wrong_call_is_gen_c2_and_memory_is_gen_e1() -> None:
    def hungry(X):
        """Needs too much."""
        raise MemoryError

    checked = operator(
        hungry, onnx="H", version=1, inputs=(Tensor("X", "x", "T"),), outputs=(), types={"T": ("int",)}
    )
    with raises_req("GEN_C2"):  # one input too many: refused before the body runs
        checked(np.int8(1), np.int8(2))
    with raises_req("GEN_E1") as info:
        checked(np.int8(1))
    assert info.value.problem == "hungry: its result does not fit in this machine's memory"


def test_the_general_rules_check_attributes_and_declared_ranks() -> None:
    def weigh(X, B, *, alpha, table):
        """Weigh."""
        return X

    checked = operator(
        weigh,
        onnx="Weigh",
        version=1,
        inputs=(Tensor("X", "x", "T"), Tensor("B", "b", "T", rank=1, rank_rule="GR2")),
        outputs=(Tensor("Y", "y", "T"),),
        types={"T": ("float",)},
        attributes=(Attribute("alpha", "alpha", "float"), Attribute("table", "table", "tensor", "T")),
    )
    X, B, table = np.ones(2, np.float32), np.ones(3, np.float32), np.ones((2, 2), np.float32)
    assert checked(X, B, alpha=np.float32(0.5), table=table) is X
    for alpha in (0.5, np.float16(0.5), np.longdouble(0.5), ml_dtypes.bfloat16(0.5)):  # any float scalar
        assert checked(X, B, alpha=alpha, table=table) is X
    with raises_req("GR4") as info:
        checked(X, B, alpha=None, table=table)
    assert info.value.problem == "weigh: attribute alpha is not given"
    with raises_req("GR4") as info:
        checked(X, B, alpha=0.5, table=None)
    assert info.value.problem == "weigh: attribute table is not given"
    with raises_req("GR4") as info:
        checked(None, B, alpha=0.5, table=table)
    assert info.value.problem == "weigh: input X is not given"
    with raises_req("GEN_C1") as info:
        checked(X, B, alpha=1, table=table)
    assert info.value.problem == "weigh: attribute alpha is a int, not a float"
    for alpha in (np.int32(1), True, np.array(0.5), np.complex64(0.5), "0.5"):
        with raises_req("GEN_C1"):
            checked(X, B, alpha=alpha, table=table)
    with raises_req("GR3") as info:
        checked(X, B, alpha=0.5, table=table.astype(np.float64))
    assert info.value.problem == "weigh: table has element type float64 but X has float32"
    with raises_req("GR2") as info:
        checked(X, np.ones((1, 3), np.float32), alpha=0.5, table=table)
    assert info.value.problem == "weigh: B has shape (1, 3), not rank 1"


def test_every_problem_of_a_declaration_is_named() -> None:
    def both(X, *, a=1):
        """Both."""
        return X

    with pytest.raises(TypeError) as info:
        operator(
            both,
            onnx="B",
            version=1,
            inputs=(Tensor("X", "x", "T", rank=0),),
            outputs=(),
            types={"T": ("int",)},
            attributes=(Attribute("a", "a", "float"),),
        )
    assert str(info.value) == (
        "operator both: a declared rank needs the rule that requires it, and a rule its rank; "
        "a parameter has a default value (GR4: no default values)"
    )


def test_get_lists_the_known_operators() -> None:
    declare()
    declare(body=other)
    with pytest.raises(KeyError) as info:
        registry.get("nope")
    assert info.value.args[0] == "no operator 'nope' (known: other, scale)"


def other(X, S, *, gain):
    """Another."""
    return X


def test_same_shape_names_the_rule_and_both_shapes() -> None:
    from sonnx_spec.checks import same_shape

    same_shape("op", "GR2", A=np.ones((2, 3)), B=np.ones((2, 3)), C=np.ones((2, 3)))
    with raises_req("GR2") as info:
        same_shape("op", "GR2", A=np.ones((2, 3)), B=np.ones((2, 3)), C=np.ones((3, 2)))
    assert info.value.problem == "op: C has shape (3, 2) but A has shape (2, 3)"


def halves(X):
    """X cut in two along its first axis."""
    return X[: len(X) // 2].copy(), X[len(X) // 2 :].copy()


def test_an_operator_may_have_several_outputs_and_returns_a_tuple() -> None:
    two = (Tensor("A", "first", "T"), Tensor("B", "second", "T"))
    declaration = {"onnx": "Halves", "version": 1, "inputs": (Tensor("X", "x", "T"),)}
    declaration["types"] = {"T": ("int",)}
    op = operator(halves, outputs=two, **declaration).operator
    assert op.returns_tuple and op.output_names(2) == ["A", "B"]
    X = np.arange(4, dtype=np.int8)
    assert [r.tolist() for r in op.results(op.function(X))] == [[0, 1], [2, 3]]
    registry._REGISTRY.clear()
    op = operator(halves, outputs=(Tensor("Y", "outputs", "T", variadic=True),), **declaration).operator
    assert op.returns_tuple and op.output_names(3) == ["Y0", "Y1", "Y2"]
    registry._REGISTRY.clear()
    fixed_then_variadic = (Tensor("A", "first", "T"), Tensor("Z", "rest", "T", variadic=True))
    op = operator(halves, outputs=fixed_then_variadic, **declaration).operator
    assert op.output_names(3) == ["A", "Z0", "Z1"]  # the numbered ones make up the count with A
    registry._REGISTRY.clear()
    op = declare().operator  # one output: an array, which results() puts in a tuple
    assert not op.returns_tuple and op.output_names(1) == ["Y"]
    Y = np.ones(2, np.float32)
    assert op.results(Y)[0] is Y and len(op.results(Y)) == 1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"outputs": (Tensor("Y", "y", "T", variadic=True), Tensor("Z", "z", "T"))},
            "operator scale: only the last output may be variadic$",
        ),
        (
            {"outputs": (Tensor("Y", "y", "T", sets_shape=True),)},
            "operator scale: sets_shape and shape_only describe inputs, not outputs$",
        ),
        (
            {"attributes": (Attribute("gain", "gain", "graph"),)},
            "attribute gain: kind 'graph' is not one of int, float, string, ints, floats, tensor$",
        ),
        ({"attributes": (Attribute("gain", "gain", "tensor"),)}, "a tensor attribute has a type, and only"),
        ({"attributes": (Attribute("gain", "gain", "ints", "T"),)}, "a tensor attribute has a type"),
    ],
)
def test_outputs_and_attribute_kinds_are_checked_when_declared(changes: dict, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        declare(**changes)


def test_an_operator_registered_for_a_block_is_gone_after_it(own_registry: dict) -> None:
    fields = {"onnx": "Halves", "version": 1, "inputs": (Tensor("X", "x", "T"),), "types": {"T": ("int",)}}
    fields["outputs"] = (Tensor("A", "first", "T"), Tensor("B", "second", "T"))
    with registry.registered(halves, **fields) as checked:
        assert registry.get("halves") is checked.operator and "halves" in registry.operators()
    assert "halves" not in own_registry
    with pytest.raises(RuntimeError), registry.registered(halves, **fields):
        raise RuntimeError  # a failing test removes it too
    assert "halves" not in own_registry


def test_an_output_typed_by_an_int_attribute() -> None:
    def convert(X, *, to):
        """Convert."""
        return X

    fields = {"onnx": "Convert", "version": 1, "inputs": (Tensor("X", "x", "T"),)}
    typed = (Tensor("Y", "y", "U", type_from="to"),)
    with registered(
        convert,
        outputs=typed,
        types={"T": ("int",), "U": ("int", "float", "bool")},
        attributes=(Attribute("to", "to", "int"),),
        **fields,
    ) as checked:
        op = checked.operator
        assert op.output_dtype(np.dtype(np.int8), {"to": 16}) == np.dtype(ml_dtypes.bfloat16)
        assert op.output_dtype(np.dtype(np.int8), {"to": 9}) == np.dtype(np.bool_)
        assert op.output_dtype(np.dtype(np.int8), {"to": 8}) is None  # string: no type of the profile
    for attributes, outputs in [
        ((Attribute("to", "to", "float"),), typed),  # not an int attribute
        ((Attribute("to", "to", "int"),), (Tensor("Y", "y", "U", type_from="too"),)),  # no such attribute
    ]:
        with pytest.raises(TypeError, match="type_from names an int attribute"):
            operator(
                convert,
                outputs=outputs,
                types={"T": ("int",), "U": ("int",)},
                attributes=attributes,
                **fields,
            )
    inputs = (Tensor("X", "x", "T", type_from="to"),)
    with pytest.raises(TypeError, match="type_from names an int attribute, and only for an output"):
        operator(
            convert,
            onnx="Convert",
            version=1,
            inputs=inputs,
            outputs=typed,
            types={"T": ("int",), "U": ("int",)},
            attributes=(Attribute("to", "to", "int"),),
        )


def test_the_type_of_each_output_by_its_position() -> None:
    def top(X):
        """The greatest element and whether it is unique."""
        return X, X

    outputs = (Tensor("Y", "y", "T"), Tensor("Unique", "unique", "bool"))
    fields = {"onnx": "Top", "version": 1, "inputs": (Tensor("X", "x", "T"),), "outputs": outputs}
    with registered(top, types={"T": ("float",), "bool": ("bool",)}, **fields) as checked:
        op, f32 = checked.operator, np.dtype(np.float32)
        assert op.output_dtype(f32, {}) == f32  # the first output unless a position is given
        assert op.output_dtype(f32, {}, 0) == f32
        assert op.output_dtype(f32, {}, 1) == np.dtype(np.bool_)
        assert op.output_dtype(f32, {}, 2) == np.dtype(np.bool_)  # past the last: the last (a variadic one)
