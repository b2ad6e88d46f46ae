"""The spec side by side with numpy, the ONNX reference evaluator and onnxruntime, on every type.

One test per (operator, type, engine) runs every case of the operator's module
in operator_cases/. An engine may lack a kernel for a type ("unsupported":
recorded, never hidden; the test checks the engine's message says so); where it
runs, it must give the spec's output, or refuse an input the spec refuses,
unless the case's topic is in the module's EXPLAINED: there the spec decides a
question on which engines are known to differ, and the divergence is recorded
with its reason. On ordinary inputs no divergence is accepted. An engine that
stops diverging needs no edit here: the report then shows it agreeing.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np
import pytest
from conformance_report import CaseOutcome, Recorder
from onnx import helper
from onnx_engines import ENGINES, Engine, Result, one_node_model
from operator_cases import ORDINARY, Case, cases, modules, sample_call_of, topics
from spec_comparison import agrees, run_spec
from support import each_operator_and_type

from sonnx_spec import Operator, operators, rule

# What "unsupported" may mean: the engine has no kernel for the type, or cannot take
# the type's arrays. Any other failure to load a model is a bug of these tests.
NO_KERNEL = re.compile(
    r"NOT_IMPLEMENTED : Could not find an implementation|INVALID_GRAPH : .*Type Error: Type 'tensor\(\w+\)'"
    r"|(takes|gives) no bfloat16 array|^no \w+ kernel: numpy computes"
    r"|ValidateOpsetForDomain"  # a version newer than the engine's (its message, cut short, names the check)
)


@cache
def spec_results(op: str, dtype: np.dtype) -> list[tuple[Case, Result]]:
    """The spec's results on the cases of (op, dtype), computed once for both engines."""
    return [(case, run_spec(op, case.inputs, case.attributes)) for case in cases(op, dtype)]


def compare(case: Case, dtype: np.dtype, spec: Result, result: Result) -> CaseOutcome:
    if result.status == "unsupported":
        return CaseOutcome(case, dtype, spec, result, "unsupported")
    if agrees(spec, result):
        return CaseOutcome(case, dtype, spec, result, "agrees")
    explanation = modules()[case.op].EXPLAINED.get(case.topic)
    rule, reason = (explanation.rule, explanation.reason) if explanation else (None, None)
    return CaseOutcome(case, dtype, spec, result, "differs", rule, reason)


RUNS = [
    pytest.param(op.name, dtype, engine, id=f"{op.name}-{dtype.name}-{engine.name}")
    for op in operators().values()
    for dtype in op.dtypes(op.main_type)
    for engine in ENGINES
]


@pytest.mark.parametrize(("op", "dtype", "engine"), RUNS)
def test_engine_agrees_or_diverges_as_explained(
    op: str, dtype: np.dtype, engine: Engine, conformance: Recorder
) -> None:
    runs = spec_results(op, dtype)
    outcomes = [
        compare(case, dtype, spec, engine.run(op, case.inputs, case.attributes, _count(op, spec)))
        for case, spec in runs
    ]
    conformance.add_differential(op, dtype, engine.name, outcomes)
    unexplained = [o for o in outcomes if o.verdict == "differs" and o.rule is None]
    assert not unexplained, "unexplained divergences:\n" + "\n".join(map(_describe, unexplained))
    for outcome in outcomes:
        if outcome.verdict == "unsupported":
            assert engine.name != "onnx-reference", (
                f"the ONNX reference runs every case: {outcome.result.message}"
            )
            assert NO_KERNEL.search(outcome.result.message or ""), (
                f"not a missing kernel: {outcome.result.message}"
            )


def _count(op: str, spec: Result) -> int | None:
    """How many outputs the engines' model lists: as many as the spec gives for a variadic output."""
    variadic = any(t.variadic for t in operators()[op].outputs)
    return len(spec.outputs) if variadic and spec.status == "output" else None


def _describe(outcome: CaseOutcome) -> str:
    case, spec, result = outcome.case, outcome.spec, outcome.result
    inputs = ", ".join(
        f"{name}={'omitted' if value is None else value.tolist()}"
        for name, value in zip(case.input_names, case.inputs, strict=True)
    )
    return f"  {case.name!r} ({case.topic}): {inputs}\n    spec: {_show(spec)}\n    engine: {_show(result)}"


def _show(result: Result) -> str:
    if result.status == "output":
        return "; ".join(f"{o.dtype}{list(o.shape)} {o.tolist()}" for o in result.outputs)
    return f"{result.status}: {result.message}"


EXPLANATIONS = [(op, topic) for op, module in modules().items() for topic in module.EXPLAINED]


def test_no_divergence_is_explained_on_ordinary_inputs() -> None:
    assert all(topic != ORDINARY for _, topic in EXPLANATIONS)


@pytest.mark.parametrize(("op", "topic"), EXPLANATIONS, ids=[f"{op}-{topic}" for op, topic in EXPLANATIONS])
def test_each_explanation_cites_a_rule_of_its_operator_and_one_of_its_topics(op: str, topic: str) -> None:
    assert topic in modules()[op].TOPICS and topic in topics()
    assert rule(modules()[op].EXPLAINED[topic].rule).operator in (op, "general")


@each_operator_and_type()
def test_the_one_node_model_declares_the_output_type_the_spec_gives(op: Operator, dtype: np.dtype) -> None:
    """Whatever the signature: an output of a fixed type, a first input of a fixed type, no input at all."""
    args, kwargs = sample_call_of(op, dtype)
    outputs = op.results(op.function(*args, **kwargs))
    model = one_node_model(op.name, [a.dtype for a in args], kwargs, len(outputs))
    declared = [o.type.tensor_type.elem_type for o in model.graph.output]
    assert declared == [helper.np_dtype_to_tensor_dtype(o.dtype) for o in outputs]
