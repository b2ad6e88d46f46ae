"""The profile's rules, read from the TOML files of this folder, their one source.

``general.toml`` holds the general rules and the sources every operator cites;
``<operator>.toml`` holds an operator's own rules, its sources, the drafts'
labels for the general rules in that operator, and the ids it no longer uses.
The reference raises :class:`~sonnx_spec.SonnxError` with these ids, the tests
name them in ``@pytest.mark.req``, the site renders them.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from .. import ids
from ..types import FAMILIES

GENERAL_FILE = "general"
SCOPE_PAGES = {ids.GENERAL: "general-rules", "model": "models"}
"""The pages of the rules that belong to no operator: the general rules, the rules of a whole model."""
SOURCE_KINDS = {
    "draft": "The SONNX working group's drafts",
    "seed": "The drafts this specification started from",
    "review": "Reviews of the drafts",
    "requirements": "The profile's requirements and guidelines",
    "onnx": "ONNX documentation",
    "decision": "Decisions of this specification",
}
"""Kinds of sources, in the order the sources page lists them."""
FAMILY_NAMES = tuple(FAMILIES)
_RULE_KEYS = {"id", "families", "tensors", "statement", "origin", "math", "static"}
_SOURCE_KEYS = {"title", "kind", "summary", "url", "path"}
_FILE_KEYS = {"source", "rule", "general", "retired", "special"}  # special: sonnx_spec.pages.special_values
EVERY_TENSOR = "*"
"""In a per-tensor [general] entry, the key of what the drafts say about every tensor of the operator."""
LABEL = re.compile(r"[A-Z][A-Z0-9_]*[0-9]")
"""A draft's label: R1, C2, E_ADD_INT_CONSTR_A_0020 (a section such as "Contents" or "Clip-13" is not one)."""
LABEL_SOURCE_KINDS = ("draft", "seed")
"""The kinds of sources whose labels the reference and the model tools cite next to a general rule."""


class RulesFileError(ValueError):
    """A rules file breaks one of the rules of rules files (duplicate id, unknown origin…)."""


@dataclass(frozen=True)
class Source:
    """A document rules come from: a draft, a review, an ONNX page, a decision."""

    key: str
    title: str
    kind: str
    summary: str
    url: str | None = None
    path: str | None = None  # where the document is in the working group's material


@dataclass(frozen=True)
class Origin:
    """Where a rule comes from: another rule, or a source and a section or label of it."""

    rule: str | None = None
    source: str | None = None
    section: str | None = None

    def __str__(self) -> str:
        if self.rule:
            return self.rule
        return f"{self.source}#{self.section}" if self.section else str(self.source)


@dataclass(frozen=True)
class Location:
    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Rule:
    """A restriction, constraint, error condition, semantic rule or postcondition."""

    id: str
    operator: str  # the operator's name, "general", or "model" (the rules of a whole model)
    label: str  # R1, C4, GR2: the rule's name within its scope
    kind: str
    families: tuple[str, ...]
    tensors: tuple[str, ...]
    statement: str
    origin: tuple[Origin, ...]
    math: str | None = None
    static: bool = False  # a model checker can decide it from the model alone
    location: Location | None = field(default=None, compare=False)

    @property
    def page(self) -> str:
        """The site page (docname) where the rule is defined."""
        return SCOPE_PAGES.get(self.operator, f"operators/{self.operator}")


@dataclass(frozen=True)
class Retired:
    """An id no longer used, and the rule that now states what it stated."""

    id: str
    successor: str
    operator: str


@dataclass(frozen=True)
class DraftLabel:
    """Where an operator's drafts state a general rule: Clip's R1 ("input L must be set") for GR4."""

    origin: Origin
    tensors: tuple[str, ...] = ()  # the inputs or attributes it is about; () for every one
    label: str | None = None  # the draft's label (R1 for "seed-clip#R1"); None for a section ("Contents")

    def about(self, tensor: str | None) -> bool:
        """True if it applies to a failure on ``tensor`` (None: on no tensor in particular)."""
        return tensor is None or not self.tensors or tensor in self.tensors


