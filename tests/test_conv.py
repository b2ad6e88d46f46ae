"""Conv: one test (or more) per rule id, named after it.

The oracle is independent of the reference's route (the windows family, im2col, numpy's matmul): it walks
every output index, every channel of its group and every kernel position with Python integers, reads X at
o·stride + j·dilation − pad (+0 outside X), and sums the exact products and B's element in
fractions.Fraction, rounded once to the type by MPFR (gmpy2), with IEEE 754's special cases written out
here. CONV_P1, the engines' bound, is checked in exact rationals against simulated engines that sum in
every order the rule admits.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FLOATS, assert_same, ieee_context, raises_req, req, tensors, to_python, unchanged

from sonnx_spec import conv
from sonnx_spec.accuracy import judge
from sonnx_spec.ops.conv import engine_error

NAN, INF = math.nan, math.inf


def attributes(rank: int = 1, **given: object) -> dict:
    """Conv's attributes for ``rank`` spatial axes: a kernel of 1, no padding, strides and dilations of 1,
    one group, unless ``given`` says otherwise."""
    plain = {
        "auto_pad": "NOTSET",
        "dilations": (1,) * rank,
        "group": 1,
        "kernel_shape": (1,) * rank,
        "pads": (0,) * (2 * rank),
        "strides": (1,) * rank,
    }
    return {**plain, **given}


def call(X: np.ndarray, W: np.ndarray, B: np.ndarray, **given: object) -> np.ndarray:
    """Conv with W's kernel shape and the other attributes at their plain values unless ``given``."""
    return conv(X, W, B, **attributes(X.ndim - 2, kernel_shape=W.shape[2:], **given))


# -- the oracle ----------------------------------------------------------------------------------------------


def dot_plus(terms: list[tuple[float, float]], bias: float, dtype: np.dtype) -> float:
    """Σ x·w + bias as CONV_S3 to CONV_S5 define it, for Python floats of ``dtype``."""
    terms = [*terms, (bias, 1.0)]  # the bias is the product bias·1
    special = [x * w for x, w in terms if not (math.isfinite(x) and math.isfinite(w))]  # IEEE's
    if any(math.isnan(p) for p in special) or {INF, -INF} <= set(special):
        return NAN
    if special:
        return special[0]
    exact = sum((Fraction(x) * Fraction(w) for x, w in terms), Fraction(0))
    if exact == 0:
        every_negative = all(math.copysign(1, x) != math.copysign(1, w) for x, w in terms)
        return -0.0 if every_negative else 0.0
    with ieee_context(dtype):
        return float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator)))


def window_terms(
    X: np.ndarray, W: np.ndarray, n: int, m: int, o: tuple[int, ...], a: dict
) -> list[tuple[float, float]]:
    """The (x, w) pairs of Y[n, m, o]: every channel of m's group, every kernel position; +0 where the
    position is in the padding (CONV_S1, CONV_S2)."""
    rank = X.ndim - 2
    per_group = W.shape[0] // a["group"]
    channels = W.shape[1]
    g = m // per_group
    terms = []
    for c in range(channels):
        for j in itertools.product(*(range(k) for k in W.shape[2:])):
            at = [o[i] * a["strides"][i] + j[i] * a["dilations"][i] - a["pads"][i] for i in range(rank)]
            on_x = all(0 <= at[i] < X.shape[2 + i] for i in range(rank))
            x = to_python(X[(n, g * channels + c, *at)]) if on_x else 0.0
            terms.append((x, to_python(W[(m, c, *j)])))
    return terms


def output_shape(X: np.ndarray, W: np.ndarray, a: dict) -> tuple[int, ...]:
    """(N, M, o…), oᵢ = ⌊(dᵢ + bᵢ + eᵢ − (δᵢ(kᵢ − 1) + 1)) / sᵢ⌋ + 1 (CONV_C8)."""
    rank = X.ndim - 2
    spatial = tuple(
        (X.shape[2 + i] + a["pads"][i] + a["pads"][rank + i] - (a["dilations"][i] * (W.shape[2 + i] - 1) + 1))
        // a["strides"][i]
        + 1
        for i in range(rank)
    )
    return (X.shape[0], W.shape[0], *spatial)


def expected(X: np.ndarray, W: np.ndarray, B: np.ndarray, a: dict) -> np.ndarray:
    """Y element by element, by :func:`dot_plus` over the window Python's indexing reads."""
    out = np.empty(output_shape(X, W, a), X.dtype)
    for n, m, *o in np.ndindex(out.shape):
        out[(n, m, *o)] = dot_plus(window_terms(X, W, n, m, tuple(o), a), to_python(B[m]), X.dtype)
    return out


