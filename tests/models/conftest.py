"""Fixtures of the model tools' tests: the models gallery (gallery/), built once."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest
from graphs import requires

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # gallery/: tooling beside the package
import gallery


@pytest.fixture(scope="module")
def made() -> dict[str, gallery.Model]:
    """Every model of the gallery, by name (scikit-learn trains two: onnxruntime and skl2onnx needed)."""
    requires("onnxruntime")
    requires("skl2onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's convergence notices
        return {m.name: m for m in gallery.models()}