@dataclass(frozen=True)
class Catalogue:
    rules: dict[str, Rule]
    sources: dict[str, Source]
    draft_labels: dict[str, dict[str, tuple[DraftLabel, ...]]]
    """operator -> general rule -> the drafts' labels for it in that operator (Clip's R3 for GR1)."""
    retired: dict[str, Retired]

    def of(self, operator: str) -> list[Rule]:
        return [r for r in self.rules.values() if r.operator == operator]

    def labels_of(self, operator: str, rule_id: str, tensor: str | None = None) -> tuple[DraftLabel, ...]:
        """The drafts' labels of ``operator`` for ``rule_id`` that apply to a failure on ``tensor``: an
        omitted L of Clip is its draft's R1, not R2, which is about M."""
        found = self.draft_labels.get(operator, {}).get(rule_id, ())
        return tuple(d for d in found if d.label and d.about(tensor))

    def labels(self, operator: str, rule_id: str, tensor: str | None = None) -> tuple[str, ...]:
        """The labels themselves (R1), each once, in the order of the rules file."""
        return tuple(dict.fromkeys(d.label for d in self.labels_of(operator, rule_id, tensor) if d.label))

    def formerly(self, operator: str, rule_id: str, tensor: str | None = None) -> tuple[str, ...]:
        """The retired ids of ``operator`` that ``rule_id`` states now; for a failure on ``tensor``,
        without those named after a draft label about other tensors (Clip's old R1, about L, for M)."""
        here, anywhere = self.labels(operator, rule_id, tensor), self.labels(operator, rule_id)
        return tuple(
            r.id
            for r in self.retired.values()
            if r.operator == operator
            and r.successor == rule_id
            and (ids.parse(r.id).label not in anywhere or ids.parse(r.id).label in here)
        )

    def retired_into(self, rule_id: str) -> tuple[Retired, ...]:
        """Every retired id, of any operator, that ``rule_id`` states now."""
        return tuple(r for r in self.retired.values() if r.successor == rule_id)


_ID_LINE = re.compile(r'^\s*id\s*=\s*"(?P<id>[^"]*)"', re.MULTILINE)


def _id_lines(text: str) -> dict[str, int]:
    """The line of each ``id = "…"`` (tomllib keeps no positions)."""
    return {match["id"]: text[: match.start()].count("\n") + 1 for match in _ID_LINE.finditer(text)}


def _origin(text: str, rule_ids: set[str], sources: dict[str, Source], where: str) -> Origin:
    if text in rule_ids:
        return Origin(rule=text)
    key, _, section = text.partition("#")
    if key not in sources:
        raise RulesFileError(f"{where}: origin {text!r} is neither a rule id nor a source")
    return Origin(source=key, section=section or None)


def _rule(raw: dict, operator: str, context: _Context, location: Location) -> Rule:
    rid = raw.get("id", "?")
    where = f"{location}: {rid}"
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise RulesFileError(f"{where}: unknown keys {sorted(unknown)}")
    try:
        parsed = ids.parse(rid)
    except ValueError as error:
        raise RulesFileError(f"{where}: {error}") from None
    if parsed.scope != ids.scope_prefix(operator).lower():  # leaky_relu's ids are LEAKYRELU_*
        raise RulesFileError(f"{where}: an id of {parsed.scope}, declared in the file of {operator}")
    families = tuple(raw.get("families", ()))
    if not families or not set(families) <= set(FAMILY_NAMES):
        raise RulesFileError(f"{where}: families must be a non-empty subset of {', '.join(FAMILY_NAMES)}")
    return Rule(
        id=rid,
        operator=operator,
        label=parsed.label,
        kind=parsed.kind,
        families=families,
        tensors=tuple(raw.get("tensors", ())),
        statement=raw["statement"],
        origin=tuple(_origin(o, context.rule_ids, context.sources, where) for o in raw["origin"]),
        math=raw.get("math"),
        static=bool(raw.get("static")),
        location=location,
    )


