"""Less: one test (or more) per rule id, named after it.

The oracle is Python's own ``<``: on Python ints it is exact at any size, on
Python floats it is IEEE 754's compareQuietLess (NaN compares false, -0.0 < 0.0
is false). Every SONNX value is exactly a Python int or float (support.to_python).
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
    req,
    shapes,
    tensors,
    to_python,
)

from sonnx_spec import less

BOOL = np.dtype(np.bool_)


def less_oracle(a: int | float, b: int | float) -> bool:
    return a < b


FAMILY_MEMBER = Member(
    oracle=lambda dtype: less_oracle,
    shapes="LESS_C1",
    results=("LESS_C1", "LESS_C2"),
    semantics=("LESS_S1", "LESS_S2"),
)
"""The family's shared tests (tests/test_family_binary.py): shapes, types, every element by the oracle."""


@st.composite
def pairs(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Two tensors of one type and one shape, any values (any bit pattern for floats)."""
    shape = draw(shapes())
    return draw(tensors(dtype, shape)), draw(tensors(dtype, shape))


@req("LESS_S1")
@ALL
def test_S1_the_draft_examples_and_equal_values(dtype: np.dtype) -> None:
    A = np.array([[1, 2], [4, 0], [5, 6]], dtype)
    B = np.array([[3, 2], [4, 1], [5, 4]], dtype)
    assert less(A, B).tolist() == [[True, False], [False, True], [False, False]]
    assert less(B, A).tolist() == [[False, False], [False, False], [False, True]]
    assert not less(A, A).any()


@req("LESS_S1")
@INTS
def test_S1_integer_extremes_compare_exactly(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    low, high = int(info.min), int(info.max)
    A = np.array([low, low, high - 1, high, low + 1, 0], dtype)
    B = np.array([low + 1, high, high, high, low, 0], dtype)
    assert less(A, B).tolist() == [True, True, True, False, False, False]


@req("LESS_S1")
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
    assert less(A, B).tolist() == [True, False, False]


NAN, INF = math.nan, math.inf


@req("LESS_S2")
@FLOATS
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (NAN, 1.0, False),
        (1.0, NAN, False),
        (NAN, NAN, False),
        (NAN, INF, False),
        (-INF, NAN, False),
        (-0.0, 0.0, False),
        (0.0, -0.0, False),
        (-0.0, -0.0, False),
        (-INF, -INF, False),
        (INF, INF, False),
        (-INF, INF, True),
        (-INF, 0.0, True),
        (0.0, INF, True),
        (INF, 0.0, False),
        (-1.0, -0.0, True),
        (0.0, 1.0, True),
    ],
)
def test_S2_IEEE_comparison_of_special_values(dtype: np.dtype, a: float, b: float, expected: bool) -> None:
    C = less(np.array([a], dtype), np.array([b], dtype))
    assert C.tolist() == [expected]


@req("LESS_S2")
@FLOATS
def test_S2_the_draft_example_3_of_infinities_zeros_and_NaN(dtype: np.dtype) -> None:
    row = [-INF, 0.0, INF, NAN]
    A = np.array([a for a in row for _ in row], dtype)
    B = np.array(row * 4, dtype)
    expected = [False, True, True, False] + [False, False, True, False] + [False] * 8
    assert less(A, B).tolist() == expected


@req("LESS_S2")
@FLOATS
def test_S2_subnormals_and_the_extremes_are_ordered(dtype: np.dtype) -> None:
    tiny, high = float(ml_dtypes.finfo(dtype).smallest_subnormal), float(ml_dtypes.finfo(dtype).max)
    A = np.array([0.0, -tiny, tiny, high, -high, high, -INF], dtype)
    B = np.array([tiny, -0.0, 0.0, INF, -high, high, -high], dtype)
    assert less(A, B).tolist() == [True, True, False, True, False, False, True]


@req("LESS_P1")
@ALL
@given(data=st.data())
def test_P1_never_both_and_neither_only_for_equal_or_NaN(dtype: np.dtype, data: st.DataObject) -> None:
    A, B = data.draw(pairs(dtype))
    forward, backward = less(A, B), less(B, A)
    assert not (forward & backward).any()
    for a, b, f, g in zip(
        map(to_python, A.ravel()), map(to_python, B.ravel()), forward.ravel(), backward.ravel(), strict=True
    ):
        neither = not f and not g
        assert neither == (is_nan(a) or is_nan(b) or a == b)
