"""The Why3 files as text: where they are, their modules, what each module declares and clones.

Read with regular expressions on the project's layout (formal/README.md): declarations at the
start of a line, indented by at most two spaces, as every file of formal/ writes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORMAL = ROOT / "formal"
LIB = FORMAL / "lib"
BUILD = ROOT / "build"

_MODULE = re.compile(r"^(?:module|theory)\s+(\w+)", re.MULTILINE)
_GOAL = re.compile(r"^ {0,2}(lemma|goal|axiom)\s+(\w+)", re.MULTILINE)
_LET = re.compile(
    r"^ {0,2}let\s+(?:rec\s+)?(?:ghost\s+)?(lemma\s+|function\s+|predicate\s+|constant\s+)?"
    r"(?:ghost\s+)?(\w+)",
    re.MULTILINE,
)
_SYMBOL = re.compile(
    r"^ {0,2}(?:val\s+(?:ghost\s+)?(?:function|predicate|constant)?|function|predicate|constant|type)"
    r"\s+(\w+)",
    re.MULTILINE,
)
_CLONE = re.compile(r"^ {0,2}clone\s+(?:export\s+)?([\w.]+)(?:\s+as\s+\w+)?(?:\s+with\b)?", re.MULTILINE)
_NEXT = re.compile(r"^\s*$|^ {0,2}\S", re.MULTILINE)  # a blank line, or the next declaration
_SUBSTITUTION = re.compile(r"(?:type|function|predicate|val|constant)\s+(\w+)\s*=\s*([\w.']+)")


def operator_file(op: str) -> Path:
    return FORMAL / f"{op}.mlw"


def mutants_file(op: str) -> Path:
    return FORMAL / f"{op}.mutants.toml"


def lib_files() -> list[Path]:
    return sorted(LIB.glob("*.mlw"))


def line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


@dataclass(frozen=True)
class Clone:
    """``clone [export] <source> with <substitutions>``: which theory, which symbols it instantiates."""

    source: str  # ClipConcrete, tensor.Flat
    substitutions: dict[str, str]  # the cloned theory's symbol -> the cloning module's
    keeps_axioms: bool  # `axiom .`: the cloned axioms stay axioms (else they become goals)


@dataclass(frozen=True)
class Module:
    name: str
    line: int  # of `module <name>`
    text: str
    clones: tuple[Clone, ...]
    goals: dict[str, int]  # lemmas, goals and let lemmas -> their lines
    axioms: dict[str, int]
    functions: dict[str, int]  # let-defined functions, predicates, lemmas -> their lines
    symbols: frozenset[str]  # every name it declares


@dataclass(frozen=True)
class WhyFile:
    path: Path
    text: str
    modules: tuple[Module, ...] = field(default=())

    @property
    def rel(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    @cached_property
    def by_name(self) -> dict[str, Module]:
        return {m.name: m for m in self.modules}

    def declaring(self, name: str) -> Module | None:
        """The module that declares the lemma, goal or axiom ``name`` (a clone proves it elsewhere)."""
        return next((m for m in self.modules if name in m.goals or name in m.axioms), None)

    def label_line(self, label: str) -> int | None:
        """The line of an ``[@expl:<label>]``."""
        position = self.text.find(f"[@expl:{label}]")
        return None if position < 0 else line_of(self.text, position)


def read(path: Path, text: str | None = None) -> WhyFile:
    text = path.read_text("utf-8") if text is None else text
    starts = list(_MODULE.finditer(text))
    modules = []
    for k, match in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        modules.append(_module(text, match.start(), end, match[1]))
    return WhyFile(path, text, tuple(modules))


def _module(text: str, start: int, end: int, name: str) -> Module:
    body = text[start:end]
    first = line_of(text, start)

    def lines(matches: list[re.Match[str]], group: int) -> dict[str, int]:
        return {m[group]: first + line_of(body, m.start(group)) - 1 for m in matches}

    goals = [m for m in _GOAL.finditer(body) if m[1] != "axiom"]
    axioms = [m for m in _GOAL.finditer(body) if m[1] == "axiom"]
    lets = list(_LET.finditer(body))
    let_lemmas = [m for m in lets if (m[1] or "").strip() == "lemma"]
    symbols = {m[1] for m in _SYMBOL.finditer(body)} | {m[2] for m in lets}
    return Module(
        name,
        first,
        body,
        tuple(_clones(body)),
        {**lines(goals, 2), **lines(let_lemmas, 2)},
        lines(axioms, 2),
        lines(lets, 2),
        frozenset(symbols),
    )


def _clones(body: str) -> list[Clone]:
    found = []
    for match in _CLONE.finditer(body):
        rest = body[match.end() :]
        stop = _NEXT.search(rest, rest.find("\n") + 1) if "\n" in rest else None
        clause = rest[: stop.start() if stop else len(rest)]
        substitutions = {m[1]: m[2] for m in _SUBSTITUTION.finditer(clause)}
        found.append(Clone(match[1], substitutions, re.search(r"\baxiom\s*\.", clause) is not None))
    return found
