"""Conv's engines measured against the exact result: numpy (im2col and matmul in the type), the ONNX reference
evaluator and onnxruntime, for each floating-point type, on fixed random 2-D convolutions (two groups,
padding, strides) and on windows that cancel against the bias.

The oracle is independent of the reference: tests/test_conv.py's window-by-window exact sum in fractions
(``window_terms``), and CONV_P1's bound in exact rationals (``rule_bound``). Every engine that has a kernel
for the type meets the bound on every element; the counts of elements that are not the exact sum rounded
once are printed for the page.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from onnx_engines import ENGINES
from support import FLOATS, req
from test_conv import attributes, dot_plus, rule_bound, window_terms

from sonnx_spec.correctly_rounded import ulp_distance

ATTRIBUTES = attributes(2, group=2, kernel_shape=(3, 3), pads=(1, 0, 1, 2), strides=(1, 2))


def operands(dtype: np.dtype, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """X (1, 8, 6, 6) and W (4, 4, 3, 3) of standard normal values; B random, or the negated float64 sum of
    the first window of each map (the bias cancels it, nearly)."""
    rng = np.random.default_rng(22)
    X = rng.standard_normal((1, 8, 6, 6)).astype(dtype)
    W = rng.standard_normal((4, 4, 3, 3)).astype(dtype)
    if kind == "random":
        return X, W, rng.standard_normal(4).astype(dtype)
    sums = [sum(x * w for x, w in window_terms(X, W, 0, m, (0, 0), ATTRIBUTES)) for m in range(4)]
    return X, W, (-np.array(sums) * (1 + rng.standard_normal(4) / 1024)).astype(dtype)


@req("CONV_P1")
@FLOATS
@pytest.mark.parametrize("kind", ["random", "cancelling"])
def test_P1_the_engines_meet_the_bound(dtype: np.dtype, kind: str) -> None:
    X, W, B = operands(dtype, kind)
    for engine in ENGINES:
        result = engine.run("conv", [X, W, B], ATTRIBUTES)
        if result.status != "output":  # no kernel for the type (numpy and onnxruntime's bfloat16)
            continue
        Y = np.asarray(result.outputs[0])
        assert Y.shape == (1, 4, 6, 3) and Y.dtype == dtype
        rounded = np.empty_like(Y)
        worst = Fraction(0)
        for n, m, *o in np.ndindex(Y.shape):
            terms = window_terms(X, W, n, m, tuple(o), ATTRIBUTES)
            bias = float(B[m])
            rounded[(n, m, *o)] = dot_plus(terms, bias, dtype)
            bound = rule_bound(terms, bias, dtype)
            assert bound is not None and bound > 0
            exact = sum((Fraction(x) * Fraction(w) for x, w in terms), Fraction(bias))
            worst = max(worst, abs(Fraction(float(Y[(n, m, *o)])) - exact) / bound)
        off = int(np.count_nonzero(ulp_distance(Y.ravel(), rounded.ravel())))
        share = f"{off}/{Y.size} not correctly rounded"
        print(f"{engine.name} {dtype.name} {kind}: {share}, worst error / bound {float(worst):.3g}")
        assert worst <= 1, (engine.name, float(worst))
