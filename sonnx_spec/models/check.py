"""``check_model``: is a model in the SONNX profile, and if not, which node breaks which rule?

Every check names the rule it decides. The model as a whole: the ONNX checker
(MODEL_C1), its dataflow (MODEL_C2), sparse tensors (GR1), default values of
graph inputs (MODEL_R2), tensor sizes (MODEL_C5). Each node: that the profile
specifies its operator (MODEL_R1) in the version the opset imports select
(MODEL_C3), then the general rules on what the node declares, all derived from
the registry: inputs and attributes given (GR4), element types (GEN_C1, GR3),
shapes known after ONNX's shape inference (GR2), declared ranks (the rule each
``Tensor.rank_rule`` names).

An operator's other static rules (Max's broadcasting, MAX_E1, for example) are
decided by the reference operator itself. A node whose inputs are all known
before running (initializers, Constant nodes, small results of such nodes; the
mere shape of an input of which the operator reads only the shape) is computed on
those values (:mod:`.known`). Any other node is called on placeholder tensors of
its inputs' element types and shapes (every element 1, no memory of their own),
except the inputs whose values set an output's shape (Reshape's shape), which
must be known: where one depends on a graph input, the node's static rules and
the shape of its outputs are not decided, and the report says on which input they
depend. A refusal that names a rule declared static is a violation; any other
refusal depends on the values and is left to run time. What the call gives is
then compared with the types and shapes the model declares for the outputs
(MODEL_C4), and completes the shapes ONNX's inference left unknown. A node whose
tensors are too large for this leaves those rules undecided, and the report says
so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import onnx
from onnx import defs, helper

from ..errors import SonnxError
from ..registry import Operator
from ..requirements import catalogue, rules
from .binding import BoundNode, BoundTensor, attribute_problem, bind, call
from .findings import Finding, NodeRef, Report
from .graph import (
    ONNX_DOMAINS,
    Dataflow,
    TensorType,
    dataflow,
    declared_types,
    inferred_types,
    node_refs,
    opset_versions,
    profile_operator,
    profile_operators,
)
from .known import KnownValues
from .load import load_model
from .values import exact

DRY_RUN_LIMIT = 2**28
"""The most bytes a tensor of a node may hold for the checker to call the reference on placeholders."""
ADDRESSABLE = 2**63
"""MODEL_C5: a tensor's bytes, and every offset into it, fit in a signed 64-bit integer."""
SPARSE_ATTRIBUTES = (onnx.AttributeProto.SPARSE_TENSOR, onnx.AttributeProto.SPARSE_TENSORS)


def check_model(source: str | os.PathLike | bytes | onnx.ModelProto) -> Report:
    """Check a model (a file, its bytes or an ``onnx.ModelProto``) against the profile.

    Raises ModelUnreadable if it cannot be read as a model at all.
    """
    model, name = load_model(source)
    return _Checker(model, name).run()


