"""``run_model``: what a model's outputs are for given inputs, computed by the reference operators.

The model is checked first: one the checker refuses is refused here with the same
report (ModelRefused). The given tensors must be exactly the graph's inputs, of
the declared types and shapes (MODEL_E1). Then each node's operator is applied to
the values of its inputs, in a topological order of the graph (MODEL_S1); a
refusal of an operator is a SonnxError that names the node (NodeError).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np
import onnx
from onnx import numpy_helper

from ..errors import SonnxError
from .binding import bind, call
from .check import check_model
from .findings import ModelRefused, NodeError
from .graph import TensorType, dataflow, node_refs, profile_operator, type_of
from .load import load_model
from .progress import Progress


def run_model(
    source: str | os.PathLike | bytes | onnx.ModelProto,
    inputs: Mapping[str, np.ndarray | np.generic],
    progress: Progress | None = None,
) -> dict[str, np.ndarray]:
    """The graph outputs, by name, for the graph inputs ``inputs`` (numpy arrays, by name);
    ``progress(done, total)`` is called after each node.

    Raises ModelUnreadable, ModelRefused (the model is not in the profile: ``.report``),
    SonnxError for MODEL_E1, and NodeError (a SonnxError) when an operator refuses its inputs.
    """
    model, name = load_model(source)
    values = _evaluate(model, name, inputs, progress)
    return {output.name: np.array(values[output.name], copy=True) for output in model.graph.output}


def evaluate(
    source: str | os.PathLike | bytes | onnx.ModelProto,
    inputs: Mapping[str, np.ndarray | np.generic],
    progress: Progress | None = None,
) -> dict[str, np.ndarray | np.generic]:
    """Every tensor of the model, by name: the graph inputs, the initializers and each node's outputs, as
    :func:`run_model` computes them (it raises what run_model raises)."""
    return _evaluate(*load_model(source), inputs, progress)


def _evaluate(
    model: onnx.ModelProto,
    name: str,
    inputs: Mapping[str, np.ndarray | np.generic],
    progress: Progress | None = None,
) -> dict[str, np.ndarray | np.generic]:
    report = check_model(model)
    report.source = name
    if not report.in_profile:
        raise ModelRefused(report)
    graph = model.graph
    values: dict[str, np.ndarray | np.generic] = dict(_graph_inputs(graph, inputs))
    values.update({t.name: numpy_helper.to_array(t) for t in graph.initializer})
    refs = node_refs(graph)
    order = dataflow(graph).order
    for done, index in enumerate(order, 1):  # MODEL_S1: each node after the nodes producing its inputs
        node, ref = graph.node[index], refs[index]
        op = profile_operator(node)
        assert op is not None  # the check refused any other
        bound = bind(op, node)
        args, kwargs = call(op, bound, lambda tensor: values[tensor.name])
        try:
            produced = op.results(op.function(*args, **kwargs))
        except SonnxError as error:
            raise NodeError(ref, error) from None
        values.update((t.name, value) for t, value in zip(bound.outputs, produced, strict=False) if t.name)
        if progress:
            progress(done, len(order))
    return values


def _graph_inputs(
    graph: onnx.GraphProto, given: Mapping[str, np.ndarray | np.generic]
) -> dict[str, np.ndarray | np.generic]:
    """The given tensors, checked against the graph inputs the model declares (MODEL_E1)."""
    initialized = {t.name for t in graph.initializer}
    declared = {v.name: type_of(v.type) for v in graph.input if v.name not in initialized}
    missing = [name for name in declared if name not in given]
    if missing:
        raise SonnxError(
            "MODEL_E1", f"graph input {missing[0]!r} is not given (the model's inputs: {_names(declared)})"
        )
    unknown = [name for name in given if name not in declared]
    if unknown:
        raise SonnxError(
            "MODEL_E1", f"{unknown[0]!r} is not a graph input (the model's inputs: {_names(declared)})"
        )
    for name, value in given.items():
        expected = declared[name]
        if not isinstance(value, np.ndarray | np.generic):
            raise SonnxError(
                "MODEL_E1", f"graph input {name!r} is a {type(value).__name__}, not a numpy array"
            )
        if value.dtype != expected.dtype:
            raise SonnxError(
                "MODEL_E1", f"graph input {name!r} is {value.dtype}, the model declares {_type(expected)}"
            )
        if tuple(value.shape) != expected.static_shape:
            raise SonnxError(
                "MODEL_E1",
                f"graph input {name!r} has shape {tuple(value.shape)}, not {expected.shape_text()}",
            )
    return dict(given)


def _names(declared: Mapping[str, TensorType]) -> str:
    return ", ".join(repr(name) for name in declared) or "none"


def _type(tensor: TensorType) -> str:
    return tensor.dtype.name if tensor.dtype is not None else tensor.type_name
