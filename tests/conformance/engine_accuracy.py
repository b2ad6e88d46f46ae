"""The accuracy of the engines on a correctly rounded operator, measured against MPFR (issue 21).

An operator whose conformance module states ``ACCURACY = Accuracy(...)`` (Exp, Log; Tanh, Sigmoid and the
others after them) is measured here on numpy, the ONNX reference evaluator and onnxruntime: every float16
and bfloat16 value, and a float32 sample (random bit patterns, and random values of the range where the
function is not trivially 0, 1 or ±∞). For each engine and type: the largest distance in units in the last
place from the correctly rounded result (MPFR, called element by element here), the share of elements not
correctly rounded, the worst input, and whether the engine meets the operator's accuracy rule. The table is
written to ``docs/operators/<op>.accuracy.csv``, which the operator's page shows: one source, made by
``tests/conformance/test_engine_accuracy.py`` (``SONNX_WRITE_MEASURED=1`` rewrites it; otherwise the test
fails when the committed table is not what the engines give now).
"""

from __future__ import annotations

import csv
import io
import math
import os
from fractions import Fraction
from pathlib import Path

import gmpy2
import ml_dtypes
import numpy as np
from onnx_engines import ENGINES, Engine
from operator_cases import Accuracy
from support import correctly_rounded

from sonnx_spec.correctly_rounded import NOT_A_DISTANCE, ulp_distance

SAMPLE = 100_000
MEASURED_TYPES = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32))
HEADER = (
    "engine",
    "type",
    "inputs",
    "max ulp",
    "not correctly rounded",
    "worst input",
    "engine gives",
    "correctly rounded",
    "meets",
)


def inputs(accuracy: Accuracy, dtype: np.dtype) -> tuple[np.ndarray, str]:
    """Every value of a 16-bit type; for float32, random bit patterns and random values of the range."""
    if dtype.itemsize == 2:
        return np.arange(2**16, dtype=np.uint16).view(dtype), "all 65536"
    rng = np.random.default_rng(2026)
    patterns = rng.integers(0, 2**32, SAMPLE, dtype=np.uint64).astype(np.uint32).view(np.float32)
    low, high = accuracy.float32_range
    values = rng.uniform(low, high, SAMPLE).astype(np.float32)
    return np.concatenate(
        [patterns, values]
    ), f"{SAMPLE} random patterns, {SAMPLE} random in [{low:g}, {high:g}]"