@dataclass
class _Checker:
    model: onnx.ModelProto
    name: str
    findings: list[Finding] = field(default_factory=list)
    unknown_reported: set[str] = field(default_factory=set)  # tensors whose unknown shape is reported
    shape_depends: dict[str, str] = field(default_factory=dict)  # tensor -> what its shape depends on

    def run(self) -> Report:
        graph = self.model.graph
        self.refs = node_refs(graph)
        self.types = inferred_types(self.model)
        self.declared = declared_types(graph)
        self.opsets = opset_versions(self.model)
        self.known = KnownValues.of_graph(graph)
        self.onnx_checker()
        flow = self.graph_dataflow()
        self.sparse_tensors()
        self.graph_input_defaults()
        self.tensor_sizes()
        report = Report(self.name, nodes=len(graph.node))
        for index in flow.order + flow.cycle:  # a node after those whose values it may read
            ref, node = self.refs[index], graph.node[index]
            op = profile_operator(node)
            if op is None:
                report.unspecified[_qualified(node)] += 1
                self.add("MODEL_R1", f"{_qualified(node)} is not specified by SONNX (yet)", ref)
                self.forget_outputs(node.output, f"is computed by {ref}, which the profile does not specify")
            else:
                self.node(op, node, ref)
        report.findings = sorted(self.findings, key=_order)
        return report

    def add(
        self,
        rule_id: str,
        message: str,
        node: NodeRef | None = None,
        level: str = "error",
        tensor: str | None = None,
    ) -> None:
        """Record a finding; ``tensor`` is the declared input or attribute at fault (X for X0), on which
        the drafts' labels and the former ids of the node's operator depend."""
        op = profile_operators().get(node.op_type) if node and node.domain in ONNX_DOMAINS else None
        formerly = catalogue().formerly(op.name, rule_id, tensor) if op else ()
        labels = catalogue().labels(op.name, rule_id, tensor) if op else ()
        finding = Finding(rule_id, message, node, level, formerly, labels)  # type: ignore[arg-type]
        self.findings.append(finding)

    # -- the model as a whole ------------------------------------------------------------------------

    def onnx_checker(self) -> None:
        try:
            onnx.checker.check_model(self.model)
        except Exception as error:  # ValidationError, or the C++ checker's own exceptions
            self.add("MODEL_C1", f"the ONNX checker refuses it: {_one_line(error)}")

    def graph_dataflow(self) -> Dataflow:
        flow = dataflow(self.model.graph)
        for name, readers in flow.undefined.items():
            for index in readers:
                where = self.refs[index] if index >= 0 else None
                role = "reads" if index >= 0 else "has the graph output"
                what = "no graph input, initializer or node output has that name"
                self.add("MODEL_C2", f"{'it' if where else 'the graph'} {role} {name!r}, but {what}", where)
        for name, producers in flow.produced_twice.items():
            self.add(
                "MODEL_C2", f"tensor {name!r} is given or produced more than once", self.refs[producers[0]]
            )
        if flow.cycle:
            members = ", ".join(str(self.refs[i]) for i in flow.cycle)
            self.add(
                "MODEL_C2", f"these nodes wait on each other (a cycle): {members}", self.refs[flow.cycle[0]]
            )
        return flow

    def sparse_tensors(self) -> None:
        for tensor in self.model.graph.sparse_initializer:
            self.add("GR1", f"the graph has a sparse initializer, {tensor.values.name!r}")
        for ref, node in zip(self.refs, self.model.graph.node, strict=True):
            for attribute in node.attribute:
                if attribute.type in SPARSE_ATTRIBUTES:
                    self.add(
                        "GR1",
                        f"attribute {attribute.name!r} is a sparse tensor",
                        ref,
                        tensor=_declared(ref, attribute.name),
                    )

    def graph_input_defaults(self) -> None:
        initialized = {t.name for t in self.model.graph.initializer}
        for value in self.model.graph.input:
            if value.name in initialized:
                self.add(
                    "MODEL_R2",
                    f"graph input {value.name!r} has an initializer of the same name, a default value: "
                    "remove it from the graph inputs to make it a constant",
                )

    def tensor_sizes(self) -> None:
        for name, tensor in self.types.items():
            shape = tensor.static_shape
            if shape is not None:
                size = int(np.prod(shape, dtype=object)) * (tensor.dtype.itemsize if tensor.dtype else 1)
                if size >= ADDRESSABLE:
                    self.add("MODEL_C5", f"tensor {name!r} of shape {tensor.shape_text()} holds {size} bytes")

    # -- one node of an operator of the profile ------------------------------------------------------

    def node(self, op: Operator, node: onnx.NodeProto, ref: NodeRef) -> None:
        before = len(self.findings)
        self.version(op, ref)
        bound = bind(op, node)
        self.signature(op, bound, ref)
        inputs_known = self.input_types(op, bound, ref)
        if len(self.findings) > before or not inputs_known:
            self.forget_outputs([t.name for t in bound.outputs], f"is computed by {ref}, which breaks a rule")
            self.unknown_outputs(bound, ref)
            return  # the reference would refuse the node for these reasons first
        refused = self.dry_run(op, bound, ref)
        if not refused:
            self.unknown_outputs(bound, ref)

    def forget_outputs(self, names: Iterable[str], why: str) -> None:
        for name in names:
            if name:
                self.known.forget(name, why)

    def version(self, op: Operator, ref: NodeRef) -> None:
        opset = self.opsets.get("")
        if opset is None:
            self.add("MODEL_C3", "the model imports no opset of the ONNX domain", ref)
            return
        resolved = _resolved_version(op.onnx, opset)
        if resolved != op.version:
            got = f"{op.onnx}-{resolved}" if resolved else f"no {op.onnx}"
            self.add(
                "MODEL_C3",
                f"ONNX opset {opset} gives {got}; the profile specifies {op.onnx}-{op.version} "
                f"(import {_opsets_giving(op.onnx, op.version)})",
                ref,
            )

    def signature(self, op: Operator, bound: BoundNode, ref: NodeRef) -> None:
        optional = _onnx_optional_inputs(op.onnx, op.version)
        for tensor in bound.inputs:
            if not tensor.name:
                why = (
                    ": ONNX makes it optional, the profile requires it"
                    if tensor.spec.onnx in optional
                    else ""
                )
                self.add("GR4", f"input {tensor.describe()} is omitted{why}", ref, tensor=tensor.spec.name)
        for spec in op.attributes:
            attribute = bound.attributes[spec.name]
            if attribute is None:
                default = _onnx_default(ref, spec.onnx, self.opsets.get("", 0))
                self.add("GR4", f"attribute {spec.onnx!r} is not given{default}", ref, tensor=spec.name)
            elif (problem := attribute_problem(spec, attribute)) is not None:
                self.add("GEN_C1", problem, ref, tensor=spec.name)
        extras = [f"input {name!r}" for name in bound.extra_inputs]
        extras += [f"attribute {a.name!r}" for a in bound.extra_attributes if a.type not in SPARSE_ATTRIBUTES]
        extras += [f"output {name!r}" for name in bound.extra_outputs]
        for extra in extras:
            self.add("MODEL_R1", f"{extra} is not one the profile specifies for {op.onnx}", ref)

    def input_types(self, op: Operator, bound: BoundNode, ref: NodeRef) -> bool:
        """GEN_C1, GR3 and GR2 on the given inputs; True if the type and shape of each is known."""
        first_of_type: dict[str, tuple[str, np.dtype]] = {}
        for tensor, label, type_name, declared in self._typed_inputs(op, bound):
            if tensor.kind != "tensor":
                kind = tensor.kind.replace("_", " ")
                self.add("GEN_C1", f"{label} is a {kind}, not a tensor", ref, tensor=declared)
                continue
            dtype = tensor.dtype
            if dtype is None or dtype not in op.dtypes(type_name):
                allowed = ", ".join(t.name for t in op.dtypes(type_name))
                if not tensor.elem_type:
                    self.add("GR2", f"the element type of {label} is not known", ref, tensor=declared)
                else:
                    problem = f"{label} is {tensor.type_name}, not one of {allowed}"
                    self.add("GEN_C1", problem, ref, tensor=declared)
                continue
            first, first_dtype = first_of_type.setdefault(type_name, (label, dtype))
            if dtype != first_dtype:
                problem = f"{label} is {tensor.type_name} but {first} is {first_dtype.name}"
                self.add("GR3", problem, ref, tensor=declared)
        known = [self.known_shape(tensor, ref) for tensor in bound.inputs if tensor.name]
        return all(known) and all(
            self.types.get(t.name, TensorType(0, None)).dtype for t in bound.inputs if t.name
        )

    def _typed_inputs(self, op: Operator, bound: BoundNode) -> Iterator[tuple[TensorType, str, str, str]]:
        """(type, label, type variable, declared name) of every given input and tensor attribute."""
        for tensor in bound.inputs:
            if tensor.name:
                found = self.types.get(tensor.name, TensorType(0, None))
                yield found, f"{tensor.describe()} {tensor.name!r}", tensor.spec.type, tensor.spec.name
        for spec in op.attributes:
            attribute = bound.attributes[spec.name]
            if spec.kind == "tensor" and attribute is not None and attribute.type == attribute.TENSOR:
                value = TensorType(attribute.t.data_type, tuple(attribute.t.dims))
                yield value, f"attribute {spec.onnx!r}", spec.type or "", spec.name

    def known_shape(self, tensor: BoundTensor, ref: NodeRef) -> bool:
        """GR2 for the tensor's shape (reported once per tensor), and its declared rank."""
        found = self.types.get(tensor.name, TensorType(0, None))
        spec = tensor.spec
        if found.shape is not None and spec.rank is not None and spec.rank_rule is not None:
            if len(found.shape) != spec.rank:
                wanted = "a scalar, shape ()" if spec.rank == 0 else f"of rank {spec.rank}"
                self.add(
                    spec.rank_rule,
                    f"{tensor.describe()} {tensor.name!r} has shape {found.shape_text()}, not {wanted}",
                    ref,
                    tensor=spec.name,
                )
        if found.static_shape is not None or found.kind != "tensor":
            return found.static_shape is not None
        if tensor.name not in self.unknown_reported:
            self.unknown_reported.add(tensor.name)
            depends = self.shape_depends.get(tensor.name)
            why = f"{_unknown(found)}; it {depends}" if depends else _unknown(found)
            problem = f"the shape of {tensor.describe()} {tensor.name!r} is {why}"
            self.add("GR2", problem, ref, tensor=tensor.spec.name)
        return False

    def unknown_outputs(self, bound: BoundNode, ref: NodeRef) -> None:
        for tensor in bound.outputs:
            if tensor.name:
                self.known_shape(tensor, ref)

    def dry_run(self, op: Operator, bound: BoundNode, ref: NodeRef) -> bool:
        """Call the reference on what is known of the inputs; True if it refuses the node for a static
        rule."""
        given = [t for t in bound.inputs if t.name]
        known_outputs = [t for t in bound.outputs if t.name and _bytes(self.types.get(t.name)) is not None]
        too_large = [t.name for t in given + known_outputs if _bytes(self.types[t.name]) > DRY_RUN_LIMIT]
        if too_large:
            why = f"tensor {too_large[0]!r} holds more than {DRY_RUN_LIMIT} bytes, the most the checker "
            why += "computes on"
            self.undecided(op, bound, ref, why, f"is not computed: {why}")
            return False
        if all(t.spec.shape_only or t.name in self.known for t in given):
            refused = self.call_reference(op, bound, ref, values_known=True)
            if refused is not None:
                return refused
        unknown = [t for t in given if t.spec.sets_shape and t.name not in self.known]
        if unknown:
            tensor, why = unknown[0], self.known.why(unknown[0].name)
            value = f"the value of {tensor.describe()} {tensor.name!r} {why}"
            if self.known.depends_on_input(tensor.name):  # GR2: known before the model runs, or no shape
                problem = f"{value}: it sets an output's shape, so it must be known before the model runs "
                problem += "(an initializer, a Constant, or computed from them)"
                self.add("GR2", problem, ref, tensor=tensor.spec.name)
            self.undecided(op, bound, ref, value, why)
            return False
        return bool(self.call_reference(op, bound, ref, values_known=False))

    def undecided(self, op: Operator, bound: BoundNode, ref: NodeRef, why: str, value_why: str) -> None:
        """The node's static rules and its outputs' shapes are not decided, for the reason ``why``;
        ``value_why`` is why its outputs' values are not known."""
        for rule_id in _operator_static_rules(op):
            self.add(rule_id, f"not decided: {why}", ref, "undecided")
        for tensor in bound.outputs:
            if not tensor.name:
                continue
            self.known.forget(tensor.name, value_why)
            declared = self.declared.get(tensor.name)
            if declared is not None and declared.static_shape is not None:
                self.add(
                    "MODEL_C4",
                    f"not decided: whether {ref.op_type} gives output {tensor.name!r} the declared shape "
                    f"{declared.shape_text()}: {why}",
                    ref,
                    "undecided",
                )
            else:
                self.shape_depends[tensor.name] = value_why

    def call_reference(self, op: Operator, bound: BoundNode, ref: NodeRef, values_known: bool) -> bool | None:
        """Call the reference on the inputs' values (``values_known``: every value is known, or only the
        shape is read) or on placeholders (the values known only for the inputs that set an output's
        shape): True if it refuses the node for a static rule, None if for another (the values at run
        time decide), False if it computes the outputs."""

        def value_of(tensor: BoundTensor) -> np.ndarray | np.generic:
            if tensor.name in self.known and (values_known or tensor.spec.sets_shape):
                return self.known[tensor.name]
            return _placeholder(self.types[tensor.name])

        outputs = [t for t in bound.outputs if t.name]
        try:
            args, kwargs = call(op, bound, value_of)
            with np.errstate(all="ignore"):
                produced = op.results(op.function(*args, **kwargs))
        except SonnxError as error:
            if rules()[error.req_id].static:
                self.add(error.req_id, error.problem, ref, tensor=error.tensor)  # decided by the model alone
                return True
            self.forget_outputs([t.name for t in outputs], f"is refused by {ref} for its values")
            return None  # a refusal of these values: the values at run time decide
        self.output_count(op, bound, len(produced), ref)
        unknown = [
            t.name for t in bound.inputs if t.name and not t.spec.shape_only and t.name not in self.known
        ]
        for tensor, value in zip(bound.outputs, produced, strict=False):
            if not tensor.name:
                continue
            self.declared_output(tensor, value, ref)
            declared = self.declared.get(tensor.name)
            if declared is None or declared.static_shape is None:  # what ONNX's inference left unknown
                self.types[tensor.name] = TensorType(_elem_type(value.dtype), tuple(value.shape))
            if values_known:
                self.known.keep(tensor.name, value)
            elif unknown:
                self.known.forget(tensor.name, self.known.why(unknown[0]))
        return False

    def output_count(self, op: Operator, bound: BoundNode, produced: int, ref: NodeRef) -> None:
        """MODEL_R1 for a variadic output (Split's): the node lists as many outputs as the operator gives
        for its attributes and inputs, no more (those it has not) and no fewer (parts left out)."""
        if not any(t.variadic for t in op.outputs) or len(bound.outputs) == produced:
            return
        for tensor in bound.outputs[produced:]:
            self.add(
                "MODEL_R1",
                f"output {tensor.name!r} is not one the profile specifies for {op.onnx} "
                f"here: it gives {produced}",
                ref,
            )
        if len(bound.outputs) < produced:
            problem = f"the node lists {len(bound.outputs)} outputs; {op.onnx} gives {produced} here"
            self.add("MODEL_R1", problem, ref)

    def declared_output(self, tensor: BoundTensor, value: np.ndarray, ref: NodeRef) -> None:
        declared = self.declared.get(tensor.name)
        if not tensor.name or declared is None:
            return
        gives = f"{value.dtype.name} of shape {tuple(value.shape)}"
        if declared.elem_type and declared.dtype != value.dtype:
            self.add(
                "MODEL_C4",
                f"output {tensor.name!r} is declared {declared.type_name}; {ref.op_type} gives {gives}",
                ref,
            )
        if declared.shape is not None and not _shape_fits(declared.shape, value.shape):
            self.add(
                "MODEL_C4",
                f"output {tensor.name!r} is declared of shape {declared.shape_text()}; "
                f"{ref.op_type} gives {gives}",
                ref,
            )


