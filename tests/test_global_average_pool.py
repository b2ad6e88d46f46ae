"""GlobalAveragePool: one test (or more) per rule id, named after it.

The oracle restates the rules in plain Python: the terms of Y[n, c, 0, …, 0] gathered by Python indexing
over every spatial index (itertools.product), their mean the exact fraction (Σ x)/n rounded once to the
type by MPFR (gmpy2), IEEE 754's special cases written out (tests/test_reduce_mean.py's ieee_mean).
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from fractions import Fraction
from pathlib import Path

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import FLOATS, assert_same, ieee_context, raises_req, req, shapes, tensors, unchanged
from test_reduce_mean import ieee_mean
from test_reduce_sum import UNIT_ROUNDOFF, WHY3_TYPES, gamma, in_type_left_to_right

from sonnx_spec import global_average_pool


def expected(X: np.ndarray) -> np.ndarray:
    """Y of shape (N, C, 1, …, 1): each element the mean of X[n, c, …] over every spatial index."""
    N, C, *spatial = X.shape
    out = np.empty((N, C, *[1] * len(spatial)), X.dtype)
    for n, c in itertools.product(range(N), range(C)):
        terms = [float(X[(n, c, *i)]) for i in itertools.product(*map(range, spatial))]
        out[(n, c, *[0] * len(spatial))] = ieee_mean(terms, X.dtype)
    return out


@st.composite
def pools(draw: st.DrawFn, dtype: np.dtype) -> np.ndarray:
    """X of rank 3 to 5, any values: N and C of any size (0 too), spatial dimensions of 1 or more."""
    N, C = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    spatial = tuple(max(d, 1) for d in draw(shapes(max_dims=3)))
    return draw(tensors(dtype, (N, C, *(spatial or (1,)))))


@req("GLOBALAVERAGEPOOL_S1", "GLOBALAVERAGEPOOL_S2", "GLOBALAVERAGEPOOL_S3")
@FLOATS
@given(data=st.data())
def test_S1_to_S3_every_element_of_Y_against_the_oracle(dtype: np.dtype, data: st.DataObject) -> None:
    X = data.draw(pools(dtype))
    inputs_unchanged = unchanged(X)
    Y = global_average_pool(X)
    inputs_unchanged()
    assert not np.shares_memory(Y, X) and Y.flags.writeable
    assert_same(Y, expected(X))


@req("GLOBALAVERAGEPOOL_S1")
@pytest.mark.parametrize(
    ("shape", "result"),
    [
        ((2, 3, 4), (2, 3, 1)),
        ((1, 2, 3, 4), (1, 2, 1, 1)),
        ((2, 1, 2, 3, 2), (2, 1, 1, 1, 1)),
        ((1, 1, 1), (1, 1, 1)),
        ((0, 3, 2), (0, 3, 1)),  # no mean at all: nothing refused
        ((2, 0, 2, 2), (2, 0, 1, 1)),
    ],
)
@FLOATS
def test_S1_the_shape_of_Y(dtype: np.dtype, shape: tuple, result: tuple) -> None:
    X = np.arange(math.prod(shape)).reshape(shape).astype(dtype)
    Y = global_average_pool(X)
    assert Y.shape == result and Y.dtype == dtype
    assert_same(Y, expected(X))


@req("GLOBALAVERAGEPOOL_S1")
def test_S1_each_channel_of_each_batch_is_averaged_apart() -> None:
    """Channel c of batch n holds 10n + c + spatial offsets whose mean is 0: Y[n, c] is 10n + c."""
    offsets = np.array([[-1.5, 0.5], [2.5, -1.5]])  # mean 0
    X = np.array([[10 * n + c + offsets for c in range(3)] for n in range(2)], np.float32)
    assert global_average_pool(X).reshape(2, 3).tolist() == [[0, 1, 2], [10, 11, 12]]


@req("GLOBALAVERAGEPOOL_S2")
@FLOATS
def test_S2_the_exact_sum_divided_once(dtype: np.dtype) -> None:
    big = float(ml_dtypes.finfo(dtype).max) / 4
    X = np.array([[[big, 1.0, -big], [1.0, 2.0, 4.0], [big, big, big]]], dtype)
    with ieee_context(dtype):
        third = float(gmpy2.mpfr(gmpy2.mpq(1, 3)))
        seven_thirds = float(gmpy2.mpfr(gmpy2.mpq(7, 3)))
    assert_same(global_average_pool(X), np.array([[[third], [seven_thirds], [big]]], dtype))


@req("GLOBALAVERAGEPOOL_S2")
@FLOATS
def test_S2_the_largest_value_twice_does_not_overflow(dtype: np.dtype) -> None:
    top = float(ml_dtypes.finfo(dtype).max)
    X = np.array([[[[top, top], [top, top]]], [[[-top, -top], [top, -top]]]], dtype)
    assert_same(global_average_pool(X), np.array([[[[top]]], [[[-top / 2]]]], dtype))


@req("GLOBALAVERAGEPOOL_S2")
@FLOATS
def test_S2_subnormal_means_and_the_sign_of_zero(dtype: np.dtype) -> None:
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    X = np.array(
        [
            [[tiny, 0.0], [0.0, 0.0]],
            [[-tiny, 0.0], [0.0, 0.0]],
            [[3 * tiny, 0.0], [0.0, tiny]],
            [[-0.0, -0.0], [-0.0, -0.0]],
            [[-0.0, 0.0], [-0.0, -0.0]],
            [[1.0, -1.0], [0.5, -0.5]],
        ],
        dtype,
    )[np.newaxis]  # N = 1, C = 6, 2 × 2 spatial
    # tiny/4 rounds to +0; −tiny/4 to −0 (its sign kept); 4·tiny/4 is tiny exactly; −0 only from −0s.
    means = np.array([0.0, -0.0, tiny, -0.0, 0.0, 0.0], dtype).reshape(1, 6, 1, 1)
    assert_same(global_average_pool(X), means)


@req("GLOBALAVERAGEPOOL_S2")
def test_S2_a_term_float64_cannot_hold_decides_the_rounding() -> None:
    """[2, 2⁻²³, 2⁻¹⁰⁰, 0] in float32: the mean is just above the midpoint of 1/2 and 1/2 + 2⁻²⁴, so it
    rounds up; a float64 sum loses 2⁻¹⁰⁰ and lands on the midpoint (ReduceMean's exact path)."""
    X = np.array([[[2.0, 2.0**-23], [2.0**-100, 0.0]], [[2.0, 2.0**-23], [-(2.0**-100), 0.0]]], np.float32)
    Y = global_average_pool(X[np.newaxis])
    assert_same(Y, np.array([0.5 + 2.0**-24, 0.5], np.float32).reshape(1, 2, 1, 1))


@req("GLOBALAVERAGEPOOL_S2")
def test_S2_float16_is_not_accumulated_in_float16() -> None:
    """4096 ones and 4096 times 2⁻¹⁰ in float16: the exact mean (1 + 2⁻¹⁰)/2 = 0.5 + 2⁻¹¹ is a float16.
    A float16 accumulator stops at 2048 (2048 + 1 rounds to 2048): the mean is the exact one."""
    X = np.array([[[1.0] * 4096 + [2.0**-10] * 4096]], np.float16)
    assert_same(global_average_pool(X), np.array([[[0.5 + 2.0**-11]]], np.float16))


@req("GLOBALAVERAGEPOOL_S3")
@FLOATS
def test_S3_nan_and_infinities(dtype: np.dtype) -> None:
    inf, nan, top = math.inf, math.nan, float(ml_dtypes.finfo(dtype).max)
    rows = [([nan, 1.0, 2.0], nan), ([inf, -inf, 0.0], nan), ([1.0, -inf, 2.0], -inf), ([inf, top, top], inf)]
    X = np.array([[r for r, _ in rows]], dtype)
    assert_same(global_average_pool(X), np.array([e for _, e in rows], dtype).reshape(1, 4, 1))


@req("GLOBALAVERAGEPOOL_S3")
def test_S3_signalling_nans_of_bfloat16_are_nans() -> None:
    X = np.array([[[0x7F81, 0x3F80]]], np.uint16).view(ml_dtypes.bfloat16)
    assert np.isnan(global_average_pool(X).astype(np.float32)).all()


@req("GLOBALAVERAGEPOOL_C1")
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)], ids=["0-d", "rank 1", "rank 2"])
@FLOATS
def test_C1_X_without_a_spatial_axis_is_refused(dtype: np.dtype, shape: tuple) -> None:
    with raises_req("GLOBALAVERAGEPOOL_C1") as info:
        global_average_pool(np.ones(shape, dtype))
    assert info.value.problem == (
        f"global_average_pool: X has shape {shape}, rank {len(shape)}: no spatial axis (rank 3 or more)"
    )


