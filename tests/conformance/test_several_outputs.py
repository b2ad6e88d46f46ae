"""The conformance harness on an operator of two outputs (ONNX's Split, registered for these tests only):
the engines' model lists every output, and every output is compared."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_engines import OnnxReference, OnnxRuntime, Result, one_node_model
from registered_operators import new_kinds  # noqa: F401 (the fixture)
from spec_comparison import agrees, run_spec

pytestmark = pytest.mark.usefixtures("new_kinds")
X = np.arange(8, dtype=np.float32).reshape(4, 2)
HALVES = {"axis": 0, "num_outputs": 2}


def test_the_one_node_model_lists_every_output() -> None:
    model = one_node_model("split", [X.dtype], HALVES, 2)
    assert [o.name for o in model.graph.output] == ["y0", "y1"] and list(model.graph.node[0].output) == [
        "y0",
        "y1",
    ]


@pytest.mark.parametrize("engine", [OnnxReference(), OnnxRuntime()], ids=lambda e: e.name)
def test_every_output_is_compared(engine: OnnxReference | OnnxRuntime) -> None:
    spec = run_spec("split", [X], HALVES)
    assert [o.tolist() for o in spec.outputs] == [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
    result = engine.run("split", [X], HALVES, 2)
    assert result.status == "output" and agrees(spec, result)
    second_differs = Result("output", (result.outputs[0], result.outputs[1] + 1))
    assert not agrees(spec, second_differs)
    assert not agrees(spec, Result("output", result.outputs[:1]))  # an output missing
