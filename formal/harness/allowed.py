"""The goals one prover may leave unproved, each with its reason: formal/allowed.toml.

Every goal of an IEEE instance must be proved by Z3 and by cvc5; where one of them really cannot (after
splitting the goal and adding assertions), the file names the goal, the prover and why. Such a goal
counts as proved when the other prover proves it, and the site shows the exception."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from .sources import FORMAL

ALLOWED = FORMAL / "allowed.toml"


@dataclass(frozen=True)
class Allowance:
    operator: str
    theory: str
    goal: str
    prover: str
    reason: str


def allowances() -> list[Allowance]:
    if not ALLOWED.exists():
        return []
    data = tomllib.loads(ALLOWED.read_text("utf-8"))
    return [Allowance(**entry) for entry in data.get("allow", [])]


def allowed(entries: list[Allowance], op: str, theory: str, goal: str, prover: str) -> Allowance | None:
    return next(
        (a for a in entries if (a.operator, a.theory, a.goal, a.prover) == (op, theory, goal, prover)), None
    )
