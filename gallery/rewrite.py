"""What a model's author changes to bring a model into the profile, when only its form breaks a rule.

Each step changes the model's form, never what it computes, and says which rule it satisfies:

- :func:`fixed_batch`: every graph input's symbolic dimension (a batch size ``N``) becomes a number (GR2:
  every shape known before the model runs);
- :func:`untransposed_gemm`: a Gemm that transposes an operand (``transA`` or ``transB`` = 1, PyTorch's
  ``Linear``) takes it already transposed: the initializer stored transposed where the Gemm is its only user,
  a Transpose node before it otherwise (GEMM_C6);
- :func:`profile_opset`: the default domain's opset becomes one in which every node resolves to the version
  the profile specifies (MODEL_C3), where such an opset exists;
- :func:`explicit_attributes`: every attribute left to ONNX's default is written with that default (GR4);
- :func:`label_lookup_as_gather`: scikit-learn's label lookup (``ai.onnx.ml`` ArrayFeatureExtractor of a
  1-D table by an index column) becomes Gather, which the profile specifies (MODEL_R1);
- :func:`scaler_and_linear_regressor_as_arithmetic`: scikit-learn's ``ai.onnx.ml`` Scaler, (X − offset)·scale,
  becomes Sub and Mul, and its LinearRegressor, X·Wᵀ + b, becomes MatMul and Add (MODEL_R1);
- :func:`explicit_broadcasts`: an element-wise operator's input of another shape than its output is first
  expanded to it (Expand, the profile's explicit broadcasting), since Add, Mul and the others refuse to
  broadcast (ADD_C1…);
- :func:`inferred_outputs`: the graph outputs declare the shapes ONNX's shape inference gives.
"""

from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import onnx
from onnx import defs, helper, numpy_helper, shape_inference

from sonnx_spec import operators
from sonnx_spec.families import BINARY_ARITHMETIC, COMPARISON, VARIADIC, members

PROFILE = {op.onnx: op for op in operators().values()}
BROADCASTING = {op.onnx for family in (BINARY_ARITHMETIC, COMPARISON, VARIADIC) for op in members(family)}
BROADCASTING |= {"Where", "Pow"}  # element-wise operators of several inputs outside those families


def conforming(model: onnx.ModelProto, batch: int) -> tuple[onnx.ModelProto, tuple[str, ...]]:
    """A copy of ``model`` with every step applied, and what each step changed."""
    model = copy.deepcopy(model)
    changes: list[str] = []
    for step in (
        fixed_batch,
        untransposed_gemm,
        scaler_and_linear_regressor_as_arithmetic,
        profile_opset,
        explicit_attributes,
        label_lookup_as_gather,
    ):
        changes += step(model, batch)
    changes += explicit_broadcasts(model)
    changes += inferred_outputs(model)
    return model, tuple(changes)


def fixed_batch(model: onnx.ModelProto, batch: int) -> list[str]:
    changed = []
    for value in model.graph.input:
        for dim in value.type.tensor_type.shape.dim:
            if not dim.HasField("dim_value"):
                changed.append(f"{value.name}: {dim.dim_param or '?'}")
                dim.Clear()
                dim.dim_value = batch
    return [f"GR2: the symbolic dimensions of the graph inputs set to {batch} ({', '.join(changed)})"] * bool(
        changed
    )


