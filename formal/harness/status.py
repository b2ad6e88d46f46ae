"""What the records of a run say: each goal's status, what fails, and build/formal-status.json.

A goal of an IEEE instance (Float16, BFloat16, Float32, Float64) is proved when Z3 and cvc5 both prove
it (or the one that cannot is excused, formal/<op>.excused.toml, and the other proves it); any other goal
when one of them does, the other's answer shown beside it. A theory (module) is wholly proved when all
its goals are: a rule counts as proved only if every goal of the theories it relies on is, since an
unproved lemma is assumed by the goals after it. The status file holds no timestamp: the same records
give the same file."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sonnx_spec.requirements import Catalogue

from .allowed import Allowance, allowed
from .cache import LIBRARY
from .kinds import KINDS, module_name
from .needs import needs_every_prover
from .sources import ROOT, WhyFile
from .tracing import id_problem

MIN_MUTANTS = 3


@dataclass
class Evaluation:
    goals: list[dict[str, Any]] = field(default_factory=list)
    mutants: list[dict[str, Any]] = field(default_factory=list)
    vacuity: list[dict[str, Any]] = field(default_factory=list)
    examples: list[dict[str, Any]] = field(default_factory=list)
    operators: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def goal_status(goal: dict[str, Any], op: str, allowances: list[Allowance]) -> tuple[str, dict[str, str]]:
    """proved or the worst answer; the allowances that apply to it (prover -> reason)."""
    order = ("error", "invalid", "timeout", "unknown", "proved")
    if not needs_every_prover(goal["theory"]):
        answers = list(goal["answers"].values())
        return ("proved" if "proved" in answers else min(answers, key=order.index)), {}
    excused = {}
    for prover, answer in goal["answers"].items():
        entry = allowed(allowances, op, goal["theory"], goal["goal"], prover)
        if entry is not None and answer != "proved":
            excused[prover] = entry.reason
    wanted = [a for p, a in goal["answers"].items() if p not in excused]
    if not wanted:  # no prover proved it
        return "unproved", excused
    return min(wanted, key=order.index), excused


def mutant_status(mutant: dict[str, Any]) -> str:
    if not any(s == "proved" for s in mutant["witness_answers"].values()):
        return "witness not proved on the real file"
    if any(s == "error" for s in mutant["refuted_answers"].values()):
        return "error: the mutated file does not load"
    if any(s == "proved" for s in mutant.get("still_answers", {}).values()):
        return "inconsistent: the mutated file proves the witness and its negation"
    if any(s == "proved" for s in mutant["refuted_answers"].values()):
        return "refuted"
    return "not refuted"


def refinement(file: WhyFile, op: str) -> dict[str, str] | None:
    """The concrete level's contract: its function, the label and the statement it ensures."""
    concrete = file.by_name.get(f"{module_name(op)}Concrete")
    if concrete is None:
        return None
    match = re.search(
        r"^ {0,2}let\s+(\w+)(?:(?!^ {0,2}let\b).)*?ensures\s*\{\s*\[@expl:(\w*_refines?_\w*)\]\s*(.*?)\}",
        concrete.text,
        re.MULTILINE | re.DOTALL,
    )
    if match is None:
        return None
    return {
        "module": concrete.name,
        "function": match[1],
        "label": match[2],
        "contract": " ".join(match[3].split()),
    }


def evaluate(
    records: dict[str, dict[str, Any] | None],
    files: dict[str, WhyFile],
    catalogue: Catalogue,
    allowances: list[Allowance],
) -> Evaluation:
    """``records``: operator (or LIBRARY) -> its record, None when its file is missing."""
    ev = Evaluation()
    for op, record in records.items():
        if record is None:
            ev.failures.append(f"{op}: formal/{op}.mlw is missing (every operator has a Why3 file)")
            ev.operators[op] = {"file": f"formal/{op}.mlw", "missing": True}
            continue
        ev.failures += [f"{op}: {e}" for e in record.get("errors", [])]
        goals = []
        for goal in record["goals"]:
            status, excused = goal_status(goal, op, allowances)
            row = {**goal, "operator": op, "status": status, "allowed": excused}
            row["prover"] = ", ".join(p for p, a in goal["answers"].items() if a == "proved")
            goals.append(row)
            where = f"{goal['file']}:{goal['line']}: {goal['theory']}.{goal['goal']}"
            if status != "proved":
                answers = ", ".join(f"{p} {a}" for p, a in goal["answers"].items())
                ev.failures.append(f"{where} is not proved ({answers})")
            if op != LIBRARY and not goal["termination"]:
                problem = id_problem(goal["ids"], catalogue)
                if problem:
                    ev.failures.append(f"{where} {problem}")
        ev.goals += goals
        names = {(g["theory"], g["goal"]) for g in goals}
        ev.failures += [
            f"formal/{op}.excused.toml excuses {a.theory}.{a.goal}, which is not a goal of {op}"
            for a in allowances
            if a.operator == op and (a.theory, a.goal) not in names
        ]
        theories = []
        for theory in record["theories"]:
            own = [g for g in goals if g["theory"] == theory]
            proved = sum(g["status"] == "proved" for g in own)
            theories.append(
                {"name": theory, "goals": len(own), "proved": proved, "wholly": proved == len(own)}
            )
        entry: dict[str, Any] = {
            "file": record.get("file") or ", ".join(record.get("files", [])),
            "time": record.get("time", 0.0),
            "theories": theories,
            "wholly_proved": all(t["wholly"] for t in theories) and not record.get("errors"),
        }
        if op != LIBRARY:
            _checks(ev, op, record, entry)
            file = files[op]
            entry["refinement"] = refinement(file, op)
            if entry["refinement"] is None:
                ev.failures.append(
                    f"{op}: no {module_name(op)}Concrete with a [@expl:..._refines_...] contract"
                )
            else:
                related = [g for g in goals if g["kind"] == "refinement"]
                entry["refinement"]["proved"] = bool(related) and all(
                    g["status"] == "proved" for g in related
                )
        counts: dict[str, list[int]] = {}
        for kind in KINDS:
            rows = [g["status"] == "proved" for g in goals if g["kind"] == kind]
            rows += _check_rows(entry, kind)
            if rows:
                counts[kind] = [sum(rows), len(rows)]
        entry["counts"] = counts
        ev.operators[op] = entry
    return ev


