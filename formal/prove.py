"""Prove the Why3 specifications in formal/ and write their status as JSON.

    python formal/prove.py --status=build/formal-status.json

Every goal of formal/clip.mlw, max.mlw and abs.mlw is tried with Z3, then the
goals Z3 leaves unproved with CVC4 (``--all-provers``: every goal with both).
A goal is traced to requirements by its name: ``clip_P1_in_interval`` proves
CLIP_P1; a postcondition is named by its ``[@expl:...]`` label. A goal that
names no id, or an unknown id, is an error; so is an axiom of a generic module
that an instance does not prove. A mutation self-check then breaks a few goals
on purpose (Clip's upper bound replaced by L, …) and requires that the provers
do NOT prove them: a harness that proves a wrong specification proves nothing.

Exits 1 if a goal is unproved, a mutant is proved or a goal is not traceable,
2 if the proofs cannot be run (why3 or a prover missing, a file that does not
type-check). The status file has no timestamp: the same sources give the same
file, prover times aside.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ("formal/clip.mlw", "formal/max.mlw", "formal/abs.mlw")
PROVER_NAMES = ("Z3", "CVC4")  # in the order they are tried
HINT = "install them (apt-get install why3 z3 cvc4), then run `why3 config detect`"
ID_RE = re.compile(r"(?<![a-z0-9])(?:(clip|max|abs)((?:_[rcesp]\d+)+)|gr(\d+))(?![0-9])", re.IGNORECASE)
MODULE_RE = re.compile(r"^(?:module|theory)\s+(\w+)", re.MULTILINE)
CLONE_RE = re.compile(r"^\s*clone\s+(?:export\s+)?(\w+)", re.MULTILINE)
AXIOM_RE = re.compile(r"^\s*axiom\s+(\w+)", re.MULTILINE)
DECLARATION_RE = re.compile(r"^\s*(?:lemma|goal|axiom|let\s+(?:rec\s+)?lemma)\s+(\w+)", re.MULTILINE)
SPACE_RE = re.compile(r"\s*")

Subgoals = dict[tuple[str, str], list["Subgoal"]]
"""(file, theory) -> the tasks why3 reported for it."""


@dataclass(frozen=True)
class Mutant:
    """A deliberate error: ``old`` (found exactly once in ``file``) becomes ``new``.

    ``goal`` must then be unproved, in ``theory``; ``select`` is why3's name
    for it when that differs (``clip'vc`` for a postcondition of ``clip``).
    """

    file: str
    theory: str
    goal: str
    old: str
    new: str
    change: str
    select: str | None = None


MUTANTS = (
    Mutant(
        "formal/clip.mlw",
        "ClipSpec",
        "clip_P1_in_interval",
        "le (clip_elt lo hi x) hi",
        "le (clip_elt lo hi x) lo",
        "upper bound M replaced by L in CLIP_P1",
    ),
    Mutant(
        "formal/clip.mlw",
        "ClipSpec",
        "clip_P1_post_in_interval_or_M",
        "le (result.elt i) (value m)",
        "le (result.elt i) (value l)",
        "upper bound M replaced by L in the CLIP_P1 postcondition of clip",
        select="clip'vc",
    ),
    Mutant(
        "formal/max.mlw",
        "MaxSpec",
        "max_P1_one_of_inputs'vc",
        "max_S1_fold f n = f m }",
        "max_S1_fold f n = f 0 }",
        "MAX_P1: Y equals the first input instead of one of the inputs",
    ),
    Mutant(
        "formal/abs.mlw",
        "AbsSpec",
        "abs_C2_post_values_of_the_type",
        "forall i. valid_index x.shape i -> not lowest (x.elt i) }",
        "true }",
        "ABS_E1 precondition removed: ABS_C2 must then fail (|lowest| is not a value of the type)",
        select="abs'vc",
    ),
)


class HarnessError(Exception):
    """The proofs could not be run or checked (as opposed to a goal left unproved)."""


@dataclass(frozen=True)
class Prover:
    name: str
    version: str

    @property
    def why3_id(self) -> str:
        return f"{self.name},{self.version},"

    def __str__(self) -> str:
        return f"{self.name} {self.version}"


@dataclass(frozen=True)
class Answer:
    status: str  # proved, unproved, timeout or error
    time: float


@dataclass
class Subgoal:
    """One task after split_vc: a conjunct of a lemma, a postcondition of a function…"""

    name: str  # why3's goal name: clip_P1_in_interval, clip'vc
    expl: tuple[str, ...]
    line: int
    answers: dict[Prover, Answer] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The goal it belongs to: its [@expl] label if that names an id, else why3's goal."""
        labelled = [e for e in self.expl if ID_RE.search(e)]
        return " / ".join(labelled) if labelled else self.name

    def proved_by(self, provers: Iterable[Prover]) -> Prover | None:
        return next((p for p in provers if p in self.answers and self.answers[p].status == "proved"), None)


@dataclass
class Goal:
    file: str
    theory: str
    label: str
    subgoals: list[Subgoal]
    line: int = 0
    ids: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------
# Tools


def run(args: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


def why3_version() -> str:
    if shutil.which("why3") is None:
        raise HarnessError(f"why3 is not installed: {HINT}")
    match = re.search(r"version\s+(\S+)", run(["why3", "--version"]).stdout)
    if not match:
        raise HarnessError("`why3 --version` printed no version")
    return match[1]


def find_provers() -> list[Prover]:
    """Z3 and CVC4 as why3's configuration knows them: the plain variants, newest version."""
    listed = [line.strip() for line in run(["why3", "config", "list-provers"]).stdout.splitlines()]
    found = []
    for name in PROVER_NAMES:
        if shutil.which(name.lower()) is None:
            raise HarnessError(f"{name} is not installed: {HINT}")
        versions = [line.split()[1] for line in listed if re.fullmatch(rf"{name} \S+", line)]
        if not versions:
            raise HarnessError(f"why3 knows no {name} prover: {HINT}")
        found.append(Prover(name, max(versions, key=version_key)))
    return found


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def known_ids() -> set[str]:
    """The requirement ids of sonnx_spec/requirements.toml."""
    sys.path.insert(0, str(ROOT))  # also when the package is not installed
    from sonnx_spec import rules

    return set(rules())


# --------------------------------------------------------------------------
# Running why3


def prove_theory(
    prover: Prover, file: str, theory: str, goal: str | None, timelimit: float, cwd: Path = ROOT
) -> list[tuple[Subgoal, Answer]]:
    """Run why3 on one theory (or one goal of it): one (task, answer) per task."""
    args = ["why3", "prove", "--json", "-P", prover.why3_id, "-t", f"{timelimit:g}", "-a", "split_vc"]
    args += [file, "-T", theory, *(["-G", goal] if goal else [])]
    done = run(args, cwd)
    results = list(parse_json_stream(done.stdout))
    if done.returncode != 0 and not results:
        raise HarnessError(f"why3 failed on {file} ({theory}, {prover}):\n{done.stderr.strip()}")
    return [(subgoal_of(r["term"]), answer_of(r["prover-result"])) for r in results]


def parse_json_stream(text: str) -> Iterator[dict]:
    """why3 prove --json prints one JSON object per task, one after the other."""
    decoder, pos = json.JSONDecoder(), 0
    while (pos := SPACE_RE.match(text, pos).end()) < len(text):
        obj, pos = decoder.raw_decode(text, pos)
        yield obj


def subgoal_of(term: dict) -> Subgoal:
    return Subgoal(term["goal_name"], tuple(term["explanations"]), int(term["loc"]["line"]))


def answer_of(result: dict) -> Answer:
    answer, exit_status = result["answer"], result.get("status", "")
    if answer == "Valid":
        status = "proved"
    elif answer in ("Timeout", "Out of memory", "Step limit exceeded") or (
        answer == "High failure" and "exited with status 0" in exit_status  # Z3 timing itself out
    ):
        status = "timeout"
    elif answer in ("High failure", "Failure"):
        status = "error"
    else:
        status = "unproved"
    return Answer(status, round(float(result.get("time", 0)), 2))


def modules(file: str) -> list[str]:
    return MODULE_RE.findall((ROOT / file).read_text("utf-8"))


def first_pass(prover: Prover, timelimit: float, jobs: int) -> Subgoals:
    """Every theory of every file with the first prover, theories in parallel."""
    work = [(file, theory) for file in FILES for theory in modules(file)]
    with ThreadPoolExecutor(jobs) as pool:
        runs = list(pool.map(lambda ft: prove_theory(prover, *ft, None, timelimit), work))
    subgoals: Subgoals = {}
    for key, results in zip(work, runs, strict=True):
        for subgoal, answer in results:
            subgoal.answers[prover] = answer
            subgoals.setdefault(key, []).append(subgoal)
    return subgoals


def retry(subgoals: Subgoals, prover: Prover, timelimit: float, jobs: int, every: bool) -> None:
    """Try ``prover`` on each why3 goal with a task still unproved (``every``: on all)."""
    todo = sorted(
        {
            (file, theory, s.name)
            for (file, theory), tasks in subgoals.items()
            for s in tasks
            if every or not proved(s)
        }
    )
    with ThreadPoolExecutor(jobs) as pool:
        runs = list(pool.map(lambda ftg: prove_theory(prover, *ftg, timelimit), todo))
    for (file, theory, name), results in zip(todo, runs, strict=True):
        merge([s for s in subgoals[file, theory] if s.name == name], results, prover)


def proved(subgoal: Subgoal) -> bool:
    return subgoal.proved_by(subgoal.answers) is not None


def merge(subgoals: list[Subgoal], results: list[tuple[Subgoal, Answer]], prover: Prover) -> None:
    """Attach a rerun's answers to the tasks of the first run (the same tasks, in the same order)."""
    if [(s.expl, s.line) for s in subgoals] != [(r.expl, r.line) for r, _ in results]:
        raise HarnessError(f"{prover} was given other tasks than the first prover for {subgoals[0].name}")
    for subgoal, (_, answer) in zip(subgoals, results, strict=True):
        subgoal.answers[prover] = answer


# --------------------------------------------------------------------------
# Goals and their requirement ids


def goals_of(subgoals: Subgoals) -> list[Goal]:
    goals: dict[tuple[str, str, str], Goal] = {}
    for (file, theory), tasks in subgoals.items():
        for task in tasks:
            goal = goals.setdefault((file, theory, task.label), Goal(file, theory, task.label, []))
            goal.subgoals.append(task)
    for goal in goals.values():
        goal.line = goal_line(goal)
        goal.ids = ids_of(goal.label)
    return list(goals.values())


def goal_line(goal: Goal) -> int:
    """The line that declares the goal: its [@expl] label, or its lemma, axiom or let."""
    lines = (ROOT / goal.file).read_text("utf-8").splitlines()
    first = min(s.line for s in goal.subgoals)
    if goal.label != goal.subgoals[0].name:
        pattern = re.compile(re.escape(f"@expl:{goal.label}") + r"\]")
    else:
        name = re.escape(goal.label.removesuffix("'vc"))
        pattern = re.compile(rf"\b(?:lemma|axiom|goal|let|function|predicate)\b.*\b{name}\b")
    return next((n for n in range(first, 0, -1) if pattern.search(lines[n - 1])), first)


def ids_of(text: str) -> list[str]:
    """The requirement ids a name cites: clip_S4_S2_zeros -> CLIP_S2, CLIP_S4."""
    ids = set()
    for op, labels, gr in ID_RE.findall(text):
        if gr:
            ids.add(f"GR{gr}")
        else:
            ids.update(f"{op.upper()}_{label.upper()}" for label in labels.strip("_").split("_"))
    return sorted(ids)


def untraceable(goals: list[Goal], known: set[str]) -> list[str]:
    """The goals that name no requirement id, or an unknown one.

    Declared lemmas, goals and axioms are checked in the source (why3 reports
    no task for a goal it finds trivial); the others (postconditions, the
    VCs of functions) as why3 reports them.
    """
    declared = {(file, name): line for file in FILES for name, line in declarations(file)}
    errors = [id_error(f"{f}:{line}: {name}", ids_of(name), known) for (f, name), line in declared.items()]
    for goal in goals:
        if (goal.file, goal.label.removesuffix("'vc")) not in declared:
            errors.append(id_error(f"{goal.file}:{goal.line}: {goal.label} ({goal.theory})", goal.ids, known))
    return [e for e in errors if e]


def declarations(file: str) -> Iterator[tuple[str, int]]:
    """The names of the lemmas, goals and axioms of ``file``, with their lines."""
    text = (ROOT / file).read_text("utf-8")
    for match in DECLARATION_RE.finditer(text):
        yield match[1], text.count("\n", 0, match.start(1)) + 1


def id_error(where: str, ids: list[str], known: set[str]) -> str | None:
    unknown = [i for i in ids if i not in known]
    if not ids:
        return f"{where} names no requirement id (name goals like clip_P1_...)"
    return f"{where} names unknown requirement ids: {', '.join(unknown)}" if unknown else None


def undischarged(goals: list[Goal]) -> list[str]:
    """The axioms of a cloned module that the cloning module does not prove.

    A clone must turn every axiom of a generic module into a goal; an axiom
    left an axiom would be an assumption that no prover ever checked.
    """
    reported = {(g.file, g.theory, g.label) for g in goals}
    errors = []
    for file in FILES:
        blocks = module_texts(file)
        for theory, block in blocks.items():
            for cloned in CLONE_RE.findall(block):
                axioms = AXIOM_RE.findall(blocks.get(cloned, ""))
                missing = [a for a in axioms if (file, theory, a) not in reported]
                errors += [f"{file}: {theory} clones {cloned}, does not prove its axiom {a}" for a in missing]
    return errors


def module_texts(file: str) -> dict[str, str]:
    """Each module of ``file`` -> its text."""
    parts = MODULE_RE.split((ROOT / file).read_text("utf-8"))[1:]
    return dict(zip(parts[0::2], parts[1::2], strict=True))


# --------------------------------------------------------------------------
# Status


def goal_status(goal: Goal, provers: list[Prover]) -> tuple[str, list[Prover], float]:
    """proved, unproved, timeout or error; the provers that proved its tasks; their time."""
    by = [s.proved_by(provers) for s in goal.subgoals]
    if all(by):
        seconds = sum(s.answers[p].time for s, p in zip(goal.subgoals, by, strict=True) if p)
        return "proved", [p for p in provers if p in by], round(seconds, 2)
    # A prover's plain "unknown" says more than another's timeout or crash.
    failed = {a.status for s, p in zip(goal.subgoals, by, strict=True) if not p for a in s.answers.values()}
    return next((x for x in ("unproved", "timeout") if x in failed), "error"), [], 0.0


def goal_json(goal: Goal, provers: list[Prover]) -> dict:
    status, used, seconds = goal_status(goal, provers)
    alone = [p for p in provers if all(s.proved_by([p]) for s in goal.subgoals)]
    tried = {p for s in goal.subgoals for p in s.answers}
    return {
        "operator": Path(goal.file).stem,
        "file": goal.file,
        "theory": goal.theory,
        "goal": goal.label,
        "ids": goal.ids,
        "status": status,
        "prover": ", ".join(map(str, used)) or None,
        "time": seconds,
        "line": goal.line,
        "tasks": len(goal.subgoals),
        "tried": [str(p) for p in provers if p in tried],
        "proved_by": [str(p) for p in alone],
    }


def sort_key(goal: Goal) -> tuple[int, int, int, str]:
    return FILES.index(goal.file), modules(goal.file).index(goal.theory), goal.line, goal.label


# --------------------------------------------------------------------------
# Mutation self-check


def check_mutant(mutant: Mutant, provers: list[Prover], timelimit: float) -> dict:
    """Prove the mutated goal with every prover: none may prove it."""
    text = (ROOT / mutant.file).read_text("utf-8")
    answers: dict[str, str] = {}
    if text.count(mutant.old) != 1:  # the file changed: the mutant must follow it
        status = f"not applied: {mutant.old!r} is not exactly once in the file (update MUTANTS in prove.py)"
    else:
        with tempfile.TemporaryDirectory(prefix="sonnx-mutant-") as tmp:
            path = Path(tmp) / Path(mutant.file).name
            path.write_text(text.replace(mutant.old, mutant.new), "utf-8")
            answers = {str(p): mutant_answer(mutant, p, path, timelimit) for p in provers}
        proved = [p for p, a in answers.items() if a == "proved"]
        status = f"proved by {', '.join(proved)} (harness failure)" if proved else "not proved (as expected)"
    return {
        "file": mutant.file,
        "theory": mutant.theory,
        "goal": mutant.goal,
        "change": mutant.change,
        "status": status,
        "answers": answers,
    }


def mutant_answer(mutant: Mutant, prover: Prover, path: Path, timelimit: float) -> str:
    """proved if ``prover`` proves every task of the mutated goal, else its first other answer."""
    select = mutant.select or mutant.goal
    results = prove_theory(prover, path.name, mutant.theory, select, timelimit, path.parent)
    answers = [a.status for s, a in results if s.label == mutant.goal]
    if not answers:
        raise HarnessError(f"mutant {mutant.change!r}: why3 reported no goal {mutant.goal} ({mutant.theory})")
    return next((a for a in answers if a != "proved"), "proved")


# --------------------------------------------------------------------------
# Main


def report(rows: list[dict], mutants: list[dict], seconds: float) -> None:
    """One line per goal and per mutant, then the totals."""
    for g in rows:
        where, prover = f"{g['file']}:{g['line']}", g["prover"] or "-"
        print(f"{g['status']:9} {prover:11} {g['time']:5.2f}s {where:21} {g['theory']}.{g['goal']}")
    for m in mutants:
        answers = "".join(f"; {p}: {a}" for p, a in m["answers"].items())
        print(f"mutant    {m['file']}: {m['change']}: {m['status']}{answers}")
    proved = [g for g in rows if g["status"] == "proved"]
    by = ", ".join(f"{p}: {n}" for p, n in Counter(g["prover"] for g in proved).most_common())
    killed = sum(m["status"].startswith("not proved") for m in mutants)
    print(
        f"total: {len(rows)} goals, {len(proved)} proved ({by}), {len(rows) - len(proved)} not proved; "
        f"{killed}/{len(mutants)} mutants not proved; {seconds:.1f} s"
    )


def failures(rows: list[dict], mutants: list[dict]) -> list[str]:
    """The goals not proved and the mutants proved."""
    goals = [f"{g['file']}:{g['line']}: {g['theory']}.{g['goal']}: {g['status']}" for g in rows]
    mutated = [f"mutant of {m['file']} ({m['change']}) is {m['status']}" for m in mutants]
    return [f for f, g in zip(goals, rows, strict=True) if g["status"] != "proved"] + [
        f for f, m in zip(mutated, mutants, strict=True) if not m["status"].startswith("not proved")
    ]


def prove_all(args: argparse.Namespace) -> tuple[dict, list[str]]:
    """The status file's content, and what went wrong."""
    version, provers, known = why3_version(), find_provers(), known_ids()
    start = time.monotonic()
    subgoals = first_pass(provers[0], args.timelimit, args.jobs)
    for prover in provers[1:]:
        retry(subgoals, prover, args.timelimit, args.jobs, args.all_provers)
    goals = sorted(goals_of(subgoals), key=sort_key)
    with ThreadPoolExecutor(args.jobs) as pool:
        mutants = list(pool.map(lambda m: check_mutant(m, provers, args.timelimit), MUTANTS))
    rows = [goal_json(g, provers) for g in goals]
    report(rows, mutants, time.monotonic() - start)
    status = {"why3": version, "provers": [str(p) for p in provers], "goals": rows, "mutants": mutants}
    return status, untraceable(goals, known) + undischarged(goals) + failures(rows, mutants)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--status", type=Path, default=ROOT / "build" / "formal-status.json")
    parser.add_argument("--timelimit", type=float, default=5, help="seconds per task and prover (default 5)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="why3 runs at once")
    parser.add_argument("--all-provers", action="store_true", help="try every prover on every goal (slower)")
    args = parser.parse_args(argv)
    try:
        status, problems = prove_all(args)
    except HarnessError as error:
        print(f"formal: error: {error}", file=sys.stderr)
        return 2
    args.status.parent.mkdir(parents=True, exist_ok=True)
    args.status.write_text(json.dumps(status, indent=1) + "\n", "utf-8")
    for problem in problems:
        print(f"formal: error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