def profile_opset(model: onnx.ModelProto, *_: object) -> list[str]:
    default = next((o for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    kinds = {n.op_type for n in model.graph.node if n.domain in ("", "ai.onnx") and n.op_type in PROFILE}
    if default is None or not kinds:
        return []
    lowest = max(PROFILE[k].version for k in kinds)
    for opset in range(lowest, defs.onnx_opset_version() + 1):
        if all(defs.get_schema(k, opset).since_version == PROFILE[k].version for k in kinds):
            if opset == default.version:
                return []
            before, default.version = default.version, opset
            old_ir = model.ir_version
            model.ir_version = max(old_ir, helper.find_min_ir_version_for([default]))
            ir = f"; MODEL_C1: IR version {old_ir} → {model.ir_version}, which that opset needs" * (
                model.ir_version != old_ir
            )
            change = (
                f"MODEL_C3: the default opset {before} → {opset}, where each node is the profile's version"
            )
            return [change + ir]
    return []


def explicit_attributes(model: onnx.ModelProto, *_: object) -> list[str]:
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    written = []
    for node in model.graph.node:
        if node.domain not in ("", "ai.onnx") or node.op_type not in PROFILE or opset is None:
            continue
        given = {a.name for a in node.attribute}
        for name, attribute in defs.get_schema(node.op_type, opset).attributes.items():
            declared = {a.onnx for a in PROFILE[node.op_type].attributes}
            if name not in given and name in declared and attribute.default_value.name:
                node.attribute.append(attribute.default_value)
                written.append(f"{node.op_type}.{name}")
    return [f"GR4: ONNX's defaults written explicitly ({', '.join(written)})"] * bool(written)


def untransposed_gemm(model: onnx.ModelProto, *_: object) -> list[str]:
    initializers = {t.name: t for t in model.graph.initializer}
    users = Counter(name for node in model.graph.node for name in node.input)
    nodes: list[onnx.NodeProto] = []
    changed = []
    for node in model.graph.node:
        transposing = [a for a in node.attribute if a.name in ("transA", "transB") and a.i == 1]
        for attribute in transposing if node.op_type == "Gemm" and node.domain in ("", "ai.onnx") else ():
            position = 0 if attribute.name == "transA" else 1
            name = node.input[position]
            attribute.i = 0
            if name in initializers and users[name] == 1:  # only this Gemm reads it: store it transposed
                stored = numpy_helper.to_array(initializers[name])
                initializers[name].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(stored.T), name))
                changed.append(f"{node.name or 'Gemm'}.{attribute.name}: {name} stored transposed")
            else:
                flipped = f"{name}_transposed_{len(changed)}"
                nodes.append(
                    helper.make_node("Transpose", [name], [flipped], name=f"transpose_{flipped}", perm=[1, 0])
                )
                node.input[position] = flipped
                changed.append(
                    f"{node.name or 'Gemm'}.{attribute.name}: {name} transposed by a Transpose node"
                )
        nodes.append(node)
    _set_nodes(model, nodes)
    return _said("GEMM_C6: Gemm's operands given transposed, transA and transB = 0", changed)


def scaler_and_linear_regressor_as_arithmetic(model: onnx.ModelProto, *_: object) -> list[str]:
    nodes: list[onnx.NodeProto] = []
    replaced = []
    for node in model.graph.node:
        attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        name = node.name or node.op_type
        if node.domain != "ai.onnx.ml" or attributes.get("post_transform", b"NONE") != b"NONE":
            nodes.append(node)
        elif node.op_type == "Scaler":
            offset, scale = (
                _constant(model, f"{name}_{a}", np.array(attributes[a], np.float32))
                for a in ("offset", "scale")
            )
            shifted = f"{node.output[0]}_shifted"
            nodes.append(helper.make_node("Sub", [node.input[0], offset], [shifted], name=f"{name}_sub"))
            nodes.append(helper.make_node("Mul", [shifted, scale], list(node.output), name=f"{name}_mul"))
            replaced.append(f"{name} (Scaler) as Sub and Mul")
        elif node.op_type == "LinearRegressor":
            targets = attributes.get("targets", 1)
            coefficients = np.array(attributes["coefficients"], np.float32).reshape(targets, -1)
            weights = _constant(model, f"{name}_weights", np.ascontiguousarray(coefficients.T))
            intercepts = _constant(
                model,
                f"{name}_intercepts",
                np.array(attributes.get("intercepts", [0.0] * targets), np.float32),
            )
            product = f"{node.output[0]}_product"
            nodes.append(
                helper.make_node("MatMul", [node.input[0], weights], [product], name=f"{name}_matmul")
            )
            nodes.append(
                helper.make_node("Add", [product, intercepts], list(node.output), name=f"{name}_add")
            )
            replaced.append(f"{name} (LinearRegressor) as MatMul and Add")
        else:
            nodes.append(node)
    _set_nodes(model, nodes)
    if replaced and not any(n.domain == "ai.onnx.ml" for n in model.graph.node):
        _drop_opset(model, "ai.onnx.ml")
    return _said("MODEL_R1: ai.onnx.ml's linear operators as the profile's", replaced)