def _placeholder(tensor: TensorType) -> np.ndarray:
    """A tensor of the given type and shape whose every element is 1, sharing one element's memory."""
    return np.broadcast_to(np.ones((), tensor.dtype), tensor.static_shape)


def _elem_type(dtype: np.dtype) -> int:
    return helper.np_dtype_to_tensor_dtype(dtype)


def _bytes(tensor: TensorType | None) -> int | None:
    if tensor is None or tensor.static_shape is None or tensor.dtype is None:
        return None
    return int(np.prod(tensor.static_shape, dtype=object)) * tensor.dtype.itemsize


def _shape_fits(declared: tuple, actual: tuple[int, ...]) -> bool:
    """A declared shape fits if it has the rank and each numeric dimension (symbolic ones match any)."""
    return len(declared) == len(actual) and all(
        not isinstance(d, int) or d == a for d, a in zip(declared, actual, strict=True)
    )


def _unknown(tensor: TensorType) -> str:
    if tensor.shape is None:
        return "not known after ONNX shape inference (not even its rank)"
    for axis, dim in enumerate(tensor.shape):
        if isinstance(dim, str):
            return f"{tensor.shape_text()}: dimension {axis} is the symbol {dim!r}"
        if dim is None:
            return f"{tensor.shape_text()}: dimension {axis} is not known after ONNX shape inference"
        if dim < 0:
            return f"{tensor.shape_text()}: dimension {axis} is negative"
    return tensor.shape_text()


