"""Equal: one test (or more) per rule id, named after it.

The oracle is Python's own ``==``: on Python ints it is exact at any size, on
Python floats it is IEEE 754's compareQuietEqual (NaN equals nothing, itself
included; -0.0 == 0.0 is true), on Python bools it is the equality of truth
values. Every SONNX value is exactly a Python int or float (support.to_python).
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL,
    FLOATS,
    INTS,
    Member,
    is_nan,
    raises_req,
    req,
    shapes,
    tensors,
    to_python,
    unchanged,
)

from sonnx_spec import equal

BOOL = np.dtype(np.bool_)
ALL_AND_BOOL = pytest.mark.parametrize("dtype", [*ALL.args[1], BOOL], ids=[*ALL.kwargs["ids"], "bool"])


def equal_oracle(a: int | float | bool, b: int | float | bool) -> bool:
    return a == b


FAMILY_MEMBER = Member(
    oracle=lambda dtype: equal_oracle,
    shapes="EQUAL_C1",
    results=("EQUAL_C1", "EQUAL_C2"),
    semantics=("EQUAL_S1", "EQUAL_S2"),
)
"""The family's shared tests (tests/test_family_binary.py): shapes, types, every element by the oracle."""


def python(value: np.generic) -> int | float | bool:
    """The exact value of an element as a Python bool, int or float."""
    return bool(value) if value.dtype == BOOL else to_python(value)


