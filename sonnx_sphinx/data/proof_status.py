"""The proofs the site publishes: the status file ``nox -s formal`` writes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class FormalGoal:
    file: str
    theory: str
    goal: str
    line: int
    status: str
    prover: str | None
    ids: tuple[str, ...]
    kind: str = "property"  # property, refinement, example, definition
    provers: dict[str, str] = field(default_factory=dict, compare=False)  # prover -> its answer

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def read_formal(path: Path) -> tuple[dict[str, Any], list[FormalGoal]]:
    """The run's header (tool, provers, theories, mutants…) and its goals."""
    data = json.loads(path.read_text("utf-8"))
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
            dict(g.get("answers", {})),
        )
        for g in data["goals"]
    ]
    return data, goals