@req("GLOBALAVERAGEPOOL_C2")
@pytest.mark.parametrize(
    ("shape", "axis"), [((1, 2, 0), 2), ((2, 3, 4, 0), 3), ((1, 1, 0, 5, 0), 2), ((0, 0, 2, 0), 3)]
)
@FLOATS
def test_C2_a_mean_of_no_term_is_refused(dtype: np.dtype, shape: tuple, axis: int) -> None:
    """An empty spatial dimension is refused, even where N or C is 0 and Y would have no element."""
    with raises_req("GLOBALAVERAGEPOOL_C2") as info:
        global_average_pool(np.zeros(shape, dtype))
    assert info.value.problem == (
        f"global_average_pool: X has shape {shape}, no element along axis {axis}: a mean of none"
    )


@req("GEN_E1")
@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(ml_dtypes.bfloat16)], ids=lambda t: t.name)
def test_GEN_E1_a_result_too_large_for_memory_is_refused(dtype: np.dtype) -> None:
    huge = np.broadcast_to(np.ones((1, 1, 1), dtype), (2**30, 2**30, 1))  # a view: no memory of its own
    with raises_req("GEN_E1") as info:
        global_average_pool(huge)
    assert info.value.problem == (
        f"global_average_pool: a result of shape (1073741824, 1073741824, 1) and type {dtype} "
        "does not fit in this machine's memory"
    )


