"""The harness's checks of itself: deliberate errors (formal/<op>.mutants.toml) and vacuity.

A deliberate error (a mutant) changes a definition: ``old``, found exactly once in the operator's
file, becomes ``new``. Its ``witness`` is a ground fact of ``module``, true of the real definition
and false of the mutated one: the harness proves the witness on the real file and ``not (witness)``
on the mutated file, so that a mutant is caught by a proof (a refutation), never by a time-out. The
mutated file's lemmas, now false, are still assumed there: were they contradictory, ``not (witness)``
would follow from anything. So the witness itself is also submitted on the mutated file (to Z3, with
the short limit of vacuity): a mutant is refuted only if its negation is proved and the witness is not.

Vacuity: in each module, ``false`` must not be proved, by either prover (a time limit of its own,
short: an inconsistency the provers can use shows quickly; the instances, which prove every axiom
for a type, are the real evidence that the axioms hold together).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .sources import WhyFile, mutants_file

VACUITY_TIMELIMIT = 1.0
PRELUDE = (
    "use int.Int use xreal.XReal use ieee_float.Float32 as Float32 use ieee_float.Float64 as Float64 "
    "use ieee.Float16 as Float16 use ieee.BFloat16 as BFloat16 "
    "use bv.BV8 as BV8 use bv.BV16 as BV16 use bv.BV32 as BV32 use bv.BV64 as BV64 "
    'use tensor.Shape use tensor.RowMajor meta "compute_max_steps" 1000000'
)
"""What a witness may use besides its module: integers, the extended reals, the four IEEE formats, the
bit vectors (qualified: Float32.t, BV8.of_int), and shapes and indices (Cons 2 Nil, offset), computed
as far as a data movement operator's witnesses need (its checks are computed first: compute_in_goal)."""


class CheckError(Exception):
    """A mutants file that cannot be applied (no such text, or found more than once)."""


@dataclass(frozen=True)
class Mutant:
    number: int
    old: str
    new: str
    change: str
    module: str
    witness: str

    @property
    def witness_goal(self) -> str:
        return f"witness_{self.number}"

    @property
    def refuted_goal(self) -> str:
        return f"mutant_{self.number}_refuted"

    @property
    def theory(self) -> str:
        return f"Mutant{self.number}"

    @property
    def still_goal(self) -> str:
        return f"mutant_{self.number}_witness_still"

    @property
    def still_theory(self) -> str:
        return f"MutantStill{self.number}"


def mutants(op: str) -> list[Mutant]:
    path = mutants_file(op)
    if not path.exists():
        return []
    entries = tomllib.loads(path.read_text("utf-8")).get("mutant", [])
    keys = ("old", "new", "change", "module", "witness")
    found = []
    for number, entry in enumerate(entries, 1):
        missing = [k for k in keys if not isinstance(entry.get(k), str)]
        if missing or set(entry) - set(keys):
            raise CheckError(f"{path}: mutant {number}: keys must be exactly {', '.join(keys)}")
        found.append(Mutant(number, *(entry[k] for k in keys)))
    return found


def witness_theory(mutant: Mutant) -> str:
    return f"Witness{mutant.number}"


def vacuity_theory(module: str) -> str:
    return f"Vacuity{module}"


def vacuity_goal(module: str) -> str:
    return f"vacuity_{module}"


def check_text(file: WhyFile, found: list[Mutant]) -> str:
    """The real file, then a module per witness and one per module proving ``false``."""
    parts = [file.text.rstrip(), ""]
    for m in found:
        parts.append(
            f"module {witness_theory(m)} {PRELUDE} use {m.module}\n  goal {m.witness_goal}: {m.witness}\nend"
        )
    for module in file.modules:
        name = module.name
        parts.append(f"module {vacuity_theory(name)} use {name}\n  goal {vacuity_goal(name)}: false\nend")
    return "\n\n".join(parts) + "\n"


LEMMA = re.compile(r"^([ \t]*)lemma\b", re.MULTILINE)
LEMMA_FUNCTION = re.compile(r"^([ \t]*let[ \t]+(?:rec[ \t]+)?)lemma\b", re.MULTILINE)
CLONE = re.compile(r"^[ \t]*clone\b[^\n]*?(?:,[ \t]*\n[^\n]*?)*$", re.MULTILINE)


def _clone_proving(statement: str) -> str:
    """A clone whose axioms become goals, never assumed; a generic one's (``axiom .``) stay axioms."""
    if "axiom ." in statement:
        return statement
    return statement + (", goal ." if " with " in statement else " with goal .")


LOGIC_FUNCTION = re.compile(r"^[ \t]*let[ \t]+(?:rec[ \t]+)?(?:ghost[ \t]+)?(?:function|predicate)\b", re.M)


def _without_postconditions(text: str) -> str:
    """The ``ensures`` of every ``let function``/``let predicate`` removed (their bodies define them;
    a postcondition is a proved property, assumed by the goals after it)."""
    out, position = [], 0
    for header in LOGIC_FUNCTION.finditer(text):
        if header.start() < position:
            continue
        k, depth = header.end(), 0
        while k < len(text):
            if depth == 0 and text.startswith("ensures", k) and not text[k - 1].isalnum():
                start, k = k, text.index("{", k)
                depth_in = 0
                while True:
                    depth_in += {"{": 1, "}": -1}.get(text[k], 0)
                    k += 1
                    if depth_in == 0:
                        break
                out.append(text[position:start])
                position = k
                continue
            if depth == 0 and text[k] == "=":
                break
            depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(text[k], 0)
            k += 1
    out.append(text[position:])
    return "".join(out)


def unassumed(text: str) -> str:
    """``text`` with nothing proved in it assumed afterwards: lemmas become goals, lemma functions
    ghost functions, the postconditions of logic functions gone, and the axioms an instance proves
    goals. A mutation makes some of them false; a mutated file that assumed them would be inconsistent
    and prove anything, ``not (witness)`` too."""
    text = _without_postconditions(text)
    text = LEMMA.sub(r"\1goal", text)
    text = LEMMA_FUNCTION.sub(r"\1ghost", text)
    return CLONE.sub(lambda m: _clone_proving(m.group(0)), text)


def mutated_text(file: WhyFile, mutant: Mutant) -> str:
    """The file with the deliberate error, and a module stating the witness's negation."""
    count = file.text.count(mutant.old)
    if count != 1:
        raise CheckError(
            f"{file.rel}: mutant {mutant.number} ({mutant.change}): {mutant.old!r} is found {count} times, "
            "not once"
        )
    text = unassumed(file.text.replace(mutant.old, mutant.new)).rstrip()
    return (
        f"{text}\n\nmodule {mutant.theory} {PRELUDE} use {mutant.module}\n"
        f"  goal {mutant.refuted_goal}: not ({mutant.witness})\nend\n"
        f"\nmodule {mutant.still_theory} {PRELUDE} use {mutant.module}\n"
        f"  goal {mutant.still_goal}: {mutant.witness}\nend\n"
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path
