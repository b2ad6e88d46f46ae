"""The committed records checked against a fresh proof (``--verify``): none claims more than it.

Every operator and the shared theories are proved again, cold; a committed record fails the run when
it claims more than the fresh proof gives: a key that is not its inputs' digest (a record produced from
other sources, or edited), a goal it lacks or the fresh proof does not have, a goal it records proved
that is not proved now (by the provers the rule needs: ``needs.py``); and the same for
the deliberate errors (refuted), the modules' vacuity checks (``false`` not proved) and the examples
(agree). A record that claims less (a goal proved now that it recorded unproved) is only stale.
"""

from __future__ import annotations

from typing import Any

from .allowed import Allowance
from .status import goal_status, mutant_status


def _answers(goal: dict[str, Any]) -> str:
    return ", ".join(f"{p} {a}" for p, a in goal["answers"].items()) or "no answer"


def _goal_claims(
    op: str, recorded: dict[str, Any], fresh: dict[str, Any], allowances: list[Allowance]
) -> list[str]:
    """A goal recorded proved must be proved again, by the provers the rule needs (needs.py): which
    prover answered first is not a claim (a goal Z3 proves near its time limit may fall to cvc5)."""
    name = f"{recorded['theory']}.{recorded['goal']}"
    if goal_status(recorded, op, allowances)[0] == "proved" != goal_status(fresh, op, allowances)[0]:
        return [f"{name} is recorded proved; proved again: {_answers(fresh)}"]
    return []


Rows = dict[tuple, dict[str, Any]]


def _paired(
    committed: dict[str, Any], fresh: dict[str, Any], field: str, key: tuple[str, ...], what: str
) -> tuple[list[str], list[tuple[tuple, dict[str, Any], dict[str, Any]]]]:
    """The rows of ``field`` found in one record only (named), and the pairs (key, recorded, fresh)."""
    old: Rows = {tuple(r[k] for k in key): r for r in committed.get(field) or []}
    new: Rows = {tuple(r[k] for k in key): r for r in fresh.get(field) or []}
    problems = [f"{what} {' '.join(map(str, k))} is missing from the record" for k in new if k not in old]
    problems += [f"{what} {' '.join(map(str, k))} is recorded, not found again" for k in old if k not in new]
    return problems, [(k, old[k], new[k]) for k in old if k in new]


def _proved_by(answers: dict[str, str]) -> str:
    return ", ".join(p for p, a in answers.items() if a == "proved")


def claims_beyond(
    op: str, committed: dict[str, Any] | None, fresh: dict[str, Any], allowances: list[Allowance]
) -> list[str]:
    """What the committed record of ``op`` claims that the fresh proof ``fresh`` does not give."""
    where = f"formal/proofs/{op}.json"
    if committed is None:
        return [f"{where} is missing: `nox -s formal` writes it; commit it"]
    problems = []
    if committed.get("key") != fresh["key"]:
        problems.append("its key is not its inputs' digest: not a record of these sources")
    found, goals = _paired(committed, fresh, "goals", ("theory", "goal"), "goal")
    problems += found
    for _, old, new in goals:
        problems += _goal_claims(op, old, new, allowances)
    found, mutants = _paired(committed, fresh, "mutants", ("number",), "deliberate error")
    problems += found + [
        f"deliberate error {k[0]} is recorded refuted; checked again: {mutant_status(new)}"
        for k, old, new in mutants
        if mutant_status(old) == "refuted" != mutant_status(new)
    ]
    found, vacuity = _paired(committed, fresh, "vacuity", ("theory",), "the vacuity check of")
    problems += found + [
        f"module {k[0]} is recorded not vacuous; `false` is proved again by {_proved_by(new['answers'])}"
        for k, old, new in vacuity
        if not _proved_by(old["answers"]) and _proved_by(new["answers"])
    ]
    found, examples = _paired(committed, fresh, "examples", ("source", "title", "dtype"), "example")
    problems += found + [
        f"example {' '.join(k)} is recorded as agreeing; checked again: {new['verdict']}"
        for k, old, new in examples
        if old["verdict"] == "agrees" != new["verdict"]
    ]
    return [f"{where}: {p}" for p in problems]