@st.composite
def pairs(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Two tensors of one type and one shape, any values (any bit pattern for floats)."""
    shape = draw(shapes())
    return draw(tensors(dtype, shape)), draw(tensors(dtype, shape))


@req("EQUAL_C1")
@ALL_AND_BOOL
def test_C1_operands_that_broadcast_are_refused(dtype: np.dtype) -> None:
    A, B = np.zeros((2, 2), dtype), np.zeros((2,), dtype)
    inputs_unchanged = unchanged(A, B)
    with raises_req("EQUAL_C1") as info:
        equal(A, B)
    inputs_unchanged()
    assert info.value.problem == "equal: B has shape (2,) but A has shape (2, 2)"


@req("EQUAL_C1", "EQUAL_C2")
@ALL_AND_BOOL
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0), (2, 3)])
def test_C1_C2_a_new_bool_array_of_the_operands_shape(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    A, B = np.zeros(shape, dtype), np.zeros(shape, dtype)
    C = equal(A, B)
    assert type(C) is np.ndarray and C.dtype == BOOL and C.shape == shape
    assert not np.shares_memory(C, A) and not np.shares_memory(C, B)
    assert C.all()


@req("EQUAL_S1")
@ALL
def test_S1_equal_and_unequal_values(dtype: np.dtype) -> None:
    A = np.array([[1, 2], [4, 0], [5, 6]], dtype)
    B = np.array([[3, 2], [4, 1], [5, 4]], dtype)
    assert equal(A, B).tolist() == [[False, True], [True, False], [True, False]]
    assert equal(B, A).tolist() == [[False, True], [True, False], [True, False]]
    assert equal(A, A).all()


@req("EQUAL_S1")
@INTS
def test_S1_integer_extremes_compare_exactly(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    low, high = int(info.min), int(info.max)
    A = np.array([low, low, high - 1, high, low + 1, 0, low], dtype)
    B = np.array([low + 1, high, high, high, low, 0, low], dtype)
    assert equal(A, B).tolist() == [False, False, False, True, False, True, True]


@req("EQUAL_S1")
@pytest.mark.parametrize(
    ("dtype", "a", "b"),
    [
        (np.dtype(np.int64), 2**53, 2**53 + 1),  # equal once both are rounded to float64
        (np.dtype(np.int64), 2**63 - 2, 2**63 - 1),
        (np.dtype(np.int64), -(2**63), -(2**63) + 1),
        (np.dtype(np.uint64), 2**64 - 2, 2**64 - 1),
        (np.dtype(np.uint64), 2**53, 2**53 + 1),
    ],
    ids=["int64-2^53", "int64-max", "int64-min", "uint64-max", "uint64-2^53"],
)
def test_S1_64_bit_integers_never_go_through_floats(dtype: np.dtype, a: int, b: int) -> None:
    assert float(a) == float(b)  # what a comparison through float64 would see
    A, B = np.array([a, b, a], dtype), np.array([b, a, a], dtype)
    assert equal(A, B).tolist() == [False, False, True]


@req("EQUAL_S1")
@INTS
def test_S1_integers_with_the_same_bits_in_another_type_are_not_confused(dtype: np.dtype) -> None:
    # -1 and the largest unsigned value share their bits; within one type they are distinct values
    info = np.iinfo(dtype)
    A = np.array([int(info.max), int(info.min)], dtype)
    B = np.array([int(info.max) - 1 if info.min < 0 else 0, int(info.min)], dtype)
    assert equal(A, B).tolist() == [False, True]


NAN, INF = math.nan, math.inf


@req("EQUAL_S2")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (NAN, 1.0, False),
        (1.0, NAN, False),
        (NAN, NAN, False),
        (NAN, INF, False),
        (-INF, NAN, False),
        (-NAN, NAN, False),
        (-0.0, 0.0, True),
        (0.0, -0.0, True),
        (-0.0, -0.0, True),
        (0.0, 0.0, True),
        (-INF, -INF, True),
        (INF, INF, True),
        (-INF, INF, False),
        (INF, -INF, False),
        (-INF, 0.0, False),
        (0.0, INF, False),
        (-1.0, 1.0, False),
        (1.0, 1.0, True),
    ],
)
def test_S2_IEEE_equality_of_special_values(dtype: np.dtype, a: float, b: float, expected: bool) -> None:
    C = equal(np.array([a], dtype), np.array([b], dtype))
    assert C.tolist() == [expected]


@req("EQUAL_S2")
@FLOATS
def test_S2_infinities_zero_and_NaN_each_against_each(dtype: np.dtype) -> None:
    row = [-INF, 0.0, INF, NAN]
    A = np.array([a for a in row for _ in row], dtype)
    B = np.array(row * 4, dtype)
    expected = [True, False, False, False, False, True, False, False, False, False, True, False]
    assert equal(A, B).tolist() == [*expected, False, False, False, False]


@req("EQUAL_S2")
@FLOATS
def test_S2_every_NaN_bit_pattern_is_unequal_to_itself(dtype: np.dtype) -> None:
    bits = np.dtype(f"u{dtype.itemsize}")
    info = ml_dtypes.finfo(dtype)
    exponent = ((1 << (8 * dtype.itemsize - 1)) - 1) & ~((1 << info.nmant) - 1)  # all exponent bits set
    sign = 1 << (8 * dtype.itemsize - 1)
    patterns = [exponent | 1, exponent | (1 << (info.nmant - 1)), exponent | ((1 << info.nmant) - 1)]
    patterns += [p | sign for p in patterns]
    X = np.array(patterns, bits).view(dtype)
    assert all(math.isnan(to_python(x)) for x in X)
    assert not equal(X, X).any()
    assert not equal(X, X[::-1].copy()).any()


@req("EQUAL_S2")
@FLOATS
def test_S2_subnormals_and_the_extremes(dtype: np.dtype) -> None:
    tiny, high = float(ml_dtypes.finfo(dtype).smallest_subnormal), float(ml_dtypes.finfo(dtype).max)
    A = np.array([0.0, -tiny, tiny, high, -high, high, -INF, tiny], dtype)
    B = np.array([tiny, -0.0, tiny, INF, -high, -high, -high, -tiny], dtype)
    assert equal(A, B).tolist() == [False, False, True, False, True, False, False, False]


@req("EQUAL_S2")
@FLOATS
def test_S2_neighbours_are_unequal(dtype: np.dtype) -> None:
    eps, tiny = float(ml_dtypes.finfo(dtype).eps), float(ml_dtypes.finfo(dtype).smallest_subnormal)
    A = np.array([1.0, 1.0 + eps, -1.0, tiny, 2 * tiny], dtype)
    B = np.array([1.0 + eps, 1.0 + eps, -1.0 - eps, 2 * tiny, tiny], dtype)
    assert [to_python(x) for x in A] == [1.0, 1.0 + eps, -1.0, tiny, 2 * tiny]  # each value exact
    assert equal(A, B).tolist() == [False, True, False, False, False]


@req("EQUAL_S3")
def test_S3_bool_truth_table() -> None:
    A = np.array([True, True, False, False])
    B = np.array([True, False, True, False])
    assert equal(A, B).tolist() == [True, False, False, True]
    assert equal(A.reshape(2, 2), B.reshape(2, 2)).tolist() == [[True, False], [False, True]]


@req("EQUAL_S3")
@given(data=st.data())
def test_S3_bool_is_the_negation_of_exclusive_or(data: st.DataObject) -> None:
    A, B = data.draw(pairs(BOOL))
    inputs_unchanged = unchanged(A, B)
    C = equal(A, B)
    inputs_unchanged()
    assert C.dtype == BOOL and C.shape == A.shape
    for a, b, c in zip(A.ravel().tolist(), B.ravel().tolist(), C.ravel().tolist(), strict=True):
        assert c is (not (a ^ b))


@req("EQUAL_P1")
@ALL_AND_BOOL
@given(data=st.data())
def test_P1_symmetric_and_reflexive_except_for_NaN(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(pairs(dtype))
    forward, backward, itself = equal(A, B), equal(B, A), equal(A, A)
    assert forward.tolist() == backward.tolist()
    for a, f, s, b in zip(A.ravel(), forward.ravel(), itself.ravel(), B.ravel(), strict=True):
        assert s == (not is_nan(python(a)))
        assert f == (python(a) == python(b))
