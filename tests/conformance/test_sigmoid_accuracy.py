"""Sigmoid's accuracy in numpy, the ONNX reference and onnxruntime, measured against the correctly rounded
result as engine_accuracy measures Exp's and Log's: every float16 and bfloat16 value, a float32 sample.

engine_accuracy takes the correctly rounded result from a function of MPFR's named in ``Accuracy.mpfr``;
MPFR has no sigmoid, so this test gives it the oracle of tests/test_sigmoid.py (1/(1 + e^−x) in MPFR at
300 and 600 bits, rounded once) in its place, for this test only. The table is written to
docs/operators/sigmoid.accuracy.csv, which the page shows (``SONNX_WRITE_MEASURED=1`` rewrites it;
otherwise the test fails when the committed table is not what the engines give now).
"""

from __future__ import annotations

import os
from pathlib import Path

import engine_accuracy
import numpy as np
import pytest
from operator_cases import Accuracy
from support import req
from test_sigmoid import sigmoid_of

ROOT = Path(__file__).resolve().parents[2]
ACCURACY = Accuracy(mpfr="sigmoid", rule="SIGMOID_P2", ulps=1, float32_range=(-104.0, 18.0))
"""SIGMOID_P2's bound, one unit in the last place; float32 values sampled where σ is neither 0 nor 1."""


def expected(accuracy: Accuracy, X: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns
        values = X.astype(np.float64).tolist()
    return np.array([sigmoid_of(v, X.dtype) for v in values], np.float64).astype(X.dtype)


@req("SIGMOID_P2")
def test_P2_the_published_accuracy_is_what_the_engines_give(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_accuracy, "expected", expected)
    path = ROOT / "docs" / "operators" / "sigmoid.accuracy.csv"
    measured = engine_accuracy.as_csv(engine_accuracy.measure("sigmoid", ACCURACY))
    if os.environ.get("SONNX_WRITE_MEASURED") == "1":
        path.write_text(measured, encoding="utf-8")
    stale = f"{path.relative_to(ROOT)} is not what the engines give now: rerun with SONNX_WRITE_MEASURED=1"
    assert path.exists() and path.read_text(encoding="utf-8") == measured, stale


@req("SIGMOID_P2")
def test_P2_onnxruntime_float64_gives_float32_values_and_0_below_minus_88() -> None:
    """What the page says of onnxruntime beyond the table: its float64 kernel returns float32's σ(−20),
    2.06115369e−9 rounded to float32, and 0 for σ(−89) = 2.2e−39; its float32 kernel 0 for σ(−20)."""
    onnxruntime = next(engine for engine in engine_accuracy.ENGINES if engine.name == "onnxruntime")
    X = np.array([-20.0, -89.0])
    Y = onnxruntime.run("sigmoid", [X], {}).outputs[0]
    assert Y[0] == sigmoid_of(-20.0, np.dtype(np.float32)) != sigmoid_of(-20.0, X.dtype) and Y[1] == 0
    assert sigmoid_of(-89.0, X.dtype) > 2e-39
    (Y32,) = onnxruntime.run("sigmoid", [X.astype(np.float32)], {}).outputs
    assert Y32[0] == 0 and sigmoid_of(-20.0, np.dtype(np.float32)) > 2e-9
