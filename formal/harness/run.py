"""One operator (or the shared theories), start to end: every why3 run it needs, two at a time.

Each module is proved in a run of its own, per prover (why3 reports tasks without their module, and
one prover at a time). Z3 tries every goal first: of the goals that need one prover (needs.py) it
proves more than cvc5, and sooner. cvc5 tries every goal of an IEEE instance (they need both), and of
the other modules only the goals Z3 did not prove, as soon as Z3's run of that module ends; the same
for the witnesses and refutations of the deliberate errors. The checks (witnesses, vacuity, mutants,
examples) are files of their own under build/formal/. At most two runs at once in the whole process
(two prover processes, one per core of the machine's share), whichever operators they are for: the
command line proves two operators at a time, so that the end of one does not leave a core idle.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import checks, example_run
from .cache import LIBRARY
from .goals import group
from .needs import needs_every_prover
from .sources import BUILD, WhyFile, lib_files, operator_file, read
from .tools import Prover, Tools
from .why3 import Task, Why3Error, prove

WORKERS = 2
PROVERS_AT_ONCE = threading.BoundedSemaphore(WORKERS)  # shared by every run_jobs of the process
CHECKS_DIR = BUILD / "formal"


@dataclass(frozen=True)
class Job:
    file: Path
    theories: tuple[str, ...]
    prover: Prover
    timelimit: float
    goals: tuple[str, ...] = ()  # why3's goal names, of one theory: only these (else every goal)
    then_others: bool = False  # the other provers then try what this one did not prove
    transformations: tuple[str, ...] = ("split_vc",)  # applied before the prover, in this order


Result = list[Task] | Why3Error


def follow_ups(tools: Tools, job: Job, result: Result) -> list[Job]:
    """The runs of the other provers on what ``job`` left unproved (none if it proved everything, or
    if the file did not load: that is the outcome)."""
    if not job.then_others or isinstance(result, Why3Error):
        return []
    unproved = tuple(dict.fromkeys(t.goal for t in result if t.status != "proved"))
    if not unproved:
        return []
    others = [p for p in tools.provers if p != job.prover]
    return [replace(job, prover=p, goals=unproved, then_others=False) for p in others]


def run_jobs(tools: Tools, jobs: list[Job]) -> dict[Job, Result]:
    """Every job, and the follow-ups of each (``then_others``) as soon as it ends."""

    def one(job: Job) -> Result:
        try:
            with PROVERS_AT_ONCE:
                return prove(
                    tools, job.prover, job.file, job.theories, job.timelimit, job.goals, job.transformations
                )
        except Why3Error as error:
            return error

    results: dict[Job, Result] = {}
    with ThreadPoolExecutor(WORKERS) as pool:
        pending: dict[Future[Result], Job] = {pool.submit(one, job): job for job in jobs}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                job = pending.pop(future)
                results[job] = future.result()
                pending.update({pool.submit(one, j): j for j in follow_ups(tools, job, results[job])})
    return results


def negated(text: str) -> set[str]:
    """The goals of the file of the examples' negations."""
    return set(re.findall(r"^\s*goal (\w+):", text, re.MULTILINE))


def by_goal(result: list[Task] | Why3Error) -> dict[str, str]:
    """goal name -> status (the worst of its tasks); every goal "error" if why3 failed."""
    if isinstance(result, Why3Error):
        return {}
    statuses: dict[str, str] = {}
    for task in result:
        if statuses.get(task.goal, "proved") == "proved":
            statuses[task.goal] = task.status
    return statuses


def _goals(
    files: list[WhyFile], op: str | None, tools: Tools, timelimit: float, extra: list[Job]
) -> tuple[list[dict[str, Any]], list[str], dict[Job, Result]]:
    """The goals of every module of ``files``, the errors, and the answers of the ``extra`` jobs."""
    first, *others = tools.provers
    main = []
    for file in files:
        for module in file.modules:
            both = needs_every_prover(module.name)
            main.append(Job(file.path, (module.name,), first, timelimit, then_others=not both))
            main += [Job(file.path, (module.name,), p, timelimit) for p in others if both]
    results = run_jobs(tools, main + extra)
    goals, errors = [], []
    for file in files:
        for module in file.modules:
            found = {
                j.prover: r
                for j, r in results.items()
                if j.file == file.path and j.theories == (module.name,)
            }
            runs = {p.name: found[p] for p in tools.provers if p in found}
            failed = [r for r in runs.values() if isinstance(r, Why3Error)]
            if failed:
                errors.append(f"{file.rel} {module.name}: {failed[0]}")
                continue
            for goal in group(file, op, module.name, runs):  # type: ignore[arg-type]
                goals.append({"file": file.rel, **goal.to_json()})
    return goals, list(dict.fromkeys(errors)), results


def prove_library(tools: Tools, timelimit: float) -> dict[str, Any]:
    start = time.monotonic()
    files = [read(p) for p in lib_files()]
    goals, errors, _ = _goals(files, None, tools, timelimit, [])
    return {
        "operator": LIBRARY,
        "files": [f.rel for f in files],
        "theories": [m.name for f in files for m in f.modules],
        "goals": goals,
        "errors": errors,
        "time": round(time.monotonic() - start, 1),
    }