def _constant(model: onnx.ModelProto, name: str, value: np.ndarray) -> str:
    """``value`` added to the model's initializers under ``name``; returns the name."""
    model.graph.initializer.append(numpy_helper.from_array(value, name))
    return name


def _set_nodes(model: onnx.ModelProto, nodes: list[onnx.NodeProto]) -> None:
    del model.graph.node[:]
    model.graph.node.extend(nodes)


def _said(change: str, details: list[str]) -> list[str]:
    """The change, with its details, if there are any: a step that changed nothing says nothing."""
    return [f"{change} ({'; '.join(details)})"] if details else []


def _drop_opset(model: onnx.ModelProto, domain: str) -> None:
    kept = [o for o in model.opset_import if o.domain != domain]
    del model.opset_import[:]
    model.opset_import.extend(kept)


def label_lookup_as_gather(model: onnx.ModelProto, *_: object) -> list[str]:
    replaced = []
    for index, node in enumerate(model.graph.node):
        if node.domain == "ai.onnx.ml" and node.op_type == "ArrayFeatureExtractor":
            table = next((t for t in model.graph.initializer if t.name == node.input[0]), None)
            if table is None or len(table.dims) != 1:
                continue
            gather = helper.make_node("Gather", list(node.input), list(node.output), name=node.name, axis=0)
            model.graph.node[index].CopyFrom(gather)
            replaced.append(node.name or node.op_type)
    if replaced and not any(n.domain == "ai.onnx.ml" for n in model.graph.node):
        _drop_opset(model, "ai.onnx.ml")
    return [f"MODEL_R1: the label lookup {', '.join(replaced)} (ai.onnx.ml) as Gather along axis 0"] * bool(
        replaced
    )


def explicit_broadcasts(model: onnx.ModelProto) -> list[str]:
    shapes = _static_shapes(model)
    expanded = []
    nodes: list[onnx.NodeProto] = []
    for node in model.graph.node:
        given = [shapes.get(name) for name in node.input]
        if node.op_type in BROADCASTING and None not in given and len(set(given)) > 1:
            target = tuple(np.broadcast_shapes(*given))
            for position, (name, shape) in enumerate(zip(node.input, given, strict=True)):
                if shape == target:
                    continue
                shape_name = f"{name}_expanded_shape_{len(expanded)}"
                wide = f"{name}_expanded_{len(expanded)}"
                model.graph.initializer.append(
                    numpy_helper.from_array(np.array(target, np.int64), shape_name)
                )
                nodes.append(helper.make_node("Expand", [name, shape_name], [wide], name=f"expand_{wide}"))
                node.input[position] = wide
                expanded.append(f"{name} {shape} → {target} for {node.name or node.op_type}")
        nodes.append(node)
    _set_nodes(model, nodes)
    return _said("ADD_C1 and its kin: implicit broadcasts made explicit with Expand", expanded)


def inferred_outputs(model: onnx.ModelProto) -> list[str]:
    shapes = _static_shapes(model)
    changed = []
    for output in model.graph.output:
        inferred = shapes.get(output.name)
        dims = output.type.tensor_type.shape.dim
        if inferred is None or [d.dim_value if d.HasField("dim_value") else None for d in dims] == list(
            inferred
        ):
            continue
        output.type.tensor_type.ClearField("shape")
        output.type.tensor_type.shape.dim.extend(
            onnx.TensorShapeProto.Dimension(dim_value=d) for d in inferred
        )
        changed.append(f"{output.name} {tuple(inferred)}")
    return [f"GR2: the graph outputs declare their inferred shapes ({', '.join(changed)})"] * bool(changed)


def _static_shapes(model: onnx.ModelProto) -> dict[str, tuple[int, ...]]:
    """Each tensor's shape where ONNX's shape inference makes it a list of numbers."""
    inferred = shape_inference.infer_shapes(model, strict_mode=False, data_prop=True)
    values = [*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output]
    shapes = {t.name: tuple(t.dims) for t in model.graph.initializer}
    for value in values:
        tensor = value.type.tensor_type
        if tensor.HasField("shape") and all(d.HasField("dim_value") for d in tensor.shape.dim):
            shapes.setdefault(value.name, tuple(d.dim_value for d in tensor.shape.dim))
    return shapes