def expected(accuracy: Accuracy, X: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # signalling NaNs among the patterns
        values = X.astype(np.float64).tolist()
    return np.array([correctly_rounded(X.dtype, accuracy.mpfr, v) for v in values], np.float64).astype(
        X.dtype
    )


def measure(op: str, accuracy: Accuracy) -> list[tuple[str, ...]]:
    """One row per engine and type: see HEADER."""
    rows = []
    for dtype in MEASURED_TYPES:
        X, described = inputs(accuracy, dtype)
        X.flags.writeable = False
        Y = expected(accuracy, X)
        for engine in ENGINES:
            rows.append(engine_row(engine, op, [X], Y, described, accuracy.ulps, accuracy.rule))
    return rows


def engine_row(
    engine: Engine,
    op: str,
    operands: list[np.ndarray],
    expected: np.ndarray,
    described: str,
    ulps: int,
    rule: str,
    joined_by: str = ", ",
) -> tuple[str, ...]:
    """One engine's row of a published table (see HEADER): its result against ``expected``, the worst
    element's operands (joined by ``joined_by``: Pow's "x ^ y"), and whether it is within ``ulps``."""
    dtype = expected.dtype
    result = engine.run(op, operands, {})
    if result.status != "output":
        return (engine.name, dtype.name, described, "", "", "", "", "", f"no: {result.status}")
    distance = ulp_distance(result.outputs[0], expected)
    worst = int(np.argmax(distance))
    largest = int(distance[worst])
    share = float(np.count_nonzero(distance)) / distance.size
    return (
        engine.name,
        dtype.name,
        described,
        "NaN for a number" if largest == NOT_A_DISTANCE else str(largest),
        f"{share:.3%}",
        joined_by.join(_shown(x[worst]) for x in operands),
        _shown(result.outputs[0][worst]),
        _shown(expected[worst]),
        "yes" if largest <= ulps else f"no ({rule})",
    )


def _shown(value: np.generic) -> str:
    """A value as the shortest decimal that its type reads back (repr of the value in its type)."""
    number = float(np.float64(value))
    if math.isnan(number) or math.isinf(number):
        return str(number)
    return str(value.item() if value.dtype == np.float64 else float(gmpy2.mpfr(number))).replace("e+", "e")


def as_csv(rows: list[tuple[str, ...]], header: tuple[str, ...] = HEADER) -> str:
    """A published accuracy table's text: its header (an operator's own, or this module's), then its rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def assert_published(path: Path, measured: str) -> None:
    """The table committed at ``path`` is ``measured``, what the engines give now
    (``SONNX_WRITE_MEASURED=1`` writes it there first)."""
    if os.environ.get("SONNX_WRITE_MEASURED") == "1":
        path.write_text(measured, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    stale = f"{path.relative_to(root)} is not what the engines give now: rerun with SONNX_WRITE_MEASURED=1"
    assert path.exists() and path.read_text(encoding="utf-8") == measured, stale


# -- sums of products (MatMul, Gemm): the engines against the exact sum and the operator's bound ----------

SUMS_HEADER = ("engine", "type", "inputs", "not correctly rounded", "max ulp", "max error / bound")
"""The columns of a sums-of-products table, before its last: ``meets <rule>``."""


def exact_sums(
    A: np.ndarray, B: np.ndarray, C: np.ndarray | None = None
) -> tuple[list[list[Fraction]], list[list[Fraction]]]:
    """Each element's exact Σₖ A[i, k]·B[k, j] (+ C[i, j]) and its sum of magnitudes, in fractions."""
    a, b = A.astype(np.float64).tolist(), B.astype(np.float64).T.tolist()
    c = np.zeros((len(a), len(b))) if C is None else C.astype(np.float64)
    sums = [
        [
            sum((Fraction(x) * Fraction(y) for x, y in zip(r, col, strict=True)), Fraction(c[i][j]))
            for j, col in enumerate(b)
        ]
        for i, r in enumerate(a)
    ]
    magnitudes = [
        [
            sum((abs(Fraction(x) * Fraction(y)) for x, y in zip(r, col, strict=True)), abs(Fraction(c[i][j])))
            for j, col in enumerate(b)
        ]
        for i, r in enumerate(a)
    ]
    return sums, magnitudes


def sum_rows(
    op: str,
    operands: list[np.ndarray],
    attributes: dict,
    described: str,
    exact: tuple[list[list[Fraction]], list[list[Fraction]], np.ndarray],
    n: int,
    extra: int,
    unit: float,
    floor: float,
) -> list[tuple[str, ...]]:
    """One row per engine (SUMS_HEADER, then whether it meets the bound): its result against the exact
    sums, their magnitudes and their correct rounding (``exact``), and against the bound γₖ·S⁺ + 2k·η of
    k = n + ``extra`` terms (MatMul's n + 1, Gemm's n + 2), u = ``unit``, η = ``floor``, where 2k·u ≤ 1."""
    sums, magnitudes, rounded = exact
    k = n + extra
    gamma = k * unit / (1 - k * unit)
    applies = 2 * k * unit <= 1
    rows = []
    for engine in ENGINES:
        result = engine.run(op, operands, attributes)
        if result.status != "output":
            rows.append((engine.name, rounded.dtype.name, described, "no kernel", "", "", ""))
            continue
        Y = np.asarray(result.outputs[0])
        distances = ulp_distance(Y, rounded)
        worst = max(
            abs(Fraction(float(Y[i, j])) - sums[i][j]) / (gamma * magnitudes[i][j] + 2 * k * floor)
            for i, j in np.ndindex(Y.shape)
        )
        meets = ("yes" if worst <= 1 else "no") if applies else f"no bound: 2(n + {extra})u > 1"
        rows.append(
            (
                engine.name,
                rounded.dtype.name,
                described,
                f"{int((distances != 0).sum())} of {distances.size}",
                str(int(distances.max())),
                f"{float(worst):.3g}" if applies else "",
                meets,
            )
        )
    return rows
