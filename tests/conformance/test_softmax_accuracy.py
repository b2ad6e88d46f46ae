"""Softmax's accuracy in numpy, the ONNX reference and onnxruntime, measured against the correctly rounded
result (SOFTMAX_P2): random slices of float16, bfloat16 and float32 along the last axis.

The correctly rounded result is the oracle of tests/test_softmax.py (MPFR evaluating 1/Σ e^(x_j − x_i) to
nearest at 300 and 600 bits, rounded once), not the reference. For each engine and type: the largest
distance in units in the last place, the largest absolute error in units of u = 2⁻ᵖ, the share of results
not correctly rounded, and whether the engine meets SOFTMAX_P2 (4 units in the last place, or 4u). The table
is written to docs/operators/softmax.accuracy.csv, which the page shows (``SONNX_WRITE_MEASURED=1`` rewrites
it; otherwise the test fails when the committed table is not what the engines give now).
"""

from __future__ import annotations

import os
from pathlib import Path

import ml_dtypes
import numpy as np
from engine_accuracy import as_csv
from onnx_engines import ENGINES
from support import req
from test_softmax import meets_P2, oracle

from sonnx_spec.correctly_rounded import NOT_A_DISTANCE, ulp_distance

ROOT = Path(__file__).resolve().parents[2]
TYPES = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32))
SAMPLES = (
    ("10 elements, scale 3", (200, 10), 3.0),
    ("10 elements, scale 30", (200, 10), 30.0),
    ("100 elements, scale 3", (20, 100), 3.0),
)
HEADER = ("engine", "type", "slices", "max ulp", "max error / u", "not correctly rounded", "meets")


def measure() -> list[tuple[str, ...]]:
    rows = []
    rng = np.random.default_rng(2026)
    for dtype in TYPES:
        p = ml_dtypes.finfo(dtype).nmant + 1
        for described, shape, scale in SAMPLES:
            X = (rng.standard_normal(shape) * scale).astype(dtype)
            X.flags.writeable = False
            Y = oracle(X, 1)
            for engine in ENGINES:
                result = engine.run("softmax", [X], {"axis": -1})
                if result.status != "output":
                    rows.append((engine.name, dtype.name, described, "", "", "", f"no: {result.status}"))
                    continue
                Z = result.outputs[0]
                distance = ulp_distance(Z, Y)
                error = np.abs(Z.astype(np.float64) - Y.astype(np.float64)) / 2.0**-p
                largest = int(distance.max())
                rows.append(
                    (
                        engine.name,
                        dtype.name,
                        described,
                        "NaN for a number" if largest == NOT_A_DISTANCE else str(largest),
                        f"{float(np.nanmax(error)):.2f}",
                        f"{np.count_nonzero(distance) / distance.size:.1%}",
                        "yes" if meets_P2(Z, Y).all() else "no",
                    )
                )
    return rows


@req("SOFTMAX_P2")
def test_P2_the_published_accuracy_is_what_the_engines_give() -> None:
    path = ROOT / "docs" / "operators" / "softmax.accuracy.csv"
    measured = as_csv(measure(), HEADER)
    if os.environ.get("SONNX_WRITE_MEASURED") == "1":
        path.write_text(measured, encoding="utf-8")
    stale = f"{path.relative_to(ROOT)} is not what the engines give now: rerun with SONNX_WRITE_MEASURED=1"
    assert path.exists() and path.read_text(encoding="utf-8") == measured, stale
