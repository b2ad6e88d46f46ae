"""Identity: one test (or more) per requirement id, named after it."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ALL, FLOATS, INTS, Member, raises_req, req, tensors, unchanged

from sonnx_spec import TYPES
from sonnx_spec import identity as sonnx_identity

BOOL = np.dtype(np.bool_)
IDENTITY_TYPES = [*TYPES, BOOL]
EVERY = pytest.mark.parametrize("dtype", IDENTITY_TYPES, ids=[t.name for t in IDENTITY_TYPES])


def identity_oracle(x: int | float) -> int | float:
    return x  # the value itself; the bits (NaN payloads) are checked by IDENTITY_S2's tests


FAMILY_MEMBER = Member(
    oracle=lambda dtype: identity_oracle, results=("IDENTITY_C1", "IDENTITY_C2"), semantics=("IDENTITY_S1",)
)
"""The family's shared tests (tests/test_family_unary.py): shapes, types, every element by the oracle."""


def bits_of(X: np.ndarray) -> np.ndarray:
    return np.asarray(X).view(np.dtype(f"u{X.dtype.itemsize}"))


def test_the_types_of_identity() -> None:
    assert list(sonnx_identity.operator.dtypes(sonnx_identity.operator.main_type)) == IDENTITY_TYPES


@req("IDENTITY_S1")
@INTS
def test_S1_integer_extremes(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    values = [int(info.min), int(info.min) + 1, 0, 1, int(info.max) - 1, int(info.max)]
    Y = sonnx_identity(np.array(values, dtype))
    assert Y.dtype == dtype and Y.tolist() == values


@req("IDENTITY_S1")
def test_S1_bool() -> None:
    Y = sonnx_identity(np.array([[True, False], [False, False]]))
    assert Y.dtype == BOOL and Y.tolist() == [[True, False], [False, False]]


@req("IDENTITY_S1", "IDENTITY_S2")
@FLOATS
def test_S2_signed_zeros_infinities_and_nan(dtype: np.dtype) -> None:
    X = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1.5], dtype)
    Y = sonnx_identity(X)
    assert np.signbit(Y).tolist() == [True, False, False, True, False, False]
    assert Y[:4].tolist() == [0.0, 0.0, float("inf"), float("-inf")] and np.isnan(Y[4]) and Y[5] == 1.5


@req("IDENTITY_S2")
@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)], ids=str)
def test_S2_every_bit_pattern_of_a_16_bit_format(dtype: np.dtype) -> None:
    pattern = np.arange(2**16, dtype=np.uint16)  # every value: NaNs of both signs, any payload, quiet or not
    assert np.array_equal(bits_of(sonnx_identity(pattern.view(dtype))), pattern)


def nan_patterns(dtype: np.dtype) -> list[int]:
    """NaNs written bit by bit: both signs, quiet and signalling, the smallest and largest payloads."""
    width = 8 * dtype.itemsize
    fraction = ml_dtypes.finfo(dtype).nmant
    exponent = ((1 << (width - 1 - fraction)) - 1) << fraction  # every exponent bit set
    quiet = 1 << (fraction - 1)
    payloads = [1, 2, quiet - 1, quiet, quiet | 1, (1 << fraction) - 1]  # below quiet: signalling
    sign = 1 << (width - 1)
    return [exponent | p | s for p in payloads for s in (0, sign)]


@req("IDENTITY_S2")
@FLOATS
def test_S2_nan_payloads_and_signalling_nans_keep_their_bits(dtype: np.dtype) -> None:
    pattern = np.array(nan_patterns(dtype), dtype=f"u{dtype.itemsize}")
    X = pattern.view(dtype)
    with np.errstate(invalid="ignore"):  # widening a signalling NaN raises the invalid flag
        assert np.isnan(X.astype(np.float64)).all()  # every pattern is a NaN indeed
    assert np.array_equal(bits_of(sonnx_identity(X)), pattern)


