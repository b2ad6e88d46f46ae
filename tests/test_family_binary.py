"""The shared tests of the two-operand element-wise families (binary arithmetic: Add, Sub, Mul, Div, …;
comparison: Less…), written once and run for every member the registry lists, for every type.

Each member's test module states its exact oracle, the ids these tests prove and the attributes of a call
(``FAMILY_MEMBER``).
"""

from __future__ import annotations

from functools import partial

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
    same_shape_pair,
    scalar,
    tensor_type,
    unchanged,
)

from sonnx_spec import Operator
from sonnx_spec.families import BINARY_ARITHMETIC, COMPARISON, members

MEMBERS = members(BINARY_ARITHMETIC) + members(COMPARISON)


def each_member_and_type(ids: str) -> pytest.MarkDecorator:
    """Parametrize ``op``, ``member`` and ``dtype`` over every member and type, each case marked with the
    ids ``ids`` names in the member's statement ("shapes", "results" or "semantics")."""

    def marked(member: Member, dtype: np.dtype) -> tuple[str, ...]:
        if ids == "semantics":
            return member.results + proved_in(member.semantics, dtype)
        return (getattr(member, ids),) if ids == "shapes" else member.results

    params = [
        pytest.param(op, member, dtype, id=f"{op.name}-{dtype.name}", marks=req(*marked(member, dtype)))
        for op in MEMBERS
        for member in [family_member(op)]
        for dtype in op.dtypes(op.main_type)
    ]
    return pytest.mark.parametrize(("op", "member", "dtype"), params)


def result_type(op: Operator, dtype: np.dtype) -> np.dtype:
    """The type of the result: the operands' own, or bool for a comparison."""
    return tensor_type(op, op.outputs[0].type, dtype)


def test_the_families_have_their_members() -> None:
    arithmetic = [op.name for op in members(BINARY_ARITHMETIC)]  # a new member adds itself: no list here
    assert {"add", "div", "mul", "sub"} <= set(arithmetic) and arithmetic == sorted(arithmetic)
    names = [op.name for op in members(COMPARISON)]
    assert "less" in names and names == sorted(names)


@each_member_and_type("shapes")
@pytest.mark.parametrize(
    ("shape_a", "shape_b"),
    [
        ((3,), (1,)),
        ((2, 3), (3,)),
        ((3, 1), (3,)),
        ((2, 3), (3, 2)),
        ((2, 1), (1, 2)),
        ((2, 2), (2, 2, 1)),
        ((), (1,)),
        ((2,), ()),
        ((0,), (1,)),
        ((2,), (3,)),
    ],
)
def test_operands_of_different_shapes_are_refused_even_if_they_broadcast(
    op: Operator, member: Member, dtype: np.dtype, shape_a: tuple[int, ...], shape_b: tuple[int, ...]
) -> None:
    A, B = np.ones(shape_a, dtype), np.ones(shape_b, dtype)
    inputs_unchanged = unchanged(A, B)
    with raises_req(member.shapes) as info:
        op.function(A, B, **member.attributes)
    inputs_unchanged()
    assert info.value.problem == f"{op.name}: B has shape {shape_b} but A has shape {shape_a}"
    with raises_req(member.shapes) as info:
        op.function(B, A, **member.attributes)
    assert info.value.problem == f"{op.name}: B has shape {shape_a} but A has shape {shape_b}"


@each_member_and_type("shapes")
def test_a_numpy_scalar_is_of_shape_empty(op: Operator, member: Member, dtype: np.dtype) -> None:
    with raises_req(member.shapes) as info:
        op.function(scalar(dtype, 1), np.ones((1,), dtype), **member.attributes)
    assert info.value.problem == f"{op.name}: B has shape (1,) but A has shape ()"
    with raises_req(member.shapes) as info:
        op.function(np.ones((1, 1), dtype), scalar(dtype, 1), **member.attributes)
    assert info.value.problem == f"{op.name}: B has shape () but A has shape (1, 1)"


@each_member_and_type("results")
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0, 3), (2, 3), (1, 1, 1, 1, 1, 2)])
def test_the_result_is_a_new_array_of_the_operands_shape(
    op: Operator, member: Member, dtype: np.dtype, shape: tuple[int, ...]
) -> None:
    A, B = np.full(shape, 3, dtype), np.ones(shape, dtype)
    call = partial(op.function, **member.attributes)
    assert_computes(call, member.oracle(dtype), result_type(op, dtype), A, B)


@each_member_and_type("results")
def test_two_numpy_scalars_give_a_0_d_array(op: Operator, member: Member, dtype: np.dtype) -> None:
    for a, b in ((6, 3), (3, 6)):
        A, B = scalar(dtype, a), scalar(dtype, b)
        C = op.function(A, B, **member.attributes)
        assert type(C) is np.ndarray and C.shape == () and C.dtype == result_type(op, dtype)
        assert_same(C, elementwise(member.oracle(dtype), result_type(op, dtype), A, B))


@each_member_and_type("semantics")
@given(data=st.data())
def test_each_element_is_the_oracle_of_the_operands_there(
    op: Operator, member: Member, dtype: np.dtype, data: st.DataObject
) -> None:
    A, B = member.defined(*data.draw(same_shape_pair(dtype)))
    call = partial(op.function, **member.attributes)
    assert_computes(call, member.oracle(dtype), result_type(op, dtype), A, B)


@req("GEN_E1")
@pytest.mark.parametrize("op", MEMBERS, ids=[op.name for op in MEMBERS])
@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float32)], ids=["int8", "float32"])
def test_a_result_too_large_for_memory_is_refused(op: Operator, dtype: np.dtype) -> None:
    huge = np.broadcast_to(np.ones((1, 1), dtype), (2**30, 2**30))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        op.function(huge, huge, **family_member(op).attributes)
    assert info.value.problem == (
        f"{op.name}: a result of shape (1073741824, 1073741824) and type {result_type(op, dtype)} "
        "does not fit in this machine's memory"
    )
