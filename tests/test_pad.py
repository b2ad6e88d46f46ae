"""Pad: one test (or more) per rule id, named after it.

The oracle restates the rules in plain Python: for every index of Y, the index of X (or V) its element
comes from, computed coordinate by coordinate with Python ints (the reflection, the clamp and the modulo
written out), and the elements compared as bits, so a NaN's payload and a zero's sign are checked too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import (
    ALL_AND_BOOL,
    FLOATS,
    bits,
    elements,
    raises_req,
    req,
    shapes,
    tensors,
    unchanged,
)

from sonnx_spec import pad

MODES = ("constant", "reflect", "edge", "wrap")


def ints(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def coordinate(k: int, d: int, mode: str) -> int | None:
    """PAD_S2, PAD_S3 along one axis: the coordinate of X for k = i − b, None where V goes."""
    if 0 <= k < d:
        return k
    if mode == "constant":
        return None
    if mode == "edge":
        return 0 if k < 0 else d - 1
    if mode == "wrap":
        while k < 0:
            k += d
        while k >= d:
            k -= d
        return k
    k = -k if k < 0 else k  # reflect: about the first element
    return 2 * (d - 1) - k if k > d - 1 else k  # and about the last


def expected(X: np.ndarray, pads: list[int], V: np.ndarray, axes: list[int], mode: str) -> np.ndarray:
    r, n = X.ndim, len(axes)
    before, after = [0] * r, [0] * r
    for j, a in enumerate(axes):
        before[a % r], after[a % r] = pads[j], pads[n + j]
    shape = tuple(d + b + e for d, b, e in zip(X.shape, before, after, strict=True))
    out = np.empty(shape, X.dtype)
    for index in np.ndindex(shape):
        source = [coordinate(i - b, d, mode) for i, b, d in zip(index, before, X.shape, strict=True)]
        out[index] = V if None in source else X[tuple(source)]
    return out


@st.composite
def pads_calls(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, list[int], np.ndarray, list[int], str]:
    """X, pads within the limits of a mode, V, the axes (some negative, any order) and the mode."""
    X = draw(tensors(dtype, draw(shapes(max_dims=3))))
    mode = draw(st.sampled_from(MODES))
    axes = draw(st.permutations(range(X.ndim)))[: draw(st.integers(0, X.ndim))]
    before, after = [], []
    for a in axes:
        d = X.shape[a]
        top = {"constant": 3, "reflect": d - 1, "edge": 3 if d else 0, "wrap": 2 * d + 1 if d else 0}[mode]
        before.append(draw(st.integers(0, max(top, 0))))
        after.append(draw(st.integers(0, max(top, 0))))
    written = [a - X.ndim if draw(st.booleans()) else a for a in axes]
    V = np.array(draw(elements(dtype)), dtype)
    return X, before + after, V, written, mode


@req("PAD_S1", "PAD_S2", "PAD_S3")
@ALL_AND_BOOL
@given(data=st.data())
def test_S1_S2_S3_every_element_from_its_index_in_X_or_V(dtype: np.dtype, data: st.DataObject) -> None:
    X, pads, V, axes, mode = data.draw(pads_calls(dtype))
    inputs_unchanged = unchanged(X, V)
    Y = pad(X, ints(*pads), V, ints(*axes), mode=mode)
    inputs_unchanged()
    want = expected(X, pads, V, axes, mode)
    assert Y.shape == want.shape and Y.dtype == dtype
    assert not np.shares_memory(Y, X) and not np.shares_memory(Y, V)
    assert bits(Y).tolist() == bits(want).tolist()


@req("PAD_S1", "PAD_S2", "PAD_S3")
@pytest.mark.parametrize(
    ("mode", "pads", "axes", "result"),
    [  # ONNX's four examples, written out
        ("constant", [0, 2, 0, 0], [0, 1], [[0, 0, 1, 2], [0, 0, 3, 4], [0, 0, 5, 6]]),
        ("reflect", [0, 1, 0, 1], [0, 1], [[2, 1, 2, 1], [4, 3, 4, 3], [6, 5, 6, 5]]),
        ("edge", [0, 2, 0, 0], [0, 1], [[1, 1, 1, 2], [3, 3, 3, 4], [5, 5, 5, 6]]),
        (
            "wrap",
            [2, 1, 1, 1],
            [0, 1],
            [[4, 3, 4, 3], [6, 5, 6, 5], [2, 1, 2, 1], [4, 3, 4, 3], [6, 5, 6, 5], [2, 1, 2, 1]],
        ),
    ],
)
def test_S1_S2_S3_the_onnx_examples(mode: str, pads: list[int], axes: list[int], result: list) -> None:
    X = np.array([[1, 2], [3, 4], [5, 6]], np.int32)
    Y = pad(X, ints(*pads), np.array(0, np.int32), ints(*axes), mode=mode)
    assert Y.tolist() == result


@req("PAD_S3")
def test_S3_reflect_edge_and_wrap_on_a_line() -> None:
    X = np.array([1, 2, 3], np.int8)
    V = np.array(9, np.int8)
    assert pad(X, ints(2, 2), V, ints(0), mode="reflect").tolist() == [3, 2, 1, 2, 3, 2, 1]
    assert pad(X, ints(1, 2), V, ints(0), mode="edge").tolist() == [1, 1, 2, 3, 3, 3]
    assert pad(X, ints(4, 5), V, ints(0), mode="wrap").tolist() == [3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2]


@req("PAD_S2")
@FLOATS
def test_S2_V_and_X_are_copied_bit_for_bit(dtype: np.dtype) -> None:
    unsigned = np.dtype(f"u{dtype.itemsize}")
    top = 1 << (8 * dtype.itemsize - 1)
    exponent = int(np.array(np.inf, dtype).view(unsigned))
    X = np.array([top, exponent | 1], unsigned).view(dtype)  # −0 and a NaN with a payload
    V = np.array(exponent | 3 | top, unsigned).view(dtype)[()]  # a negative NaN with another payload
    Y = pad(X, ints(1, 1), np.array(V), ints(0), mode="constant")
    assert Y.view(unsigned).tolist() == [exponent | 3 | top, top, exponent | 1, exponent | 3 | top]


@req("PAD_S1")
def test_S1_an_empty_X_and_a_0_d_X() -> None:
    V = np.array(5, np.uint16)
    Y = pad(np.zeros((0, 2), np.uint16), ints(1, 2), V, ints(0), mode="constant")
    assert Y.shape == (3, 2) and Y.tolist() == [[5, 5]] * 3
    assert pad(np.zeros((0, 2), np.uint16), ints(0, 0), V, ints(0), mode="edge").shape == (0, 2)
    Y = pad(np.array(7, np.uint16), ints(), V, ints(), mode="wrap")
    assert Y.shape == () and Y.tolist() == 7


@req("PAD_C1")
@pytest.mark.parametrize("mode", ["CONSTANT", "symmetric", "", "reflect "])
def test_C1_an_unknown_mode_is_refused(mode: str) -> None:
    with raises_req("PAD_C1") as info:
        pad(np.zeros(2, np.int8), ints(1, 1), np.array(0, np.int8), ints(0), mode=mode)
    assert info.value.problem == f"pad: mode is {mode!r}, not one of constant, reflect, edge, wrap"


@req("PAD_C2")
def test_C2_pads_not_twice_the_axes_and_a_rank_other_than_1_are_refused() -> None:
    V = np.array(0, np.int8)
    with raises_req("PAD_C2") as info:
        pad(np.zeros((2, 2), np.int8), ints(1, 1, 1), V, ints(0, 1), mode="constant")
    assert info.value.problem == "pad: P holds 3 values for the 2 axes of A, not 4"
    with raises_req("PAD_C2"):
        pad(np.zeros(2, np.int8), np.array([[1, 1]], np.int64), V, ints(0), mode="constant")
    with raises_req("PAD_C2"):
        pad(np.zeros(2, np.int8), ints(1, 1), V, np.array(0, np.int64), mode="constant")


@req("PAD_C3")
def test_C3_V_of_rank_1_is_refused() -> None:
    with raises_req("PAD_C3"):
        pad(np.zeros(2, np.float32), ints(1, 1), np.zeros(1, np.float32), ints(0), mode="constant")


@req("PAD_C4")
def test_C4_an_axis_outside_X_or_named_twice_is_refused() -> None:
    V = np.array(0, np.int8)
    with raises_req("PAD_C4") as info:
        pad(np.zeros((2, 2), np.int8), ints(1, 1), V, ints(2), mode="constant")
    assert info.value.problem == "pad: A holds 2; X of rank 2 has axes −2 to 1"
    with raises_req("PAD_C4") as info:
        pad(np.zeros((2, 2), np.int8), ints(1, 1, 1, 1), V, ints(1, -1), mode="constant")
    assert info.value.problem == "pad: A = [1, -1] names axis 1 twice"
    with raises_req("PAD_C4"):
        pad(np.zeros((2, 2), np.int8), ints(1, 1), V, ints(-3), mode="edge")


@req("PAD_C5")
@pytest.mark.parametrize("mode", MODES)
def test_C5_a_negative_pad_is_refused(mode: str) -> None:
    with raises_req("PAD_C5") as info:
        pad(np.arange(4, dtype=np.int8), ints(-1, 2), np.array(0, np.int8), ints(0), mode=mode)
    assert info.value.problem == "pad: P = [-1, 2] pads axis 0 by -1 and 2: a pad is 0 or more"


@req("PAD_C6")
def test_C6_pads_a_mode_cannot_fill_are_refused() -> None:
    V = np.array(0, np.int8)
    with raises_req("PAD_C6") as info:
        pad(np.arange(3, dtype=np.int8), ints(3, 0), V, ints(0), mode="reflect")
    assert info.value.problem == "pad: reflect pads axis 0 of dimension 3 by 3 and 0: at most 2"
    with raises_req("PAD_C6"):
        pad(np.arange(1, dtype=np.int8), ints(0, 1), V, ints(0), mode="reflect")
    for mode in ("edge", "wrap", "reflect"):
        with raises_req("PAD_C6"):
            pad(np.zeros((2, 0), np.int8), ints(0, 1), V, ints(1), mode=mode)
    assert pad(np.arange(1, dtype=np.int8), ints(0, 0), V, ints(0), mode="reflect").tolist() == [0]
