"""How a node calls its operator: the node's inputs, attributes and outputs bound to the declaration.

The registry names each input, attribute and output as ONNX does (``Tensor.onnx``,
``Attribute.onnx``); a node lists its inputs by position (an empty name is an
omitted input, and trailing omitted inputs are left out) and its attributes by
ONNX name. The reference takes inputs by position (``None`` for an omitted one)
and attributes as keyword arguments named by ``Attribute.name``; an operator of
several outputs returns a tuple, a variadic output (Split's) taking the node's
remaining output names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..errors import SonnxError
from ..registry import ATTRIBUTE_KINDS, Attribute, Operator, Tensor

ONNX_ATTRIBUTE_TYPES = {
    "int": onnx.AttributeProto.INT,
    "float": onnx.AttributeProto.FLOAT,
    "string": onnx.AttributeProto.STRING,
    "ints": onnx.AttributeProto.INTS,
    "floats": onnx.AttributeProto.FLOATS,
    "tensor": onnx.AttributeProto.TENSOR,
}
"""The ONNX attribute type of each kind of attribute the registry declares."""
assert set(ONNX_ATTRIBUTE_TYPES) == set(ATTRIBUTE_KINDS), "a kind of attribute the model reader cannot read"


@dataclass(frozen=True)
class BoundTensor:
    spec: Tensor
    label: str  # the specification's name in this call: X, L, M; X0, X1… for a variadic input
    name: str  # the tensor's name in the graph; "" where the node omits it

    def describe(self) -> str:
        return f"{self.label} (ONNX {self.spec.onnx!r})"


@dataclass(frozen=True)
class BoundNode:
    inputs: list[BoundTensor]
    outputs: list[BoundTensor]
    attributes: dict[str, onnx.AttributeProto | None]  # the profile's name -> the node's attribute
    extra_inputs: list[str]  # inputs the declaration does not have
    extra_outputs: list[str]
    extra_attributes: list[onnx.AttributeProto]


def bind(op: Operator, node: onnx.NodeProto) -> BoundNode:
    names = list(node.input)
    inputs: list[BoundTensor] = []
    extra_inputs: list[str] = []
    for position, spec in enumerate(op.inputs):
        if spec.variadic:  # ONNX puts a variadic input last: it takes every remaining name
            rest = names[position:]
            inputs += [BoundTensor(spec, f"{spec.name}{m}", name) for m, name in enumerate(rest)]
            names = names[:position]
            break
        inputs.append(BoundTensor(spec, spec.name, names[position] if position < len(names) else ""))
    else:
        extra_inputs = [name for name in names[len(op.inputs) :] if name]
    outputs, extra_outputs = _bind_outputs(op.outputs, list(node.output))
    by_onnx = {a.name: a for a in node.attribute}
    declared = {a.onnx for a in op.attributes}
    return BoundNode(
        inputs=inputs,
        outputs=outputs,
        attributes={a.name: by_onnx.get(a.onnx) for a in op.attributes},
        extra_inputs=extra_inputs,
        extra_outputs=extra_outputs,
        extra_attributes=[a for a in node.attribute if a.name not in declared],
    )


def _bind_outputs(specs: tuple[Tensor, ...], names: list[str]) -> tuple[list[BoundTensor], list[str]]:
    """The node's outputs by position (an empty or missing name: an output it omits), a variadic last
    output taking every remaining name; and the names the declaration has no output for."""
    outputs = []
    for position, spec in enumerate(specs):
        if spec.variadic:
            rest = names[position:]
            return outputs + [BoundTensor(spec, f"{spec.name}{m}", n) for m, n in enumerate(rest)], []
        outputs.append(BoundTensor(spec, spec.name, names[position] if position < len(names) else ""))
    return outputs, [name for name in names[len(specs) :] if name]


def attribute_problem(spec: Attribute, proto: onnx.AttributeProto) -> str | None:
    """GEN_C1: why the node's attribute is not of the declared kind, or None if it is."""
    if proto.type == ONNX_ATTRIBUTE_TYPES[spec.kind]:
        return None
    kind = onnx.AttributeProto.AttributeType.Name(proto.type)
    return f"attribute {spec.onnx!r} is of type {kind}, not {ATTRIBUTE_KINDS[spec.kind]}"


def attribute_value(spec: Attribute, proto: onnx.AttributeProto) -> Any:
    """The value the reference takes: a Python int or float (ONNX stores a float in 32 bits, so the
    float is exactly that float32), a str, a tuple of them for a list, a numpy array for a tensor.
    An attribute of another kind than declared, or a string that is not UTF-8, is GEN_C1."""
    problem = attribute_problem(spec, proto)
    if problem is not None:
        raise SonnxError("GEN_C1", problem)
    if spec.kind == "tensor":
        return numpy_helper.to_array(proto.t).copy()
    if spec.kind == "string":
        try:
            return proto.s.decode("utf-8")
        except UnicodeDecodeError:
            raise SonnxError("GEN_C1", f"attribute {spec.onnx!r} is not a UTF-8 string") from None
    if spec.kind in ("ints", "floats"):
        return tuple(helper.get_attribute_value(proto))
    return helper.get_attribute_value(proto)


def call(
    op: Operator, bound: BoundNode, value_of: Callable[[BoundTensor], np.ndarray | np.generic]
) -> tuple[list[Any], dict[str, Any]]:
    """The positional and keyword arguments of the reference call: ``value_of`` gives each given input,
    None stands for an omitted one; attributes by the profile's names, None where not given."""
    args = [value_of(tensor) if tensor.name else None for tensor in bound.inputs]
    kwargs = {
        spec.name: None
        if bound.attributes[spec.name] is None
        else attribute_value(spec, bound.attributes[spec.name])
        for spec in op.attributes
    }
    return args, kwargs