# -- GLOBALAVERAGEPOOL_P1: the engines' bound ---------------------------------------------------------------


def rule_bound(terms: list[float], dtype: np.dtype) -> Fraction:
    """γₙ₊₁·Σ|x|/n + η in exact rationals."""
    n = len(terms)
    eta = Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal))
    return gamma(n + 1, UNIT_ROUNDOFF[dtype.name]) * sum(abs(Fraction(t)) for t in terms) / n + eta


def channels(Y: np.ndarray, X: np.ndarray) -> list[tuple[list[float], float]]:
    """Each element of Y with its terms, the elements of its channel."""
    N, C = X.shape[:2]
    rows = X.reshape(N * C, -1).tolist()
    return [([float(t) for t in r], float(y)) for r, y in zip(rows, Y.reshape(-1).tolist(), strict=True)]


@req("GLOBALAVERAGEPOOL_P1")
@FLOATS
def test_P1_the_reference_and_engines_meet_the_bound(dtype: np.dtype) -> None:
    """Random finite terms: the reference's mean (the exact mean rounded once), an engine adding left to
    right in the type then dividing by n in the type, and one accumulating in float32 then rounding to
    the type (numpy's and onnxruntime's float16 route) all lie within γ_{n+1}·Σ|x|/n + η of the exact
    mean."""
    rng = np.random.default_rng(22)
    for spatial in ((1,), (2,), (3,), (2, 5), (8, 8)):
        shape = (3, 5, *spatial)
        X = (rng.standard_normal(shape) * 2.0 ** rng.integers(-6, 6, shape)).astype(dtype)
        n = math.prod(spatial)
        for terms, y in channels(global_average_pool(X), X):
            exact = sum(map(Fraction, terms), Fraction(0)) / n
            bound = rule_bound(terms, dtype)
            engines = [float(y)]
            with ieee_context(dtype):
                engines.append(float(gmpy2.mpfr(in_type_left_to_right(terms, dtype)) / n))
            if dtype.itemsize < 4:  # float32's sum and quotient, then rounded to the type
                wide = float(np.float32(in_type_left_to_right(terms, np.dtype(np.float32))) / np.float32(n))
                with ieee_context(dtype):
                    engines.append(float(gmpy2.mpfr(wide)))
            for result in engines:
                assert abs(Fraction(result) - exact) <= bound, (terms, result)


@req("GLOBALAVERAGEPOOL_P1")
@FLOATS
@pytest.mark.parametrize("spatial", [(1,), (2,), (4, 4), (10, 20)])
def test_P1_the_judging_bound_is_the_rule_s_widened_by_its_float64_margin(
    dtype: np.dtype, spatial: tuple[int, ...]
) -> None:
    """The bound engines are judged by (engine_error, declared with the operator), against the rule's in
    exact rationals: at least γₙ₊₁·Σ|x|/n + η, and above it by no more than the widening its docstring
    states (4(n + 1) float64 units of Σ|x|, 2⁻⁵⁰, one step) and the float64 roundings of γ, of its product,
    quotient and sum and of the widening itself (2⁻⁵³ each, which 2⁻⁵⁰ covers from below only)."""
    from sonnx_spec.accuracy import Within, engine_bound
    from sonnx_spec.ops.global_average_pool import engine_error

    assert engine_bound("global_average_pool") == Within("GLOBALAVERAGEPOOL_P1", engine_error, of_exact=True)
    n = math.prod(spatial)
    X = (np.random.default_rng(n).integers(-63, 64, (2, 3, *spatial)) / 8).astype(dtype)  # sums exact
    Y = global_average_pool(X)
    error = engine_error(Y, X)
    assert error.shape == Y.shape and error.dtype == np.float64
    eta = Fraction(float(ml_dtypes.finfo(dtype).smallest_subnormal))
    widening = (1 + Fraction(4 * (n + 1), 2**53)) * (1 + Fraction(1, 2**50)) * (1 + Fraction(1, 2**52)) ** 6
    for (terms, _), allowed in zip(channels(Y, X), error.reshape(-1).tolist(), strict=True):
        rule = rule_bound(terms, dtype)
        assert rule <= Fraction(allowed) <= rule * widening, (terms, allowed)
        if n >= 16:  # the margin for numpy's float64 sum of the magnitudes is there, not just the rule
            relative = rule - eta
            assert Fraction(allowed) >= relative * (1 + Fraction(4 * (n + 1), 2**53)) + eta, (terms, allowed)


