"""ONNX's backend node cases of the profile's operators, run against the spec.

Each case gives ONNX's expected output, which the spec must reproduce bit for
bit, unless the case is listed in its operator's BACKEND_DIVERGENCES: there the
profile departs from ONNX on purpose, and the spec must refuse the case by the
listed rule, or, for a divergence with ``ulps`` (ONNX's expected output rounded
otherwise: numpy's float32 exp), give an output that differs from ONNX's by at
most that many units in the last place (with ``within``: an output other than
ONNX's, whose outputs meet the rule's bound). A listed case that passes, or that the
spec refuses by another rule, fails: the lists say exactly where the spec and
ONNX part.
"""

from __future__ import annotations

from typing import Literal

import pytest
from backend_cases import OPERATORS, BackendCase, backend_cases
from conformance_report import BackendOutcome, Recorder
from onnx_engines import Result
from operator_cases import Divergence, modules
from spec_comparison import run_spec
from support import assert_same

from sonnx_spec.compare import same_result
from sonnx_spec.correctly_rounded import ulp_distance


def listed_divergence(case: BackendCase) -> Divergence | None:
    return modules()[case.op].BACKEND_DIVERGENCES.get(case.name)


def rule_of(case: BackendCase) -> str:
    """The rule a case exercises: the one that refuses it, a listed one, or the operator's semantics."""
    listed = listed_divergence(case)
    if listed is not None:
        return listed.rule
    module = modules()[case.op]
    return module.BACKEND_RULES.get(case.name, module.SEMANTICS)


CASES = [pytest.param(case, id=case.name, marks=pytest.mark.req(rule_of(case))) for case in backend_cases()]


@pytest.mark.parametrize("case", CASES)
def test_backend_case(case: BackendCase, conformance: Recorder) -> None:
    spec = run_spec(case.op, case.inputs, case.attributes)
    listed = listed_divergence(case)
    if listed is None:
        passed = spec.status == "output" and _same(spec, case)
        detail = "" if passed else _what_the_spec_did(spec, case)
    elif listed.ulps is not None:
        passed = spec.status == "output" and not _same(spec, case) and _within(spec, case, listed.ulps)
        detail = "" if passed else f"listed as {listed.ulps} ulp apart, but {_what_the_spec_did(spec, case)}"
    elif listed.within is not None:
        passed = (
            spec.status == "output" and not _same(spec, case) and listed.within(case.inputs, case.expected)
        )
        detail = (
            "" if passed else f"listed as within {listed.rule} only, but {_what_the_spec_did(spec, case)}"
        )
    else:
        passed = spec.status == "refused" and spec.message == listed.rule
        detail = "" if passed else f"listed as refused by {listed.rule}, but {_what_the_spec_did(spec, case)}"
    conformance.add_backend(
        BackendOutcome(
            name=case.name,
            op=case.op,
            outcome=_outcome(listed, passed),
            rule=rule_of(case),
            spec=spec,
            reason=listed.reason if listed else None,
            detail=detail,
        )
    )
    if listed is None and spec.status == "output":
        for ours, onnx_output in zip(spec.outputs, case.expected, strict=False):
            assert_same(ours, onnx_output)
    assert passed, detail


def _outcome(
    listed: Divergence | None, passed: bool
) -> Literal["pass", "expected divergence", "unexpected divergence"]:
    if not passed:
        return "unexpected divergence"
    return "pass" if listed is None else "expected divergence"


def _what_the_spec_did(spec: Result, case: BackendCase) -> str:
    if spec.status == "refused":
        return f"the spec refuses it by {spec.message}"
    agreement = "equal to" if _same(spec, case) else "different from"
    return f"the spec returns outputs {agreement} ONNX's"


def _same(spec: Result, case: BackendCase) -> bool:
    """The spec gives ONNX's outputs, those the node lists (ONNX's optional outputs omitted last)."""
    return len(case.expected) <= len(spec.outputs) and all(
        same_result(ours, theirs) for ours, theirs in zip(spec.outputs, case.expected, strict=False)
    )


def _within(spec: Result, case: BackendCase, ulps: int) -> bool:
    """Every output of the spec is at most ``ulps`` units in the last place from ONNX's."""
    return len(case.expected) <= len(spec.outputs) and all(
        ours.dtype == theirs.dtype
        and ours.shape == theirs.shape
        and int(ulp_distance(ours, theirs).max(initial=0)) <= ulps
        for ours, theirs in zip(spec.outputs, case.expected, strict=False)
    )


def test_every_listed_case_is_a_backend_case() -> None:
    names = {case.name for case in backend_cases()}
    for module in modules().values():
        listed = set(module.BACKEND_DIVERGENCES) | set(module.BACKEND_RULES)
        assert listed <= names, sorted(listed - names)


@pytest.mark.parametrize("op", OPERATORS.values())
def test_backend_cases_are_found_for_each_operator(op: str) -> None:
    """Guards the filter on onnx's generated cases: an empty list would pass everything above."""
    assert any(case.op == op for case in backend_cases())
