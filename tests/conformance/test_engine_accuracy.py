"""The engines' accuracy on the correctly rounded operators, measured and published (engine_accuracy)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_accuracy import as_csv, assert_published, measure
from operator_cases import modules

ROOT = Path(__file__).resolve().parents[2]
MEASURED = [
    pytest.param(op, module.ACCURACY, id=op, marks=pytest.mark.req(module.ACCURACY.rule))
    for op, module in modules().items()
    if hasattr(module, "ACCURACY")
]


@pytest.mark.parametrize(("op", "accuracy"), MEASURED)
def test_the_published_accuracy_is_what_the_engines_give(op: str, accuracy: object) -> None:
    path = ROOT / "docs" / "operators" / f"{op}.accuracy.csv"
    assert_published(path, as_csv(measure(op, accuracy)))  # type: ignore[arg-type]
