"""The proof harness's pure parts: ids, kinds, why3's answers, grouping, cache keys, checks' verdicts."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from formal.harness import cache, checks, example_run, kinds, needs, run, status, tools, tracing
from formal.harness.example_run import ExampleOutcome
from formal.harness.goals import group
from formal.harness.sources import ROOT, read
from formal.harness.why3 import Task, Why3Error, parse
from sonnx_spec.requirements import catalogue

SPEC = """
module Foo
  type t
  val predicate le t t
  axiom foo_s1_le_refl: forall x. le x x
  let function foo_element (x: t) : t = x
  lemma foo_s1_same: forall x. foo_element x = x
end

module FooConcrete
  clone export Foo with axiom .
  type m
  function decode m : t
  axiom foo_s1_machine: forall x. decode x = decode x
  lemma foo_s1_reference: true
end

module FooInt
  use int.Int
  let function bits (x: int) : int = x
  clone export FooConcrete with type t = int, val le = Int.(<=), type m = int, function decode = bits
  lemma foo_s1_int_fact: forall x. foo_element x = x
  lemma foo_s1_machine_fact: forall x. bits x = x
end
"""


def test_ids_read_with_the_one_grammar():
    assert tracing.ids_of(["clip_S1_S3_nan_stays_nan"], "clip") == ["CLIP_S1", "CLIP_S3"]
    assert tracing.ids_of(["gen_c1_values"], "abs") == ["GEN_C1"]
    assert tracing.ids_of(["leakyrelu_S1_x"], "leaky_relu") == ["LEAKYRELU_S1"]
    assert tracing.ids_of(["clip_flat'vc", "max_S1_x"], "clip") == []  # another operator's id is not cited


def test_a_goal_without_or_with_an_unknown_id_is_a_problem():
    known = catalogue()
    assert "names no rule id" in tracing.id_problem([], known)
    assert "unknown id CLIP_S99" in tracing.id_problem(["CLIP_S99"], known)
    assert tracing.id_problem(["CLIP_S1"], known) is None


def test_kinds_follow_the_module():
    file = read(ROOT / "formal/foo.mlw", SPEC)
    assert kinds.classify(file, "foo", "Foo", "foo_s1_same") == "property"
    assert kinds.classify(file, "foo", "Foo", "foo_element'vc") == "property"
    assert kinds.classify(file, "foo", "FooConcrete", "foo_s1_reference") == "refinement"
    assert kinds.classify(file, "foo", "FooInt", "foo_s1_le_refl") == "instance"  # a spec axiom, proved
    assert kinds.classify(file, "foo", "FooInt", "foo_s1_machine") == "refinement"  # a concrete axiom
    assert kinds.classify(file, "foo", "FooInt", "foo_s1_int_fact") == "property"
    assert kinds.classify(file, "foo", "FooInt", "foo_s1_machine_fact") == "refinement"  # uses `bits`
    assert kinds.classify(file, None, "Foo", "anything") == "library"


def test_why3_answers_are_read():
    def one(answer: str, status: str = "", goal: str = "g", expl: list[str] | None = None) -> dict:
        return {
            "prover-result": {"answer": answer, "status": status, "time": 0.5},
            "term": {"goal_name": goal, "explanations": expl or [], "loc": {"line": 7}},
        }

    stream = "\n".join(
        json.dumps(o)
        for o in [
            one("Valid"),
            one("High failure", "exited with status 0"),
            one("Unknown\n(unknown)"),
            one("Invalid"),
            one("Timeout"),
            one("HighFailure", "exited with status 1"),
        ]
    )
    assert [t.status for t in parse(stream)] == [
        "proved",
        "timeout",
        "unknown",
        "invalid",
        "timeout",
        "error",
    ]
    assert next(parse(stream)).line == 7


def test_tasks_grouped_into_goals_by_label():
    file = read(ROOT / "formal/foo.mlw", SPEC)
    tasks = [
        Task("foo_s1_same", (), 7, "proved", 0.1),
        Task("foo_element'vc", ("foo_s1_post",), 6, "proved", 0.1),
        Task("foo_element'vc", ("assertion",), 6, "proved", 0.1),
        Task("foo_element'vc", ("assertion",), 6, "proved", 0.1),
    ]
    other = [*tasks[:3], Task("foo_element'vc", ("assertion",), 6, "timeout", 5.0)]
    goals = {g.goal: g for g in group(file, "foo", "Foo", {"Z3": tasks, "cvc5": other})}
    assert set(goals) == {"foo_s1_same", "foo_s1_post", "foo_element'vc"}
    assert goals["foo_element'vc"].ids == ["FOO_S1"]  # the ids of its contract's labels
    assert goals["foo_element'vc"].tasks == 2
    assert goals["foo_element'vc"].answers == {"Z3": "proved", "cvc5": "timeout"}


def test_an_ieee_goal_is_proved_when_both_provers_prove_it():
    goal = {"theory": "ClipBFloat16", "goal": "g", "answers": {"Z3": "proved", "cvc5": "unknown"}}
    assert status.goal_status(goal, "clip", [])[0] == "unknown"
    assert (
        status.goal_status({**goal, "answers": {"Z3": "proved", "cvc5": "proved"}}, "clip", [])[0] == "proved"
    )


def test_another_goal_is_proved_when_one_prover_proves_it():
    goal = {"theory": "ClipConcrete", "goal": "g", "answers": {"Z3": "timeout", "cvc5": "proved"}}
    assert status.goal_status(goal, "clip", [])[0] == "proved"
    neither = {**goal, "answers": {"Z3": "timeout", "cvc5": "unknown"}}
    assert status.goal_status(neither, "clip", [])[0] == "timeout"  # the worse answer


def test_the_cache_key_covers_the_inputs():
    inputs = cache.inputs("clip")
    for needed in [
        "formal/clip.mlw",
        "formal/clip.mutants.toml",
        "formal/lib/ieee.drv",
    ]:
        assert ROOT / needed in inputs
    assert ROOT / "formal/harness/cache.py" in inputs
    assert ROOT / "formal/harness/status.py" not in inputs  # it only reads the records
    base = cache.key("clip", {"why3": "1.5.1", "Z3": "4.8.12"}, 5.0)
    assert base != cache.key("clip", {"why3": "1.5.1", "Z3": "4.13"}, 5.0)
    assert base != cache.key("clip", {"why3": "1.5.1", "Z3": "4.8.12"}, 10.0)
    assert base != cache.key("max", {"why3": "1.5.1", "Z3": "4.8.12"}, 5.0)


def test_the_cache_key_covers_the_examples_as_why3_states_them(monkeypatch: pytest.MonkeyPatch):
    versions = {"why3": "1.5.1", "Z3": "4.8.12"}
    base = cache.key("clip", versions, 5.0)
    real = example_run.example_modules

    def one_value_changed(op: str):
        modules = real(op)
        first = modules[0]
        return [type(first)(first.name, first.text.replace("= 10", "= 11"), first.checks), *modules[1:]]

    monkeypatch.setattr(example_run, "example_modules", one_value_changed)
    assert cache.key("clip", versions, 5.0) != base


def test_the_cache_key_covers_how_the_examples_are_run_not_the_generator_s_file(
    monkeypatch: pytest.MonkeyPatch,
):
    assert ROOT / "formal/harness/examples.py" not in cache.inputs("clip")  # its output is in the key
    assert ROOT / "sonnx_spec/pages/example_language.py" not in cache.inputs("clip")  # so is the language's
    versions = {"why3": "1.5.1", "Z3": "4.8.12"}
    base = cache.key("reshape", versions, 5.0)
    monkeypatch.setattr(example_run, "transformations", lambda op: ("split_vc",))
    assert cache.key("reshape", versions, 5.0) != base  # reshape's examples are computed first
    monkeypatch.undo()
    monkeypatch.setattr(example_run, "outside_model", lambda op: ["an example left out"])
    assert cache.key("reshape", versions, 5.0) != base


def test_a_mutant_must_change_text_found_once():
    file = read(ROOT / "formal/foo.mlw", SPEC)
    mutant = checks.Mutant(1, "x", "y", "x everywhere", "FooInt", "true")
    with pytest.raises(checks.CheckError, match="found"):
        checks.mutated_text(file, mutant)


def test_mutant_and_example_verdicts():
    refuted = {"witness_answers": {"Z3": "proved", "cvc5": "proved"}, "refuted_answers": {"Z3": "proved"}}
    assert status.mutant_status(refuted) == "refuted"
    assert status.mutant_status({**refuted, "refuted_answers": {"Z3": "timeout"}}) == "not refuted"
    wrong_witness = {**refuted, "witness_answers": {"Z3": "unknown", "cvc5": "timeout"}}
    assert status.mutant_status(wrong_witness) == "witness not proved on the real file"
    agree = ExampleOutcome("t", "int8", "p.md:1", {"Z3": "proved", "cvc5": "unknown"}, {"Z3": "unknown"})
    assert agree.agrees
    assert not ExampleOutcome("t", "int8", "p.md:1", {"Z3": "unknown"}, {"Z3": "proved"}).agrees
    assert "undecided" in ExampleOutcome("t", "int8", "p.md:1", {"Z3": "timeout"}, {"Z3": "timeout"}).verdict


def test_a_mutated_file_assumes_nothing_proved_in_it():
    text = (
        "module A\n  type t\n  val function f t : t\n  axiom ax: forall x. f x = x\n"
        "  lemma twice: forall x. f (f x) = x\n"
        "  let rec lemma down (n: int) requires { n >= 0 } variant { n } = if n > 0 then down (n - 1)\n"
        "  let function g (x: int) : int\n    ensures { result = x + 1 }\n  = x + 1\nend\n"
        "module G\n  clone export A with axiom .\nend\n"
        "module B\n  clone export A with type t = int,\n    val f = g\nend\n"
    )
    unassumed = checks.unassumed(text)
    assert "  goal twice:" in unassumed and "lemma twice" not in unassumed
    assert "  let rec ghost down (n: int)" in unassumed
    assert "ensures { result = x + 1 }" not in unassumed and "  = x + 1\n" in unassumed
    assert "  clone export A with axiom .\n" in unassumed  # a generic module keeps its axioms
    assert "    val f = g, goal .\n" in unassumed  # an instance's axioms become goals, never assumed
    assert "requires { n >= 0 }" in unassumed  # a program's contract is not a logic function's


def test_a_second_prover_may_try_some_goals_only():
    file = read(ROOT / "formal/foo.mlw", SPEC)
    z3 = [
        Task("foo_s1_same", (), 7, "proved", 0.1),
        Task("foo_element'vc", ("foo_s1_post",), 6, "timeout", 5.0),
    ]
    cvc5 = [Task("foo_element'vc", ("foo_s1_post",), 6, "proved", 0.2)]  # what Z3 left unproved
    goals = {g.goal: g for g in group(file, "foo", "Foo", {"Z3": z3, "cvc5": cvc5})}
    assert goals["foo_s1_same"].answers == {"Z3": "proved"}  # cvc5 did not try it
    assert goals["foo_s1_post"].answers == {"Z3": "timeout", "cvc5": "proved"}
    with pytest.raises(ValueError, match="other tasks"):
        group(file, "foo", "Foo", {"Z3": z3, "cvc5": [Task("foo_element'vc", ("other",), 6, "proved", 0.1)]})


def test_the_other_provers_follow_only_where_the_first_did_not_prove():
    z3 = tools.Prover("Z3", "z3", "4.8.12", "", "")
    cvc5 = tools.Prover("cvc5", "cvc5", "1.0.3", "", "")
    found = tools.Tools("1.5.1", (z3, cvc5), ROOT / "build/why3/why3.conf")
    job = run.Job(ROOT / "formal/foo.mlw", ("FooInt",), z3, 5.0, then_others=True)
    tasks = [
        Task("a", (), 1, "proved", 0.1),
        Task("b'vc", (), 2, "timeout", 5.0),
        Task("b'vc", (), 3, "proved", 0),
    ]
    [follow] = run.follow_ups(found, job, tasks)
    assert (follow.prover, follow.goals, follow.then_others) == (cvc5, ("b'vc",), False)
    assert run.follow_ups(found, job, tasks[:1]) == []  # all proved: cvc5 is not run
    assert run.follow_ups(found, replace(job, then_others=False), tasks) == []  # an IEEE module's run
    assert run.follow_ups(found, job, Why3Error("does not load")) == []


def test_an_ieee_module_needs_both_provers_and_others_one():
    assert needs.needs_every_prover("AddBFloat16") and needs.needs_every_prover("ClipFloat64")
    assert not needs.needs_every_prover("ClipInt8") and not needs.needs_every_prover("ClipConcrete")
