"""Running the spec on a case, and comparing its result with an engine's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from onnx_engines import Result

import sonnx_spec
from sonnx_spec.compare import same_result


def run_spec(op: str, inputs: Sequence[np.ndarray | None], attributes: Mapping[str, Any]) -> Result:
    """The spec's outputs, or the id of the rule by which it refuses the input."""
    spec = sonnx_spec.operators()[op]
    try:
        return Result("output", spec.results(spec.function(*inputs, **attributes)))
    except sonnx_spec.SonnxError as error:
        return Result("refused", message=error.req_id)


def agrees(spec: Result, engine: Result) -> bool:
    """The engine gives the spec's outputs, or refuses an input the spec refuses (for whatever reason)."""
    if spec.status == "refused":
        return engine.status == "refused"
    return (
        engine.status == "output"
        and len(engine.outputs) == len(spec.outputs)
        and all(same_result(e, s) for e, s in zip(engine.outputs, spec.outputs, strict=True))
    )
