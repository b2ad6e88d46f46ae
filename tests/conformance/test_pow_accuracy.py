"""Pow's accuracy in numpy, the ONNX reference and onnxruntime, measured against the oracle of the tests
(tests/test_pow.py: IEEE 754's special cases, exact fractions for integer exponents, MPFR for the rest) and
written to docs/operators/pow.accuracy.csv, which the page shows. The shared measurement
(engine_accuracy.py, test_engine_accuracy.py) takes functions of one input; Pow takes two, so this test runs
the same measurement on pairs: every float16 and bfloat16 base raised to a few exponents, and random float32
pairs (``SONNX_WRITE_MEASURED=1`` rewrites the table, as there)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
from engine_accuracy import as_csv, assert_published, engine_row
from onnx_engines import ENGINES
from support import req
from test_pow import oracle

TABLE = Path(__file__).resolve().parents[2] / "docs" / "operators" / "pow.accuracy.csv"
SAMPLE = 100_000
EXPONENTS = (0.5, 1 / 3, 2.5, -1.5, 3.0, 10.0, -7.0, 1.1)
"""The exponents every 16-bit base is raised to: roots, integers, and fractions near 1."""


def pairs(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, str]:
    if dtype.itemsize == 2:
        X = np.tile(np.arange(2**16, dtype=np.uint16).view(dtype), len(EXPONENTS))
        Y = np.repeat(np.array(EXPONENTS, np.float32).astype(dtype), 2**16)
        return X, Y, f"all 65536 bases to {len(EXPONENTS)} exponents"
    rng = np.random.default_rng(2026)
    bases = np.exp2(rng.uniform(-20, 20, SAMPLE)).astype(np.float32)
    powers = (rng.uniform(-120, 120, SAMPLE) / np.log2(bases)).astype(np.float32)
    negative = -np.exp2(rng.uniform(-8, 8, SAMPLE // 10)).astype(np.float32)
    integers = rng.integers(-15, 16, SAMPLE // 10).astype(np.float32)
    X, Y = np.concatenate([bases, negative]), np.concatenate([powers, integers])
    return X, Y, f"{SAMPLE} random pairs with a normal power, {SAMPLE // 10} negative bases to integers"


def measure() -> list[tuple[str, ...]]:
    rows = []
    for dtype in (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)):
        X, Y, described = pairs(dtype)
        X.flags.writeable = Y.flags.writeable = False
        Z = oracle(dtype, X, Y)
        for engine in ENGINES:
            rows.append(engine_row(engine, "pow", [X, Y], Z, described, 1, "POW_P2", joined_by=" ^ "))
    return rows


@req("POW_P2")
def test_P2_the_published_accuracy_is_what_the_engines_give() -> None:
    assert_published(TABLE, as_csv(measure()))