@st.composite
def operands(draw: st.DrawFn, dtype: np.dtype, rank: int | None = None) -> tuple:
    """X, W, B and attributes that fit: 1 to 3 spatial axes, any group, pads up to 2, any values."""
    rank = draw(st.integers(1, 3)) if rank is None else rank
    group, per_group, channels = draw(st.integers(1, 2)), draw(st.integers(0, 2)), draw(st.integers(0, 2))
    batch = draw(st.integers(0, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(rank))
    dilations = tuple(draw(st.integers(1, 2)) for _ in range(rank))
    strides = tuple(draw(st.integers(1, 2)) for _ in range(rank))
    pads = tuple(draw(st.integers(0, 2)) for _ in range(2 * rank))
    spatial = []
    for i in range(rank):  # at least one window (CONV_C9)
        least = max(0, dilations[i] * (kernel[i] - 1) + 1 - pads[i] - pads[rank + i])
        spatial.append(draw(st.integers(least, least + 3)))
    X = draw(tensors(dtype, (batch, group * channels, *spatial)))
    W = draw(tensors(dtype, (group * per_group, channels, *kernel)))
    B = draw(tensors(dtype, (group * per_group,)))
    a = attributes(rank, dilations=dilations, group=group, kernel_shape=kernel, pads=pads, strides=strides)
    return X, W, B, a


def values(dtype: np.dtype, rows: list) -> np.ndarray:
    return np.array(rows, dtype=dtype)


# -- constraints ---------------------------------------------------------------------------------------------


@req("CONV_C1")
@FLOATS
def test_C1_X_has_a_spatial_axis_and_W_its_rank(dtype: np.dtype) -> None:
    B = np.zeros(1, dtype)
    for shape in ((1, 1), (1,), ()):
        with raises_req("CONV_C1") as info:
            conv(np.ones(shape, dtype), np.ones((1, 1, 1), dtype), B, **attributes())
        assert (info.value.operator, info.value.tensor) == ("conv", "X")
        assert info.value.problem == (
            f"conv: X has shape {shape}: a batch, a channel and at least one spatial axis"
        )
    for w in ((1, 1), (1, 1, 1, 1)):
        with raises_req("CONV_C1") as info:
            conv(np.ones((1, 1, 3), dtype), np.ones(w, dtype), B, **attributes())
        assert info.value.tensor == "W"
        assert info.value.problem == f"conv: W has rank {len(w)}, X rank 3: they have the same rank"


@req("CONV_C2")
@pytest.mark.parametrize("name", ["dilations", "kernel_shape", "pads", "strides"])
def test_C2_one_value_per_spatial_axis_two_for_pads(name: str) -> None:
    X, W, B = np.ones((1, 1, 3, 3)), np.ones((1, 1, 1, 1)), np.zeros(1)
    need = 4 if name == "pads" else 2
    for length in (need - 1, need + 1, 0):
        with raises_req("CONV_C2") as info:
            conv(X, W, B, **attributes(2, **{name: (1,) * length}))
        assert info.value.tensor == name
        assert info.value.problem == (f"conv: {name} has {length} values; X's 2 spatial axes need {need}")


@req("CONV_C3")
@pytest.mark.parametrize(
    ("name", "wrong", "least"),
    [
        ("dilations", (0,), 1),
        ("kernel_shape", (0,), 1),
        ("pads", (0, -1), 0),
        ("strides", (-2,), 1),
    ],
)
def test_C3_the_values_domains(name: str, wrong: tuple, least: int) -> None:
    X, W, B = np.ones((1, 1, 3)), np.ones((1, 1, 1)), np.zeros(1)
    with raises_req("CONV_C3") as info:
        conv(X, W, B, **attributes(1, **{name: wrong}))
    assert info.value.tensor == name
    assert info.value.problem == f"conv: {name} is {list(wrong)}: each value is at least {least}"
    conv(X, W, B, **attributes(1, **{name: (least,) * len(wrong) if name != "kernel_shape" else (1,)}))


@req("CONV_C4")
@FLOATS
def test_C4_kernel_shape_is_W_s_spatial_shape(dtype: np.dtype) -> None:
    X, W, B = np.ones((1, 1, 4, 4), dtype), np.ones((1, 1, 2, 3), dtype), np.zeros(1, dtype)
    for kernel in ((3, 2), (2, 2), (1, 3)):
        with raises_req("CONV_C4") as info:
            conv(X, W, B, **attributes(2, kernel_shape=kernel))
        assert info.value.tensor == "kernel_shape"
        assert info.value.problem == f"conv: kernel_shape is {list(kernel)}, W's spatial dimensions [2, 3]"
    assert call(X, W, B).shape == (1, 1, 3, 2)


@req("CONV_C5")
@FLOATS
def test_C5_group_divides_the_channels(dtype: np.dtype) -> None:
    X, B = np.ones((1, 4, 3), dtype), np.zeros(6, dtype)
    for group, w in ((0, (6, 4, 1)), (-1, (6, 4, 1)), (3, (6, 1, 1)), (4, (6, 1, 1)), (5, (6, 1, 1))):
        with raises_req("CONV_C5") as info:
            call(X, np.ones(w, dtype), B, group=group)
        assert info.value.tensor == "group"
        assert info.value.problem == (
            f"conv: group is {group}: it divides X's 4 channels and W's 6 output channels"
        )
    for group, channels in ((1, 2), (2, 1), (2, 4), (1, 3)):
        with raises_req("CONV_C5") as info:
            call(X, np.ones((6, channels, 1), dtype), B, group=group)
        assert info.value.tensor == "W"
        assert info.value.problem == (
            f"conv: W has {channels} input channels per group; X's 4 channels in {group} groups are"
            f" {4 // group}"
        )
    for group in (1, 2):  # any group dividing C and M: 2 is neither standard nor depthwise
        assert call(X, np.ones((6, 4 // group, 1), dtype), B, group=group).shape == (1, 6, 3)


@req("CONV_C6")
@FLOATS
def test_C6_B_has_one_value_per_output_channel(dtype: np.dtype) -> None:
    X, W = np.ones((1, 1, 3), dtype), np.ones((2, 1, 1), dtype)
    for b in ((1,), (3,), (0,)):
        with raises_req("CONV_C6") as info:
            call(X, W, np.zeros(b, dtype))
        assert (info.value.tensor, info.value.problem) == (
            "B",
            f"conv: B has shape {b}; W's 2 output channels need (2,)",
        )
    for b in ((), (2, 1)):
        with raises_req("CONV_C6") as info:
            call(X, W, np.zeros(b, dtype))
        assert info.value.tensor == "B"


@req("CONV_C7")
@pytest.mark.parametrize(
    ("auto_pad", "pads"),
    [("VALID", [0, 0, 0, 0]), ("SAME_UPPER", [0, 1, 1, 1]), ("SAME_LOWER", [1, 1, 0, 1])],
)
def test_C7_auto_pad_is_NOTSET_the_others_named_as_pads(auto_pad: str, pads: list) -> None:
    """X of (5, 6), a (2, 3) kernel, strides (2, 1): SAME pads 1 on the first axis (⌈5/2⌉ = 3 windows), 2
    on the second, the odd one at the end (UPPER) or the beginning (LOWER)."""
    X, W, B = np.ones((1, 1, 5, 6)), np.ones((1, 1, 2, 3)), np.zeros(1)
    with raises_req("CONV_C7") as info:
        call(X, W, B, auto_pad=auto_pad, strides=(2, 1))
    assert info.value.tensor == "auto_pad"
    assert info.value.problem == (
        f"conv: auto_pad is {auto_pad}; the profile takes NOTSET, the padding stated by pads: here"
        f" auto_pad = NOTSET and pads = {pads}"
    )
    Y = call(X, W, B, pads=tuple(pads), strides=(2, 1))  # the rewrite gives ONNX's shapes
    assert Y.shape[2:] == ((2, 4) if auto_pad == "VALID" else (3, 6))


@req("CONV_C7")
@pytest.mark.parametrize("auto_pad", ["", "same_upper", "SAME", "NOTSET "])
def test_C7_other_strings_are_refused(auto_pad: str) -> None:
    with raises_req("CONV_C7") as info:
        call(np.ones((1, 1, 3)), np.ones((1, 1, 1)), np.zeros(1), auto_pad=auto_pad)
    assert (info.value.tensor, info.value.problem) == (
        "auto_pad",
        f"conv: auto_pad is {auto_pad!r}; the profile takes NOTSET",
    )


@req("CONV_C8", "CONV_C10")
@FLOATS
@settings(max_examples=40)
@given(data=st.data())
def test_C8_C10_shape_and_type_of_Y(dtype: np.dtype, data: st.DataObject) -> None:
    X, W, B, a = data.draw(operands(dtype))
    Y = conv(X, W, B, **a)
    assert Y.shape == output_shape(X, W, a) and Y.dtype == dtype


@req("CONV_C8")
def test_C8_the_drafts_figure_shape() -> None:
    """The draft's figure: X (1, 1, 8, 8), W (1, 1, 3, 2), pads (2, 1, 2, 2), dilations (2, 2), strides
    (3, 2). The draft says Y is (1, 1, 4, 4); its own formula (strides C2) gives ⌊(8 + 4 − 5) / 3⌋ + 1 = 3
    and ⌊(8 + 3 − 3) / 2⌋ + 1 = 5, as ONNX's does."""
    X, W, B = np.ones((1, 1, 8, 8), np.float32), np.ones((1, 1, 3, 2), np.float32), np.zeros(1, np.float32)
    Y = call(X, W, B, pads=(2, 1, 2, 2), dilations=(2, 2), strides=(3, 2))
    assert Y.shape == (1, 1, 3, 5)


@req("CONV_C9")
@FLOATS
def test_C9_every_axis_holds_a_window(dtype: np.dtype) -> None:
    X, B = np.ones((1, 1, 3, 4), dtype), np.zeros(1, dtype)
    for kernel, dilations, pads, counts in (
        ((4, 1), (1, 1), (0, 0, 0, 0), (0, 4)),
        ((3, 1), (3, 1), (0, 0, 0, 0), (-3, 4)),
        ((1, 3), (1, 3), (0, 1, 0, 1), (3, 0)),
    ):
        with raises_req("CONV_C9") as info:
            call(X, np.ones((1, 1, *kernel), dtype), B, dilations=dilations, pads=pads)
        assert info.value.tensor == "X"
        assert info.value.problem == (
            f"conv: X's spatial dimensions [3, 4] hold no window on some axis: {counts}"
        )
    # padding that makes room is enough, even with no X at all on the axis
    Y = call(np.ones((1, 1, 0), dtype), np.ones((1, 1, 2), dtype), values(dtype, [7.0]), pads=(1, 1))
    assert_same(Y, values(dtype, [[[7.0]]]))


@req("CONV_C9", "CONV_S2")
@FLOATS
def test_C9_a_window_wholly_in_the_padding_gives_the_bias(dtype: np.dtype) -> None:
    X, W, B = values(dtype, [[[1.0, 2.0, 3.0]]]), values(dtype, [[[1.0]]]), values(dtype, [5.0])
    assert_same(call(X, W, B, pads=(2, 2)), values(dtype, [[[5.0, 5.0, 6.0, 7.0, 8.0, 5.0, 5.0]]]))


# -- semantics -----------------------------------------------------------------------------------------------


@req("CONV_S1", "CONV_S2", "CONV_S3", "CONV_S4", "CONV_S5", "CONV_S6")
@FLOATS
@settings(max_examples=50)
@given(data=st.data())
def test_S1_every_element_is_the_window_s_sum_plus_B_in_every_type(
    dtype: np.dtype, data: st.DataObject
) -> None:
    X, W, B, a = data.draw(operands(dtype))
    inputs_unchanged = unchanged(X, W, B)
    Y = conv(X, W, B, **a)
    inputs_unchanged()
    assert not any(np.shares_memory(Y, T) for T in (X, W, B))
    assert_same(Y, expected(X, W, B, a))


@req("CONV_S1")
@FLOATS
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_S1_small_integers_every_rank_against_the_oracle(dtype: np.dtype, rank: int) -> None:
    """Integers from −4 to 4: every sum exact in every type, so a mistake in an index cannot hide in a
    rounding; two groups of two channels, strides, dilations and uneven pads on every axis."""
    rng = np.random.default_rng(rank)
    spatial = (5, 4, 3)[:rank]
    X = rng.integers(-4, 5, (2, 4, *spatial)).astype(dtype)
    W = rng.integers(-4, 5, (4, 2, *(2,) * rank)).astype(dtype)
    B = rng.integers(-4, 5, 4).astype(dtype)
    a = attributes(
        rank,
        dilations=(2, 1, 1)[:rank],
        group=2,
        kernel_shape=(2,) * rank,
        pads=(1, 0, 2)[:rank] + (0, 2, 1)[:rank],
        strides=(1, 2, 1)[:rank],
    )
    assert_same(conv(X, W, B, **a), expected(X, W, B, a))


@req("CONV_S1")
@FLOATS
def test_S1_the_pages_examples(dtype: np.dtype) -> None:
    X = values(dtype, [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]])
    W, B = values(dtype, [[[[1, 0], [0, -1]]]]), values(dtype, [10])
    assert call(X, W, B).tolist() == [[[[6, 6], [6, 6]]]]
    assert call(X, W, B, pads=(1, 1, 0, 0)).tolist() == [[[[9, 8, 7], [6, 6, 6], [3, 6, 6]]]]
    X = values(dtype, [[[1, 2, 3, 4, 5]]])
    assert call(X, values(dtype, [[[1, 1]]]), values(dtype, [0]), dilations=(2,), strides=(2,)).tolist() == [
        [[4, 8]]
    ]
    X = values(dtype, [[[1, 2, 3], [10, 20, 30]]])  # depthwise: two channels, two groups
    W, B = values(dtype, [[[1, 1]], [[1, -1]]]), values(dtype, [0, 100])
    assert call(X, W, B, group=2).tolist() == [[[3, 5], [90, 90]]]


@req("CONV_S2")
@FLOATS
def test_S2_a_padded_zero_times_an_infinite_weight_is_NaN(dtype: np.dtype) -> None:
    X, W, B = values(dtype, [[[1.0, 2.0, 3.0]]]), values(dtype, [[[INF, 1.0]]]), values(dtype, [0.0])
    assert_same(call(X, W, B, pads=(1, 0)), values(dtype, [[[NAN, INF, INF]]]))
    assert_same(call(X, W, B), values(dtype, [[[INF, INF]]]))  # no padding: no NaN


@req("CONV_S2")
@FLOATS
def test_S2_positions_a_dilation_passes_over_are_not_read(dtype: np.dtype) -> None:
    """ONNX's reference multiplies X by a kernel with zeros inserted, and gives NaN here; the profile
    reads only the kernel's positions."""
    X = values(dtype, [[[1.0, INF, 3.0], [2.0, NAN, -1.0]]])
    W, B = values(dtype, [[[1.0, 1.0], [1.0, 1.0]]]), values(dtype, [0.0])
    assert_same(call(X, W, B, dilations=(2,)), values(dtype, [[[5.0]]]))
    X = values(dtype, [[[1.0, NAN, 2.0, INF, 3.0]]])
    assert_same(
        call(X, values(dtype, [[[1.0, 1.0]]]), B, dilations=(2,), strides=(2,)), values(dtype, [[[3.0, 5.0]]])
    )


@req("CONV_S2", "CONV_S5")
@FLOATS
def test_S2_S5_padded_positions_are_positive_zeros(dtype: np.dtype) -> None:
    """X, W's −1 and B all give −0 products or −0 terms; a window reaching the padding has the term
    +0 × 1 = +0 or +0 × −1 = −0."""
    X, B = values(dtype, [[[-0.0, -0.0]]]), values(dtype, [-0.0])
    assert_same(call(X, values(dtype, [[[1.0, 1.0]]]), B, pads=(1, 1)), values(dtype, [[[0.0, -0.0, 0.0]]]))
    assert_same(
        call(-X, values(dtype, [[[-1.0, -1.0]]]), B, pads=(1, 1)), values(dtype, [[[-0.0, -0.0, -0.0]]])
    )


@req("CONV_S3")
def test_S3_the_cancellation_example_is_exactly_1_in_float32() -> None:
    X = np.array([[[1e8, 1.0, -1e8]]], np.float32)
    Y = call(X, np.ones((1, 1, 3), np.float32), np.zeros(1, np.float32))
    assert Y.tolist() == [[[1.0]]]
    naive = np.float32(0)
    for x in X.ravel():
        naive = np.float32(naive + x)
    assert naive == 0.0  # the sum in float32, left to right, loses the 1


@req("CONV_S3")
@FLOATS
def test_S3_one_rounding_not_two(dtype: np.dtype) -> None:
    """1 + eps/2 is a tie, rounded to 1; with B = eps/4 the exact sum is above it: 1 + eps. Conv without the
    bias, then Add (two roundings) gives 1."""
    eps = float(ml_dtypes.finfo(dtype).eps)
    X, W = values(dtype, [[[1.0, eps / 2]]]), values(dtype, [[[1.0, 1.0]]])
    assert_same(call(X, W, values(dtype, [eps / 4])), values(dtype, [[[1 + eps]]]))
    assert_same(call(X, W, values(dtype, [0.0])), values(dtype, [[[1.0]]]))
    assert_same(call(X, W, values(dtype, [-eps / 4])), values(dtype, [[[1.0]]]))


@req("CONV_S3")
@FLOATS
def test_S3_cancellation_and_subnormal_results(dtype: np.dtype) -> None:
    info = ml_dtypes.finfo(dtype)
    big, tiny, normal = float(info.max) / 4, float(info.smallest_subnormal), float(info.smallest_normal)
    X = values(dtype, [[[big, 1.0, -big], [2.0, tiny, -2.0]]])  # two channels, one window of three
    W = values(dtype, [[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]])
    assert_same(call(X, W, values(dtype, [0.0])), values(dtype, [[[1.0 + tiny]]]))
    X = values(dtype, [[[normal, 3 * tiny, tiny]]])
    W, B = values(dtype, [[[0.5]]]), values(dtype, [0.0])
    # normal/2 exact; 3tiny/2 a tie: to 2tiny (even); tiny/2 a tie: to +0 (even)
    assert_same(call(X, W, B), values(dtype, [[[normal / 2, 2 * tiny, 0.0]]]))
    assert_same(call(X[..., 2:], W, values(dtype, [tiny])), values(dtype, [[[2 * tiny]]]))  # 3tiny/2


@req("CONV_S3")
@FLOATS
def test_S3_overflow_is_decided_by_the_exact_sum(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    X = values(dtype, [[[top, top, -top]]])
    W = values(dtype, [[[1.0, 1.0]]])
    assert_same(call(X, W, values(dtype, [-top])), values(dtype, [[[top, -top]]]))
    assert_same(call(X, W, values(dtype, [0.0])), values(dtype, [[[INF, 0.0]]]))


@req("CONV_S3")
def test_S3_float64_sums_are_exact_beyond_any_double_accumulator() -> None:
    X = np.array([[[1.0, 2.0**-60, 2.0**-120, 2.0**-1074]]])
    assert call(X, np.ones((1, 1, 4)), np.array([-1.0])).tolist() == [[[2.0**-60 + 2.0**-120]]]


@req("CONV_S4")
@FLOATS
@pytest.mark.parametrize(
    ("x", "w", "b", "result"),
    [
        ([1.0, 2.0], [1.0, 1.0], NAN, NAN),
        ([INF, 1.0], [0.0, 5.0], 1.0, NAN),
        ([NAN, 0.0], [0.0, 0.0], 0.0, NAN),
        ([INF, 1.0], [1.0, 1.0], -INF, NAN),
        ([1.0, 2.0], [1.0, 1.0], INF, INF),
        ([INF, 1.0], [-2.0, 3.0], -INF, -INF),
        ([INF, -INF], [-1.0, 1.0], 1.0, -INF),
        ([INF, -INF], [1.0, 1.0], 1.0, NAN),
    ],
)
def test_S4_nan_and_infinities(dtype: np.dtype, x: list, w: list, b: float, result: float) -> None:
    Y = call(values(dtype, [[x]]), values(dtype, [[w]]), values(dtype, [b]))
    assert_same(Y, values(dtype, [[[result]]]))


@req("CONV_S5")
@FLOATS
@pytest.mark.parametrize(
    ("x", "w", "b", "result"),
    [
        ([-0.0, 0.0], [1.0, -1.0], -0.0, -0.0),
        ([-0.0, 0.0], [1.0, -1.0], 0.0, 0.0),
        ([-0.0, 0.0], [1.0, 1.0], -0.0, 0.0),
        ([3.0, -3.0], [1.0, 1.0], -0.0, 0.0),
        ([3.0, 0.0], [1.0, 1.0], -3.0, 0.0),
        ([-1.0, -0.0], [0.0, 2.0], -0.0, -0.0),
    ],
)
def test_S5_the_sign_of_an_exact_zero(dtype: np.dtype, x: list, w: list, b: float, result: float) -> None:
    Y = call(values(dtype, [[x]]), values(dtype, [[w]]), values(dtype, [b]))
    assert_same(Y, values(dtype, [[[result]]]))


@req("CONV_S6")
@FLOATS
def test_S6_no_channel_gives_B_bit_for_bit(dtype: np.dtype) -> None:
    B = values(dtype, [-0.0, NAN, INF, -2.5])
    inputs_unchanged = unchanged(B)
    Y = call(np.ones((2, 0, 3), dtype), np.ones((4, 0, 2), dtype), B)
    inputs_unchanged()
    assert_same(Y, np.broadcast_to(B.reshape(1, 4, 1), (2, 4, 2)).copy())
    assert call(np.ones((0, 1, 3), dtype), np.ones((4, 1, 2), dtype), B).shape == (0, 4, 2)
    assert call(np.ones((1, 1, 3), dtype), np.ones((0, 1, 2), dtype), B[:0]).shape == (1, 0, 2)


@FLOATS
def test_a_result_too_large_for_memory_is_refused(dtype: np.dtype) -> None:
    """2²⁰ inputs of one element and 2³¹ kernels (views: no memory of their own): the im2col product's
    result, (1, 2²⁰, 2³¹), is refused before anything is summed."""
    X = np.broadcast_to(np.ones((1, 1, 1), dtype), (2**20, 1, 1))
    W = np.broadcast_to(np.ones((1, 1, 1), dtype), (2**31, 1, 1))
    B = np.broadcast_to(np.zeros(1, dtype), (2**31,))
    with raises_req("GEN_E1") as info:
        call(X, W, B)
    assert info.value.problem == (
        f"conv: a result of shape (1, 1048576, 2147483648) and type {dtype} does not fit in this machine's"
        " memory"
    )


# -- CONV_P1: the engines' bound -----------------------------------------------------------------------------


def unit(dtype: np.dtype) -> Fraction:
    return Fraction(1, 2 ** (ml_dtypes.finfo(dtype).nmant + 1))


def eta(dtype: np.dtype) -> Fraction:
    return Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal)) / 2


def rule_bound(terms: list[tuple[float, float]], bias: float, dtype: np.dtype) -> Fraction | None:
    """γₙ₊₂·S⁺ + 2(n + 2)·η for finite terms, in exact rationals; None where the rule bounds nothing."""
    n = len(terms)
    magnitudes = sum((abs(Fraction(x) * Fraction(w)) for x, w in terms), abs(Fraction(bias)))
    u = unit(dtype)
    gamma = (n + 2) * u / (1 - (n + 2) * u)
    if 2 * (n + 2) * u > 1 or (1 + gamma) * magnitudes > Fraction(float(ml_dtypes.finfo(dtype).max)):
        return None
    return gamma * magnitudes + 2 * (n + 2) * eta(dtype) if magnitudes else Fraction(0)


def within_bound(terms: list[tuple[float, float]], bias: float, engine: float, dtype: np.dtype) -> bool:
    """CONV_P1 for one element, in exact rationals."""
    if not all(math.isfinite(v) for t in terms for v in t) or not math.isfinite(bias):
        exact = dot_plus(terms, bias, dtype)
        return math.isnan(engine) if math.isnan(exact) else engine == exact
    bound = rule_bound(terms, bias, dtype)
    if bound is None:
        return True
    if not math.isfinite(engine):
        return False
    exact = sum((Fraction(x) * Fraction(w) for x, w in terms), Fraction(bias))
    return abs(Fraction(engine) - exact) <= bound


def engine_sum(
    terms: list[tuple[float, float]], bias: float, dtype: np.dtype, order: list[int], wide: np.dtype
) -> float:
    """An engine the rule admits: products rounded to ``wide``, summed in ``order`` (the bias is position
    len(terms)), each sum rounded to ``wide``, the total rounded once to ``dtype``."""
    total = np.zeros((), wide)[()]
    with np.errstate(all="ignore"):
        for k in order:
            if k == len(terms):
                term = np.array(bias, wide)[()]
            else:
                term = (np.array(terms[k][0], wide) * np.array(terms[k][1], wide))[()]
            total = (np.array(total, wide) + term)[()]
        return float(np.array(total, wide).astype(dtype))


@req("CONV_P1")
@FLOATS
@pytest.mark.parametrize("seed", range(3))
def test_P1_every_admitted_order_and_accumulator_meets_the_bound(dtype: np.dtype, seed: int) -> None:
    rng = random.Random(seed)
    accumulators = [
        t for t in (dtype, np.dtype(np.float32), np.dtype(np.float64)) if t.itemsize >= dtype.itemsize
    ]
    for _ in range(30):
        n = rng.randint(0, 27)  # up to 3 channels of a 3 × 3 kernel
        terms = [
            (
                float(np.array(rng.gauss(0, 1) * 2.0 ** rng.randint(-8, 8), dtype)),
                float(np.array(rng.gauss(0, 1), dtype)),
            )
            for _ in range(n)
        ]
        if n and rng.random() < 0.3:  # padded zeros
            terms[0] = (0.0, terms[0][1])
        bias = float(np.array(rng.gauss(0, 1), dtype))
        if n and rng.random() < 0.5:
            bias = float(np.array(-terms[-1][0] * terms[-1][1], dtype))
        for wide in accumulators:
            for order in (list(range(n + 1)), [n, *range(n)], rng.sample(range(n + 1), n + 1)):
                assert within_bound(terms, bias, engine_sum(terms, bias, dtype, order, wide), dtype)
        assert within_bound(terms, bias, dot_plus(terms, bias, dtype), dtype)  # the reference's result


@req("CONV_P1")
@FLOATS
def test_P1_the_bound_admits_the_naive_sum_of_the_cancellation_and_refuses_more(dtype: np.dtype) -> None:
    big = float(np.array(2.0**10, dtype))
    terms, bias = [(big, 1.0), (1.0, 1.0), (-big, 1.0)], 0.0
    assert within_bound(terms, bias, engine_sum(terms, bias, dtype, [0, 1, 2, 3], dtype), dtype)
    bound = rule_bound(terms, bias, dtype)
    beyond = float(np.array(float(1 + 2 * bound), dtype))
    assert Fraction(beyond) - 1 > bound
    assert not within_bound(terms, bias, beyond, dtype)
    assert not within_bound(terms, bias, NAN, dtype) and not within_bound(terms, bias, INF, dtype)
    assert within_bound([(0.0, 1.0)], -0.0, 0.0, dtype) and within_bound([(0.0, 1.0)], 0.0, -0.0, dtype)
    assert within_bound([(INF, 0.0)], 0.0, NAN, dtype) and not within_bound([(INF, 0.0)], 0.0, 0.0, dtype)


@req("CONV_P1")
@FLOATS
@settings(max_examples=30)
@given(data=st.data())
def test_P1_the_declared_bound_is_at_least_the_rule_s_at_every_element(
    dtype: np.dtype, data: st.DataObject
) -> None:
    """The judge's bound is computed from the inputs alone (it is given no attributes): at every finite
    element it is at least the rule's, computed in exact rationals from the element's own window. (For
    float64, the absolute term 2(n + 2)·η is below float64's smallest subnormal, and Gemm's bound, which
    computes in float64, leaves it out, as its page says.)"""
    X, W, B, a = data.draw(operands(dtype))
    finite = lambda T: np.where(np.isfinite(T.astype(np.float64)), T, 0).astype(dtype)  # noqa: E731
    X, W, B = finite(X), finite(W), finite(B)
    Y = conv(X, W, B, **a)
    error = engine_error(Y, X, W, B)
    assert error.shape == Y.shape and error.dtype == np.float64
    for n, m, *o in np.ndindex(Y.shape):
        terms = window_terms(X, W, n, m, tuple(o), a)
        bound = rule_bound(terms, to_python(B[m]), dtype)
        if bound is None or np.isinf(error[(n, m, *o)]):  # no bound, or the judge's wider one says any value
            continue
        below = 2 * (len(terms) + 2) * eta(dtype) if dtype == np.float64 else 0
        assert Fraction(float(error[(n, m, *o)])) >= bound - below, (n, m, o)


@req("CONV_P1")
@FLOATS
def test_P1_the_judge_names_the_rule_and_finds_results_outside(dtype: np.dtype) -> None:
    rng = np.random.default_rng(3)
    X = rng.integers(-8, 9, (1, 2, 6)).astype(dtype)
    W, B = rng.integers(-8, 9, (2, 2, 3)).astype(dtype), rng.integers(-8, 9, 2).astype(dtype)
    Y = call(X, W, B)
    assert judge("conv", Y, Y, [X, W, B]).verdict == "conforms"
    assert judge("conv", Y, Y, [X, W, B]).rule == "CONV_P1"
    near = np.nextafter(Y, np.array(np.inf, dtype))
    verdict = judge("conv", near, Y, [X, W, B]).verdict
    assert verdict in ("conforms", "undecided")
    far = (Y.astype(np.float64) + 1000).astype(dtype)
    assert judge("conv", far, Y, [X, W, B]).verdict == "outside"


def gemm_bound_of_windows(Y: np.ndarray, X: np.ndarray, W: np.ndarray, B: np.ndarray, a: dict) -> np.ndarray:
    """Gemm's bound (GEMM_P1) of each element's own window, its terms' magnitudes as one row of A."""
    from sonnx_spec.ops.gemm import engine_error as gemm_error

    out = np.empty(Y.shape)
    for n, m, *o in np.ndindex(Y.shape):
        terms = window_terms(X, W, n, m, tuple(o), a)
        row = np.array([[abs(x) for x, _ in terms]])
        column = np.array([[w] for _, w in terms]).reshape(len(terms), 1)
        out[(n, m, *o)] = gemm_error(Y[:1, :1, 0], row, column, np.array([[float(B[m])]]))[0, 0]
    return out


@req("CONV_P1")
@FLOATS
def test_P1_the_declared_bound_is_gemm_s_where_X_s_magnitudes_are_even(dtype: np.dtype) -> None:
    """Where every element of a channel of X has one magnitude and no window reaches the padding, the
    largest magnitude is each window's own: the declared bound is Gemm's bound of each window, exactly
    (small integers times powers of 2: every float64 sum exact). Two groups, two channels each."""
    rng = np.random.default_rng(9)
    scales = 2.0 ** rng.integers(-3, 4, (2, 4, 1))
    X = (scales * rng.choice([-1.0, 1.0], (2, 4, 5))).astype(dtype)
    W, B = rng.integers(-8, 9, (4, 2, 3)).astype(dtype), rng.integers(-8, 9, 4).astype(dtype)
    a = attributes(1, group=2, kernel_shape=(3,), strides=(2,))
    Y = conv(X, W, B, **a)
    assert_same(np.asarray(engine_error(Y, X, W, B)).copy(), gemm_bound_of_windows(Y, X, W, B, a))


@req("CONV_P1")
@FLOATS
def test_P1_non_finite_elements_and_empty_axes_count_as_zero_magnitudes(dtype: np.dtype) -> None:
    """A non-finite element of X makes its elements exact: the bound of the others is that of X with 0 in
    its place. An axis of X without elements (a window in the padding only) has no magnitude at all."""
    X = values(dtype, [[[0.5, 0.25, INF], [0.5, NAN, -INF]]])
    W, B = values(dtype, [[[1.0]], [[2.0]]]), values(dtype, [0.5, -1.0])
    zeros = values(dtype, [[[0.5, 0.25, 0.0], [0.5, 0.0, 0.0]]])
    Y = call(X, W, B, group=2)
    assert_same(np.asarray(engine_error(Y, X, W, B)).copy(), np.asarray(engine_error(Y, zeros, W, B)).copy())
    largest = values(dtype, [[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]])  # each channel's largest finite magnitude
    assert_same(
        np.asarray(engine_error(Y, X, W, B)).copy(),
        gemm_bound_of_windows(Y, largest, W, B, attributes(group=2)),
    )
    empty, one, bias = np.ones((1, 1, 0), dtype), values(dtype, [[[3.0, 3.0]]]), values(dtype, [0.25])
    Y = call(empty, one, bias, pads=(1, 1))
    wanted = gemm_bound_of_windows(Y, empty, one, bias, attributes(kernel_shape=(2,), pads=(1, 1)))
    assert_same(np.asarray(engine_error(Y, empty, one, bias)).copy(), wanted)


@req("CONV_P1")
def test_P1_the_bound_is_any_value_where_terms_are_too_many_or_too_large() -> None:
    b = np.dtype(ml_dtypes.bfloat16)
    for n, finite in ((126, True), (127, False)):  # 2(n + 2)u ≤ 1 up to n = 126 (u = 2⁻⁸)
        X, W, B = np.ones((1, n, 1), b), np.ones((1, n, 1), b), np.ones(1, b)
        assert bool(np.isfinite(engine_error(call(X, W, B), X, W, B)).all()) == finite
    top = float(ml_dtypes.finfo(np.float16).max)
    X, W = np.array([[[top]]], np.float16), np.ones((1, 1, 1), np.float16)
    assert np.isinf(engine_error(call(X, W, np.zeros(1, np.float16)), X, W, np.zeros(1, np.float16))).all()


@req("CONV_P1")
@FLOATS
def test_P1_non_finite_inputs_leave_the_finite_elements_a_bound(dtype: np.dtype) -> None:
    X = values(dtype, [[[1.0, 2.0, 3.0, INF], [1.0, NAN, 1.0, 1.0]]])
    W, B = values(dtype, [[[1.0]], [[1.0]]]), values(dtype, [0.0, 0.0])
    error = engine_error(call(X, W, B, group=2), X, W, B)
    assert np.isfinite(error).all() and (error > 0).all()
    W = values(dtype, [[[INF]], [[1.0]]])
    error = engine_error(call(X, W, B, group=2), X, W, B)
    assert np.isinf(error[0, 0]).all() and np.isfinite(error[0, 1]).all()


# -- in a model ----------------------------------------------------------------------------------------------


def conv_model(with_bias: bool = True, **given: object) -> object:
    """A one-node model: Conv of a (1, 2, 5, 5) input by a (4, 1, 3, 3) weight in 2 groups, opset 22."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    initializers = [numpy_helper.from_array(rng.standard_normal((4, 1, 3, 3)).astype(np.float32), "W")]
    if with_bias:
        initializers.append(numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "B"))
    plain = {
        "auto_pad": "NOTSET",
        "dilations": [1, 1],
        "group": 2,
        "kernel_shape": [3, 3],
        "pads": [1, 1, 1, 1],
        "strides": [2, 2],
    }
    node = helper.make_node("Conv", ["X", "W", "B"] if with_bias else ["X", "W"], ["Y"], **{**plain, **given})
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 2, 5, 5])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 4, 3, 3])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])


@req("CONV_S1", "CONV_C7", "GR4")
def test_in_a_model_conv_runs_and_the_checker_names_the_rule() -> None:
    from onnx import numpy_helper

    from sonnx_spec.models.check import check_model
    from sonnx_spec.models.run import run_model

    model = conv_model()
    assert check_model(model).findings == []
    X = np.random.default_rng(1).standard_normal((1, 2, 5, 5)).astype(np.float32)
    Y = run_model(model, {"X": X})["Y"]
    W, B = (numpy_helper.to_array(t) for t in model.graph.initializer)
    a = attributes(2, group=2, kernel_shape=(3, 3), pads=(1, 1, 1, 1), strides=(2, 2))
    assert_same(Y, expected(X, W, B, a))
    findings = check_model(conv_model(auto_pad="SAME_UPPER")).findings
    assert [f.rule for f in findings if f.rule == "CONV_C7"] == ["CONV_C7"]
    findings = check_model(conv_model(with_bias=False)).findings
    assert "GR4" in [f.rule for f in findings]
