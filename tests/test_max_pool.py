"""MaxPool: one test (or more) per rule id, named after it.

The oracle restates the rules one window at a time: for each index of Y, the positions o·s + j·dl − b of its
window, those on X kept (the padding is no value), their elements read as Python values; a window holding a
NaN gives its first NaN, bit for bit; any other the greatest value in Max's order (−0 below +0), found with
Python's comparisons. The shape and the automatic pads are written from their formulas, not from the family.
"""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import bits, elements, order_key, raises_req, req, to_python, unchanged

from sonnx_spec import max_pool

TYPES = [np.dtype(t) for t in (np.int8, np.uint8, np.float16, np.float32, np.float64, ml_dtypes.bfloat16)]
EVERY = pytest.mark.parametrize("dtype", TYPES, ids=[t.name for t in TYPES])
FLOATS = pytest.mark.parametrize("dtype", TYPES[2:], ids=[t.name for t in TYPES[2:]])
INTS = pytest.mark.parametrize("dtype", TYPES[:2], ids=[t.name for t in TYPES[:2]])


def call(X: np.ndarray, kernel: list[int], pads: list[int] | None = None, **given: object) -> np.ndarray:
    """max_pool with every attribute given: strides and dilations 1, no padding, unless stated."""
    rank = len(kernel)
    return max_pool(
        X,
        auto_pad=given.get("auto_pad", "NOTSET"),
        ceil_mode=given.get("ceil_mode", 0),
        dilations=tuple(given.get("dilations", (1,) * rank)),
        kernel_shape=tuple(kernel),
        pads=tuple(pads if pads is not None else (0,) * (2 * rank)),
        storage_order=given.get("storage_order", 0),
        strides=tuple(given.get("strides", (1,) * rank)),
    )


def counts(sizes, kernels, pads, strides, dilations) -> tuple[int, ...]:
    """MAXPOOL_S1's formula: ⌊(d + b + e − K) / s⌋ + 1 per axis."""
    rank = len(sizes)
    return tuple(
        (sizes[i] + pads[i] + pads[i + rank] - (dilations[i] * (kernels[i] - 1) + 1)) // strides[i] + 1
        for i in range(rank)
    )


def window(X: np.ndarray, n: int, c: int, o: tuple, kernels, pads, strides, dilations) -> list[np.generic]:
    """The elements of X at the positions of window o that lie on X, in the window's row-major order."""
    rank = len(kernels)
    found = []
    for j in itertools.product(*map(range, kernels)):
        p = tuple(o[i] * strides[i] + j[i] * dilations[i] - pads[i] for i in range(rank))
        if all(0 <= p[i] < X.shape[2 + i] for i in range(rank)):
            found.append(X[(n, c, *p)])
    return found


def winner(values: list[np.generic]) -> np.generic:
    """MAXPOOL_S2 and MAXPOOL_S3 on one window: its first NaN, else its greatest element, −0 below +0."""
    python = [to_python(v) for v in values]
    nans = [v for v, x in zip(values, python, strict=True) if isinstance(x, float) and math.isnan(x)]
    if nans:
        return nans[0]
    best = 0
    for k in range(1, len(values)):
        if order_key(python[k]) > order_key(python[best]):
            best = k
    return values[best]


def expected(X: np.ndarray, kernels, pads, strides, dilations) -> np.ndarray:
    out_shape = (*X.shape[:2], *counts(X.shape[2:], kernels, pads, strides, dilations))
    Y = np.empty(out_shape, X.dtype)
    for index in np.ndindex(out_shape):
        Y[index] = winner(window(X, index[0], index[1], index[2:], kernels, pads, strides, dilations))
    return Y