def _operator_static_rules(op: Operator) -> list[str]:
    """The operator's static rules that its declaration does not give: those the reference decides."""
    declared = {t.rank_rule for t in op.inputs if t.rank_rule}
    return [r.id for r in rules().values() if r.operator == op.name and r.static and r.id not in declared]


@cache
def _resolved_version(op_type: str, opset: int) -> int | None:
    try:
        return defs.get_schema(op_type, opset, "").since_version
    except defs.SchemaError:
        return None


@cache
def _opsets_giving(op_type: str, version: int) -> str:
    found = [
        v for v in range(version, defs.onnx_opset_version() + 1) if _resolved_version(op_type, v) == version
    ]
    if not found:
        return f"an opset where {op_type}-{version} is defined"
    return f"opset {found[0]}" if len(found) == 1 else f"an opset from {found[0]} to {found[-1]}"


@cache
def _onnx_optional_inputs(op_type: str, version: int) -> frozenset[str]:
    """The inputs ONNX lets a model omit."""
    optional = defs.OpSchema.FormalParameterOption.Optional
    schema = defs.get_schema(op_type, version, "")
    return frozenset(i.name for i in schema.inputs if i.option == optional)


def _onnx_default(ref: NodeRef, attribute: str, opset: int) -> str:
    try:
        schema = defs.get_schema(ref.op_type, opset, "")
        default = schema.attributes[attribute].default_value
    except (defs.SchemaError, KeyError):
        return ""
    if not default.name:
        return ""
    value = helper.get_attribute_value(default)
    shown = exact(np.float32(value)) if isinstance(value, float) else repr(value)  # ONNX floats are float32
    return f": ONNX would use its default, {shown}"


def _declared(ref: NodeRef, onnx_name: str) -> str:
    """The specification's name of an ONNX attribute of the node's operator (itself if it has none)."""
    op = profile_operators().get(ref.op_type) if ref.domain in ONNX_DOMAINS else None
    names = {a.onnx: a.name for a in op.attributes} if op else {}
    return names.get(onnx_name, onnx_name)


def _qualified(node: onnx.NodeProto) -> str:
    return node.op_type if node.domain in ONNX_DOMAINS else f"{node.domain}.{node.op_type}"


def _one_line(error: BaseException) -> str:
    text = re.sub(r"\s+", " ", str(error)).strip()
    return text if len(text) <= 300 else text[:299] + "…"


def _order(finding: Finding) -> tuple[int, int]:
    """Model-wide findings first, then by node; within each, the order they were found in."""
    return (-1 if finding.node is None else finding.node.index, 0)
