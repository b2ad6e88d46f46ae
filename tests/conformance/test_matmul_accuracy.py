"""MatMul's engines measured against the exact result (issue 22): numpy, the ONNX reference evaluator and
onnxruntime, for each floating-point type, on fixed random matrices and on matrices whose sums cancel.

For each engine, type and set: how many elements are not the correctly rounded exact sum, the largest
distance from it in units in the last place, the largest error as a share of MATMUL_P1's bound, and whether
every element meets the bound. The oracle is independent of the reference: the exact sum in fractions,
rounded once by MPFR (tests/test_matmul.py's ``dot``). The table is written to
docs/operators/matmul.accuracy.csv, which the page shows (``SONNX_WRITE_MEASURED=1`` rewrites it; otherwise
the test fails when the committed table is not what the engines give now).
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

import numpy as np
from engine_accuracy import SUMS_HEADER, as_csv, assert_published, exact_sums, sum_rows
from support import req
from test_matmul import dot, eta, unit

from sonnx_spec import FLOAT_TYPES

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "operators" / "matmul.accuracy.csv"
HEADER = (*SUMS_HEADER, "meets MATMUL_P1")
M, P = 8, 8


def matrices(dtype: np.dtype, kind: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Fixed random A (8, n) and B (n, 8): standard normal values, or rows whose sums cancel (each row of
    A followed by its opposite scaled by 1 + a small value, against a B of ones and normal values)."""
    rng = np.random.default_rng(22 + n)
    if kind == "random":
        return rng.standard_normal((M, n)).astype(dtype), rng.standard_normal((n, P)).astype(dtype)
    half = rng.standard_normal((M, n // 2)) * 2.0 ** rng.integers(-6, 6, (M, n // 2))
    A = np.concatenate([half, -half], axis=1).astype(dtype)
    B = np.concatenate([np.ones((n // 2, P)), 1 + rng.standard_normal((n // 2, P)) / 64]).astype(dtype)
    return A, B


SETS = (("random", 16), ("random", 256), ("cancelling", 256))


def exact(A: np.ndarray, B: np.ndarray) -> tuple[list[list[Fraction]], list[list[Fraction]], np.ndarray]:
    """The exact sums, the sums of magnitudes, and the correctly rounded results."""
    sums, magnitudes = exact_sums(A, B)
    a, b = A.astype(np.float64).tolist(), B.astype(np.float64).T.tolist()
    rounded = np.array([[dot(r, c, A.dtype) for c in b] for r in a], np.float64).astype(A.dtype)
    return sums, magnitudes, rounded


def measure() -> str:
    rows = []
    for dtype in FLOAT_TYPES:
        for kind, n in SETS:
            A, B = matrices(dtype, kind, n)
            described = f"{kind} n={n}"
            rows += sum_rows("matmul", [A, B], {}, described, exact(A, B), n, 1, unit(dtype), eta(dtype))
    return as_csv(rows, HEADER)


@req("MATMUL_P1")
def test_P1_the_published_accuracy_is_what_the_engines_give() -> None:
    assert_published(TABLE, measure())


@req("MATMUL_P1")
def test_P1_the_engines_float32_results_meet_the_bound() -> None:
    """What the page says: numpy, the ONNX reference and onnxruntime meet MATMUL_P1 in float32, where
    summing in the type's order is allowed; none is the correctly rounded result everywhere."""
    rows = list(csv.DictReader(io.StringIO(TABLE.read_text(encoding="utf-8"))))
    float32 = [r for r in rows if r["type"] == "float32"]
    assert float32 and all(r["meets MATMUL_P1"] == "yes" for r in float32)
