"""``compare_model``: the reference's outputs against another engine's, bit for bit.

Two results agree when they have the same element type, the same shape and the
same bits, NaNs aside: every NaN is alike, whatever its sign and payload, since the
profile does not tell them apart (:func:`sonnx_spec.compare.same_result`). Where
they differ, the first differing elements are shown exactly (:mod:`.values`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import onnx

from ..compare import same_result
from ..types import FLOAT_TYPES
from .findings import ModelUnreadable, NodeError
from .load import load_model
from .run import run_model
from .values import exact

ENGINES = ("onnxruntime", "onnx-reference")
Runner = Callable[[onnx.ModelProto, Mapping[str, np.ndarray]], dict[str, np.ndarray]]
FIRST_DIFFERENCES = 5


@dataclass(frozen=True)
class Difference:
    index: tuple[int, ...]
    reference: str
    engine: str


@dataclass(frozen=True)
class OutputComparison:
    name: str
    agree: bool
    reference: np.ndarray | None
    engine: np.ndarray | None
    why: str = ""  # when they do not agree: type, shape, or how many elements differ
    differences: tuple[Difference, ...] = ()


@dataclass
class Comparison:
    """The outputs of the reference and of an engine for one model and one set of inputs."""

    source: str
    engine: str
    engine_version: str
    outputs: list[OutputComparison] = field(default_factory=list)
    reference_refusal: str = ""  # the reference refused the inputs: the SonnxError, naming the node and rule
    reference_rule: str = ""
    engine_failure: str = ""  # the engine could not load or run the model

    @property
    def agree(self) -> bool:
        return not self.reference_refusal and not self.engine_failure and all(o.agree for o in self.outputs)


def compare_model(
    source: str | os.PathLike | bytes | onnx.ModelProto,
    inputs: Mapping[str, np.ndarray | np.generic],
    engine: str = "onnxruntime",
) -> Comparison:
    """Run the model with the reference and with ``engine`` (one of ENGINES) and compare the outputs.

    Raises ModelUnreadable (also when the engine is not installed) and ModelRefused, as run_model does.
    """
    model, name = load_model(source)
    runner, version = engine_runner(engine)
    try:
        expected: dict[str, np.ndarray] | None = run_model(model, inputs)
        refusal, rule_id = "", ""
    except NodeError as error:  # an operator refused its inputs: the engine may not
        expected, refusal, rule_id = None, str(error), error.req_id
    result = Comparison(name, engine, version, reference_refusal=refusal, reference_rule=rule_id)
    try:
        actual = runner(model, inputs)
    except Exception as error:  # the engine cannot load the model, or refuses the inputs
        result.engine_failure = " ".join(f"{type(error).__name__}: {error}".split())[:500]
        actual = None
    for output in model.graph.output:
        ours = None if expected is None else expected[output.name]
        theirs = None if actual is None else actual.get(output.name)
        result.outputs.append(compare_output(output.name, ours, theirs))
    return result


def compare_output(name: str, reference: np.ndarray | None, engine: np.ndarray | None) -> OutputComparison:
    if reference is None or engine is None:
        return OutputComparison(name, False, reference, engine, "no result to compare")
    if same_result(engine, reference):
        return OutputComparison(name, True, reference, engine)
    if engine.dtype != reference.dtype:
        return OutputComparison(
            name, False, reference, engine, f"element type {engine.dtype}, not {reference.dtype}"
        )
    if engine.shape != reference.shape:
        why = f"shape {engine.shape}, not {reference.shape}"
        return OutputComparison(name, False, reference, engine, why)
    differs = ~_same_elements(reference, engine)
    indices = np.argwhere(differs)
    shown = tuple(
        Difference(tuple(int(i) for i in index), exact(reference[tuple(index)]), exact(engine[tuple(index)]))
        for index in indices[:FIRST_DIFFERENCES]
    )
    why = f"{len(indices)} of {reference.size} elements differ"
    return OutputComparison(name, False, reference, engine, why, shown)


def _same_elements(reference: np.ndarray, engine: np.ndarray) -> np.ndarray:
    """Element by element: same bits, or both NaN."""
    if reference.dtype not in FLOAT_TYPES:
        return reference == engine
    bits = np.dtype(f"u{reference.dtype.itemsize}")
    both_nan = np.isnan(reference) & np.isnan(engine)
    return both_nan | (reference.view(bits) == engine.view(bits))


def engine_runner(name: str) -> tuple[Runner, str]:
    if name == "onnxruntime":
        try:
            import onnxruntime
        except ImportError:
            raise ModelUnreadable(
                "compare --engine onnxruntime needs onnxruntime: pip install onnxruntime"
            ) from None
        return _run_onnxruntime, onnxruntime.__version__
    if name == "onnx-reference":
        return _run_onnx_reference, onnx.__version__
    raise ValueError(f"unknown engine {name!r} (known: {', '.join(ENGINES)})")


def _run_onnxruntime(model: onnx.ModelProto, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4  # its errors are raised, and reported, rather than logged
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    names = [o.name for o in session.get_outputs()]
    values = session.run(None, {k: np.asarray(v) for k, v in inputs.items()})
    return {name: np.asarray(value) for name, value in zip(names, values, strict=True)}


def _run_onnx_reference(model: onnx.ModelProto, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    from onnx.reference import ReferenceEvaluator

    session = ReferenceEvaluator(model)
    with np.errstate(invalid="ignore"):  # ml_dtypes flags NaN operands of bfloat16 as invalid
        values = session.run(None, {k: np.asarray(v) for k, v in inputs.items()})
    return {name: np.asarray(value) for name, value in zip(session.output_names, values, strict=True)}
