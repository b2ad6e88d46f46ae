"""The harness run with why3: a wrong witness and a wrong example are reported, not passed.

Runs Z3 on a few ground goals of formal/clip.mlw (seconds). Without why3, Z3 and cvc5 the test is
skipped on a developer's machine and fails in CI (CI=true), where the tools are required.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from formal.harness import checks, example_run, status, tools
from formal.harness.run import Job, by_goal, run_jobs
from formal.harness.sources import BUILD, operator_file, read


@pytest.fixture(scope="module")
def found(why3_tools: tools.Tools) -> tools.Tools:
    return why3_tools


@dataclass
class StubCheck:
    holds: str
    refuted: str
    title: str
    dtype: str = "int8"
    source: str = "docs/operators/clip.md:1"


@dataclass
class StubModule:
    name: str
    text: str
    checks: list = field(default_factory=list)


def test_wrong_witness_and_wrong_example_are_reported(found: tools.Tools):
    z3 = found.provers[0]
    file = read(operator_file("clip"))
    right = checks.Mutant(
        1, ") else hi", ") else lo", "L' > M' gives L'", "ClipInt", "clip_element 5 1 0 = 0"
    )
    wrong = checks.Mutant(
        2, ") else hi", ") else lo", "L' > M' gives L'", "ClipInt", "clip_element 5 1 0 = 1"
    )
    check_file = checks.write(
        BUILD / "formal" / "test" / "clip_checks.mlw", checks.check_text(file, [right, wrong])
    )
    theories = (checks.witness_theory(right), checks.witness_theory(wrong))
    mutated = checks.write(BUILD / "formal" / "test" / "clip_1.mlw", checks.mutated_text(file, right))
    example = StubModule(
        "ExampleWrong",
        "module ExampleWrong use int.Int use clip.ClipInt\n"
        "  goal wrong_holds: clip_element 5 1 3 = 4\n\n"  # a blank line between goals, as examples.py has
        "  goal wrong_refuted: not (clip_element 5 1 3 = 4)\nend\n",
        [StubCheck("wrong_holds", "wrong_refuted", "A wrong example")],
    )
    example_file = checks.write(BUILD / "formal" / "test" / "examples.mlw", example_run.file_text([example]))
    jobs = [
        Job(check_file, theories, z3, 5),
        Job(mutated, (right.theory,), z3, 5),
        Job(example_file, (), z3, 5),
    ]
    results = run_jobs(found, jobs)
    assert by_goal(results[jobs[2]]) == {"wrong_holds": "timeout"} or "wrong_refuted" not in by_goal(
        results[jobs[2]]
    )  # the first phase tries the examples only
    negations = example_run.refuted_text([example], {"wrong_holds"})
    assert negations is not None and "wrong_holds" not in negations
    second = checks.write(BUILD / "formal" / "test" / "examples.refuted.mlw", negations)
    answers = {**by_goal(results[jobs[2]]), **by_goal(run_jobs(found, [Job(second, (), z3, 5)]).popitem()[1])}
    witnesses = by_goal(results[jobs[0]])
    assert witnesses[right.witness_goal] == "proved"
    assert witnesses[wrong.witness_goal] != "proved"
    refuted = by_goal(results[jobs[1]])[right.refuted_goal]
    assert (
        status.mutant_status({"witness_answers": {"Z3": "proved"}, "refuted_answers": {"Z3": refuted}})
        == "refuted"
    )
    wrong_witness = {"witness_answers": {"Z3": witnesses[wrong.witness_goal]}, "refuted_answers": {}}
    assert status.mutant_status(wrong_witness) == "witness not proved on the real file"
    [outcome] = example_run.outcomes([example], {"Z3": answers})
    assert not outcome.agrees
    assert outcome.verdict.startswith("disagrees")