@st.composite
def geometries(draw: st.DrawFn) -> tuple:
    """Spatial sizes (1 to 3 axes) and attributes meeting MAXPOOL_C2 to MAXPOOL_C11 (each pad below the
    dilated kernel, a window fitting); some windows may lie wholly in the padding (MAXPOOL_C12)."""
    rank = draw(st.integers(1, 3))
    sizes, kernels, begins, ends, strides, dilations = [], [], [], [], [], []
    for _ in range(rank):
        kernel, dilation = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        extent = dilation * (kernel - 1) + 1
        begin, end = draw(st.integers(0, extent - 1)), draw(st.integers(0, extent - 1))
        sizes.append(draw(st.integers(max(0, extent - begin - end), max(0, extent - begin - end) + 4)))
        kernels.append(kernel)
        begins.append(begin)
        ends.append(end)
        strides.append(draw(st.integers(1, 3)))
        dilations.append(dilation)
    return tuple(sizes), tuple(kernels), (*begins, *ends), tuple(strides), tuple(dilations)


def every_window_on_x(sizes, kernels, pads, strides, dilations) -> bool:
    """MAXPOOL_C12, axis by axis: a box has a position on X iff each of its axes has one."""
    rank = len(sizes)
    for i in range(rank):
        for o in range(counts(sizes, kernels, pads, strides, dilations)[i]):
            starts = [o * strides[i] + j * dilations[i] - pads[i] for j in range(kernels[i])]
            if not any(0 <= p < sizes[i] for p in starts):
                return False
    return True


@req("MAXPOOL_S1", "MAXPOOL_S2", "MAXPOOL_S3", "MAXPOOL_P1", "MAXPOOL_C12")
@EVERY
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_S1_S2_S3_P1_C12_every_window_against_the_oracle(dtype: np.dtype, data: st.DataObject) -> None:
    sizes, kernels, pads, strides, dilations = data.draw(geometries())
    shape = (data.draw(st.integers(0, 2)), data.draw(st.integers(1, 2)), *sizes)
    values = data.draw(st.lists(elements(dtype), min_size=math.prod(shape), max_size=math.prod(shape)))
    X = np.array(values, dtype).reshape(shape)
    inputs_unchanged = unchanged(X)
    if not every_window_on_x(sizes, kernels, pads, strides, dilations):
        with raises_req("MAXPOOL_C12"):
            call(X, list(kernels), list(pads), strides=strides, dilations=dilations)
        return
    Y = call(X, list(kernels), list(pads), strides=strides, dilations=dilations)
    inputs_unchanged()
    assert type(Y) is np.ndarray and Y.dtype == dtype and not np.shares_memory(Y, X)
    oracle = expected(X, kernels, pads, strides, dilations)
    assert Y.shape == oracle.shape
    assert np.array_equal(bits(Y), bits(oracle))  # MAXPOOL_P1: bit for bit, the NaN's payload kept


@req("MAXPOOL_S1")
@pytest.mark.parametrize(
    ("shape", "kernel", "pads", "strides", "dilations", "result"),
    [
        ((1, 1, 8, 8), (3, 3), (0, 0, 0, 0), (1, 1), (1, 1), (1, 1, 6, 6)),  # the draft's example
        ((1, 1, 3, 3), (2, 2), (1, 0, 1, 0), (1, 1), (1, 1), (1, 1, 4, 2)),  # float example 2
        ((1, 1, 3, 3), (2, 2), (0, 1, 1, 1), (1, 1), (1, 1), (1, 1, 3, 4)),  # int example 3
        ((2, 3, 7), (3,), (1, 1), (2,), (1,), (2, 3, 4)),
        ((2, 3, 7), (3,), (0, 0), (2,), (1,), (2, 3, 3)),
        ((1, 2, 5), (3,), (0, 0), (1,), (2,), (1, 2, 1)),
        ((1, 1, 10), (1,), (0, 0), (4,), (1,), (1, 1, 3)),
        ((0, 1, 4, 5, 6), (2, 2, 3), (0, 0, 0, 1, 1, 1), (1, 2, 3), (1, 1, 1), (0, 1, 4, 3, 2)),
    ],
)
def test_S1_the_shape_of_Y(shape, kernel, pads, strides, dilations, result) -> None:
    X = np.zeros(shape, np.float32)
    Y = call(X, list(kernel), list(pads), strides=strides, dilations=dilations)
    assert Y.shape == result == (*shape[:2], *counts(shape[2:], kernel, pads, strides, dilations))


