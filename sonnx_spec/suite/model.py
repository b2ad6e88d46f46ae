"""A case as ONNX files: a one-node model and its tensors, in the layout of ONNX's backend node tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..registry import operators

if TYPE_CHECKING:
    import onnx


def output_type(
    op: str, inputs: Sequence[np.dtype | None], attributes: Mapping[str, Any], position: int = 0
) -> np.dtype:
    """The element type of ``op``'s output at ``position`` (a variadic last output: each of its tensors)
    for inputs of the given types (None: omitted): the type an attribute names (Cast's ``to``), its fixed
    type (bool), or that of the first tensor its type variable types, an input or a tensor attribute
    (never an input of a fixed type that comes first)."""
    spec = operators()[op]
    tensor = spec.outputs[min(position, len(spec.outputs) - 1)]
    if tensor.type_from is not None:
        named = spec.output_dtype(np.dtype(np.float32), attributes, position)
        if named is None:
            raise ValueError(
                f"{op}: {tensor.type_from}={attributes[tensor.type_from]} names no type of the profile"
            )
        return named
    if tensor.type not in spec.types:
        return spec.dtypes(tensor.type)[0]
    variadic = bool(spec.inputs) and spec.inputs[0].variadic
    types = [spec.inputs[0].type] * len(inputs) if variadic else [t.type for t in spec.inputs]
    typed = list(zip(types, inputs, strict=True))
    typed += [(a.type, np.asarray(attributes[a.name]).dtype) for a in spec.attributes if a.kind == "tensor"]
    return next(dtype for name, dtype in typed if name == tensor.type and dtype is not None)


def constant_inputs(operator: str, count: int) -> list[int]:
    """The positions, among ``count`` inputs of ``operator``, of those whose values set an output's shape:
    a profile model holds them as initializers (GR2)."""
    spec = operators()[operator]
    variadic = bool(spec.inputs) and spec.inputs[-1].variadic
    declared = [
        spec.inputs[min(i, len(spec.inputs) - 1)] if variadic else spec.inputs[i] for i in range(count)
    ]
    return [i for i, tensor in enumerate(declared) if tensor.sets_shape]


LIST_TYPES = {"ints": 7, "floats": 6}
"""ONNX's AttributeProto type of each list kind of attribute (INTS, FLOATS): helper.make_attribute cannot
infer it from an empty list."""


def one_node_model(
    operator: str,
    inputs: Sequence[np.ndarray],
    attributes: dict[str, Any],
    output: np.dtype | None = None,
    shape: tuple[int, ...] | None = None,
) -> onnx.ModelProto:
    """``operator`` applied to x0, x1, … of the inputs' types and shapes, giving y0 of ``shape`` (by default
    the inputs' broadcast shape, an element-wise operator's); its opset is the version of the ONNX operator
    the profile is based on, so that the node resolves to it. An input whose values set the output's shape
    (Reshape's shape) is an initializer, as the profile requires (GR2); the others are graph inputs."""
    from onnx import helper, numpy_helper

    spec = operators()[operator]
    output = output_type(operator, [a.dtype for a in inputs], attributes) if output is None else output
    values = {
        a.onnx: numpy_helper.from_array(np.asarray(attributes[a.name]))
        if a.kind == "tensor"
        else attributes[a.name]
        for a in spec.attributes
        if a.kind not in LIST_TYPES
    }
    names = [f"x{i}" for i in range(len(inputs))]
    if shape is None:
        try:
            shape = np.broadcast_shapes(*(a.shape for a in inputs))
        except ValueError:  # not an element-wise operator's inputs, and no result: a shape left unknown
            shape = None
    constant = set(constant_inputs(operator, len(inputs)))
    node = helper.make_node(spec.onnx, names, ["y0"], **values)
    node.attribute.extend(  # a list attribute with its type, which an empty one does not show (perm = [])
        helper.make_attribute(a.onnx, attributes[a.name], attr_type=LIST_TYPES[a.kind])
        for a in spec.attributes
        if a.kind in LIST_TYPES
    )
    graph = helper.make_graph(
        [node],
        f"sonnx_{operator}",
        [
            helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
            for i, (n, a) in enumerate(zip(names, inputs, strict=True))
            if i not in constant
        ],
        [helper.make_tensor_value_info("y0", helper.np_dtype_to_tensor_dtype(output), shape)],
        initializer=[numpy_helper.from_array(inputs[i], names[i]) for i in sorted(constant)],
    )
    opset = [helper.make_opsetid("", spec.version)]
    ir_version = helper.find_min_ir_version_for(
        opset
    )  # the newest onnx writes one older engines may not read
    return helper.make_model(graph, opset_imports=opset, ir_version=ir_version)