@req("GLOBALAVERAGEPOOL_P1")
def test_P1_the_bound_is_any_value_where_n_plus_1_times_u_reaches_1_or_the_magnitudes_overflow() -> None:
    """bfloat16 (u = 2⁻⁸): 254 terms, (n + 1)·u < 1: a bound; 255: none (+∞). Σ|x| beyond the largest
    value: any value, though the mean itself is in range."""
    from sonnx_spec.ops.global_average_pool import engine_error

    b = np.dtype(ml_dtypes.bfloat16)
    for spatial, finite in (((2, 127), True), ((3, 85), False)):
        X = np.ones((1, 2, *spatial), b)
        assert np.isfinite(engine_error(global_average_pool(X), X)).all() == finite, spatial
    for dtype in (np.dtype(np.float32), np.dtype(np.float64)):  # float64: Σ|x| beyond float64's range too
        top = float(ml_dtypes.finfo(dtype).max)
        X = np.array([[[top / 2, top / 2, top / 4], [top / 2, -top / 4, 1.0]]], dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            error = engine_error(global_average_pool(X), X)
        assert np.isinf(error[0, 0, 0]) and np.isfinite(error[0, 1, 0]), dtype
    top64 = np.float64(np.finfo(np.float64).max)  # raised by 4(n + 1) = 8 units, Σ|x| reaches it: a bound
    below = top64
    for _ in range(8):
        below = np.nextafter(below, 0.0)
    X = np.array([[[below]]], np.float64)
    assert np.isfinite(engine_error(global_average_pool(X), X)[0, 0, 0])


@req("GLOBALAVERAGEPOOL_P1")
def test_P1_engines_are_judged_by_the_bound() -> None:
    """A mean within γₙ₊₁·Σ|x|/n + η of the exact one conforms; one beyond it (and the reference's own
    rounding) is outside; NaN and the infinities exactly."""
    from sonnx_spec.accuracy import judge

    X = np.full((1, 1, 2, 2), 3.0, np.float32)
    Y = global_average_pool(X)  # 3, exact; the bound γ₅·12/4 ≈ 7.5·2⁻²³, the reference's rounding 2⁻²³
    assert judge("global_average_pool", Y + np.float32(6 * 2.0**-23), Y, [X]).verdict == "conforms"
    assert judge("global_average_pool", Y + np.float32(10 * 2.0**-23), Y, [X]).verdict == "outside"
    special = np.array([[[np.inf, 1.0], [np.nan, 1.0]]], np.float32)
    Y = global_average_pool(special)
    assert judge("global_average_pool", Y.copy(), Y, [special]).verdict == "conforms"
    wrong = np.array([[[np.float32(3.4e38)], [np.nan]]], np.float32)
    assert judge("global_average_pool", wrong, Y, [special]).verdict == "outside"


# -- The roundings formal/global_average_pool.mlw trusts ----------------------------------------------------


def trusted_values(path: Path) -> list[tuple[str, Fraction, float]]:
    """(instance, exact mean s / n, its stated rounding) of every ``round_mean s n = (v:F.t)`` in the
    axioms ``…_trusted_values`` of the instances of a Why3 file."""
    found = []
    for module, body in re.findall(
        r"module GlobalAveragePool(Float16|BFloat16|Float32|Float64)\n(.*?)\nend", path.read_text(), re.S
    ):
        axiom = re.search(r"_trusted_values:\n(.*?)\n(?:\n|  \(\*)", body, re.S)
        for s, n, value in re.findall(r"round_mean \(?([^ ()]+)\)? (\d+) = \(([^:]+):F\.t\)", axiom.group(1)):
            exact = Fraction(float.fromhex(s) if "x" in s else s) / int(n)
            found.append((module, exact, float.fromhex(value) if "x" in value else float(value)))
    return found


@req("GLOBALAVERAGEPOOL_S2")
def test_S2_the_why3_trusted_roundings_are_mpfrs() -> None:
    """formal/global_average_pool.mlw trusts the rounding of the exact means of its examples: each is
    MPFR's."""
    values = trusted_values(Path(__file__).parents[1] / "formal" / "global_average_pool.mlw")
    assert {module for module, _, _ in values} == set(WHY3_TYPES)
    for module, exact, stated in values:
        with ieee_context(WHY3_TYPES[module]):
            assert float(gmpy2.mpfr(gmpy2.mpq(exact.numerator, exact.denominator))) == stated, (module, exact)
