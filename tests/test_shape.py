"""Shape: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: each bound with the rank added where negative, then raised
to 0 and lowered to the rank (written as comparisons, not with min and max), and Y's elements read from
X's shape tuple one axis at a time.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ALL_AND_BOOL, raises_req, req, shapes, unchanged

from sonnx_spec import shape

INT64 = (-(2**63), 2**63 - 1)


def bound(v: int, r: int) -> int:
    """SHAPE_S1 written out."""
    if v < 0:
        v += r
    if v < 0:
        return 0
    if v > r:
        return r
    return v


@req("SHAPE_S1", "SHAPE_S2")
@ALL_AND_BOOL
@given(dims=shapes(max_dims=5), start=st.integers(*INT64), end=st.integers(*INT64), small=st.booleans())
def test_S1_S2_the_dimensions_from_start_to_end(
    dtype: np.dtype, dims: tuple[int, ...], start: int, end: int, small: bool
) -> None:
    if small:  # bounds near the rank, where the clamping matters
        start, end = start % 15 - 7, end % 15 - 7
    X = np.zeros(dims, dtype)
    inputs_unchanged = unchanged(X)
    Y = shape(X, start=start, end=end)
    inputs_unchanged()
    r = len(dims)
    first, last = bound(start, r), bound(end, r)
    expected = [dims[axis] for axis in range(first, last)]
    assert type(Y) is np.ndarray and Y.dtype == np.int64 and Y.ndim == 1
    assert Y.tolist() == expected and not np.shares_memory(Y, X)


@req("SHAPE_S1")
@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (0, 3, [2, 3, 4]),  # the draft's example 1
        (1, 2, [3]),  # its example 2
        (2, 2, []),  # its example 3
        (-500, 2, [2, 3]),  # its example 4
        (0, 1000, [2, 3, 4]),  # its example 5
        (-1, 3, [4]),
        (0, -1, [2, 3]),
        (1, -1, [3]),
        (3, 3, []),
        (4, 9, []),  # a start above the rank is lowered to it
        (0, -4, []),  # an end below −r is raised to 0
        (-3, -2, [2]),
        (2, 1, []),
        (INT64[0], INT64[1], [2, 3, 4]),
    ],
)
def test_S1_bounds_written_out(start: int, end: int, expected: list[int]) -> None:
    assert shape(np.ones((2, 3, 4), np.float32), start=start, end=end).tolist() == expected


@req("SHAPE_S2")
def test_S2_the_elements_are_not_read() -> None:
    nan = np.array([[np.nan, -0.0, np.inf]], np.float16)
    assert shape(nan, start=0, end=2).tolist() == [1, 3]
    assert shape(np.zeros((0, 5, 0), np.bool_), start=0, end=3).tolist() == [0, 5, 0]
    Y = shape(np.int8(7), start=0, end=0)  # a 0-d X: an empty vector
    assert Y.shape == (0,) and Y.dtype == np.int64


@req("GR4")
@pytest.mark.parametrize("left_out", ["start", "end"])
def test_start_and_end_are_required(left_out: str) -> None:
    given_bounds = {"start": 0, "end": 1, left_out: None}
    with raises_req("GR4"):
        shape(np.zeros(3, np.float32), **given_bounds)
