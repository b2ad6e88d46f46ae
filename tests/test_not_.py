"""Not: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from support import Member, assert_same, raises_req, req, tensors, unchanged

from sonnx_spec import TYPES
from sonnx_spec import not_ as sonnx_not

BOOL = np.dtype(np.bool_)


def not_oracle(x: int | float) -> bool:
    return not x  # Python's: a bool arrives as 0.0 or 1.0 (support.to_python), and not 1.0 is False


FAMILY_MEMBER = Member(oracle=lambda dtype: not_oracle, results=("NOT_C1", "NOT_C2"), semantics=("NOT_S1",))
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def test_the_types_of_not() -> None:
    assert sonnx_not.operator.dtypes(sonnx_not.operator.main_type) == (BOOL,)


@req("NOT_S1")
def test_S1_the_truth_table() -> None:
    X = np.array([False, True])
    inputs_unchanged = unchanged(X)
    Y = sonnx_not(X)
    inputs_unchanged()
    assert Y.dtype == BOOL and Y.tolist() == [True, False]


@req("NOT_S1", "NOT_C1", "NOT_C2")
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1, 1, 1), (2, 3, 4)])
def test_S1_each_element_in_any_shape(shape: tuple[int, ...]) -> None:
    count = int(np.prod(shape))
    X = (np.arange(count) % 3 == 0).reshape(shape)  # true at every third index, written out by hand below
    expected = [i % 3 != 0 for i in range(count)]
    Y = sonnx_not(X)
    assert type(Y) is np.ndarray and Y.shape == shape and Y.dtype == BOOL
    assert Y.ravel().tolist() == expected


@req("NOT_S1")
@pytest.mark.parametrize("value", [False, True])
def test_S1_a_numpy_scalar(value: bool) -> None:
    Y = sonnx_not(np.bool_(value))
    assert type(Y) is np.ndarray and Y.shape == () and bool(Y) is (not value)


@req("NOT_S1")
def test_S1_a_view_with_strides_is_read_element_by_element() -> None:
    X = np.array([[True, False, True], [False, False, True]])[:, ::-2]  # columns 2 and 0
    assert_same(sonnx_not(X), np.array([[False, False], [False, True]]))


@req("NOT_P1")
@given(X=tensors(BOOL))
def test_P1_not_twice_gives_X_back_and_every_element_changes(X: np.ndarray) -> None:
    Y = sonnx_not(X)
    assert not (Y == X).any()
    assert_same(sonnx_not(Y), X)
    assert not np.shares_memory(Y, X)


@req("GEN_C1")
@pytest.mark.parametrize("dtype", TYPES, ids=[t.name for t in TYPES])
def test_no_number_is_read_as_a_truth_value(dtype: np.dtype) -> None:
    """ONNX Not-1 takes bool alone: 0 and 1 of a numeric type are refused, not read as false and true."""
    with raises_req("GEN_C1") as info:
        sonnx_not(np.array([0, 1], dtype))
    assert info.value.problem == f"not_: X has element type {dtype}, not one not_ takes for X (bool)"
