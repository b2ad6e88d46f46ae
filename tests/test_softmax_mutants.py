"""Softmax: tests written for the mutants of sonnx_spec.ops.softmax that survived tests/test_softmax.py.

Each states behaviour the reference must have, against the oracle of tests/test_softmax.py (MPFR at 300 and
600 bits on the exact inputs), not against the reference's own output.
"""

from __future__ import annotations

import gmpy2
import numpy as np
import pytest
from support import assert_same, req
from test_softmax import F16, F32, F64, oracle

import sonnx_spec.ops.softmax as module
from sonnx_spec import softmax


@req("SOFTMAX_S1")
@pytest.mark.parametrize("dtype", [F16, F32], ids=lambda t: t.name)
def test_S1_large_elements_whose_exponentials_overflow_float64(dtype: np.dtype) -> None:
    """Around 355, e^(2x) overflows float64 while e^x does not: shifting by the maximum (x − M ≤ 0) is what
    keeps every term finite; σ(±1) here, not 0 and NaN."""
    X = np.array([[355.0, 354.0], [354.0, 356.0], [300.0, 400.0]], dtype)
    assert_same(softmax(X, axis=1), oracle(X, 1))


@req("SOFTMAX_S1")
def test_S1_the_float64_evaluation_decides_most_float32_elements(monkeypatch: pytest.MonkeyPatch) -> None:
    """The design's speed: MPFR computes only the elements the float64 evaluation leaves undecided, about one
    float32 element in 2¹² (the page), not every one: of 2000 elements in slices of 10, a handful at most."""
    sent: list[int] = []
    slow = module._mpfr_slice

    def counted(line: list[float], columns: list[int], context: object) -> list[float]:
        sent.append(len(columns))
        return slow(line, columns, context)

    monkeypatch.setattr(module, "_mpfr_slice", counted)
    X = (np.random.default_rng(12).standard_normal((200, 10)) * 3).astype(F32)
    Y = softmax(X, axis=1)
    assert sum(sent) <= 20
    assert_same(Y, oracle(X, 1))


@req("SOFTMAX_S1")
def test_S1_whatever_the_callers_gmpy2_precision() -> None:
    """MPFR reads every input exactly, at its own precision, whatever gmpy2's current context: a float64
    softmax computed inside a 20-bit context is the correctly rounded one."""
    X = np.array([[0.1, 0.7, -1.3], [1e-3, 2.5, 2.5000000001]], F64)
    expected = oracle(X, 1)
    with gmpy2.context(precision=20):
        Y = softmax(X, axis=1)
    assert_same(Y, expected)
