"""How a node calls its operator: the node's inputs, attributes and outputs bound to the declaration.

The registry names each input, attribute and output as ONNX does (``Tensor.onnx``,
``Attribute.onnx``); a node lists its inputs by position (an empty name is an
omitted input, and trailing omitted inputs are left out) and its attributes by
ONNX name. The reference takes inputs by position (``None`` for an omitted one)
and attributes as keyword arguments named by ``Attribute.name``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..registry import Attribute, Operator, Tensor

ATTRIBUTE_KINDS = {
    "float": onnx.AttributeProto.FLOAT,
    "int": onnx.AttributeProto.INT,
    "tensor": onnx.AttributeProto.TENSOR,
}
"""The ONNX attribute type of each kind of attribute the registry declares."""


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
    outputs = [
        BoundTensor(spec, spec.name, node.output[position] if position < len(node.output) else "")
        for position, spec in enumerate(op.outputs)
    ]
    extra_outputs = [name for name in node.output[len(op.outputs) :] if name]
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


def attribute_value(spec: Attribute, proto: onnx.AttributeProto) -> Any:
    """The value the reference takes: a Python float or int (ONNX stores a float in 32 bits, so the
    float is exactly that float32), a numpy array for a tensor."""
    if spec.kind == "tensor":
        return numpy_helper.to_array(proto.t).copy()
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


def results(value: Any) -> tuple[np.ndarray, ...]:
    """The reference returns an array for one output, a tuple for several."""
    return tuple(value) if isinstance(value, tuple) else (value,)