def _draft_labels(general_id: str, given: object, context: _Context, where: str) -> tuple[DraftLabel, ...]:
    """A [general] entry: a list of origins about every tensor, or a table of them per tensor."""
    if general_id not in context.rule_ids or ids.parse(general_id).scope != ids.GENERAL:
        raise RulesFileError(f"{where} is not a general rule")
    by_tensor = given if isinstance(given, dict) else {EVERY_TENSOR: given}
    tensors_of: dict[str, list[str]] = {}  # an origin -> the tensors it is given for, in file order
    for tensor, origins in by_tensor.items():
        if not isinstance(origins, list) or not all(isinstance(o, str) for o in origins):
            raise RulesFileError(f"{where}: give a list of origins, or a table of them per tensor")
        for text in origins:
            tensors_of.setdefault(text, []).append(tensor)
    found = []
    for text, tensors in tensors_of.items():
        origin = _origin(text, context.rule_ids, context.sources, where)
        source = context.sources.get(origin.source or "")
        first = (origin.section or "").split(" ")[0]
        label = first if source and source.kind in LABEL_SOURCE_KINDS and LABEL.fullmatch(first) else None
        about = () if EVERY_TENSOR in tensors else tuple(tensors)
        found.append(DraftLabel(origin, about, label))
    return tuple(found)


@dataclass
class _Context:
    rule_ids: set[str]
    sources: dict[str, Source]


def parse(files: Iterable[tuple[str, Path, str]]) -> Catalogue:
    """Parse and check rules files, given as (operator or "general", path, text)."""
    parsed = []
    for operator, path, text in files:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RulesFileError(f"{path}: {error}") from None
        unknown = set(data) - _FILE_KEYS
        if unknown:
            raise RulesFileError(f"{path}: unknown tables {sorted(unknown)}")
        parsed.append((operator, path, text, data))
    sources: dict[str, Source] = {}
    for _, path, _, data in parsed:
        for key, raw in data.get("source", {}).items():
            if set(raw) - _SOURCE_KEYS or raw.get("kind") not in SOURCE_KINDS:
                raise RulesFileError(
                    f"{path}: source {key}: keys {sorted(_SOURCE_KEYS)}, kinds {list(SOURCE_KINDS)}"
                )
            if key in sources:
                raise RulesFileError(f"{path}: source {key} is declared in two files")
            sources[key] = Source(key=key, **raw)
    all_ids = [raw.get("id") for _, _, _, data in parsed for raw in data.get("rule", [])]
    duplicates = sorted({i for i in all_ids if all_ids.count(i) > 1})
    if duplicates:
        raise RulesFileError(f"rule ids declared more than once: {', '.join(duplicates)}")
    context = _Context(set(all_ids), sources)
    rules: dict[str, Rule] = {}
    draft_labels: dict[str, dict[str, tuple[DraftLabel, ...]]] = {}
    retired: dict[str, Retired] = {}
    for operator, path, text, data in parsed:
        lines = _id_lines(text)
        for raw in data.get("rule", []):
            rule = _rule(raw, operator, context, Location(path, lines.get(raw.get("id"), 1)))
            rules[rule.id] = rule
        draft_labels[operator] = {
            general_id: _draft_labels(general_id, given, context, f"{path}: [general] {general_id}")
            for general_id, given in data.get("general", {}).items()
        }
        for old, successor in data.get("retired", {}).items():
            if old in context.rule_ids or old in retired:
                raise RulesFileError(f"{path}: retired id {old} is in use or retired twice")
            if successor not in context.rule_ids:
                raise RulesFileError(f"{path}: retired id {old}: successor {successor} is not a rule")
            retired[old] = Retired(old, successor, operator)
    return Catalogue(rules, sources, draft_labels, retired)


def files() -> list[tuple[str, Path, str]]:
    """The rules files of the package: general.toml first, then one per operator."""
    folder = resources.files(__package__)
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".toml"))
    names.sort(key=lambda n: n != f"{GENERAL_FILE}.toml")
    result = []
    for name in names:
        scope = name.removesuffix(".toml")  # general.toml holds the rules of the scope "general"
        result.append((scope, Path(str(folder.joinpath(name))), folder.joinpath(name).read_text("utf-8")))
    return result


@cache
def catalogue() -> Catalogue:
    """Every rule, source, draft label and retired id of the profile."""
    return parse(files())


def rules() -> dict[str, Rule]:
    """All rules, by id: the general rules first, then each operator's, in the order of their files."""
    return catalogue().rules


def rule(rule_id: str) -> Rule:
    """The rule ``rule_id``; KeyError names an unknown id (and the successor of a retired one)."""
    found = catalogue().rules.get(rule_id)
    if found is not None:
        return found
    retired = catalogue().retired.get(rule_id)
    if retired is not None:
        raise KeyError(f"rule id {rule_id!r} is retired: {retired.successor} states it now")
    raise KeyError(f"unknown rule id {rule_id!r}")
