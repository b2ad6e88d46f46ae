"""A tensor in the conformance report: written out whole when small, abridged to its ends when large."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "conformance")]  # tooling and test support, not installed

from conformance_report import SHOWN, _tensor  # noqa: E402

from sonnx_sphinx.directives.conformance import _tensor as shown_on_the_page  # noqa: E402


def test_a_small_tensor_is_written_out_nested_like_the_tensor() -> None:
    tensor = _tensor(np.array([[1, -2], [3, 4]], np.int8), np.dtype(np.int8))
    assert tensor == {"shape": [2, 2], "values": [["1", "-2"], ["3", "4"]]}
    assert shown_on_the_page(tensor) == "`[[1, -2], [3, 4]]`"


def test_a_large_tensor_keeps_its_shape_and_its_first_and_last_elements() -> None:
    array = np.arange(2 * 3 * 1000, dtype=np.float32).reshape(2, 3, 1000)
    tensor = _tensor(array, np.dtype(np.float32))
    assert tensor["shape"] == [2, 3, 1000]
    assert tensor["abridged"] is True
    assert tensor["values"] == [f"{float(i)}" for i in range(12)]
    assert tensor["last"] == [f"{float(i)}" for i in range(5996, 6000)]
    assert len(tensor["values"]) + len(tensor["last"]) == SHOWN
    page = shown_on_the_page(tensor)
    assert page.startswith("`[0.0, 1.0, ")
    assert "11.0, …, 5996.0" in page
    assert page.endswith("5999.0]` (shape 2×3×1000, flattened)")


def test_a_tensor_of_exactly_the_shown_size_is_not_abridged() -> None:
    tensor = _tensor(np.zeros(SHOWN, np.int64), np.dtype(np.int64))
    assert "abridged" not in tensor
    assert tensor["values"] == ["0"] * SHOWN