@req("MAXPOOL_S2")
@EVERY
def test_S2_the_drafts_integer_examples(dtype: np.dtype) -> None:
    if dtype == np.uint8:  # the draft's example 5
        X = np.array([[[[0, 1, 5], [1, 1, 6], [7, 8, 0]]]], dtype)
        Y = [[[[0, 1, 5, 5], [1, 1, 6, 6], [7, 8, 8, 6], [7, 8, 8, 0]]]]
        assert call(X, [2, 2], [1, 1, 1, 1]).tolist() == Y
        return
    X = np.array([[[[-12, -13, 5], [-14, -15, 6], [7, 8, -1]]]], dtype)  # example 1
    assert call(X, [2, 2]).tolist() == [[[[-12, 6], [8, 8]]]]
    X = np.array([[[[1, 2, 0], [0, 3, 5], [-2, 5, 6]]]], dtype)  # example 3
    assert call(X, [2, 2], [0, 1, 1, 1]).tolist() == [[[[1, 3, 5, 5], [0, 5, 6, 6], [-2, 5, 6, 6]]]]
    if dtype == np.int8:  # example 4: −128 is int8's least value, and the padding never wins
        X = np.array([[[[-128, -127, 5], [-128, -127, 6], [7, 8, -128]]]], dtype)
        Y = [[[[-128, -127, 5, 5], [-128, -127, 6, 6], [7, 8, 8, 6], [7, 8, 8, -128]]]]
        assert call(X, [2, 2], [1, 1, 1, 1]).tolist() == Y


@req("MAXPOOL_S2")
@FLOATS
def test_S2_the_drafts_float_examples(dtype: np.dtype) -> None:
    X = np.array([[[[1.5, 1.25, 2.25], [1.375, 2.0, 3.125], [2.75, 5.75, 3.5]]]], dtype)  # example 1
    assert call(X, [2, 2]).tolist() == [[[[2.0, 3.125], [5.75, 5.75]]]]
    X = np.array([[[[2.5, 0.125, 5.25], [5.75, 3.75, 3.5], [1.5, 4.0, -1.375]]]], dtype)  # example 2
    assert call(X, [2, 2], [1, 0, 1, 0]).tolist() == [[[[2.5, 5.25], [5.75, 5.25], [5.75, 4.0], [4.0, 4.0]]]]
    inf = np.inf
    X = np.array([[[[-inf, -inf, 4.5], [-inf, -inf, 2.5], [2.75, 3.5, 5.25]]]], dtype)  # example 3
    assert call(X, [2, 2]).tolist() == [[[[-inf, 4.5], [3.5, 5.25]]]]
    X = np.array([[[[-inf, 9.5, 4.5], [2.75, 3.5, 2.5], [2.75, 3.5, 5.25]]]], dtype)  # example 4
    Y = [[[[-inf, 9.5, 9.5, 4.5], [2.75, 9.5, 9.5, 4.5], [2.75, 3.5, 5.25, 5.25], [2.75, 3.5, 5.25, 5.25]]]]
    assert call(X, [2, 2], [1, 1, 1, 1]).tolist() == Y


@req("MAXPOOL_S2")
@EVERY
def test_S2_the_padding_never_wins(dtype: np.dtype) -> None:
    low = np.iinfo(dtype).min if dtype.kind in "iu" else -np.inf
    X = np.array([[[low, low, low]]], dtype)
    assert bits(call(X, [2], [1, 1])).tolist() == bits(np.full((1, 1, 4), low, dtype)).tolist()
    X = np.array([[[[low]]]], dtype)
    assert call(X, [3, 2], [2, 1, 0, 0], dilations=[1, 1]).tolist() == [[[[low]]]]


