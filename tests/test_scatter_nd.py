"""ScatterND: one test (or more) per rule id, named after it.

The oracle restates ONNX's text in plain Python: for every index of Y, split into its first k components p
and the rest t, the index j of I whose components (a negative one with its axis's dimension added, in
Python integers) equal p gives U's element at (j, t); no such j gives X's element at (p, t). Elements are
compared as bits, so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ALL_AND_BOOL, FLOATS, bits, raises_req, req, tensors, unchanged

from sonnx_spec import scatter_nd
from sonnx_spec.pages.example_language import parse_value

MAX, MIN = 2**63 - 1, -(2**63)


def idx(values: list) -> np.ndarray:
    return np.array(values, np.int64)


def expected_source(X: np.ndarray, I: np.ndarray, index: tuple[int, ...]) -> tuple[str, tuple]:  # noqa: E741
    """Where Y's element at ``index`` comes from: ("U", index) or ("X", index), by ONNX's loop read
    backward (the indices of I as nested Python lists of ints, their batch positions walked one by one)."""
    k = I.shape[-1]
    p, t = index[:k], index[k:]
    for j in itertools.product(*(range(n) for n in I.shape[:-1])):
        components = I.tolist()
        for n in j:
            components = components[n]
        written = tuple(c + X.shape[a] if c < 0 else c for a, c in enumerate(components))
        if written == p:
            return "U", (*j, *t)
    return "X", index


def check(X: np.ndarray, I: object, U: np.ndarray) -> np.ndarray:  # noqa: E741
    """Y against the oracle: X's shape and type, every element's bits from where the oracle says."""
    indices = np.array(I, np.int64)
    inputs = (X, indices, U)
    inputs_unchanged = unchanged(*inputs)
    Y = scatter_nd(*inputs, reduction="none")
    inputs_unchanged()
    assert type(Y) is np.ndarray and Y.shape == X.shape and Y.dtype == X.dtype
    assert not np.shares_memory(Y, X) and not np.shares_memory(Y, U)
    for index in np.ndindex(X.shape):
        tensor, source = expected_source(X, indices, index)
        expected = bits(U)[source] if tensor == "U" else bits(X)[source]
        assert bits(Y)[index] == expected, (index, tensor, source)
    return Y


@st.composite
def scatters(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """X of rank 1 to 3, k from 0 to its rank, distinct slices in any order, each component written
    positive or negative, in a batch of rank 1 or 2, and U of the shape that asks."""
    shape = tuple(draw(st.lists(st.integers(0, 3), min_size=1, max_size=3)))
    X = draw(tensors(dtype, shape))
    k = draw(st.integers(0, len(shape)))
    slices = list(itertools.product(*(range(d) for d in shape[:k])))
    chosen = draw(st.permutations(slices))[: draw(st.integers(0, len(slices)))]
    written = [[c - shape[a] if draw(st.booleans()) else c for a, c in enumerate(p)] for p in chosen]
    batch = draw(st.sampled_from([(len(written),), (1, len(written)), (len(written), 1)]))
    I = np.array(written, np.int64).reshape(*batch, k)  # noqa: E741
    U = draw(tensors(dtype, (*batch, *shape[k:])))
    return X, I, U


@req("SCATTERND_S1", "SCATTERND_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_every_element_from_U_where_I_addresses_it_else_from_X(
    dtype: np.dtype, data: st.DataObject
) -> None:
    check(*data.draw(scatters(dtype)))


@req("SCATTERND_S2")
@ALL_AND_BOOL
def test_S2_onnx_examples_written_out(dtype: np.dtype) -> None:
    def t(values: object) -> np.ndarray:
        values = np.array(values)
        return (values % 2 if dtype == np.bool_ else values).astype(dtype)

    Y = check(t([1, 2, 3, 4, 5, 6, 7, 8]), [[4], [3], [1], [7]], t([9, 10, 11, 12]))
    assert Y.tolist() == t([1, 11, 3, 10, 9, 6, 7, 12]).tolist()  # ONNX's example 1
    block = [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]]
    other = [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]
    fives = [[5] * 4, [6] * 4, [7] * 4, [8] * 4]
    ones = [[1] * 4, [2] * 4, [3] * 4, [4] * 4]
    Y = check(t([block, block, other, other]), [[0], [2]], t([fives, ones]))
    assert Y.tolist() == t([fives, block, ones, other]).tolist()  # ONNX's example 2


@req("SCATTERND_S1")
@pytest.mark.parametrize(
    ("I", "changed"),
    [([[-1]], 4), ([[-5]], 0), ([[4]], 4), ([[0]], 0), ([[-3]], 2)],
)
def test_S1_a_negative_index_counts_from_the_end(I: list, changed: int) -> None:  # noqa: E741
    X = np.array([10, 11, 12, 13, 14], np.int64)
    Y = scatter_nd(X, idx(I), np.array([-1], np.int64), reduction="none")
    assert Y.tolist() == [-1 if n == changed else 10 + n for n in range(5)]


@req("SCATTERND_S2")
@pytest.mark.parametrize(
    ("I", "U", "Y"),
    [
        ([[]], [[7, 8, 9]], [7, 8, 9]),  # k = 0: the one slice is X whole
        (np.zeros((0, 1), np.int64), [], [1, 2, 3]),  # no index: X copied
        ([1], 5, [1, 5, 3]),  # I of rank 1: one index, U 0-d
    ],
)
def test_S2_k_0_no_index_and_one_index(I: object, U: object, Y: list) -> None:  # noqa: E741
    X = np.array([1, 2, 3], np.uint64)
    assert scatter_nd(X, idx(I), np.array(U, np.uint64), reduction="none").tolist() == Y


@req("SCATTERND_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned = np.dtype(f"u{dtype.itemsize}")
    top = 1 << (8 * dtype.itemsize - 1)
    exponent = int(np.array(np.inf, dtype).view(unsigned))
    patterns = [top, exponent | 1, exponent | 3 | top, exponent | (exponent >> 1 & ~exponent) | 1, 1]
    X = np.array(patterns, unsigned).view(dtype)
    U = np.array(patterns[::-1], unsigned).view(dtype)
    Y = scatter_nd(X, idx([[4], [0], [2]]), U[:3], reduction="none")
    assert Y.view(unsigned).tolist() == [patterns[3], patterns[1], patterns[2], patterns[3], patterns[4]]
    assert scatter_nd(X, idx([[]]), U[None], reduction="none").view(unsigned).tolist() == patterns[::-1]


@req("SCATTERND_S2")
@ALL_AND_BOOL
def test_S2_the_extremes_of_each_type_are_copied(dtype: np.dtype) -> None:
    if dtype == np.bool_:
        low, high = False, True
    elif dtype.kind in "iu":
        low, high = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    else:
        low, high = -math.inf, math.inf
    X = np.array([low, low, high], dtype)
    Y = scatter_nd(X, idx([[0], [-1]]), np.array([high, low], dtype), reduction="none")
    assert bits(Y).tolist() == bits(np.array([high, low, low], dtype)).tolist()


@req("SCATTERND_C1")
@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min", "None", "", "NONE"])
def test_C1_a_reduction_other_than_none_is_refused(reduction: str) -> None:
    with raises_req("SCATTERND_C1") as info:
        scatter_nd(np.zeros(3, np.float32), idx([[1]]), np.ones(1, np.float32), reduction=reduction)
    assert info.value.problem == f"scatter_nd: reduction is {reduction!r}; the profile admits 'none' only"


@req("SCATTERND_C2")
@ALL_AND_BOOL
def test_C2_a_0d_X_is_refused(dtype: np.dtype) -> None:
    with raises_req("SCATTERND_C2") as info:
        scatter_nd(np.zeros((), dtype), idx([]), np.zeros((), dtype), reduction="none")
    assert info.value.problem == "scatter_nd: X is 0-d; X has rank 1 or more"


@req("SCATTERND_C3")
def test_C3_a_0d_I_or_k_above_the_rank_of_X_is_refused() -> None:
    X = np.zeros((2, 3), np.int16)
    with raises_req("SCATTERND_C3") as info:
        scatter_nd(X, np.array(0, np.int64), np.zeros((2, 3), np.int16), reduction="none")
    assert info.value.problem == "scatter_nd: I is 0-d; I has rank 1 or more"
    with raises_req("SCATTERND_C3") as info:
        scatter_nd(X, idx([[0, 0, 0]]), np.zeros((1,), np.int16), reduction="none")
    assert info.value.problem == "scatter_nd: I's last dimension is 3, more than X's rank 2"
    assert scatter_nd(X, idx([[1, 2]]), np.ones((1,), np.int16), reduction="none")[1, 2] == 1  # k = r


@req("SCATTERND_C4")
@pytest.mark.parametrize(
    ("I", "U", "wanted"),
    [
        ([[1]], (2,), (1, 3)),
        ([[1]], (3,), (1, 3)),  # U broadcast to the slice: refused too
        ([[1], [0]], (1, 3), (2, 3)),
        ([[1, 2]], (), (1,)),
        ([[]], (2, 3), (1, 2, 3)),
        ([1], (1, 3), (3,)),
    ],
)
def test_C4_U_of_another_shape_is_refused(I: list, U: tuple, wanted: tuple) -> None:  # noqa: E741
    X = np.zeros((2, 3), np.float64)
    indices = idx(I)
    with raises_req("SCATTERND_C4") as info:
        scatter_nd(X, indices, np.zeros(U, np.float64), reduction="none")
    assert info.value.problem == (
        f"scatter_nd: U has shape {U}; I of shape {indices.shape} and X of shape (2, 3) ask {wanted}"
    )


@req("SCATTERND_C5")
@pytest.mark.parametrize(
    ("I", "j", "a", "value"),
    [
        ([[2, 0]], 0, 0, 2),
        ([[0, 3]], 0, 1, 3),
        ([[0, 0], [-3, 0]], 1, 0, -3),
        ([[1, -4]], 0, 1, -4),
        ([[MAX, 0]], 0, 0, MAX),
        ([[0, MIN]], 0, 1, MIN),
    ],
)
def test_C5_an_index_outside_its_axis_is_refused(I: list, j: int, a: int, value: int) -> None:  # noqa: E741
    X = np.zeros((2, 3), np.int8)
    with raises_req("SCATTERND_C5") as info:
        scatter_nd(X, idx(I), np.zeros(len(I), np.int8), reduction="none")
    d = X.shape[a]
    assert info.value.problem == f"scatter_nd: index {j} of I holds {value} for axis {a}, of dimension {d}"
    assert scatter_nd(X, idx([[-2, -3], [1, 2]]), np.ones(2, np.int8), reduction="none").tolist() == [
        [1, 0, 0],
        [0, 0, 1],
    ]  # −d and d − 1 are inside


@req("SCATTERND_C6")
@pytest.mark.parametrize(
    ("I", "U", "slice_"),
    [
        ([[1], [1]], (2, 3), (1,)),
        ([[1], [-1]], (2, 3), (1,)),
        ([[0, 2], [1, 0], [-2, -1]], (3,), (0, 2)),
        ([[], []], (2, 2, 3), ()),
        ([[[0]], [[0]]], (2, 1, 3), (0,)),
    ],
)
def test_C6_a_slice_addressed_twice_is_refused(I: list, U: tuple, slice_: tuple) -> None:  # noqa: E741
    with raises_req("SCATTERND_C6") as info:
        scatter_nd(np.zeros((2, 3), np.uint32), idx(I), np.zeros(U, np.uint32), reduction="none")
    assert info.value.problem == f"scatter_nd: I addresses the slice {slice_} more than once"


@req("SCATTERND_C6")
def test_C6_the_first_index_repeated_is_named() -> None:
    I = idx([[0], [3], [2], [3], [2]])  # noqa: E741
    with raises_req("SCATTERND_C6") as info:
        scatter_nd(np.zeros(5, np.int32), I, np.zeros(5, np.int32), reduction="none")
    assert info.value.problem == "scatter_nd: I addresses the slice (3,) more than once"


def test_Y_is_a_new_array_even_with_no_index() -> None:
    X = np.arange(6, dtype=np.int64)
    Y = scatter_nd(X, np.zeros((0, 1), np.int64), np.zeros(0, np.int64), reduction="none")
    Y[0] = 99
    assert X[0] == 0 and not np.shares_memory(X, Y)


def test_an_example_gives_the_reduction_as_a_string() -> None:
    assert parse_value('"none"') == "none"
