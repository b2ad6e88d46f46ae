"""The pages' examples run through Why3: each a ground goal and its negation, one of them proved.

``examples.example_modules(op)`` (written beside this module) turns the examples of an operator's
page into Why3 modules, each with checks (``ExampleCheck``): a goal ``holds`` (the page's output is
the element function's) and a goal ``refuted`` (its negation). Z3 must prove ``holds`` and not
``refuted`` (cvc5 too where it can: it must never prove ``refuted``); ``refuted`` proved, or
neither, is a disagreement between the page and the Why3 specification, and fails the run, naming
the example's title and where it is.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any, Protocol

from .sources import BUILD


class Check(Protocol):
    holds: str
    refuted: str
    title: str
    dtype: str
    source: str


class ExampleModuleLike(Protocol):
    name: str
    text: str
    checks: list[Any]


EXAMPLES_DIR = BUILD / "formal" / "examples"
REQUIRED = "Z3"  # the prover that must decide every example


def why3_file(op: str) -> str:
    from .examples import why3_file

    return why3_file(op)


def outside_model(op: str) -> list[str]:
    from .examples import outside_model

    return outside_model(op)


def example_modules(op: str) -> list[ExampleModuleLike] | None:
    """The example modules of ``op``; None while formal/harness/examples.py does not exist."""
    try:
        module = importlib.import_module(f"{__package__}.examples")
    except ModuleNotFoundError as error:
        if error.name != f"{__package__}.examples":
            raise
        return None
    return module.example_modules(op)


def transformations(op: str) -> tuple[str, ...]:
    """How the examples of ``op`` are run: split into one goal per element; for a data movement operator,
    whose examples say where each element comes from, computed first (Why3's compute_in_goal evaluates
    the index arithmetic on the examples' literals, which the provers do not unfold)."""
    from .examples import tensor_level

    return ("compute_in_goal", "split_vc") if tensor_level(op) else ("split_vc",)


def with_computed(
    modules: list[ExampleModuleLike], result: object, found: dict[str, str], kind: str, run: tuple[str, ...]
) -> dict[str, str]:
    """``found`` (goal -> status), with the ``kind`` goals ("holds" or "refuted") that left no task after
    compute_in_goal counted as proved: the computation alone reduced them to true. Not for a run that
    failed (no task at all, for another reason)."""
    if "compute_in_goal" not in run or not isinstance(result, list):
        return found
    goals = [getattr(c, kind) for m in modules for c in m.checks]
    return {**{goal: "proved" for goal in goals if goal not in found}, **found}


@dataclass(frozen=True)
class ExampleOutcome:
    title: str
    dtype: str
    source: str
    holds: dict[str, str]  # prover -> status of the goal `holds`
    refuted: dict[str, str]

    @property
    def agrees(self) -> bool:
        if self.holds.get(REQUIRED) != "proved" or self.refuted.get(REQUIRED) == "proved":
            return False
        return all(status != "proved" for status in self.refuted.values())

    @property
    def verdict(self) -> str:
        if self.agrees:
            return "agrees"
        if any(s == "proved" for s in self.refuted.values()):
            return "disagrees (the negation is proved)"
        return "undecided (neither the example nor its negation is proved)"

    def to_json(self) -> dict:
        return {
            "title": self.title,
            "dtype": self.dtype,
            "source": self.source,
            "holds": self.holds,
            "refuted": self.refuted,
            "verdict": self.verdict,
        }


def _without(text: str, goals: set[str]) -> str:
    """A module's text without the goals named (a goal runs to the next goal or to ``end``)."""
    for goal in goals:
        text = re.sub(rf"\n  goal {re.escape(goal)}:.*?(?=\n\n  goal |\nend\b)", "", text, flags=re.S)
    return text


def file_text(modules: list[ExampleModuleLike]) -> str:
    """Every module with its ``holds`` goals only: the run that decides the examples."""
    names = [c.holds for m in modules for c in m.checks] + [c.refuted for m in modules for c in m.checks]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"example goals named twice: {', '.join(duplicates)}")
    return "\n\n".join(_without(m.text, {c.refuted for c in m.checks}).strip() for m in modules) + "\n"


def refuted_text(modules: list[ExampleModuleLike], undecided: set[str]) -> str | None:
    """The modules of the examples whose ``holds`` was not proved, with their ``refuted`` goals only.

    A negation is tried only where the example was not proved: there, a proof of it turns a time-out
    into a refutation (the page and the specification disagree); where the example is proved, its
    negation could be proved only in an inconsistent theory, which the vacuity checks look for.
    """
    chosen = [m for m in modules if any(c.holds in undecided for c in m.checks)]
    if not chosen:
        return None
    return "\n\n".join(_without(m.text, {c.holds for c in m.checks}).strip() for m in chosen) + "\n"


def outcomes(modules: list[ExampleModuleLike], answers: dict[str, dict[str, str]]) -> list[ExampleOutcome]:
    """``answers``: prover -> goal name -> status."""

    def statuses(goal: str) -> dict[str, str]:
        return {prover: by_goal.get(goal, "not tried") for prover, by_goal in answers.items()}

    return [
        ExampleOutcome(c.title, c.dtype, c.source, statuses(c.holds), statuses(c.refuted))
        for m in modules
        for c in m.checks
    ]
