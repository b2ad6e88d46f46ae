"""The graph of a model as the checker and the runner read it: nodes, tensors, their types and shapes."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import helper

from ..registry import Operator, operators
from .findings import NodeRef

ONNX_DOMAINS = ("", "ai.onnx")
"""The default ONNX domain, by both of its names: the profile's operators are in it."""


def profile_operators() -> dict[str, Operator]:
    """ONNX op_type -> the profile's operator."""
    return {op.onnx: op for op in operators().values()}


def profile_operator(node: onnx.NodeProto) -> Operator | None:
    if node.domain not in ONNX_DOMAINS:
        return None
    return profile_operators().get(node.op_type)


def node_refs(graph: onnx.GraphProto) -> list[NodeRef]:
    return [NodeRef(i, n.op_type, n.name, n.domain) for i, n in enumerate(graph.node)]


def opset_versions(model: onnx.ModelProto) -> dict[str, int]:
    """domain -> imported opset version ("ai.onnx" counted as the default domain "")."""
    return {("" if o.domain == "ai.onnx" else o.domain): o.version for o in model.opset_import}


@dataclass(frozen=True)
class TensorType:
    """What the model says (or ONNX infers) of a tensor: element type and shape, each possibly unknown."""

    elem_type: int  # onnx.TensorProto.DataType; 0 (UNDEFINED) if unknown
    shape: tuple[int | str | None, ...] | None  # None: unknown rank; str: a symbolic dimension
    sparse: bool = False
    kind: str = "tensor"  # tensor, sparse_tensor, sequence, map, optional…

    @property
    def type_name(self) -> str:
        return onnx.TensorProto.DataType.Name(self.elem_type).lower() if self.elem_type else "unknown"

    @property
    def dtype(self) -> np.dtype | None:
        """The numpy dtype of the element type; None if unknown or without one."""
        if not self.elem_type:
            return None
        try:
            return np.dtype(helper.tensor_dtype_to_np_dtype(self.elem_type))
        except (KeyError, TypeError, ValueError):
            return None

    @property
    def static_shape(self) -> tuple[int, ...] | None:
        """The shape if every dimension is a known natural number."""
        if self.shape is None or any(not isinstance(d, int) or d < 0 for d in self.shape):
            return None
        return tuple(int(d) for d in self.shape)  # type: ignore[arg-type]

    def shape_text(self) -> str:
        if self.shape is None:
            return "unknown rank"
        dims = ["?" if d is None else str(d) for d in self.shape]
        return f"({dims[0]},)" if len(dims) == 1 else f"({', '.join(dims)})"  # as Python writes a tuple


def type_of(type_proto: onnx.TypeProto) -> TensorType:
    kind = type_proto.WhichOneof("value") or "unknown"
    if kind not in ("tensor_type", "sparse_tensor_type"):
        return TensorType(0, None, kind=kind.removesuffix("_type"))
    tensor = getattr(type_proto, kind)
    shape = None
    if tensor.HasField("shape"):
        shape = tuple(_dimension(d) for d in tensor.shape.dim)
    return TensorType(tensor.elem_type, shape, sparse=kind == "sparse_tensor_type")


def _dimension(dim: Any) -> int | str | None:
    which = dim.WhichOneof("value")
    if which == "dim_value":
        return int(dim.dim_value)
    if which == "dim_param":
        return str(dim.dim_param)
    return None


def initializer_type(tensor: onnx.TensorProto) -> TensorType:
    return TensorType(tensor.data_type, tuple(int(d) for d in tensor.dims))


def declared_types(graph: onnx.GraphProto) -> dict[str, TensorType]:
    """The types the model itself declares: graph inputs and outputs, value_info, initializers."""
    found = {v.name: type_of(v.type) for v in [*graph.value_info, *graph.input, *graph.output]}
    found.update({t.name: initializer_type(t) for t in graph.initializer})
    found.update({t.values.name: initializer_type(t.values) for t in graph.sparse_initializer})
    return found


def inferred_types(model: onnx.ModelProto) -> dict[str, TensorType]:
    """The declared types completed by ONNX's shape inference (what it cannot infer stays unknown)."""
    try:
        inferred = onnx.shape_inference.infer_shapes(
            model, check_type=False, strict_mode=False, data_prop=True
        )
    except Exception:  # inference of a malformed model: keep what the model declares
        inferred = model
    return declared_types(inferred.graph)


@dataclass(frozen=True)
class Dataflow:
    """The nodes in a topological order, and what stands in the way of one."""

    order: list[int]  # indices of the nodes that can run, each after the producers of its inputs
    cycle: list[int]  # nodes that wait on each other (or on a node of a cycle)
    undefined: dict[str, list[int]]  # tensor read but never produced -> the nodes reading it (-1: output)
    produced_twice: dict[str, list[int]]  # tensor -> the nodes producing it


def dataflow(graph: onnx.GraphProto) -> Dataflow:
    """Kahn's algorithm over the nodes; among the nodes ready to run, the first in the model runs first."""
    given = {v.name for v in graph.input} | {t.name for t in graph.initializer}
    given |= {t.values.name for t in graph.sparse_initializer}
    producers: dict[str, list[int]] = {}
    for index, node in enumerate(graph.node):
        for name in node.output:
            if name:
                producers.setdefault(name, []).append(index)
    twice = {name: nodes for name, nodes in producers.items() if len(nodes) > 1 or name in given}
    undefined: dict[str, list[int]] = {}
    for index, node in enumerate(graph.node):
        for name in _reads(node):
            if name not in given and name not in producers:
                undefined.setdefault(name, []).append(index)
    for output in graph.output:
        if output.name not in given and output.name not in producers:
            undefined.setdefault(output.name, []).append(-1)
    # A node waits on the nodes producing what it reads (itself included: a node reading its own output).
    waits_on = [{p for name in _reads(node) for p in producers.get(name, [])} for node in graph.node]
    consumers: dict[int, list[int]] = {}
    for index, producers_of_node in enumerate(waits_on):
        for producer in producers_of_node:
            consumers.setdefault(producer, []).append(index)
    waiting = [len(w) for w in waits_on]
    ready = [index for index, count in enumerate(waiting) if count == 0]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        index = heapq.heappop(ready)
        order.append(index)
        for consumer in consumers.get(index, []):
            waiting[consumer] -= 1
            if waiting[consumer] == 0:
                heapq.heappush(ready, consumer)
    done = set(order)
    cycle = [i for i in range(len(graph.node)) if i not in done]
    return Dataflow(order, cycle, undefined, twice)


def _reads(node: onnx.NodeProto) -> Iterable[str]:
    return (name for name in node.input if name)