def prove_operator(op: str, tools: Tools, timelimit: float, log: Callable[[str], None]) -> dict[str, Any]:
    """Every goal of formal/<op>.mlw with each prover, its mutants, vacuity and examples."""
    start = time.monotonic()
    file = read(operator_file(op))
    errors: list[str] = []
    extra: list[Job] = []
    try:
        mutants = checks.mutants(op)
        mutated = {
            m.number: checks.write(
                CHECKS_DIR / "mutants" / f"{op}_{m.number}.mlw", checks.mutated_text(file, m)
            )
            for m in mutants
        }
    except checks.CheckError as error:
        mutants, mutated = [], {}
        errors.append(str(error))
    check_file = checks.write(CHECKS_DIR / "checks" / f"{op}.mlw", checks.check_text(file, mutants))
    witnesses = tuple(checks.witness_theory(m) for m in mutants)
    vacuities = tuple(checks.vacuity_theory(m.name) for m in file.modules)
    examples = example_run.example_modules(op)
    computed = example_run.transformations(op)  # the examples' own: computed first where they can be
    example_file = None
    if examples is not None:
        example_file = checks.write(
            example_run.EXAMPLES_DIR / f"{op}_examples.mlw", example_run.file_text(examples)
        )
        alias = example_run.why3_file(op)
        if alias != op:  # a file name Why3 cannot `use` (a keyword): a copy beside the examples
            checks.write(example_run.EXAMPLES_DIR / f"{alias}.mlw", file.text)
    first = tools.provers[0]
    if witnesses:
        extra.append(Job(check_file, witnesses, first, timelimit, then_others=True, transformations=computed))
    extra += [Job(check_file, vacuities, p, checks.VACUITY_TIMELIMIT) for p in tools.provers]
    extra += [
        Job(mutated[m.number], (m.theory,), first, timelimit, then_others=True, transformations=computed)
        for m in mutants
    ]
    for prover in tools.provers:
        if prover.name == example_run.REQUIRED:  # the mutated file does not prove the witness too
            short = checks.VACUITY_TIMELIMIT
            extra += [
                Job(mutated[m.number], (m.still_theory,), prover, short, transformations=computed)
                for m in mutants
            ]
        if example_file is not None and prover.name == example_run.REQUIRED:
            extra.append(Job(example_file, (), prover, timelimit, transformations=computed))
    log(f"{op}: {len(file.modules)} modules, {len(mutants)} mutants, {len(extra)} check runs")
    goals, goal_errors, results = _goals([file], op, tools, timelimit, extra)
    errors += goal_errors
    checked = {check_file, example_file}  # a mutated file that does not load is that mutant's outcome
    errors += list(
        dict.fromkeys(str(r) for j, r in results.items() if j.file in checked and isinstance(r, Why3Error))
    )

    def answers(path: Path | None, theories: tuple[str, ...], goal: str) -> dict[str, str]:
        found = {}
        for job, result in results.items():
            if job.file == path and job.theories == theories:
                left = "proved" if "compute_in_goal" in job.transformations else "missing"  # computed true
                status = "error" if isinstance(result, Why3Error) else by_goal(result).get(goal, left)
                found[job.prover.name] = status
        return found

    record: dict[str, Any] = {
        "operator": op,
        "file": file.rel,
        "theories": [m.name for m in file.modules],
        "goals": goals,
        "mutants": [
            {
                "number": m.number,
                "change": m.change,
                "module": m.module,
                "witness": m.witness,
                "witness_answers": answers(check_file, witnesses, m.witness_goal),
                "refuted_answers": answers(mutated[m.number], (m.theory,), m.refuted_goal),
                "still_answers": answers(mutated[m.number], (m.still_theory,), m.still_goal),
            }
            for m in mutants
        ],
        "vacuity": [
            {"theory": m.name, "answers": answers(check_file, vacuities, checks.vacuity_goal(m.name))}
            for m in file.modules
        ],
        "examples": None,
        "errors": errors,
    }
    if examples is not None:
        decided = {
            j.prover.name: example_run.with_computed(examples, r, by_goal(r), "holds", computed)
            for j, r in results.items()
            if j.file == example_file
        }
        proved = decided.get(example_run.REQUIRED, {})
        undecided = {c.holds for m in examples for c in m.checks if proved.get(c.holds) != "proved"}
        negations = example_run.refuted_text(examples, undecided)
        if negations is not None:  # the second phase: the negations of the examples not proved
            path = checks.write(example_run.EXAMPLES_DIR / f"{op}_examples_refuted.mlw", negations)
            second = run_jobs(
                tools, [Job(path, (), p, timelimit, transformations=computed) for p in tools.provers]
            )
            for job, result in second.items():
                found = example_run.with_computed(examples, result, by_goal(result), "refuted", computed)
                decided.setdefault(job.prover.name, {}).update(
                    {goal: status for goal, status in found.items() if goal in negated(negations)}
                )
        record["examples"] = [o.to_json() for o in example_run.outcomes(examples, decided)]
        record["outside_model"] = example_run.outside_model(op)
    record["time"] = round(time.monotonic() - start, 1)
    return record
