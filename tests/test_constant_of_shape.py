"""ConstantOfShape: one test (or more) per rule id, named after it.

The oracles restate the rules in plain Python: Y's shape is S's list of integers, and every element of Y,
at every index written out with itertools.product, has the bits of value's one element. Elements are
compared as bits, so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ALL_AND_BOOL, FLOATS, INTS, assert_same, bits, elements, raises_req, req, unchanged

from sonnx_spec import constant_of_shape

BOOL = np.dtype(np.bool_)


def S(*dims: int) -> np.ndarray:
    return np.array(dims, np.int64)


@req("CONSTANTOFSHAPE_S1", "CONSTANTOFSHAPE_S2")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_the_shape_S_lists_and_every_element_a_copy_of_value(
    dtype: np.dtype, data: st.DataObject
) -> None:
    wanted = data.draw(st.lists(st.integers(0, 4), max_size=4))
    one = data.draw(elements(dtype))
    value = np.array(one, dtype).reshape(data.draw(st.sampled_from([(), (1,), (1, 1)])))
    shape_input = S(*wanted)
    inputs_unchanged = unchanged(shape_input, value)
    Y = constant_of_shape(shape_input, value=value)
    inputs_unchanged()
    assert type(Y) is np.ndarray and Y.dtype == dtype and Y.shape == tuple(wanted)
    assert not np.shares_memory(Y, value) and Y.flags.writeable
    pattern = int(bits(np.array([one], dtype))[0])
    for index in itertools.product(*(range(d) for d in wanted)):
        assert int(bits(Y)[index]) == pattern, index


@req("CONSTANTOFSHAPE_S1")
@pytest.mark.parametrize(
    ("wanted", "shape"),
    [
        ([], ()),
        ([3], (3,)),
        ([2, 3], (2, 3)),
        ([0], (0,)),
        ([2, 0, 4], (2, 0, 4)),
        ([1, 1, 1, 1, 1], (1,) * 5),
    ],
)
def test_S1_shapes_written_out(wanted: list[int], shape: tuple) -> None:
    Y = constant_of_shape(S(*wanted), value=np.array([5], np.uint16))
    assert Y.shape == shape and Y.dtype == np.uint16 and Y.size == int(np.prod(shape, dtype=np.int64))


@req("CONSTANTOFSHAPE_S1")
@ALL_AND_BOOL
def test_S1_S_empty_gives_a_0_d_tensor_of_value_s_type(dtype: np.dtype) -> None:
    Y = constant_of_shape(S(), value=np.array([1], dtype))
    assert type(Y) is np.ndarray and Y.shape == () and Y.dtype == dtype and Y[()] == 1


@req("CONSTANTOFSHAPE_S2")
def test_S2_written_out() -> None:
    assert constant_of_shape(S(2, 3), value=np.array([7], np.int8)).tolist() == [[7, 7, 7], [7, 7, 7]]
    assert constant_of_shape(S(2), value=np.array([[True]])).tolist() == [True, True]
    assert constant_of_shape(S(1, 2), value=np.array(-2.5, np.float64)).tolist() == [[-2.5, -2.5]]


@req("CONSTANTOFSHAPE_S2")
@INTS
def test_S2_the_extremes_of_each_integer_type(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    for extreme in (int(info.min), int(info.max), int(info.max) - 1):
        assert constant_of_shape(S(2, 2), value=np.array([extreme], dtype)).tolist() == [[extreme] * 2] * 2


@req("CONSTANTOFSHAPE_S2")
def test_S2_64_bit_values_beyond_float64_are_exact() -> None:
    for dtype, v in ((np.int64, 2**53 + 1), (np.uint64, 2**64 - 1), (np.int64, -(2**63))):
        assert constant_of_shape(S(3), value=np.array([v], dtype)).tolist() == [v, v, v]


@req("CONSTANTOFSHAPE_S2")
@FLOATS
def test_S2_nan_payloads_signed_zeros_and_subnormals_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned = np.dtype(f"u{dtype.itemsize}")
    top = 1 << (8 * dtype.itemsize - 1)
    exponent = int(np.array(np.inf, dtype).view(unsigned))
    patterns = [top, exponent | 1, exponent | 3 | top, 1, exponent, exponent | top]  # −0, NaNs, tiny, ±∞
    for pattern in patterns:
        value = np.array([pattern], unsigned).view(dtype)
        Y = constant_of_shape(S(2, 3), value=value)
        assert Y.view(unsigned).tolist() == [[pattern] * 3] * 2, hex(pattern)
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    assert constant_of_shape(S(1), value=np.array([-tiny], dtype)).tolist() == [-tiny]


@req("CONSTANTOFSHAPE_C1")
@pytest.mark.parametrize("s", [np.array(2, np.int64), np.array([[2, 2]], np.int64)])
def test_C1_S_of_another_rank_is_refused(s: np.ndarray) -> None:
    with raises_req("CONSTANTOFSHAPE_C1"):
        constant_of_shape(s, value=np.array([0], np.int8))


@req("CONSTANTOFSHAPE_C2")
@pytest.mark.parametrize(
    ("wanted", "first"), [([3, -1], -1), ([-2], -2), ([1, -9223372036854775808, -1], -9223372036854775808)]
)
def test_C2_a_negative_dimension_is_refused(wanted: list[int], first: int) -> None:
    with raises_req("CONSTANTOFSHAPE_C2") as info:
        constant_of_shape(S(*wanted), value=np.array([1.0], np.float32))
    assert info.value.problem == f"constant_of_shape: S holds {first}; a dimension is 0 or more"


@req("CONSTANTOFSHAPE_C3")
@pytest.mark.parametrize(("shape", "size"), [((2,), 2), ((0,), 0), ((1, 2), 2), ((3, 1, 1), 3)])
def test_C3_a_value_of_other_than_one_element_is_refused(shape: tuple, size: int) -> None:
    with raises_req("CONSTANTOFSHAPE_C3") as info:
        constant_of_shape(S(2), value=np.zeros(shape, BOOL))
    assert info.value.problem == f"constant_of_shape: value has {size} elements (shape {shape}), not one"


@req("CONSTANTOFSHAPE_C3")
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (1, 1, 1)])
def test_C3_one_element_of_any_rank_is_taken(shape: tuple) -> None:
    value = np.full(shape, 9, np.int32)
    assert_same(constant_of_shape(S(2), value=value), np.array([9, 9], np.int32))


@req("GR4")
def test_GR4_value_is_required_where_ONNX_defaults_to_a_float32_0() -> None:
    with raises_req("GR4") as info:
        constant_of_shape(S(2))
    assert info.value.problem == "constant_of_shape: attribute value is not given"
    with raises_req("GR4"):
        constant_of_shape(S(2), value=None)


@req("GEN_E1")
def test_GEN_E1_a_shape_too_large_for_memory_is_refused() -> None:
    with raises_req("GEN_E1") as info:
        constant_of_shape(S(2**62), value=np.array([0], np.float16))
    assert info.value.problem.startswith("constant_of_shape: a result of shape (4611686018427387904,)")
    with raises_req("GEN_E1"):
        constant_of_shape(S(2**31, 2**31, 2**31), value=np.array([0], np.int8))


def test_Y_is_a_new_array_each_element_its_own() -> None:
    value = np.array([4], np.int64)
    Y = constant_of_shape(S(2, 2), value=value)
    Y[0, 0] = 99
    assert value[0] == 4 and Y.tolist() == [[99, 4], [4, 4]]