@req("IDENTITY_S2")
@FLOATS
@given(data=st.data())
def test_S2_any_bit_pattern_is_copied(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(tensors(dtype))  # any bit pattern, the special values often
    assert np.array_equal(bits_of(sonnx_identity(X)), bits_of(X))


@req("IDENTITY_P1")
@EVERY
def test_P1_writing_to_Y_leaves_X_unchanged(dtype: np.dtype) -> None:
    X = np.array([[1, 0], [0, 1]], dtype)
    X_unchanged = unchanged(X)
    Y = sonnx_identity(X)
    assert type(Y) is np.ndarray and Y is not X and not np.shares_memory(Y, X) and Y.flags.writeable
    Y[0, 0] = 0
    X_unchanged()
    assert X[0, 0] == 1


@req("IDENTITY_P1")
@EVERY
def test_P1_writing_to_X_leaves_Y_unchanged(dtype: np.dtype) -> None:
    X = np.array([1, 0, 1], dtype)
    Y = sonnx_identity(X)
    X[:] = 0
    assert Y.tolist() == [1, 0, 1] if dtype != BOOL else Y.tolist() == [True, False, True]


@req("IDENTITY_P1", "IDENTITY_S1")
@EVERY
def test_P1_a_view_or_a_read_only_X_gives_a_new_array(dtype: np.dtype) -> None:
    base = np.array([[1, 0, 1], [0, 0, 1]], dtype)
    base.flags.writeable = False
    X = base[:, ::-2]  # a strided view, read-only
    Y = sonnx_identity(X)
    assert not np.shares_memory(Y, base) and Y.flags.writeable and Y.flags.c_contiguous
    assert Y.tolist() == [[1, 1], [1, 0]] if dtype != BOOL else Y.tolist() == [[True, True], [True, False]]


@req("IDENTITY_P1", "IDENTITY_C1")
@ALL
@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3)])
def test_P1_0_d_and_empty_tensors(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    X = np.ones(shape, dtype)
    Y = sonnx_identity(X)
    assert type(Y) is np.ndarray and Y.shape == shape and Y.dtype == dtype and not np.shares_memory(Y, X)
    scalar = sonnx_identity(dtype.type(1))  # a numpy scalar gives a 0-d array
    assert type(scalar) is np.ndarray and scalar.shape == () and scalar.dtype == dtype and scalar == 1


@req("GR2")
def test_a_sequence_of_tensors_is_refused() -> None:
    """ONNX Identity-14 and later take a sequence of tensors; the profile takes a tensor (a list is none)."""
    with raises_req("GR2") as info:
        sonnx_identity([np.zeros(2, np.float32), np.ones(3, np.float32)])
    assert info.value.problem == "identity: X is a list, not a numpy array or scalar"


@req("GR4")
def test_an_empty_optional_is_refused() -> None:
    """ONNX Identity-16 and later take an optional; the profile has no absent input (GR4)."""
    with raises_req("GR4") as info:
        sonnx_identity(None)
    assert info.value.problem == "identity: input X is not given"


ONNX_ONLY = [
    np.dtype(t)
    for t in (
        ml_dtypes.float8_e4m3fn,
        ml_dtypes.float8_e4m3fnuz,
        ml_dtypes.float8_e5m2,
        ml_dtypes.float8_e5m2fnuz,
        ml_dtypes.float8_e8m0fnu,
        ml_dtypes.float4_e2m1fn,
        ml_dtypes.int4,
        ml_dtypes.uint4,
        ml_dtypes.int2,
        ml_dtypes.uint2,
        np.complex64,
        np.complex128,
        "U3",  # a string tensor
    )
]


@req("GEN_C1")
@pytest.mark.parametrize("dtype", ONNX_ONLY, ids=[t.name for t in ONNX_ONLY])
def test_the_types_of_onnx_the_profile_does_not_take_are_refused(dtype: np.dtype) -> None:
    X = np.zeros(2, dtype)
    X_unchanged = unchanged(X)
    with raises_req("GEN_C1") as info:
        sonnx_identity(X)
    X_unchanged()
    taken = "int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16"
    expected = f"identity: X has element type {X.dtype}, not one identity takes for X ({taken}, bool)"
    assert info.value.problem == expected
