"""The general rules, proved once for every operator of the registry and every type it takes.

Each test builds a call every operator accepts (support.sample_call), breaks one
argument, and expects the general rule that argument breaks. The postconditions
GEN_P1 and GEN_P2 are properties of every call, whether it returns or refuses.
"""

from __future__ import annotations

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


@req("GR4")
@each_operator_and_type()
def test_GR4_every_input_and_attribute_must_be_given(op: Operator, dtype: np.dtype) -> None:
    args, kwargs = sample_call(op, dtype)
    for name, position in tensor_positions(op, args, kwargs):
        with raises_req("GR4") as info:
            call_with(op, args, kwargs, position, None)
        assert f"{name} is not given" in str(info.value)
    for attribute in op.attributes:
        with raises_req("GR4"):
            call_with(op, args, kwargs, attribute.name, None)
        without = {k: v for k, v in kwargs.items() if k != attribute.name}
        with pytest.raises(TypeError, match="missing"):  # no default value: Python refuses the call first
            op.function(*args, **without)


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


def _type_of(op: Operator, name: str) -> str:
    """The type of the tensor argument called ``name`` (X1 is of the variadic X's type)."""
    for tensor in op.inputs:
        if name == tensor.name or (tensor.variadic and name.rstrip("0123456789") == tensor.name):
            return tensor.type
    return next(a.type for a in op.attributes if a.name == name and a.type)


@st.composite
def calls(draw: st.DrawFn, op: Operator, dtype: np.dtype) -> tuple[list, dict]:
    """Any call of ``op`` with tensors of one shape (declared ranks kept), any values, any types the
    signature allows: most are accepted, some refused."""
    shape = draw(shapes(max_dims=3))
    args, kwargs = sample_call(op, dtype)

    def draw_like(value: np.ndarray) -> np.ndarray:
        return draw(tensors(value.dtype, shape[: value.ndim] if value.ndim < len(shape) else shape))

    args = [draw_like(a) if a.ndim else draw(tensors(a.dtype, ())) for a in args]
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
    if result is not None:  # GEN_P2
        assert type(result) is np.ndarray
        assert result.flags.writeable
        assert not any(np.shares_memory(result, a) for a in inputs if isinstance(a, np.ndarray))


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
