"""The spec side by side with numpy, the ONNX reference evaluator and onnxruntime, on every type.

One test per (operator, type, engine) runs every case of differential_cases.py.
An engine may lack a kernel for a type ("unsupported": recorded, never hidden;
the test checks the engine's message says so); where it runs, it must give the spec's
output, or refuse an input the spec refuses, unless the case's (operator,
topic) is in CATALOGUE: there the spec decides a question on which engines are
known to differ, and the divergence is recorded with its reason. On ordinary
inputs no divergence is accepted. An engine that stops diverging needs no
edit here: the report then shows it agreeing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from conformance_report import CaseOutcome, Recorder
from differential_cases import OPERATORS, ORDINARY, TOPICS, Case, cases
from onnx_engines import ENGINES, Engine, Result
from spec_comparison import agrees, run_spec

from sonnx_spec import TYPES, requirement


@dataclass(frozen=True)
class Explanation:
    rule: str  # the rule of the spec the engines' result departs from
    reason: str


_SIGNED_ZERO = (
    "The spec orders -0 below +0; IEEE 754 comparison finds them equal, so an engine returns "
    "whichever zero its comparison happens to keep, which may depend on the operands' order."
)
_NAN = (
    "The spec gives NaN wherever an operand is NaN; an engine that compares with < or > "
    "may return the other operand."
)
_OMITTED = (
    "ONNX lets a model omit {0}, and engines then use no bound on that side; the profile "
    "has no default values, so the spec refuses the input."
)

CATALOGUE: dict[tuple[str, str], Explanation] = {
    ("clip", "L omitted"): Explanation("CLIP_R1", _OMITTED.format("L (min)")),
    ("clip", "M omitted"): Explanation("CLIP_R2", _OMITTED.format("M (max)")),
    ("clip", "signed zero"): Explanation("CLIP_S4", _SIGNED_ZERO),
    ("clip", "NaN in X"): Explanation("CLIP_S3", _NAN),
    ("clip", "NaN with L > M"): Explanation(
        "CLIP_S2",
        "When L > M the spec gives M everywhere, NaN elements of X included (ONNX's text: every value is "
        "set to max); computing min(M, max(X, L)) instead lets a NaN of X through.",
    ),
    ("clip", "NaN bound"): Explanation(
        "CLIP_E1",
        "The spec refuses a NaN bound, which orders nothing; engines return something: NaN everywhere "
        "when the NaN propagates, or X clipped by the other bound alone when the NaN bound is ignored.",
    ),
    ("max", "signed zero"): Explanation("MAX_S2", _SIGNED_ZERO),
    ("max", "NaN"): Explanation("MAX_S2", _NAN),
    ("abs", "signed zero"): Explanation(
        "ABS_S2", "The spec gives +0 for -0; an engine computing x < 0 ? -x : x returns -0."
    ),
    ("abs", "NaN"): Explanation("ABS_S2", "The spec gives NaN for NaN; an engine may return another value."),
    ("abs", "lowest signed integer"): Explanation(
        "ABS_E1",
        "The absolute value of the lowest signed integer does not exist in its type; engines wrap around "
        "and return the lowest value itself, a negative absolute value; the spec refuses the input.",
    ),
}


# What "unsupported" may mean: the engine has no kernel for the type, or cannot take
# the type's arrays. Any other failure to load a model is a bug of these tests.
NO_KERNEL = re.compile(
    r"NOT_IMPLEMENTED : Could not find an implementation|INVALID_GRAPH : .*Type Error: Type 'tensor\(\w+\)'"
    r"|takes no bfloat16 array|^no \w+ kernel: numpy computes"
)


@cache
def spec_results(op: str, dtype: np.dtype) -> list[tuple[Case, Result]]:
    """The spec's results on the cases of (op, dtype), computed once for both engines."""
    return [(case, run_spec(op, case.inputs)) for case in cases(op, dtype)]


def compare(case: Case, dtype: np.dtype, spec: Result, result: Result) -> CaseOutcome:
    if result.status == "unsupported":
        return CaseOutcome(case, dtype, spec, result, "unsupported")
    if agrees(spec, result):
        return CaseOutcome(case, dtype, spec, result, "agrees")
    explanation = CATALOGUE.get((case.op, case.topic))
    rule, reason = (explanation.rule, explanation.reason) if explanation else (None, None)
    return CaseOutcome(case, dtype, spec, result, "differs", rule, reason)


RUNS = [
    pytest.param(op, dtype, engine, id=f"{op}-{dtype.name}-{engine.name}")
    for op in OPERATORS
    for dtype in TYPES
    for engine in ENGINES
]


@pytest.mark.parametrize(("op", "dtype", "engine"), RUNS)
def test_engine_agrees_or_diverges_as_explained(
    op: str, dtype: np.dtype, engine: Engine, conformance: Recorder
) -> None:
    runs = spec_results(op, dtype)
    outcomes = [compare(case, dtype, spec, engine.run(op, case.inputs)) for case, spec in runs]
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


def _describe(outcome: CaseOutcome) -> str:
    case, spec, result = outcome.case, outcome.spec, outcome.result
    inputs = ", ".join(
        f"{name}={'omitted' if value is None else value.tolist()}"
        for name, value in zip(case.input_names, case.inputs, strict=True)
    )
    return f"  {case.name!r} ({case.topic}): {inputs}\n    spec: {_show(spec)}\n    engine: {_show(result)}"


def _show(result: Result) -> str:
    if result.status == "output":
        assert result.output is not None
        return f"{result.output.dtype}{list(result.output.shape)} {result.output.tolist()}"
    return f"{result.status}: {result.message}"


def test_no_divergence_is_explained_on_ordinary_inputs() -> None:
    assert all(topic != ORDINARY for _, topic in CATALOGUE)


@pytest.mark.parametrize("key", CATALOGUE, ids=[f"{op}-{topic}" for op, topic in CATALOGUE])
def test_each_explanation_cites_a_rule_of_its_operator_and_a_known_topic(key: tuple[str, str]) -> None:
    op, topic = key
    assert topic in TOPICS
    assert requirement(CATALOGUE[key].rule).operator == op
