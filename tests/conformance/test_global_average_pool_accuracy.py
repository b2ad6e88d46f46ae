"""GlobalAveragePool's engines measured against the exact mean: numpy (its mean over the spatial axes, in the
type), the ONNX reference evaluator and onnxruntime, for each floating-point type, on fixed random images of
a few sizes and on channels that cancel.

For each engine, type and set: how many elements are not the exact mean rounded once, the largest distance
from it in units in the last place, the largest error as a share of GLOBALAVERAGEPOOL_P1's bound, and
whether every element meets the bound. The oracle is independent of the reference: the exact mean in
fractions, rounded once by MPFR (tests/test_global_average_pool.py's ``expected``). The table is written
to docs/operators/global_average_pool.accuracy.csv, which the page shows (``SONNX_WRITE_MEASURED=1``
rewrites it; otherwise the test fails when the committed table is not what the engines give now).
"""

from __future__ import annotations

import csv
import io
import math
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
from engine_accuracy import SUMS_HEADER, as_csv, assert_published
from onnx_engines import ENGINES
from support import req
from test_global_average_pool import expected

from sonnx_spec import FLOAT_TYPES
from sonnx_spec.correctly_rounded import ulp_distance

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "operators" / "global_average_pool.accuracy.csv"
HEADER = (*SUMS_HEADER, "meets GLOBALAVERAGEPOOL_P1")
N, C = 2, 8
SETS = (("random", (4, 4)), ("random", (7, 9)), ("random", (32, 32)), ("cancelling", (8, 8)))


def images(dtype: np.dtype, kind: str, spatial: tuple[int, ...]) -> np.ndarray:
    """Fixed random X (2, 8, *spatial): standard normal values, or channels whose last element nearly
    cancels the sum of the others (their float64 sum, negated, rounded to the type, plus a small value)."""
    rng = np.random.default_rng(22 + math.prod(spatial))
    X = rng.standard_normal((N, C, *spatial))
    if kind == "cancelling":
        flat = X.reshape(N, C, -1)
        flat[..., -1] = -flat[..., :-1].sum(axis=-1) * (1 + rng.standard_normal((N, C)) / 1024)
    return X.astype(dtype)


def rows(dtype: np.dtype, kind: str, spatial: tuple[int, ...]) -> list[tuple[str, ...]]:
    """One row per engine (HEADER): its result against the exact means, their rounding and the bound."""
    X = images(dtype, kind, spatial)
    n = math.prod(spatial)
    terms = [[Fraction(t) for t in channel] for channel in X.astype(np.float64).reshape(N * C, n).tolist()]
    means = [sum(t, Fraction(0)) / n for t in terms]
    info = ml_dtypes.finfo(dtype)
    u = Fraction(1, 2 ** (info.nmant + 1))
    applies = (n + 1) * u < 1
    gamma = (n + 1) * u / (1 - (n + 1) * u) if applies else Fraction(0)
    eta = Fraction(float(info.smallest_subnormal))
    bounds = [gamma * sum(map(abs, t)) / n + eta for t in terms]
    rounded = expected(X)
    described = f"{kind} {'×'.join(map(str, spatial))}"
    found = []
    for engine in ENGINES:
        result = engine.run("global_average_pool", [X], {})
        if result.status != "output":
            found.append((engine.name, dtype.name, described, "no kernel", "", "", ""))
            continue
        Y = np.asarray(result.outputs[0]).reshape(-1)
        distances = ulp_distance(Y, rounded.reshape(-1))
        worst = max(abs(Fraction(float(y)) - m) / b for y, m, b in zip(Y, means, bounds, strict=True))
        meets = ("yes" if worst <= 1 else "no") if applies else "no bound: (n + 1)u ≥ 1"
        shown = f"{float(worst):.3g}" if applies else ""
        found.append(
            (
                engine.name,
                dtype.name,
                described,
                f"{int((distances != 0).sum())} of {distances.size}",
                str(int(distances.max())),
                shown,
                meets,
            )
        )
    return found


def measure() -> str:
    return as_csv(
        [r for dtype in FLOAT_TYPES for kind, spatial in SETS for r in rows(dtype, kind, spatial)], HEADER
    )


@req("GLOBALAVERAGEPOOL_P1")
def test_P1_the_published_accuracy_is_what_the_engines_give() -> None:
    assert_published(TABLE, measure())


@req("GLOBALAVERAGEPOOL_P1")
def test_P1_every_engine_that_runs_meets_the_bound() -> None:
    """What the page says: every engine's result meets GLOBALAVERAGEPOOL_P1 wherever it applies."""
    table = list(csv.DictReader(io.StringIO(TABLE.read_text(encoding="utf-8"))))
    ran = [r for r in table if r["not correctly rounded"] != "no kernel"]
    assert ran and all(r["meets GLOBALAVERAGEPOOL_P1"] in ("yes", "no bound: (n + 1)u ≥ 1") for r in ran)
