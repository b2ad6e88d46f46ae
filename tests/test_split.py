"""Split: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: the size of each part from n and num_outputs on Python
ints (⌈n / k⌉ as (n + k − 1) // k, the last part what the others leave), and each element of part m
taken from X at the same index moved by m parts along the axis. Elements are compared as
bits, so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ALL_AND_BOOL, FLOATS, bits, copy_patterns, raises_req, req, tensors, unchanged

from sonnx_spec import split
from sonnx_spec.models.check import check_model


def sizes_of(n: int, k: int) -> list[int]:
    """SPLIT_S1 written out: k − 1 parts of the ceiling of n / k, then what they leave."""
    c = (n + k - 1) // k
    return [c] * (k - 1) + [n - (k - 1) * c]


@st.composite
def splits(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, int, int]:
    """X of rank 1 to 3 with a dimension n ≥ 1 at the axis, and a num_outputs whose last part is not
    empty; the axis written as given or counted from the last."""
    rank = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(0, 3), min_size=rank, max_size=rank))
    axis = draw(st.integers(0, rank - 1))
    shape[axis] = draw(st.integers(1, 9))
    n = shape[axis]
    k = draw(st.sampled_from([k for k in range(1, n + 1) if sizes_of(n, k)[-1] >= 1]))
    X = draw(tensors(dtype, tuple(shape)))
    written = axis - rank if draw(st.booleans()) else axis
    return X, written, k


@req("SPLIT_S1", "SPLIT_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_each_part_its_size_and_its_elements_from_X_moved_by_m_parts(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X, written, k = data.draw(splits(dtype))
    axis = written % X.ndim
    inputs_unchanged = unchanged(X)
    Y = split(X, axis=written, num_outputs=k)
    inputs_unchanged()
    sizes = sizes_of(X.shape[axis], k)
    assert type(Y) is tuple and len(Y) == k
    c = sizes[0]
    for m, (part, size) in enumerate(zip(Y, sizes, strict=True)):
        assert part.shape == (*X.shape[:axis], size, *X.shape[axis + 1 :]) and part.dtype == dtype
        assert not np.shares_memory(part, X)
        for index in np.ndindex(part.shape):
            source = list(index)
            source[axis] += m * c
            assert bits(part)[index] == bits(X)[tuple(source)], (m, index)


@req("SPLIT_S1")
@pytest.mark.parametrize(
    ("x", "axis", "k", "shapes"),
    [
        ((6,), 0, 3, [(2,), (2,), (2,)]),  # ONNX's test_split_equal_parts_1d
        ((7,), 0, 4, [(2,), (2,), (2,), (1,)]),  # ONNX's test_split_1d_uneven_split_opset18
        ((2, 8), 1, 3, [(2, 3), (2, 3), (2, 2)]),  # its 2d uneven split
        ((8,), 0, 3, [(3,), (3,), (2,)]),
        ((5,), 0, 1, [(5,)]),
        ((5,), 0, 5, [(1,)] * 5),
        ((2, 6), -1, 2, [(2, 3), (2, 3)]),
        ((4, 3), -2, 2, [(2, 3), (2, 3)]),
        ((0, 4), 1, 2, [(0, 2), (0, 2)]),  # empty away from the axis
        ((3, 2, 5), 2, 2, [(3, 2, 3), (3, 2, 2)]),
    ],
)
def test_S1_shapes_written_out(x: tuple, axis: int, k: int, shapes: list[tuple]) -> None:
    assert [y.shape for y in split(np.zeros(x, np.float32), axis=axis, num_outputs=k)] == shapes


@req("SPLIT_S2")
def test_S2_values_written_out() -> None:
    X = np.arange(16, dtype=np.int32).reshape(2, 8)
    Y0, Y1, Y2 = split(X, axis=1, num_outputs=3)
    assert Y0.tolist() == [[0, 1, 2], [8, 9, 10]]
    assert Y1.tolist() == [[3, 4, 5], [11, 12, 13]]
    assert Y2.tolist() == [[6, 7], [14, 15]]
    top, bottom = split(np.array([[-128, 127], [0, -1]], np.int8), axis=-2, num_outputs=2)
    assert top.tolist() == [[-128, 127]] and bottom.tolist() == [[0, -1]]


@req("SPLIT_S2")
@FLOATS
def test_S2_nan_payloads_and_signed_zeros_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned, patterns = copy_patterns(dtype)
    X = np.array(patterns, unsigned).view(dtype)  # −0, NaN payloads, a subnormal, +0
    Y = split(X, axis=0, num_outputs=3)
    assert [y.view(unsigned).tolist() for y in Y] == [patterns[0:2], patterns[2:4], patterns[4:6]]


@req("SPLIT_C1")
@pytest.mark.parametrize(("x", "axis"), [((6,), 1), ((6,), -2), ((2, 3), 2), ((2, 3), -3), ((), 0)])
def test_C1_an_axis_X_does_not_have_is_refused(x: tuple, axis: int) -> None:
    with raises_req("SPLIT_C1") as info:
        split(np.zeros(x, np.uint8), axis=axis, num_outputs=1)
    r = len(x)
    assert info.value.problem == f"split: axis is {axis}; X of rank {r} has axes −{r} to {r - 1}"


@req("SPLIT_C2")
@pytest.mark.parametrize("k", [0, -1, -(2**63)])
def test_C2_num_outputs_below_1_is_refused(k: int) -> None:
    with raises_req("SPLIT_C2") as info:
        split(np.zeros(6, np.float64), axis=0, num_outputs=k)
    assert info.value.problem == f"split: num_outputs is {k}, not 1 or more"


@req("SPLIT_C3")
@pytest.mark.parametrize(
    ("x", "axis", "k", "problem"),
    [
        ((4,), 0, 3, "4 elements along axis 0 in 3 parts of 2 leave 0 for the last part"),
        ((5,), 0, 4, "5 elements along axis 0 in 4 parts of 2 leave −1 for the last part"),
        ((2,), 0, 4, "2 elements along axis 0 in 4 parts of 1 leave −1 for the last part"),
        ((3, 0), -1, 2, "0 elements along axis 1 in 2 parts of 0 leave 0 for the last part"),
        ((0,), 0, 1, "0 elements along axis 0 in 1 parts of 0 leave 0 for the last part"),
    ],
)
def test_C3_a_last_part_with_no_element_is_refused(x: tuple, axis: int, k: int, problem: str) -> None:
    with raises_req("SPLIT_C3") as info:
        split(np.zeros(x, np.int16), axis=axis, num_outputs=k)
    assert info.value.problem == f"split: {problem.replace('−', '-')}; every part holds at least one"


@req("SPLIT_C2", "MODEL_R1")
def test_C2_in_a_model_the_node_has_num_outputs_outputs() -> None:
    from onnx import TensorProto, helper

    node = helper.make_node("Split", ["x"], ["y0", "y1"], axis=0, num_outputs=3)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6])],
        [helper.make_tensor_value_info(f"y{m}", TensorProto.FLOAT, None) for m in range(2)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    messages = [f.message for f in check_model(model).findings if f.rule == "MODEL_R1"]
    assert "the node lists 2 outputs; Split gives 3 here" in messages


def test_every_part_is_a_new_array() -> None:
    X = np.arange(4, dtype=np.int64)
    Y0, Y1 = split(X, axis=0, num_outputs=2)
    Y0[0] = 99
    assert X[0] == 0 and not np.shares_memory(X, Y0) and not np.shares_memory(X, Y1)
