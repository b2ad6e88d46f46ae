"""The tasks why3 reports for a module, grouped into goals, each with its ids, kind and status per prover.

A lemma, a goal or a cloned axiom is one goal (split_vc may cut it into several tasks). The VCs of a
let function are grouped by label: a postcondition labelled with ids (``[@expl:clip_S1_cases]``) is a
goal of its own; the function's other VCs (assertions, loop invariants, preconditions of calls) are
one goal ``<function>'vc`` that proves what its contract's labels name. A goal whose every task is a
``variant decrease`` is the termination of a recursive definition: it names no rule (the rules of the
module rely on the definition), and is the one kind of goal allowed to name none.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .kinds import classify
from .sources import WhyFile
from .tracing import ids_of
from .why3 import Task

TERMINATION = "variant decrease"


@dataclass
class Goal:
    theory: str
    goal: str
    line: int
    ids: list[str]
    kind: str
    answers: dict[str, str] = field(default_factory=dict)  # prover -> proved, timeout, unknown…
    time: dict[str, float] = field(default_factory=dict)  # prover -> seconds, over its tasks
    tasks: int = 0
    termination: bool = False  # only `variant decrease` tasks: names no rule by design

    def to_json(self) -> dict:
        return asdict(self)


def label_of(task: Task, op: str | None) -> str:
    """The goal a task belongs to: its id-naming [@expl] label, or why3's goal name."""
    if op is not None and task.goal.endswith("'vc"):
        named = [e for e in task.expl if ids_of([e], op)]
        if named:
            return named[0]
    return task.goal


def worst(statuses: list[str]) -> str:
    order = ("error", "invalid", "timeout", "unknown", "proved")
    return min(statuses, key=order.index) if statuses else "proved"


def group(file: WhyFile, op: str | None, theory: str, runs: dict[str, list[Task]]) -> list[Goal]:
    """The goals of ``theory``, from the tasks each prover was given: the first prover every task,
    another the same tasks or those of some of why3's goals only (where the first did not prove them);
    a goal has the answers of the provers that tried it."""
    provers = list(runs)
    first = runs[provers[0]]
    tried = {p: {t.goal for t in runs[p]} for p in provers}
    for prover in provers[1:]:
        expected = [(t.goal, t.expl, t.line) for t in first if t.goal in tried[prover]]
        if [(t.goal, t.expl, t.line) for t in runs[prover]] != expected:
            raise ValueError(f"{file.rel} {theory}: {prover} was given other tasks than {provers[0]}")
    following = {p: iter(runs[p]) for p in provers}
    labels = [label_of(t, op) for t in first]
    goals: dict[str, Goal] = {}
    for k, label in enumerate(labels):
        tasks = {p: next(following[p]) for p in provers if first[k].goal in tried[p]}
        goal = goals.get(label)
        if goal is None:
            goal = goals[label] = Goal(
                theory,
                label,
                _line(file, theory, label, first[k].line),
                _ids(op, label, first, labels),
                classify(file, op, theory, first[k].goal),
            )
        goal.tasks += 1
        for prover, task in tasks.items():
            goal.answers[prover] = worst([goal.answers.get(prover, "proved"), task.status])
            goal.time[prover] = round(goal.time.get(prover, 0.0) + task.time, 2)
    for label, goal in goals.items():
        expls = {e for t, lab in zip(first, labels, strict=True) if lab == label for e in t.expl}
        goal.termination = expls == {TERMINATION}
    return list(goals.values())


def _ids(op: str | None, label: str, tasks: list[Task], labels: list[str]) -> list[str]:
    if op is None:
        return []
    if not label.endswith("'vc"):
        return ids_of([label], op)
    function = label.removesuffix("'vc")
    contract = [lab for t, lab in zip(tasks, labels, strict=True) if t.goal == label and lab != label]
    return ids_of([function, *contract], op)


def _line(file: WhyFile, theory: str, label: str, task_line: int) -> int:
    """Where the goal is declared: its [@expl] label, its lemma, the axiom it proves, its function."""
    module = file.by_name.get(theory)
    name = label.removesuffix("'vc")
    if module is not None:
        for table in (module.goals, module.functions):
            if name in table:
                return table[name]
    declaring = file.declaring(name)
    if declaring is not None:
        return declaring.goals.get(name) or declaring.axioms[name]
    return file.label_line(label) or task_line
