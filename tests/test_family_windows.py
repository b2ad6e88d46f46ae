"""The sliding windows family (Conv, MaxPool…): the windows, their count and the automatic pads, against
oracles written as ONNX's operator definitions state them, one index at a time."""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sonnx_spec.families.windows import (
    AUTO_PADS,
    automatic_pads,
    dilated_size,
    inside,
    output_spatial_shape,
    window_count,
    windows,
)


@st.composite
def geometries(draw: st.DrawFn) -> tuple:
    """A spatial shape of rank 1 to 3 and attributes for which at least one window fits on every axis."""
    rank = draw(st.integers(1, 3))
    sizes, kernels, begins, ends, strides, dilations = [], [], [], [], [], []
    for _ in range(rank):
        kernel, dilation = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        begin, end = draw(st.integers(0, 3)), draw(st.integers(0, 3))
        smallest = max(0, dilated_size(kernel, dilation) - begin - end)
        sizes.append(draw(st.integers(smallest, smallest + 5)))
        kernels.append(kernel)
        begins.append(begin)
        ends.append(end)
        strides.append(draw(st.integers(1, 3)))
        dilations.append(dilation)
    return tuple(sizes), tuple(kernels), (*begins, *ends), tuple(strides), tuple(dilations)


def position_on_x(output: tuple, offset: tuple, begins: tuple, strides: tuple, dilations: tuple) -> tuple:
    """Where a window's position falls on X (unpadded coordinates, possibly outside X)."""
    return tuple(
        o * s + j * d - b for o, j, b, s, d in zip(output, offset, begins, strides, dilations, strict=True)
    )


def test_dilated_size_spans_first_to_last_position() -> None:
    assert [
        dilated_size(1, 1),
        dilated_size(3, 1),
        dilated_size(3, 2),
        dilated_size(2, 4),
        dilated_size(1, 5),
    ] == [1, 3, 5, 5, 1]


def test_window_count_is_the_floor_formula() -> None:
    # size 7, pads 1 and 1, kernel 3, dilation 1: the padded axis has 9 positions, windows start at 0, 2, 4, 6
    assert window_count(7, 3, 1, 1, 2, 1) == 4
    assert window_count(7, 3, 0, 0, 2, 1) == 3  # starts 0, 2, 4 (4 + 3 > 7 excluded)
    assert window_count(5, 3, 0, 0, 1, 2) == 1  # the dilated window spans all 5
    assert window_count(4, 3, 0, 0, 1, 2) == 0  # not one window fits
    assert window_count(10, 1, 0, 0, 4, 1) == 3  # 0, 4, 8


@settings(max_examples=150, deadline=None)
@given(geometries(), st.sampled_from([np.int8, np.uint16, np.float32, ml_dtypes.bfloat16, np.float64]))
def test_each_window_holds_the_elements_at_its_positions(geometry: tuple, dtype: type) -> None:
    sizes, kernels, pads, strides, dilations = geometry
    rank = len(sizes)
    X = (np.arange(2 * 2 * math.prod(sizes)) % 100 + 1).astype(dtype).reshape(2, 2, *sizes)
    before = X.copy()
    fill = dtype(0) if dtype is not ml_dtypes.bfloat16 else ml_dtypes.bfloat16(-1.0)
    got = windows(X, kernels, pads, strides, dilations, fill=fill)
    outputs = output_spatial_shape(sizes, kernels, pads, strides, dilations)
    assert got.shape == (2, 2, *outputs, *kernels) and got.dtype == X.dtype
    for output in itertools.product(*map(range, outputs)):
        for offset in itertools.product(*map(range, kernels)):
            at = position_on_x(output, offset, pads[:rank], strides, dilations)
            on_x = all(0 <= p < n for p, n in zip(at, sizes, strict=True))
            expected = X[(..., *at)] if on_x else np.full((2, 2), fill, dtype)
            assert np.array_equal(got[(..., *output, *offset)], expected)
            assert inside(sizes, kernels, pads, strides, dilations)[(*output, *offset)] == on_x
    assert np.array_equal(X, before)  # X is never written


@settings(max_examples=150, deadline=None)
@given(geometries())
def test_the_window_count_is_the_number_of_window_starts_that_fit(geometry: tuple) -> None:
    sizes, kernels, pads, strides, dilations = geometry
    rank = len(sizes)
    expected = tuple(
        # window starts 0, s, 2s… on the padded axis, while the window's last position stays on it
        len([start for start in range(0, n + b + e, s) if start + dilated_size(k, d) <= n + b + e])
        for n, k, b, e, s, d in zip(sizes, kernels, pads[:rank], pads[rank:], strides, dilations, strict=True)
    )
    assert output_spatial_shape(sizes, kernels, pads, strides, dilations) == expected


def test_valid_pads_nothing() -> None:
    assert automatic_pads("VALID", (5, 6), (2, 3), (1, 2), (1, 1)) == (0, 0, 0, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 12),
    st.integers(1, 4),
    st.integers(1, 4),
    st.integers(1, 3),
    st.sampled_from(["SAME_UPPER", "SAME_LOWER"]),
)
def test_same_gives_ceil_size_over_stride_windows_with_the_fewest_pads_split_evenly(
    size: int, kernel: int, stride: int, dilation: int, mode: str
) -> None:
    begin, end = automatic_pads(mode, (size,), (kernel,), (stride,), (dilation,))
    assert window_count(size, kernel, begin, end, stride, dilation) == -(-size // stride)
    # the fewest: one position less, and there would be fewer windows (or nothing was padded)
    assert begin + end == 0 or window_count(size, kernel, 0, begin + end - 1, stride, dilation) < -(
        -size // stride
    )
    assert (end - begin) == ((begin + end) % 2 if mode == "SAME_UPPER" else -((begin + end) % 2))


def test_same_upper_and_lower_put_the_odd_position_at_opposite_ends() -> None:
    # size 7, kernel 2, stride 2: 4 windows need 8 positions, one pad
    assert automatic_pads("SAME_UPPER", (7, 10), (2, 3), (2, 3), (1, 1)) == (0, 1, 1, 1)
    assert automatic_pads("SAME_LOWER", (7, 10), (2, 3), (2, 3), (1, 1)) == (1, 1, 0, 1)
    assert AUTO_PADS == ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER")


def test_which_positions_lie_on_x_is_a_boolean_array_of_the_windows_shape() -> None:
    on_x = inside((3,), (2,), (1, 0), (1,), (1,))
    assert on_x.dtype == np.bool_ and on_x.shape == (3, 2)
    assert on_x.tolist() == [[False, True], [True, True], [True, True]]


def test_attributes_of_another_length_than_the_spatial_axes_are_an_error_not_a_truncation() -> None:
    # the operators check the lengths against their own rules first; the family never reads a
    # shorter list as if it were complete
    with pytest.raises(ValueError):
        output_spatial_shape((5, 5), (2,), (0, 0, 0, 0), (1, 1), (1, 1))
    with pytest.raises(ValueError):
        automatic_pads("SAME_UPPER", (5, 5), (2, 2), (1,), (1, 1))
    with pytest.raises(ValueError):
        windows(np.zeros((1, 1, 4, 4)), (2, 2), (0, 0, 0, 0), (1, 1), (1,), fill=0.0)
    with pytest.raises(ValueError):
        windows(np.zeros((1, 1, 4, 4)), (2, 2), (0, 0, 0), (1, 1), (1, 1), fill=0.0)
