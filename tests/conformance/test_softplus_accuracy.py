"""Softplus's accuracy in numpy, the ONNX reference and onnxruntime, measured against MPFR as for Exp and Log
(engine_accuracy.py: every float16 and bfloat16 value, a float32 sample), and written to
docs/operators/softplus.accuracy.csv, which the page shows. gmpy2 has no softplus, which the shared test
(test_engine_accuracy.py) would call by name: this one runs the same measurement with ln(1 + e^x) evaluated
at 300 bits and rounded once (``SONNX_WRITE_MEASURED=1`` rewrites the table, as there)."""

from __future__ import annotations

import math
import os
from pathlib import Path

import engine_accuracy
import gmpy2
import numpy as np
import pytest
from engine_accuracy import as_csv, measure
from operator_cases.softplus import MEASURED_ACCURACY
from support import ieee_context, req

TABLE = Path(__file__).resolve().parents[2] / "docs" / "operators" / "softplus.accuracy.csv"
WIDE = gmpy2.context(precision=300, emin=gmpy2.get_emin_min(), emax=gmpy2.get_emax_max())


def correctly_rounded_softplus(dtype: np.dtype, x: float) -> float:
    """ln(1 + e^x) at 300 bits (x + ln(1 + e^−x) for x > 0), rounded once to ``dtype`` by MPFR."""
    if math.isnan(x) or math.isinf(x):
        return math.nan if math.isnan(x) else max(x, 0.0)
    m = gmpy2.mpfr(x)
    value = WIDE.add(m, WIDE.log1p(WIDE.exp(-m))) if x > 0 else WIDE.log1p(WIDE.exp(m))
    return float(ieee_context(dtype).plus(value))


def expected(accuracy: object, X: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns
        values = X.astype(np.float64).tolist()
    return np.array([correctly_rounded_softplus(X.dtype, v) for v in values], np.float64).astype(X.dtype)


@req("SOFTPLUS_P2")
def test_P2_the_published_accuracy_is_what_the_engines_give(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_accuracy, "expected", expected)  # the one step that names gmpy2's function
    measured = as_csv(measure("softplus", MEASURED_ACCURACY))
    if os.environ.get("SONNX_WRITE_MEASURED") == "1":
        TABLE.write_text(measured, encoding="utf-8")
    stale = f"{TABLE.name} is not what the engines give now: rerun with SONNX_WRITE_MEASURED=1"
    assert TABLE.exists() and TABLE.read_text(encoding="utf-8") == measured, stale
