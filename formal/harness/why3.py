"""One ``why3 prove`` run with one prover, and its answers, one per task (after split_vc)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .sources import LIB, ROOT
from .tools import Prover, Tools

STATUSES = ("proved", "invalid", "unknown", "timeout", "error")
"""proved: Valid; invalid: the prover found a counterexample; unknown: it gave up; timeout; error."""


class Why3Error(Exception):
    """why3 could not load a file (a syntax or type error): nothing of it was tried."""


@dataclass(frozen=True)
class Task:
    goal: str  # why3's name: clip_P1_in_interval, clip'vc
    expl: tuple[str, ...]  # its explanations: an [@expl] label, "postcondition", "assertion"…
    line: int
    status: str
    time: float


def status_of(result: dict) -> str:
    answer = result["answer"].split("\n")[0]
    if answer == "Valid":
        return "proved"
    if answer == "Invalid":
        return "invalid"
    if answer in ("Timeout", "Out Of Memory", "Out of memory", "Step limit exceeded"):
        return "timeout"
    if answer == "High failure" and "exited with status 0" in result.get("status", ""):
        return "timeout"  # Z3 stopping itself at its -T limit
    if answer.startswith("Unknown"):
        return "unknown"
    return "error"


def parse(text: str) -> Iterator[Task]:
    """``why3 prove --json`` prints one JSON object per task, one after the other."""
    decoder, position = json.JSONDecoder(), 0
    while (position := re.compile(r"\s*").match(text, position).end()) < len(text):
        obj, position = decoder.raw_decode(text, position)
        term, result = obj["term"], obj["prover-result"]
        yield Task(
            term["goal_name"],
            tuple(term["explanations"]),
            int(term.get("loc", {}).get("line", 0)),
            status_of(result),
            round(float(result.get("time", 0.0)), 2),
        )


def prove(
    tools: Tools,
    prover: Prover,
    file: Path,
    theories: Sequence[str],
    timelimit: float,
    goals: Sequence[str] = (),
    transformations: Sequence[str] = ("split_vc",),
) -> list[Task]:
    """Every task of ``theories`` of ``file`` (every theory if none), tried with ``prover`` after
    ``transformations``; of one theory, only its ``goals`` (why3's names) if some are given. A goal that
    a transformation proves (compute_in_goal) leaves no task."""
    args = ["why3", "prove", "-C", str(tools.config), "-L", str(LIB), "-L", str(ROOT / "formal")]
    # The examples' copy of a file whose name Why3 cannot use (constant); no file there may be named
    # after an operator (Why3 would find two files for `use abs.…`).
    args += ["-L", str(file.parent)]
    args += ["--json", "-P", prover.executable, "-t", f"{timelimit:g}"]
    args += [arg for transformation in transformations for arg in ("-a", transformation)] + [str(file)]
    for theory in theories:
        args += ["-T", theory]
    if len(theories) == 1:  # -G selects a goal of the theory named last
        for goal in goals:
            args += ["-G", goal]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    tasks = list(parse(done.stdout))
    if done.returncode != 0 and not tasks:
        raise Why3Error(f"why3 failed on {file} ({prover}): {done.stderr.strip()[-2000:]}")
    return tasks
