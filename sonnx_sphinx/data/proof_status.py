"""The proofs the site publishes: the status file ``nox -s formal`` writes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NOT_TRIED = "not tried"
"""A prover's answer on a goal it was not given: cvc5, outside the IEEE instances, on a goal Z3 proved
(formal/harness/needs.py)."""


@dataclass(frozen=True)
class FormalGoal:
    file: str
    theory: str
    goal: str
    line: int
    status: str
    prover: str | None
    ids: tuple[str, ...]
    kind: str = "property"  # property, instance, refinement, library (formal/harness/kinds.py)
    provers: dict[str, str] = field(default_factory=dict, compare=False)  # prover -> its answer, or NOT_TRIED
    allowed: dict[str, str] = field(default_factory=dict, compare=False)  # prover excused -> why

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def read_formal(path: Path) -> tuple[dict[str, Any], list[FormalGoal]]:
    """The run's header (tools, provers, operators with their theories, mutants, vacuity, examples,
    failures) and its goals (formal/harness/status.py writes them)."""
    data = json.loads(path.read_text("utf-8"))
    provers = data.get("prover_names", [])
    goals = [
        FormalGoal(
            g["file"],
            g["theory"],
            g["goal"],
            int(g["line"]),
            g["status"],
            g.get("prover"),
            tuple(g["ids"]),
            g.get("kind", "property"),
            {p: g.get("answers", {}).get(p, NOT_TRIED) for p in provers} or dict(g.get("answers", {})),
            dict(g.get("allowed", {})),
        )
        for g in data["goals"]
    ]
    return data, goals
