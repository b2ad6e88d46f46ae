"""The general rules, proved once for every operator of the registry and every type it takes.

Each test builds a call every operator accepts (support.sample_call), breaks one
argument, and expects the general rule that argument breaks. The postconditions
GEN_P1 and GEN_P2 are properties of every call, whether it returns or refuses.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import scipy.sparse
from hypothesis import given
from hypothesis import strategies as st
from support import (
    IMPLICIT_FORMS,
    OPERATORS,
    OUTSIDE_TYPES,
    SPARSE_TYPES,
    call_with,
    each_operator_and_type,
    raises_req,
    req,
    sample_call,
    shapes,
    tensor_positions,
    tensor_type,
    tensors,
)

import sonnx_spec
from sonnx_spec import TYPES, Operator, SonnxError
from sonnx_spec.checks import new_array
from sonnx_spec.registry import Attribute, Tensor, registered


@req("GR4")
@each_operator_and_type()
def test_GR4_every_input_and_attribute_must_be_given(op: Operator, dtype: np.dtype) -> None:
    args, kwargs = sample_call(op, dtype)
    for name, position in tensor_positions(op, args, kwargs):
        with raises_req("GR4") as info:
            call_with(op, args, kwargs, position, None)
        assert f"{name} is not given" in str(info.value)
        assert (info.value.operator, info.value.tensor) == (op.name, _declared(op, name))
    for attribute in op.attributes:
        with raises_req("GR4") as info:
            call_with(op, args, kwargs, attribute.name, None)
        assert (info.value.operator, info.value.tensor) == (op.name, attribute.name)
        without = {k: v for k, v in kwargs.items() if k != attribute.name}
        with raises_req("GR4") as info:  # left out: no default value, and no bare TypeError either
            op.function(*args, **without)
        assert info.value.problem == f"{op.name}: attribute {attribute.name} is not given"
    for position, tensor in enumerate(op.inputs):
        if not tensor.variadic:  # a variadic input takes any number of tensors (its own rule: MAX_C1)
            with raises_req("GR4") as info:  # left out, with every input after it
                op.function(*args[:position], **kwargs)
            assert info.value.problem == f"{op.name}: input {tensor.name} is not given"


SIGNATURES = pytest.mark.parametrize("op", OPERATORS, ids=[op.name for op in OPERATORS])


@req("GEN_C2")
@SIGNATURES
def test_GEN_C2_only_the_inputs_and_attributes_of_the_signature(op: Operator) -> None:
    args, kwargs = sample_call(op, op.dtypes(op.main_type)[0])
    attributes = ", ".join(a.name for a in op.attributes) or "none"
    with raises_req("GEN_C2") as info:
        op.function(*args, **kwargs, beta=0.5)
    assert (
        info.value.problem
        == f"{op.name}: beta= is not an attribute of {op.name} (its attributes: {attributes})"
    )
    if not any(t.variadic for t in op.inputs):
        with raises_req("GEN_C2") as info:
            op.function(*args, args[0] if args else np.float32(1), **kwargs)
        assert info.value.problem.startswith(
            f"{op.name}: input {len(op.inputs) + 1} is given, but {op.name} has "
        )
    for position, tensor in enumerate(op.inputs):
        if not tensor.variadic:
            with raises_req("GEN_C2") as info:
                op.function(*args, **kwargs, **{tensor.name: args[position]})
            assert (
                info.value.problem
                == f"{op.name}: input {tensor.name} is given twice, by position and by name"
            )


@req("GEN_C2")
def test_GEN_C2_messages_name_the_signature() -> None:
    X = np.ones(2, np.float32)
    with raises_req("GEN_C2") as info:
        sonnx_spec.abs(X, X)
    assert info.value.problem == "abs: input 2 is given, but abs has 1 input (X)"
    with raises_req("GEN_C2") as info:
        sonnx_spec.leaky_relu(X, 0.5)  # an attribute given by position
    assert info.value.problem == (
        "leaky_relu: input 2 is given, but leaky_relu has 1 input (X); "
        "its attributes are given by name (alpha)"
    )
    with raises_req("GEN_C2") as info:
        sonnx_spec.constant(X, value=X)
    assert info.value.problem == (
        "constant: input 1 is given, but constant has no input; its attributes are given by name (value)"
    )
    with raises_req("GEN_C2") as info:
        sonnx_spec.clip(X, X[0], X[0], X[0])
    assert info.value.problem == "clip: input 4 is given, but clip has 3 inputs (X, L, M)"
    with raises_req("GEN_C2") as info:
        sonnx_spec.add(X, X, X)
    assert info.value.problem == "add: input 3 is given, but add has 2 inputs (A, B)"

    def resize(X, *, mode, scale):
        """X, scaled."""
        return X.copy()

    fields = {"onnx": "Resize", "version": 1, "types": {"T": ("float",)}, "outputs": (Tensor("Y", "y", "T"),)}
    fields |= {"inputs": (Tensor("X", "x", "T"),)}
    kinds = (Attribute("mode", "mode", "string"), Attribute("scale", "scale", "float"))
    with registered(resize, attributes=kinds, **fields) as checked, raises_req("GEN_C2") as info:
        checked(X, "nearest", 2.0)
    with registered(resize, attributes=kinds, **fields) as checked:
        with raises_req("GEN_C2") as unknown:
            checked(X, mode="nearest", scale=2.0, size=4)
        with raises_req("GR4") as missing:
            checked(X, mode="nearest")
    assert info.value.problem == (
        "resize: input 2 is given, but resize has 1 input (X); its attributes are given by name (mode, scale)"
    )
    assert (
        unknown.value.problem == "resize: size= is not an attribute of resize (its attributes: mode, scale)"
    )
    assert (missing.value.problem, missing.value.tensor) == ("resize: attribute scale is not given", "scale")
    with raises_req("GEN_C2") as info:
        sonnx_spec.max(X, X=X)  # a variadic input is given by position only
    assert info.value.problem == "max: X= is not an attribute of max (its attributes: none)"


@req("GR1")
@each_operator_and_type()
def test_GR1_sparse_tensors_are_refused(op: Operator, dtype: np.dtype) -> None:
    args, kwargs = sample_call(op, dtype)
    for name, position in tensor_positions(op, args, kwargs):
        value = args[position] if isinstance(position, int) else kwargs[position]
        if value.dtype not in SPARSE_TYPES:
            continue  # scipy.sparse has no float16 or bfloat16 matrices
        for kind in (scipy.sparse.csr_array, scipy.sparse.coo_matrix):
            with raises_req("GR1") as info:
                call_with(op, args, kwargs, position, kind(np.ones((1, 2), value.dtype)))
            described = f"scipy.{kind.__name__} of dtype {value.dtype}"
            assert info.value.problem == f"{op.name}: {name} is a sparse tensor ({described})"


DESCRIBED = {
    "list": "{python}",  # a list, or a Python number for a 0-d tensor
    "python number": "{python}",
    "masked array": "numpy.MaskedArray of dtype {dtype}",
    "matrix": "numpy.matrix of dtype {dtype}",
}


class TorchLikeSparse:
    """What a torch sparse tensor says of itself."""

    is_sparse = True
    dtype = "torch.float32"


class PydataLikeSparse:
    """What a pydata sparse array has: a number of stored values and a dense form."""

    nnz = 1
    dtype = np.dtype(np.float32)

    def todense(self) -> np.ndarray:
        return np.ones(1, np.float32)


class OnlyCountsValues:
    nnz = 1


@req("GR1", "GR2")
def test_GR1_sparse_tensors_of_other_libraries_are_recognised() -> None:
    X = np.ones(2, np.float32)
    with raises_req("GR1") as info:
        sonnx_spec.abs(TorchLikeSparse())
    assert (
        info.value.problem
        == "abs: X is a sparse tensor (test_general_rules.TorchLikeSparse of dtype torch.float32)"
    )
    with raises_req("GR1"):
        sonnx_spec.clip(X, PydataLikeSparse(), X[0])
    with raises_req("GR2") as info:  # a count of values alone does not make a sparse tensor
        sonnx_spec.abs(OnlyCountsValues())
    assert (
        info.value.problem == "abs: X is a test_general_rules.OnlyCountsValues, not a numpy array or scalar"
    )


@req("GR2")
@each_operator_and_type()
@pytest.mark.parametrize("form", IMPLICIT_FORMS)
def test_GR2_values_without_explicit_shape_and_type_are_refused(
    op: Operator, dtype: np.dtype, form: str
) -> None:
    args, kwargs = sample_call(op, dtype)
    for name, position in tensor_positions(op, args, kwargs):
        value = args[position] if isinstance(position, int) else kwargs[position]
        implicit = IMPLICIT_FORMS[form](value)
        with raises_req("GR2") as info:
            call_with(op, args, kwargs, position, implicit)
        described = DESCRIBED[form].format(dtype=value.dtype, python=type(implicit).__name__)
        assert info.value.problem == f"{op.name}: {name} is a {described}, not a numpy array or scalar"


@req("GEN_C1")
@each_operator_and_type()
def test_GEN_C1_types_the_signature_does_not_list_are_refused(op: Operator, dtype: np.dtype) -> None:
    args, kwargs = sample_call(op, dtype)
    for name, position in tensor_positions(op, args, kwargs):
        value = args[position] if isinstance(position, int) else kwargs[position]
        allowed = op.dtypes(_type_of(op, name))
        listed = ", ".join(t.name for t in allowed)
        for bad in [t for t in OUTSIDE_TYPES + list(TYPES) if t not in allowed]:
            with raises_req("GEN_C1") as info:
                call_with(op, args, kwargs, position, np.zeros(value.shape, bad))
            assert (
                info.value.problem
                == f"{op.name}: {name} has element type {bad}, not one {op.name} takes for {name} ({listed})"
            )
    for attribute in (a for a in op.attributes if a.kind == "float"):
        for bad in (1, "0.5", np.array([0.5]), True):
            with raises_req("GEN_C1"):
                call_with(op, args, kwargs, attribute.name, bad)


@req("GR3")
@each_operator_and_type()
def test_GR3_tensors_typed_alike_are_never_converted(op: Operator, dtype: np.dtype) -> None:
    args, kwargs = sample_call(op, dtype)
    positions = tensor_positions(op, args, kwargs)
    for name, position in positions:
        type_name = _type_of(op, name)
        alike = [n for n, _ in positions if _type_of(op, n) == type_name]
        if len(alike) < 2:
            continue
        value = args[position] if isinstance(position, int) else kwargs[position]
        for other in op.dtypes(type_name):
            if other == value.dtype:
                continue
            with raises_req("GR3") as info:
                call_with(op, args, kwargs, position, value.astype(other))
            first = alike[1] if name == alike[0] else name
            assert f"{first} has element type " in str(info.value)


def _declared(op: Operator, name: str) -> str:
    """The declared name of the tensor argument called ``name`` (X for X1)."""
    variadic = [t.name for t in op.inputs if t.variadic and name.rstrip("0123456789") == t.name]
    return variadic[0] if variadic else name


X = np.array([[1.0, -2.0]], np.float32)
LOW, HIGH = np.float32(0), np.float32(1)
DRAFT_LABELS = [  # a call, a part of its message, the labels it carries (from the drafts, not from the code)
    (
        lambda: sonnx_spec.clip(X, None, HIGH),
        "clip: input L is not given — GR4 (Clip's draft: R1): ",
        ("R1",),
    ),
    (lambda: sonnx_spec.clip(X, LOW, None), "clip: input M is not given — GR4 (Clip's draft: R2): ", ("R2",)),
    (
        lambda: sonnx_spec.clip(X, LOW, np.float64(1)),
        "clip: M has element type float64 but X has float32 — GR3 (Clip's drafts: R5, C2): ",
        ("R5", "C2"),
    ),
    (lambda: sonnx_spec.clip(scipy.sparse.csr_array(X), LOW, HIGH), "GR1 (Clip's draft: R3): ", ("R3",)),
    (
        lambda: sonnx_spec.clip(X, 0.0, HIGH),
        "clip: L is a float, not a numpy array or scalar — GR2 (Clip",
        ("R4",),
    ),
    (lambda: sonnx_spec.max(X, scipy.sparse.csr_array(X)), "X1 is a sparse tensor", ("R1",)),
    (
        lambda: sonnx_spec.max(X, [1.0]),
        "max: X1 is a list, not a numpy array or scalar — GR2 (Max's draft: R2)",
        ("R2",),
    ),
    (lambda: sonnx_spec.abs(X.astype(bool)), "abs: X has element type bool, not one abs takes", ("R1",)),
    (lambda: sonnx_spec.abs(scipy.sparse.csr_array(X)), "GR1 (Abs's draft: R2): ", ("R2",)),
    (
        lambda: sonnx_spec.abs([1.0]),
        "abs: X is a list, not a numpy array or scalar — GR2 (Abs's draft: R3)",
        ("R3",),
    ),
    (
        lambda: sonnx_spec.add(X, X.astype(np.float64)),
        "add: B has element type float64 but A has float32 — GR3 (Add's draft: E_ADD_FLOAT_CONSTR_B_0020, "
        "E_ADD_INT_CONSTR_B_0020): ",
        ("E_ADD_FLOAT_CONSTR_B_0020", "E_ADD_INT_CONSTR_B_0020"),
    ),
    (lambda: sonnx_spec.leaky_relu(X, alpha=None), "— GR4 (LeakyRelu's draft: R1): ", ("R1",)),
    (
        lambda: sonnx_spec.leaky_relu(None, alpha=0.5),
        "leaky_relu: input X is not given — GR4: ",
        (),
    ),  # R1: alpha
    (lambda: sonnx_spec.max(X, None), "max: input X1 is not given — GR4: ", ()),  # no draft of Max labels GR4
    # left out of the call altogether, not passed as None: the same labels
    (lambda: sonnx_spec.clip(X), "clip: input L is not given — GR4 (Clip's draft: R1): ", ("R1",)),
    (lambda: sonnx_spec.clip(X, X), "clip: input M is not given — GR4 (Clip's draft: R2): ", ("R2",)),
    (
        lambda: sonnx_spec.leaky_relu(X),
        "attribute alpha is not given — GR4 (LeakyRelu's draft: R1): ",
        ("R1",),
    ),
]


@req("GR1", "GR2", "GR3", "GR4", "GEN_C1")
@pytest.mark.parametrize(("call", "message", "labels"), DRAFT_LABELS)
def test_an_error_names_the_drafts_label_of_its_operator_for_the_tensor_at_fault(
    call: Callable[[], object], message: str, labels: tuple[str, ...]
) -> None:
    with pytest.raises(SonnxError) as info:
        call()
    assert message in str(info.value)
    assert info.value.draft_labels == labels


def test_an_error_raised_without_its_operator_names_no_draft_label() -> None:
    error = SonnxError("GR4", "input M is not given")
    assert (error.operator, error.tensor, error.draft_labels) == (None, None, ())
    assert str(error).startswith("input M is not given — GR4: No default values")
    labelled = SonnxError("GR4", "input M is not given", operator="clip", tensor="M")
    assert str(labelled).startswith("input M is not given — GR4 (Clip's draft: R2): No default values")
    assert SonnxError("GR4", "p", operator="clip").draft_labels == ("R1", "R2")  # no tensor: every label


def _type_of(op: Operator, name: str) -> str:
    """The type of the tensor argument called ``name`` (X1 is of the variadic X's type)."""
    for tensor in op.inputs:
        if name == tensor.name or (tensor.variadic and name.rstrip("0123456789") == tensor.name):
            return tensor.type
    return next(a.type for a in op.attributes if a.name == name and a.type)


@st.composite
def calls(draw: st.DrawFn, op: Operator, dtype: np.dtype) -> tuple[list, dict]:
    """Any call of ``op`` with tensors of one shape (declared ranks kept), any values, any types the
    signature allows: most are accepted, some refused. An input that sets the result's shape keeps the
    sample call's value: any value would ask for a result of any size (Range's start, limit and delta)."""
    shape = draw(shapes(max_dims=3))
    args, kwargs = sample_call(op, dtype)

    def draw_like(value: np.ndarray) -> np.ndarray:
        return draw(tensors(value.dtype, shape[: value.ndim] if value.ndim < len(shape) else shape))

    sets_shape = [t.sets_shape for t in op.inputs] + [False] * (len(args) - len(op.inputs))
    args = [
        a if fixed else draw_like(a) if a.ndim else draw(tensors(a.dtype, ()))
        for a, fixed in zip(args, sets_shape, strict=True)
    ]
    for attribute in op.attributes:
        if attribute.kind == "tensor":
            kwargs[attribute.name] = draw_like(kwargs[attribute.name])
        elif attribute.kind == "float":
            kwargs[attribute.name] = draw(st.floats(width=32))
    return args, kwargs


@req("GEN_P1", "GEN_P2")
@each_operator_and_type()
@given(data=st.data())
def test_GEN_P1_P2_inputs_unchanged_and_a_new_writeable_result(
    op: Operator, dtype: np.dtype, data: st.DataObject
) -> None:
    args, kwargs = data.draw(calls(op, dtype))
    inputs = [a for a in [*args, *kwargs.values()] if isinstance(a, np.ndarray | np.generic)]
    before = [np.array(a, copy=True) for a in inputs]
    try:
        result = op.function(*args, **kwargs)
    except SonnxError:
        result = None
    for value, copy in zip(inputs, before, strict=True):  # GEN_P1, refused or not
        assert value.tobytes() == copy.tobytes() and value.shape == copy.shape
    for output in () if result is None else op.results(result):  # GEN_P2, of every output
        assert type(output) is np.ndarray
        assert output.flags.writeable
        assert not any(np.shares_memory(output, a) for a in inputs if isinstance(a, np.ndarray))


@req("GEN_E1")
def test_GEN_E1_a_result_too_large_for_memory_is_refused() -> None:
    column = np.broadcast_to(np.zeros((1, 1), np.float32), (2**31, 1))  # views: no memory of their own
    row = np.broadcast_to(np.zeros((1, 1), np.float32), (1, 2**33))
    with raises_req("GEN_E1") as info:
        sonnx_spec.max(column, row)
    assert info.value.problem == (
        "max: a result of shape (2147483648, 8589934592) and type float32 "
        "does not fit in this machine's memory"
    )
    with raises_req("GEN_E1") as info:
        new_array("test", (2**62, 2**62), np.dtype(np.int8))
    assert info.value.problem == (
        "test: a result of shape (4611686018427387904, 4611686018427387904) and type int8 "
        "does not fit in this machine's memory"
    )


def test_the_package_exports_every_operator_of_the_registry() -> None:
    for op in OPERATORS:
        assert op.name in sonnx_spec.__all__
        assert getattr(sonnx_spec, op.name) is op.function
    assert {tensor_type(op, op.main_type, np.dtype(np.float32)) for op in OPERATORS}


def every_kind(X, *, count, gain, mode, perm, scales, table):
    """X unchanged, whatever its attributes."""
    return X.copy()


EVERY_KIND = {
    "onnx": "EveryKind",
    "version": 1,
    "inputs": (Tensor("X", "x", "T"),),
    "outputs": (Tensor("Y", "y", "T"),),
    "types": {"T": ("float",)},
    "attributes": tuple(
        Attribute(name, name, kind, "T" if kind == "tensor" else None)
        for name, kind in [
            ("count", "int"),
            ("gain", "float"),
            ("mode", "string"),
            ("perm", "ints"),
            ("scales", "floats"),
            ("table", "tensor"),
        ]
    ),
}
GOOD = {
    "count": 2,
    "gain": 0.5,
    "mode": "constant",
    "perm": (1, 0),
    "scales": (0.5, np.float32(2)),
    "table": np.ones(2, np.float32),
}


@req("GEN_C1")
@pytest.mark.parametrize(
    ("name", "bad", "problem"),
    [
        ("count", 2.0, "is a float, not an int"),
        ("count", True, "is a bool, not an int"),
        ("count", "2", "is a str, not an int"),
        ("gain", (0.5,), "is a tuple, not a float"),
        ("mode", b"constant", "is a bytes, not a string"),
        ("mode", 1, "is a int, not a string"),
        ("perm", 1, "is a int, not a list of ints"),
        ("perm", np.array([1, 0]), "is a numpy.ndarray of dtype int64, not a list of ints"),
        ("perm", (1, 0.0), "has a float at position 1, not a list of ints"),
        ("perm", [True], "has a bool at position 0, not a list of ints"),
        ("scales", 0.5, "is a float, not a list of floats"),
        ("scales", ["0.5"], "has a str at position 0, not a list of floats"),
        ("table", 1.0, "is a float, not a numpy array or scalar"),
    ],
)
def test_GEN_C1_an_attribute_of_another_kind_is_refused(name: str, bad: object, problem: str) -> None:
    with registered(every_kind, **EVERY_KIND) as checked:
        X = np.ones(2, np.float32)
        assert checked(X, **GOOD).tolist() == [1.0, 1.0]
        assert checked(X, **{**GOOD, "perm": [np.int64(1)], "scales": [], "count": np.int8(2)}) is not X
        with pytest.raises(SonnxError) as info:
            checked(X, **{**GOOD, name: bad})
    assert info.value.req_id == ("GR2" if name == "table" else "GEN_C1")
    assert info.value.problem == f"every_kind: {'' if name == 'table' else 'attribute '}{name} {problem}"


def test_an_error_says_which_operator_and_which_declared_tensor_it_is_about() -> None:
    X = np.ones(2, np.float32)
    with raises_req("CLIP_C4") as info:  # an operator's own rule, checked from its declared rank
        sonnx_spec.clip(X, np.ones(1, np.float32), np.float32(1))
    assert (info.value.operator, info.value.tensor) == ("clip", "L")
    with raises_req("GR3") as info:  # the variadic X's third tensor is X2, declared X
        sonnx_spec.max(X, X, np.ones(2, np.int8))
    assert (info.value.operator, info.value.tensor) == ("max", "X")


def test_an_attribute_of_an_operator_with_a_variadic_input_is_named_as_itself() -> None:
    def gather_all(*X, axis):
        """Every X, concatenated along axis."""
        return np.concatenate(X, axis=axis)

    fields = {"onnx": "GatherAll", "version": 1, "types": {"T": ("float",)}}
    fields |= {"inputs": (Tensor("X", "inputs", "T", variadic=True),), "outputs": (Tensor("Y", "y", "T"),)}
    with registered(gather_all, attributes=(Attribute("axis", "axis", "int"),), **fields) as checked:
        with raises_req("GEN_C1") as info:
            checked(np.ones(2, np.float32), axis=0.5)
    assert (info.value.operator, info.value.tensor) == ("gather_all", "axis")


@req("GEN_C2")
def test_GEN_C2_a_call_the_declaration_does_not_foresee_is_still_refused_with_the_rule() -> None:
    """The last resort of bind_arguments: a signature at odds with its declaration (here an input Y that
    Abs does not declare) makes Python refuse the call; the refusal is still GEN_C2, not a TypeError."""
    import inspect

    from sonnx_spec.checks import bind_arguments

    def abs_with_two_inputs(X, Y):
        return X

    X = np.ones(2, np.float32)
    signature = inspect.signature(abs_with_two_inputs)
    with raises_req("GEN_C2") as info:
        bind_arguments(sonnx_spec.operators()["abs"], signature, (X,), {})
    assert info.value.problem == "abs: missing a required argument: 'Y'"
    assert info.value.__cause__ is None and info.value.__suppress_context__