def _check_rows(entry: dict[str, Any], kind: str) -> list[bool]:
    """The harness's checks counted as goals of their kind: passed or not."""
    if kind == "mutant":
        return [m["status"] == "refuted" for m in entry.get("mutants", [])]
    if kind == "vacuity":
        return [v["status"] == "not proved" for v in entry.get("vacuity", [])]
    if kind == "example":
        return [e["verdict"] == "agrees" for e in entry.get("examples") or []]
    return []


def _checks(ev: Evaluation, op: str, record: dict[str, Any], entry: dict[str, Any]) -> None:
    mutants = []
    for m in record["mutants"]:
        status = mutant_status(m)
        mutants.append({**m, "operator": op, "file": record["file"], "status": status})
        if status != "refuted":
            ev.failures.append(f"{op}: mutant {m['number']} ({m['change']}): {status}")
    if len(mutants) < MIN_MUTANTS:
        ev.failures.append(
            f"{op}: {len(mutants)} deliberate errors in formal/{op}.mutants.toml (at least {MIN_MUTANTS})"
        )
    vacuity = []
    for v in record["vacuity"]:
        proved = [p for p, s in v["answers"].items() if s == "proved"]
        status = f"false proved by {', '.join(proved)}" if proved else "not proved"
        vacuity.append({**v, "operator": op, "status": status})
        if proved:
            ev.failures.append(f"{op}: module {v['theory']} is vacuous: {status}")
    examples = record.get("examples")
    if examples is not None:
        for e in examples:
            if e["verdict"] != "agrees":
                ev.failures.append(
                    f"{e['source']}: example {e['title']!r} ({e['dtype']}): the page and Why3 {e['verdict']}"
                )
        ev.examples += [{**e, "operator": op} for e in examples]
    entry["mutants"], entry["vacuity"], entry["examples"] = mutants, vacuity, examples
    entry["outside_model"] = record.get("outside_model", [])
    ev.mutants += mutants
    ev.vacuity += vacuity


def status_json(
    ev: Evaluation, versions: dict[str, str], timelimit: float, allowances: list[Allowance]
) -> dict:
    provers = [name for name in versions if name != "why3"]
    return {
        "why3": versions["why3"],
        "provers": [f"{p} {versions[p]}" for p in provers],
        "prover_names": provers,
        "timelimit": timelimit,
        "operators": ev.operators,
        "goals": ev.goals,
        "mutants": ev.mutants,
        "vacuity": ev.vacuity,
        "examples": ev.examples,
        "allowed": [a.__dict__ for a in allowances],
        "failures": ev.failures,
    }


def write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8")


def summary(ev: Evaluation) -> list[str]:
    """One line per operator, then the run's."""
    lines = []
    total = Counter()
    for op, entry in ev.operators.items():
        if entry.get("missing"):
            lines.append(f"{op}: MISSING formal/{op}.mlw")
            continue
        counts = entry["counts"]
        parts = ", ".join(f"{kind} {p}/{n}" for kind, (p, n) in counts.items())
        for kind, (p, n) in counts.items():
            total[kind, "proved"] += p
            total[kind, "all"] += n
        lines.append(f"{op}: {parts}; {entry['time']:.1f} s{' (reused)' if entry.get('reused') else ''}")
    kinds = ", ".join(f"{k} {total[k, 'proved']}/{total[k, 'all']}" for k in KINDS if total[k, "all"])
    verdict = "all proved and checked" if not ev.failures else f"{len(ev.failures)} failure(s)"
    lines.append(f"Formal: {kinds}: {verdict}")
    return lines


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()