@req("MAXPOOL_S2")
@INTS
def test_S2_integer_extremes(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    X = np.array([[[info.min, info.max, info.max - 1, info.min, info.min + 1]]], dtype)
    assert call(X, [2], [1, 0], strides=[2]).tolist() == [[[info.min, info.max, info.min + 1]]]


@req("MAXPOOL_S2")
@FLOATS
def test_S2_zeros_in_Max_order(dtype: np.dtype) -> None:
    X = np.array([[[-0.0, 0.0, -0.0, -0.0, -1.0, 0.0, -np.inf]]], dtype)
    Y = call(X, [2], [1, 1])
    assert Y.tolist() == [[[-0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, -np.inf]]]
    assert np.signbit(Y).tolist() == [[[True, False, False, True, True, False, False, True]]]


@req("MAXPOOL_S3")
@FLOATS
def test_S3_the_first_NaN_bit_for_bit(dtype: np.dtype) -> None:
    unsigned = np.dtype(f"u{dtype.itemsize}")
    exponent = int(np.array(np.inf, dtype).view(unsigned))
    top = 1 << (8 * dtype.itemsize - 1)
    first, second = exponent | 5, exponent | 3 | top  # two NaNs, of other payloads and signs
    X = np.array([[[1.0, 2.0, 3.0, 4.0, 5.0]]], dtype)
    X.view(unsigned)[0, 0, 1], X.view(unsigned)[0, 0, 3] = first, second
    Y = call(X, [3], [1, 1], dilations=[1])
    assert bits(Y).tolist() == [[[first, first, first, second, second]]]
    Y = call(X, [2], [0, 0], strides=[2], dilations=[2])  # windows {1, 3} and {3, 5}: positions 0, 2 and 2, 4
    assert to_python(Y[0, 0, 0]) == 3.0 and to_python(Y[0, 0, 1]) == 5.0
    inf = np.array([[[np.inf, -np.inf, 0.0]]], dtype)
    inf.view(unsigned)[0, 0, 2] = second
    assert bits(call(inf, [3])).tolist() == [[[second]]]


@req("MAXPOOL_C1")
@pytest.mark.parametrize("shape", [(), (3,), (1, 3), (1, 1, 1, 1, 1, 1)])
def test_C1_X_has_a_batch_a_channel_and_1_to_3_spatial_axes(shape: tuple) -> None:
    rank = max(len(shape) - 2, 1)
    with raises_req("MAXPOOL_C1") as info:
        call(np.ones(shape, np.float32), [1] * rank)
    assert info.value.problem == f"max_pool: X has shape {shape}, not (N, C) and 1 to 3 spatial axes"


@req("MAXPOOL_C1")
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_C1_1_to_3_spatial_axes_are_taken(rank: int) -> None:
    X = np.arange(2 * 3**rank, dtype=np.float32).reshape(1, 2, *(3,) * rank)
    assert call(X, [3] * rank).reshape(-1).tolist() == [3**rank - 1, 2 * 3**rank - 1]


@req("MAXPOOL_C2", "MAXPOOL_C3", "MAXPOOL_C4", "MAXPOOL_C5")
@pytest.mark.parametrize(
    ("rule", "name", "bad"),
    [
        ("MAXPOOL_C2", "kernel", [2]),
        ("MAXPOOL_C2", "kernel", [2, 0]),
        ("MAXPOOL_C2", "kernel", [2, -1]),
        ("MAXPOOL_C2", "kernel", [1, 1, 1]),
        ("MAXPOOL_C3", "strides", [1]),
        ("MAXPOOL_C3", "strides", [0, 1]),
        ("MAXPOOL_C3", "strides", [1, 1, 1]),
        ("MAXPOOL_C4", "dilations", [1]),
        ("MAXPOOL_C4", "dilations", [1, 0]),
        ("MAXPOOL_C4", "dilations", [1, 1, 1]),
        ("MAXPOOL_C5", "pads", [0, 0]),
        ("MAXPOOL_C5", "pads", [0, 0, 0, -1]),
        ("MAXPOOL_C5", "pads", [0, 0, 0, 0, 0, 0]),
    ],
)
def test_C2_C3_C4_C5_one_value_per_spatial_axis(rule: str, name: str, bad: list[int]) -> None:
    X = np.ones((1, 1, 3, 3), np.float32)
    given = {"kernel": [1, 1], "pads": [0, 0, 0, 0], "strides": [1, 1], "dilations": [1, 1], name: bad}
    with raises_req(rule) as info:
        call(X, given["kernel"], given["pads"], strides=given["strides"], dilations=given["dilations"])
    attribute = "kernel_shape" if name == "kernel" else name
    need = "4 values at least 0" if name == "pads" else "2 values at least 1"
    assert info.value.problem == f"max_pool: {attribute} is {tuple(bad)}, not {need}"


@req("MAXPOOL_C6")
@pytest.mark.parametrize("auto_pad", ["", "same_upper", "SAME", "EXPLICIT"])
def test_C6_auto_pad_is_one_of_four(auto_pad: str) -> None:
    with raises_req("MAXPOOL_C6") as info:
        call(np.ones((1, 1, 3), np.float32), [2], auto_pad=auto_pad)
    expected = f"max_pool: auto_pad is {auto_pad!r}, not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER"
    assert info.value.problem == expected


def same_pads(mode: str, size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """MAXPOOL_C7's formula on one axis: t = max(0, (⌈d / s⌉ − 1)·s + K − d), halved."""
    total = max(0, (-(-size // stride) - 1) * stride + dilation * (kernel - 1) + 1 - size)
    small = total // 2
    return (small, total - small) if mode == "SAME_UPPER" else (total - small, small)


@req("MAXPOOL_C7", "MAXPOOL_C6")
@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 3),
    st.integers(1, 3),
    st.integers(1, 2),
    st.sampled_from(["VALID", "SAME_UPPER", "SAME_LOWER"]),
)
def test_C7_auto_pad_stands_for_pads_which_pads_states(
    size: int, kernel: int, stride: int, dilation: int, mode: str
) -> None:
    extent = dilation * (kernel - 1) + 1
    begin, end = (0, 0) if mode == "VALID" else same_pads(mode, size, kernel, stride, dilation)
    X = np.arange(size, dtype=np.float64).reshape(1, 1, size)
    at = {"strides": [stride], "dilations": [dilation]}
    if max(begin, end) >= extent or (mode == "VALID" and size < extent):
        return  # refused by MAXPOOL_C10 or MAXPOOL_C11, tested there
    for other in ((begin + 1, end), (begin, end + 1), (end, begin)):
        if other != (begin, end):
            with raises_req("MAXPOOL_C7"):
                call(X, [kernel], list(other), auto_pad=mode, **at)
    if not every_window_on_x((size,), (kernel,), (begin, end), (stride,), (dilation,)):
        return
    Y = call(X, [kernel], [begin, end], auto_pad=mode, **at)
    assert_same_as_notset = call(X, [kernel], [begin, end], **at)
    assert np.array_equal(Y, assert_same_as_notset)
    if mode != "VALID":
        assert Y.shape[2] == -(-size // stride)  # SAME: ⌈d / s⌉ windows


@req("MAXPOOL_C8")
@pytest.mark.parametrize("ceil_mode", [1, 2, -1])
def test_C8_ceil_mode_is_0(ceil_mode: int) -> None:
    with raises_req("MAXPOOL_C8"):
        call(np.ones((1, 1, 3), np.float32), [2], strides=[2], ceil_mode=ceil_mode)


@req("MAXPOOL_C9")
@pytest.mark.parametrize("storage_order", [1, 2, -1])
def test_C9_storage_order_is_0(storage_order: int) -> None:
    with raises_req("MAXPOOL_C9"):
        call(np.ones((1, 1, 3), np.float32), [2], storage_order=storage_order)


@req("MAXPOOL_C10")
@pytest.mark.parametrize(
    ("kernel", "dilation", "pads", "refused"),
    [
        (2, 1, (2, 0), True),
        (2, 1, (0, 2), True),
        (2, 1, (1, 1), False),
        (2, 2, (2, 2), False),  # the dilated kernel spans 3
        (2, 2, (3, 0), True),
        (1, 1, (0, 1), True),
        (3, 1, (2, 2), False),
    ],
)
def test_C10_each_pad_is_below_the_dilated_kernel(kernel, dilation, pads, refused) -> None:
    X = np.arange(6, dtype=np.int8).reshape(1, 1, 6)
    if refused:
        with raises_req("MAXPOOL_C10"):
            call(X, [kernel], list(pads), dilations=[dilation])
    else:
        assert call(X, [kernel], list(pads), dilations=[dilation]).shape[2] >= 1


@req("MAXPOOL_C10")
@pytest.mark.parametrize(
    ("kernel", "pads", "refused"),
    [
        ((2, 2), (0, 0, 0, 2), True),  # the second axis's end
        ((2, 2), (0, 0, 2, 0), True),  # the first axis's end
        ((2, 2), (0, 2, 0, 0), True),  # the second axis's begin
        ((2, 2), (2, 0, 0, 0), True),  # the first axis's begin
        ((3, 2), (2, 0, 2, 0), False),  # each axis against its own dilated kernel
        ((3, 2), (0, 2, 0, 0), True),
        ((2, 3), (0, 2, 0, 2), False),
    ],
)
def test_C10_each_axis_has_its_own_begin_and_end(kernel, pads, refused) -> None:
    X = np.arange(12, dtype=np.int8).reshape(1, 1, 3, 4)
    if refused:
        with raises_req("MAXPOOL_C10"):
            call(X, list(kernel), list(pads))
    else:
        assert call(X, list(kernel), list(pads)).shape[2:] == (
            3 + pads[0] + pads[2] - kernel[0] + 1,
            4 + pads[1] + pads[3] - kernel[1] + 1,
        )


@req("MAXPOOL_C11")
@pytest.mark.parametrize(
    ("size", "kernel", "dilation", "pads"),
    [(2, 3, 1, (0, 0)), (1, 2, 2, (0, 1)), (0, 1, 1, (0, 0)), (3, 3, 2, (1, 0))],
)
def test_C11_a_window_fits_on_each_axis(size, kernel, dilation, pads) -> None:
    with raises_req("MAXPOOL_C11"):
        call(np.ones((1, 1, size), np.uint8), [kernel], list(pads), dilations=[dilation])
    with raises_req("MAXPOOL_C11"):  # on the second axis only
        call(
            np.ones((1, 1, 3, size), np.uint8), [1, kernel], [0, pads[0], 0, pads[1]], dilations=[1, dilation]
        )


@req("MAXPOOL_C12")
@pytest.mark.parametrize(
    ("size", "kernel", "dilation", "pads", "strides"),
    [
        (2, 2, 3, (1, 1), 1),  # the window {−1, 2} steps over X = {0, 1}
        (0, 3, 1, (1, 2), 1),  # an empty axis: every window in the padding
        (1, 2, 3, (2, 2), 1),  # the first window {−2, 1} steps over X = {0}
    ],
)
def test_C12_every_window_has_a_position_on_X(size, kernel, dilation, pads, strides) -> None:
    with raises_req("MAXPOOL_C12") as info:
        call(np.ones((1, 1, size), np.float16), [kernel], list(pads), dilations=[dilation], strides=[strides])
    assert info.value.problem == "max_pool: a window has no position on X, only padding"


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float32)])
def test_a_result_too_large_for_memory_is_refused(dtype: np.dtype) -> None:
    """X a view of one element as 2²⁰ batches of 2²⁰ channels (no memory of its own): Y, (2²⁰, 2²⁰, 2),
    is refused before any window is read."""
    X = np.broadcast_to(np.ones((1, 1, 2), dtype), (2**20, 2**20, 2))
    with raises_req("GEN_E1") as info:
        call(X, [1])
    assert info.value.problem == (
        f"max_pool: a result of shape (1048576, 1048576, 2) and type {dtype} does not fit in this machine's"
        " memory"
    )
