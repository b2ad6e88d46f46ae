"""The goals one prover may leave unproved, each with its reason: ``[[excused]]`` in formal/<op>.excused.toml
(formal/lib.excused.toml for the shared theories of formal/lib/).

Every goal of an IEEE instance must be proved by Z3 and by cvc5; where one of them really cannot (after
splitting the goal and adding assertions), the operator's own file names the goal, the prover and why.
Such a goal counts as proved when the other prover proves it, and the site shows the exception."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path

from . import sources


class ExcuseError(Exception):
    """An excuses file that cannot be read (exit status 2)."""


@dataclass(frozen=True)
class Allowance:
    operator: str  # the operator, or "lib"
    theory: str
    goal: str
    prover: str
    reason: str


def excuses_file(name: str) -> Path:
    """The excuses of an operator (or of the shared theories, ``lib``)."""
    return sources.FORMAL / f"{name}.excused.toml"


def allowances(names: Iterable[str]) -> list[Allowance]:
    """The excuses of the operators ``names`` (and ``lib``), from their own files."""
    keys = {f.name for f in fields(Allowance)} - {"operator"}
    found = []
    for name in names:
        path = excuses_file(name)
        if not path.exists():
            continue
        try:
            entries = tomllib.loads(path.read_text("utf-8")).get("excused", [])
        except tomllib.TOMLDecodeError as error:
            raise ExcuseError(f"formal/{path.name}: {error}") from None
        for number, entry in enumerate(entries, 1):
            if set(entry) != keys or not all(isinstance(v, str) for v in entry.values()):
                raise ExcuseError(
                    f"formal/{path.name}: excuse {number}: keys must be exactly {', '.join(sorted(keys))}"
                )
            found.append(Allowance(name, **entry))
    return found


def allowed(entries: list[Allowance], op: str, theory: str, goal: str, prover: str) -> Allowance | None:
    return next(
        (a for a in entries if (a.operator, a.theory, a.goal, a.prover) == (op, theory, goal, prover)), None
    )
