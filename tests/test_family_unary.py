"""The shared tests of the element-wise unary family (Abs, Neg, Relu, Sqrt, LeakyRelu…), written once
and run for every member the registry lists, for every type it takes and every type it does not.

Each member's test module states its exact oracle and the ids these tests prove (``FAMILY_MEMBER``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    Member,
    assert_computes,
    assert_same,
    elementwise,
    family_member,
    proved_in,
    raises_req,
    req,
    scalar,
    shapes,
    tensors,
)

from sonnx_spec import TYPES, Operator
from sonnx_spec.families import UNARY, members
from sonnx_spec.types import type_names

MEMBERS = members(UNARY)


def each_member_and_type(semantics: bool) -> pytest.MarkDecorator:
    """Parametrize ``op``, ``member`` and ``dtype`` over every member and every type it takes, each case
    marked with the ids of the result's shape and type, and with those of its semantics if asked."""

    def marked(member: Member, dtype: np.dtype) -> tuple[str, ...]:
        return member.results + (proved_in(member.semantics, dtype) if semantics else ())

    params = [
        pytest.param(op, member, dtype, id=f"{op.name}-{dtype.name}", marks=req(*marked(member, dtype)))
        for op in MEMBERS
        for member in [family_member(op)]
        for dtype in op.dtypes(op.main_type)
    ]
    return pytest.mark.parametrize(("op", "member", "dtype"), params)


def call(op: Operator, member: Member, X: np.ndarray | np.generic) -> np.ndarray:
    return op.function(X, **member.attributes)


def test_the_family_has_its_members() -> None:
    names = [op.name for op in MEMBERS]  # a new member adds itself: no list here to extend
    assert {"abs", "leaky_relu", "neg", "relu", "sqrt"} <= set(names) and names == sorted(names)


@each_member_and_type(semantics=False)
@given(data=st.data())
def test_the_result_is_a_new_array_of_the_shape_and_type_of_X(
    op: Operator, member: Member, dtype: np.dtype, data: st.DataObject
) -> None:
    (X,) = member.defined(data.draw(tensors(dtype, data.draw(shapes(max_dims=5)))))
    assert_computes(lambda X: call(op, member, X), member.oracle(dtype), dtype, X)


@each_member_and_type(semantics=False)
@pytest.mark.parametrize("value", [-2, 0, 3])
def test_a_numpy_scalar_gives_a_0_d_array_of_its_type(
    op: Operator, member: Member, dtype: np.dtype, value: int
) -> None:
    X = scalar(dtype, value % 256 if dtype.kind == "u" else value)  # -2 is 254 in an unsigned type
    Y = call(op, member, X)
    assert type(Y) is np.ndarray and Y.shape == () and Y.dtype == dtype
    assert_same(Y, elementwise(member.oracle(dtype), dtype, X))


@each_member_and_type(semantics=True)
@given(data=st.data())
def test_each_element_is_the_oracle_of_the_element_of_X_there(
    op: Operator, member: Member, dtype: np.dtype, data: st.DataObject
) -> None:
    (X,) = member.defined(data.draw(tensors(dtype)))
    assert_computes(lambda X: call(op, member, X), member.oracle(dtype), dtype, X)


NOT_TAKEN = [
    pytest.param(op, dtype, id=f"{op.name}-{dtype.name}")
    for op in MEMBERS
    for dtype in TYPES
    if dtype not in op.dtypes(op.main_type)
]


@req("GEN_C1")
@pytest.mark.parametrize(("op", "dtype"), NOT_TAKEN)
def test_the_types_a_member_does_not_take_are_refused(op: Operator, dtype: np.dtype) -> None:
    """Neg and Relu take no unsigned type (ONNX has none), Sqrt and LeakyRelu no integer type."""
    with raises_req("GEN_C1") as info:
        call(op, family_member(op), np.array([0, 1], dtype))
    assert info.value.problem == (
        f"{op.name}: X has element type {dtype}, not one {op.name} takes for X "
        f"({type_names(op.dtypes(op.main_type))})"
    )


@req("GEN_E1")
@pytest.mark.parametrize("op", MEMBERS, ids=[op.name for op in MEMBERS])
def test_a_result_too_large_for_memory_is_refused(op: Operator) -> None:
    dtype = op.dtypes(op.main_type)[-1]
    huge = np.broadcast_to(np.ones((1, 1), dtype), (2**30, 2**30))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        call(op, family_member(op), huge)
    assert info.value.problem.startswith(f"{op.name}: ")
    assert info.value.problem.endswith(" does not fit in this machine's memory")
