"""``compare_nodes``: an engine judged node by node against the operators' accuracy rules.

Each node of the model is given to the engine alone, as a one-node model whose inputs are the values the
reference computed for that node (the model's initializers stay initializers). Each of its outputs is then
judged against the reference's, element by element, by the operator's accuracy rule
(:mod:`sonnx_spec.accuracy`): bit for bit for an exact operator, within the stated bound for a correctly
rounded function. Every node is judged on the very inputs the reference had, so an engine's errors do not
carry from one node to the next, and the verdict names the node and the rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..accuracy import judge
from ..correctly_rounded import NOT_A_DISTANCE
from .compare import Runner, engine_runner
from .findings import NodeRef
from .graph import node_refs, profile_operator
from .load import load_model
from .progress import Progress
from .run import evaluate
from .values import exact


@dataclass(frozen=True)
class OutputVerdict:
    """One output of one node: how the engine's result stands against the reference's."""

    name: str
    verdict: str  # conforms, outside, undecided (sonnx_spec.accuracy.Judgement), or differs (type, shape)
    rule: str  # the accuracy rule that allows a bound; "" where the result must be the reference's bits
    why: str = ""  # what differs: type, shape, or how many elements are outside
    worst: tuple[int, ...] | None = (
        None  # the element farthest beyond what is allowed (or from the reference's)
    )
    reference: str = ""  # that element, exactly
    engine: str = ""
    steps: int | None = None  # values of the type between them, plus one (None: NaN against a number)
    differing: int = 0  # elements whose bits differ from the reference's


@dataclass(frozen=True)
class NodeVerdict:
    node: NodeRef
    outputs: tuple[OutputVerdict, ...] = ()
    engine_failure: str = ""  # the engine could not load or run the node

    @property
    def conforms(self) -> bool:
        return not self.engine_failure and all(o.verdict == "conforms" for o in self.outputs)


@dataclass
class NodeComparison:
    """An engine's result for every node of one model, on one set of inputs."""

    source: str
    engine: str
    engine_version: str
    nodes: list[NodeVerdict] = field(default_factory=list)

    @property
    def conforms(self) -> bool:
        return all(n.conforms for n in self.nodes)


def compare_nodes(
    source: str | os.PathLike | bytes | onnx.ModelProto,
    inputs: Mapping[str, np.ndarray | np.generic],
    engine: str = "onnxruntime",
    runner: Runner | None = None,
    progress: Progress | None = None,
) -> NodeComparison:
    """Judge ``engine`` (or ``runner``, a function of a model and its inputs) node by node;
    ``progress(done, total)`` counts the reference's run of each node, then the engine's.

    Raises what run_model raises: ModelUnreadable, ModelRefused, SonnxError (MODEL_E1), and NodeError
    where the reference refuses a node's inputs (there is then no result to judge the engine by).
    """
    model, name = load_model(source)
    version = ""
    if runner is None:
        runner, version = engine_runner(engine)
    steps = 2 * len(model.graph.node)  # the reference's run of each node, then the engine's
    values = evaluate(model, inputs, (lambda done, _: progress(done, steps)) if progress else None)
    initializers = {t.name for t in model.graph.initializer}
    comparison = NodeComparison(name, engine, version)
    for done, (node, ref) in enumerate(zip(model.graph.node, node_refs(model.graph), strict=True), 1):
        comparison.nodes.append(_judge_node(model, node, ref, values, initializers, runner))
        if progress:
            progress(steps // 2 + done, steps)
    return comparison


def _judge_node(
    model: onnx.ModelProto,
    node: onnx.NodeProto,
    ref: NodeRef,
    values: Mapping[str, np.ndarray | np.generic],
    initializers: set[str],
    runner: Runner,
) -> NodeVerdict:
    alone, feeds = one_node(model, node, values, initializers)
    try:
        produced = runner(alone, feeds)
    except Exception as error:  # the engine cannot load the node (an operator or a type it lacks) or run it
        return NodeVerdict(ref, engine_failure=" ".join(f"{type(error).__name__}: {error}".split())[:300])
    op = profile_operator(node)
    assert op is not None  # the reference ran the model: every node is the profile's
    operands = [np.asarray(values[n]) for n in node.input if n]
    verdicts = tuple(
        _judge_output(op.name, output, np.asarray(values[output]), produced.get(output), operands)
        for output in node.output
        if output
    )
    return NodeVerdict(ref, verdicts)


def _judge_output(
    operator: str, name: str, reference: np.ndarray, engine: np.ndarray | None, operands: list[np.ndarray]
) -> OutputVerdict:
    if engine is None:
        return OutputVerdict(name, "differs", "", "the engine gives no such output")
    engine = np.asarray(engine)
    if engine.dtype != reference.dtype:
        return OutputVerdict(name, "differs", "", f"element type {engine.dtype}, not {reference.dtype}")
    if engine.shape != reference.shape:
        return OutputVerdict(name, "differs", "", f"shape {engine.shape}, not {reference.shape}")
    judgement = judge(operator, engine, reference, operands)
    differing = int(np.count_nonzero(judgement.distance))
    why = (
        f"{judgement.outside} of {reference.size} elements outside"
        if judgement.outside
        else f"{judgement.undecided} of {reference.size} elements undecided"
        if judgement.undecided
        else ""
    )
    worst = judgement.worst
    if worst is None:
        return OutputVerdict(name, judgement.verdict, judgement.rule, why)
    steps = int(judgement.distance[worst])
    return OutputVerdict(
        name,
        judgement.verdict,
        judgement.rule,
        why,
        worst,
        exact(reference[worst]),
        exact(engine[worst]),
        None if steps >= NOT_A_DISTANCE else steps,
        differing,
    )


def one_node(
    model: onnx.ModelProto,
    node: onnx.NodeProto,
    values: Mapping[str, np.ndarray | np.generic],
    initializers: set[str],
) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """``node`` alone, in a model of the same opsets: its inputs graph inputs of the types and shapes the
    reference computed (an initializer of the model stays one), its outputs of the reference's types and
    shapes; and the values to feed it."""
    names = list(dict.fromkeys(n for n in node.input if n))
    feeds = {n: np.asarray(values[n]) for n in names if n not in initializers}
    graph = helper.make_graph(
        [node],
        f"{model.graph.name or 'model'}_{node.name or node.op_type}",
        [_value_info(n, np.asarray(values[n])) for n in feeds],
        [_value_info(n, np.asarray(values[n])) for n in node.output if n],
        initializer=[numpy_helper.from_array(np.asarray(values[n]), n) for n in names if n in initializers],
    )
    alone = helper.make_model(graph, opset_imports=list(model.opset_import), ir_version=model.ir_version)
    return alone, feeds


def _value_info(name: str, value: np.ndarray) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(value.dtype), value.shape)
