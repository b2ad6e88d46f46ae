"""ONNX's backend node cases for Clip, Max and Abs, run against the spec.

Each case gives ONNX's expected output, which the spec must reproduce bit for
bit, unless the case is listed in EXPECTED_DIVERGENCES: there the profile
departs from ONNX on purpose, and the spec must refuse the case by the listed
rule. A listed case that passes, or that the spec refuses by another rule,
fails: the list says exactly where the spec and ONNX part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pytest
from backend_cases import OPERATORS, BackendCase, backend_cases
from conformance_report import BackendOutcome, Recorder
from onnx_engines import Result
from spec_comparison import run_spec
from support import assert_same

from sonnx_spec.compare import same_result


@dataclass(frozen=True)
class Divergence:
    rule: str  # the spec refuses the case by this rule
    reason: str


_NO_DEFAULT = "; the profile has no default values, so the spec refuses the model."
_L = "The model omits min, for which ONNX takes the lowest value of the type" + _NO_DEFAULT
_M = "The model omits max, for which ONNX takes the highest value of the type" + _NO_DEFAULT
_LM = "The model omits min and max, so ONNX copies X" + _NO_DEFAULT[:-1] + " by L, which it checks first."

# The one list of the backend cases where the spec departs from ONNX.
EXPECTED_DIVERGENCES: dict[str, Divergence] = {
    "test_clip_default_inbounds": Divergence("CLIP_R1", _LM),
    "test_clip_default_int8_inbounds": Divergence("CLIP_R1", _LM),
    "test_clip_default_int8_max": Divergence("CLIP_R1", _L),  # "default_max": only max is given
    "test_clip_default_int8_min": Divergence("CLIP_R2", _M),  # "default_min": only min is given
    "test_clip_default_max": Divergence("CLIP_R1", _L),
    "test_clip_default_min": Divergence("CLIP_R2", _M),
}

# The rule a passing case exercises: the operator's semantics, unless named here.
SEMANTICS = {"clip": "CLIP_S1", "max": "MAX_S1", "abs": "ABS_S1"}
RULES = {"test_clip_min_greater_than_max": "CLIP_S2"}


def rule_of(case: BackendCase) -> str:
    if case.name in EXPECTED_DIVERGENCES:
        return EXPECTED_DIVERGENCES[case.name].rule
    return RULES.get(case.name, SEMANTICS[case.op])


CASES = [pytest.param(case, id=case.name, marks=pytest.mark.req(rule_of(case))) for case in backend_cases()]


@pytest.mark.parametrize("case", CASES)
def test_backend_case(case: BackendCase, conformance: Recorder) -> None:
    spec = run_spec(case.op, case.inputs)
    listed = EXPECTED_DIVERGENCES.get(case.name)
    if listed is None:
        passed = spec.status == "output" and same_result(spec.output, case.expected)
        detail = "" if passed else _what_the_spec_did(spec, case)
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
        assert_same(spec.output, case.expected)
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
    agreement = "equal to" if same_result(spec.output, case.expected) else "different from"
    return f"the spec returns an output {agreement} ONNX's"


def test_every_listed_divergence_is_a_backend_case() -> None:
    names = {case.name for case in backend_cases()}
    assert set(EXPECTED_DIVERGENCES) <= names, sorted(set(EXPECTED_DIVERGENCES) - names)


@pytest.mark.parametrize("op", OPERATORS.values())
def test_backend_cases_are_found_for_each_operator(op: str) -> None:
    """Guards the filter on onnx's generated cases: an empty list would pass everything above."""
    assert any(case.op == op for case in backend_cases())
