"""Small ONNX models for the model tools' tests, built from the registry for any of its operators.

``sample_node`` gives a node of an operator that the profile accepts: every input
and attribute given, inputs of one shape (or of their declared rank), a variadic
input twice, float attributes 0.5, int attributes 1, tensor attributes of ones (no
value of another kind, a permutation or a mode, fits every operator). Tests then
break it one way at a time.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper
from support import places_elements, tensor_type, unavailable

from sonnx_spec import Operator, operators

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))  # the operators' cases
from operator_cases import modules, sample_call_of

OPERATORS = list(operators().values())


def requires(module: str) -> Any:
    """Import a test dependency; outside CI a missing one skips the test, in CI it fails it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        unavailable(f"{module} is not installed ({error})")


def elem_type(dtype: np.dtype) -> int:
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def value_info(name: str, dtype: np.dtype | int, shape: Sequence[int | str] | None) -> onnx.ValueInfoProto:
    kind = dtype if isinstance(dtype, int) else elem_type(dtype)
    return helper.make_tensor_value_info(name, kind, shape)


def ir_version(opset: int) -> int:
    """The oldest IR version of ``opset``, which onnxruntime reads."""
    return helper.find_min_ir_version_for([helper.make_opsetid("", opset)])


def make_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    initializers: Mapping[str, np.ndarray] | None = None,
    opset: int | None = None,
) -> onnx.ModelProto:
    """A model of the default domain; its opset is the newest version the profile bases an operator
    of it on (13 for Clip, Max, Abs), so that every node resolves to that version."""
    if opset is None:
        by_onnx = {op.onnx: op.version for op in OPERATORS}
        opset = max([by_onnx.get(node.op_type, 13) for node in nodes] + [13])
    tensors = [numpy_helper.from_array(np.asarray(v), name) for name, v in (initializers or {}).items()]
    graph = helper.make_graph(list(nodes), "test", list(inputs), list(outputs), initializer=tensors)
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=ir_version(opset)
    )


@dataclass
class SampleNode:
    """A one-node model of ``op`` and the values to run it with."""

    op: Operator
    node: onnx.NodeProto
    inputs: list[onnx.ValueInfoProto]
    outputs: list[onnx.ValueInfoProto]
    feeds: dict[str, np.ndarray] = field(default_factory=dict)
    call: tuple[list, dict] = ([], {})  # the reference's arguments for what the model computes
    initializers: dict[str, np.ndarray] = field(default_factory=dict)  # the inputs that set a shape

    def model(self, **kwargs: object) -> onnx.ModelProto:
        kwargs.setdefault("initializers", self.initializers or None)
        return make_model([self.node], self.inputs, self.outputs, **kwargs)  # type: ignore[arg-type]


def sample_node(
    op: Operator, dtype: np.dtype, shape: tuple[int, ...] = (2, 3), name: str = "n"
) -> SampleNode:
    if places_elements(op) or getattr(modules()[op.name], "SAMPLE_FROM_CASES", False):
        return placing_node(op, dtype, name)
    node_inputs, inputs, feeds = [], [], {}
    for tensor in op.inputs:
        for copy in range(2 if tensor.variadic else 1):
            tensor_name = f"{tensor.onnx}{copy if tensor.variadic else ''}"
            value = np.ones(
                shape if tensor.rank is None else shape[: tensor.rank], tensor_type(op, tensor.type, dtype)
            )
            node_inputs.append(tensor_name)
            inputs.append(value_info(tensor_name, value.dtype, value.shape))
            feeds[tensor_name] = value
    attributes = {}
    for attribute in op.attributes:
        if attribute.kind == "float":
            attributes[attribute.onnx] = 0.5
        elif attribute.kind == "int":
            attributes[attribute.onnx] = 1
        elif attribute.kind == "tensor":
            value = np.ones(shape, tensor_type(op, attribute.type or "", dtype))
            attributes[attribute.onnx] = numpy_helper.from_array(value)
        else:  # a permutation, a mode: no value fits every operator
            raise NotImplementedError(
                f"sample_node: no value of kind {attribute.kind} for {op.name}'s {attribute.name}"
            )
    by_name = {a.name: attributes.get(a.onnx) for a in op.attributes}  # the type Cast's to names
    kwargs = {a.name: by_name[a.name] for a in op.attributes}
    for attribute in op.attributes:
        if attribute.kind == "tensor":
            kwargs[attribute.name] = numpy_helper.to_array(by_name[attribute.name])
    # Each output declared of the shape the reference gives: the inputs' common shape for most, a
    # vector of the rank for Shape, one part per output for Split, a smaller one for ArgMax.
    given = op.results(op.function(*feeds.values(), **kwargs))
    outputs = [
        value_info(
            f"{t.onnx}_out" if not t.variadic else f"{t.onnx}_out{m}",
            op.output_dtype(dtype, by_name, m),
            value.shape,
        )
        for m, (t, value) in enumerate(zip(_each(op, len(given)), given, strict=True))
    ]
    node = helper.make_node(op.onnx, node_inputs, [o.name for o in outputs], name=name, **attributes)
    return SampleNode(op, node, inputs, outputs, feeds, (list(feeds.values()), kwargs))


def _each(op: Operator, count: int) -> list:
    """The declaration of each of ``count`` outputs: a variadic last one repeated."""
    return [op.outputs[min(m, len(op.outputs) - 1)] for m in range(count)]


def placing_node(op: Operator, dtype: np.dtype, name: str) -> SampleNode:
    """A node of an operator whose inputs or attributes place elements (Reshape's shape), from its first
    conformance case (support.sample_call; operator_cases.sample_call_of for MatMul, whose A and B of one
    shape do not multiply): the inputs that set a shape are initializers, as the profile requires (GR2),
    the others graph inputs."""
    args, kwargs = sample_call_of(op, dtype)
    inputs, feeds, initializers = [], {}, {}
    for tensor, value in zip(op.inputs, args, strict=True):
        if tensor.sets_shape:
            initializers[tensor.onnx] = value
        else:
            inputs.append(value_info(tensor.onnx, value.dtype, value.shape))
            feeds[tensor.onnx] = value
    attributes = {
        a.onnx: numpy_helper.from_array(kwargs[a.name]) if a.kind == "tensor" else kwargs[a.name]
        for a in op.attributes
    }
    results = op.results(op.function(*args, **kwargs))  # the shapes the model declares
    outputs = [
        value_info(f"{t.onnx}_out", r.dtype, r.shape) for t, r in zip(op.outputs, results, strict=False)
    ]
    node = helper.make_node(
        op.onnx, [t.onnx for t in op.inputs], [o.name for o in outputs], name=name, **attributes
    )
    return SampleNode(op, node, inputs, outputs, feeds, (args, kwargs), initializers)


def not_in_profile() -> str:
    """An ONNX operator of the default domain that the profile does not specify: of those outside its list
    (REQ OP 000), whose outputs' shapes depend on their values or which hold graphs."""
    specified = {op.onnx for op in OPERATORS}
    return next(t for t in ("NonZero", "Einsum", "TopK", "Loop") if t not in specified)
