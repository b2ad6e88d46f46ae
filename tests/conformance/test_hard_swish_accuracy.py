"""HardSwish's accuracy in numpy, the ONNX reference and onnxruntime, measured against the correctly rounded
result: every finite float16 and bfloat16, a float32 sample with the hard cases (ties, values next to −3,
subnormals), a float64 sample. The table is written to docs/operators/hard_swish.accuracy.csv, which the
operator's page shows: one source, rewritten by each run (commit it when it changes)."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import ml_dtypes
import numpy as np
from engine_accuracy import assert_published
from onnx_engines import ENGINES
from support import req

from sonnx_spec import hard_swish
from sonnx_spec.ops.hard_swish import meets_accuracy

TABLE = Path(__file__).resolve().parents[2] / "docs" / "operators" / "hard_swish.accuracy.csv"
HEADER = [
    "Type",
    "Engine",
    "Inputs",
    "Max ULP",
    "Not correctly rounded",
    "Worst input",
    "Beyond HARDSWISH_P2",
]


def inputs(dtype: np.dtype) -> np.ndarray:
    """The finite inputs measured in ``dtype``: all of them for the 16-bit types, a fixed sample else."""
    if dtype.itemsize == 2:
        every = np.arange(2**16, dtype=np.uint16).view(dtype)
        with np.errstate(invalid="ignore"):
            return every[np.isfinite(every.astype(np.float32))]
    rng = np.random.default_rng(20260523)
    size = 100_000 if dtype == np.float32 else 10_000
    p = ml_dtypes.finfo(dtype).nmant
    ulp3 = 2.0 ** (1 - p)  # the spacing of the values next to −3
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    parts = [
        rng.standard_normal(size) * 2,
        rng.uniform(-3, 3, size),
        -3 + ulp3 * np.arange(1, 1001),  # where the value vanishes
        np.ldexp(
            rng.uniform(-1, 1, size // 10), rng.integers(ml_dtypes.finfo(dtype).minexp - p, 2, size // 10)
        ),
        tiny * np.arange(-50, 51),
        3 * np.arange(1, 2001, 2) / 2.0**12,  # h(±3n/2¹²) = 3n(2¹² ± n)/2²⁵: ties among them
        -3 * np.arange(1, 2001, 2) / 2.0**12,
    ]
    return np.concatenate(parts).astype(dtype)


def ordinal(Y: np.ndarray) -> np.ndarray:
    """Each value's position in its type's order (±0 both at 0): the distance of two is in ULPs."""
    bits = Y.view(f"u{Y.dtype.itemsize}").astype(np.uint64)
    width = np.uint64(8 * Y.dtype.itemsize - 1)
    magnitude = (bits & ((np.uint64(1) << width) - np.uint64(1))).astype(np.int64)
    return np.where(bits >> width, -magnitude, magnitude)


def measure(dtype: np.dtype, engine: object) -> list[str]:
    X = inputs(dtype)
    result = engine.run("hard_swish", [X], {})
    name = f"{dtype.name}"
    if result.status != "output":
        return [name, engine.title, f"{X.size}", "no kernel", "", "", ""]
    Y, spec = np.asarray(result.outputs[0]), hard_swish(X)
    with np.errstate(invalid="ignore"):
        nan = np.isnan(Y.astype(np.float64))
    distance = np.abs(ordinal(Y) - ordinal(spec)).astype(np.float64)
    with np.errstate(invalid="ignore"):
        distance[nan | (np.isinf(Y.astype(np.float64)) & np.isfinite(X.astype(np.float64)))] = math.inf
    differ = distance > 0
    worst = int(np.argmax(distance))
    beyond = np.zeros(X.shape, bool)
    beyond[differ] = ~meets_accuracy(X[differ], Y[differ])  # HARDSWISH_P2, exactly, where Y is not exact
    return [
        name,
        engine.title,
        f"{X.size}",
        "∞" if math.isinf(distance[worst]) else f"{int(distance[worst])}",
        share(differ),
        str(X[worst]) if differ.any() else "",
        share(beyond),
    ]


def share(which: np.ndarray) -> str:
    """The share of true elements, in percent to three digits (a count below 0.1 %)."""
    count = int(which.sum())
    if count == 0 or 1000 * count >= which.size:
        return f"{100 * count / which.size:.3g} %"
    return f"{count} of {which.size}"


@req("HARDSWISH_P2")
def test_P2_the_measured_errors_of_the_engines_are_written_for_the_page() -> None:
    types = ("float16", ml_dtypes.bfloat16, "float32", "float64")
    rows = [measure(np.dtype(t), engine) for t in types for engine in ENGINES]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([HEADER, *rows])
    assert_published(TABLE, text.getvalue())
    numpy_float16 = next(r for r in rows if r[0] == "float16" and r[1] == "numpy")
    assert numpy_float16[3] == "∞"  # numpy's formula overflows in float16 (x·6 above 65504): measured
    assert all(row[3] in ("no kernel", "∞") or int(row[3]) >= 0 for row in rows)
