"""REDUCESUM_P1 and REDUCEMEAN_P1 against the engines: onnxruntime's and the ONNX reference's sums and means
of random rows, against the exact sum (fractions), with how far each is from it as a share of the bound.

The rows hold terms of both signs over twelve binades, so that the engines' orders of addition matter; the
share printed (pytest -s) is what the pages quote.
"""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from onnx_engines import ENGINES
from support import FLOATS

from sonnx_spec import reduce_mean, reduce_sum

UNIT_ROUNDOFF = {"float16": 2**-11, "bfloat16": 2**-8, "float32": 2**-24, "float64": 2**-53}
WIDTHS = (2, 16, 200)  # (n + 1)·u < 1 in every type: bfloat16's u is 2⁻⁸


def gamma(m: int, u: Fraction) -> Fraction:
    return m * u / (1 - m * u)


def rows_of(dtype: np.dtype, n: int) -> np.ndarray:
    rng = np.random.default_rng(n)
    X = rng.standard_normal((24, n)) * 2.0 ** rng.integers(-6, 6, (24, n))
    return X.astype(dtype)


def shares(op: str, engine_result: np.ndarray, X: np.ndarray) -> list[Fraction]:
    """|engine − exact| / bound, per row (the bound of REDUCESUM_P1 or REDUCEMEAN_P1)."""
    u = Fraction(UNIT_ROUNDOFF[X.dtype.name])
    eta = Fraction(float(ml_dtypes.finfo(X.dtype).smallest_subnormal))
    n = X.shape[1]
    found = []
    for row, y in zip(X.tolist(), engine_result.tolist(), strict=True):
        exact = sum(map(Fraction, row), Fraction(0))
        magnitude = sum(abs(Fraction(t)) for t in row)
        if op == "reduce_sum":
            bound = gamma(n - 1, u) * magnitude
        else:
            exact, bound = exact / n, gamma(n + 1, u) * magnitude / n + eta
        found.append(abs(Fraction(float(y)) - exact) / bound)
    return found


@pytest.mark.req("REDUCESUM_P1")
@pytest.mark.parametrize("engine", ENGINES, ids=[e.name for e in ENGINES])
@FLOATS
def test_reduce_sum_engines_meet_the_bound(dtype: np.dtype, engine) -> None:
    check("reduce_sum", dtype, engine)


@pytest.mark.req("REDUCEMEAN_P1")
@pytest.mark.parametrize("engine", ENGINES, ids=[e.name for e in ENGINES])
@FLOATS
def test_reduce_mean_engines_meet_the_bound(dtype: np.dtype, engine) -> None:
    check("reduce_mean", dtype, engine)


def check(op: str, dtype: np.dtype, engine) -> None:
    reference = {"reduce_sum": reduce_sum, "reduce_mean": reduce_mean}[op]
    attributes = {"keepdims": 0, "noop_with_empty_axes": 0}
    for n in WIDTHS:
        X = rows_of(dtype, n)
        A = np.array([1], np.int64)
        ours = shares(op, reference(X, A, **attributes), X)
        assert max(ours) <= 1  # the reference's own result, S rounded once, is in the set
        result = engine.run(op, (X, A), attributes, None)
        if result.status == "unsupported":
            continue  # no kernel for this type (onnxruntime's bfloat16)
        assert result.status == "output", result.message
        theirs = shares(op, result.outputs[0], X)
        print(f"{op} {dtype.name} {engine.name} n={n}: worst {float(max(theirs)):.3g} of the bound")
        assert max(theirs) <= 1
