"""The profile's requirements, read from ``requirements.toml`` (their one source).

Each requirement has a stable id such as ``CLIP_R1`` or ``GR2``; its kind is the
letter of its label (R restriction, C constraint, E error condition, S semantics,
P postcondition). The reference raises :class:`~sonnx_spec.SonnxError` with these
ids, the tests name them in ``@pytest.mark.req``, the site renders them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

KINDS = {
    "R": "restriction",
    "C": "constraint",
    "E": "error",
    "S": "semantics",
    "P": "postcondition",
}
OPERATORS = ("clip", "max", "abs")
GENERAL = "general"
PAGES = {"clip": "clip", "max": "max", "abs": "abs", GENERAL: "general-restrictions"}
"""Operator -> the site page (docname) that defines its requirements."""

ID_PATTERN = re.compile(r"^(?:GR(?P<gr>\d+)|(?P<op>CLIP|MAX|ABS)_(?P<label>[RCESP]\d+))$")
_RULE_KEYS = {"id", "families", "tensors", "statement", "origin", "math"}
_SOURCE_KEYS = {"title", "kind", "summary", "url"}


@dataclass(frozen=True)
class Source:
    """A document requirements come from: a draft, an ONNX page, a decision."""

    key: str
    title: str
    kind: str
    summary: str
    url: str | None = None


@dataclass(frozen=True)
class Origin:
    """One origin of a requirement: another requirement, or a source and a section."""

    requirement: str | None = None
    source: str | None = None
    section: str | None = None

    def __str__(self) -> str:
        if self.requirement:
            return self.requirement
        return f"{self.source}#{self.section}" if self.section else str(self.source)


@dataclass(frozen=True)
class Requirement:
    id: str
    operator: str
    label: str
    kind: str
    families: tuple[str, ...]
    tensors: tuple[str, ...]
    statement: str
    origin: tuple[Origin, ...]
    math: str | None = None

    @property
    def page(self) -> str:
        """The site page (docname) where this requirement is defined."""
        return PAGES[self.operator]


class RequirementsFileError(ValueError):
    """``requirements.toml`` breaks one of its own rules (duplicate id, unknown origin…)."""


def _parse_origin(text: str, rule_ids: set[str], sources: dict[str, Source], rid: str) -> Origin:
    if text in rule_ids:
        return Origin(requirement=text)
    key, _, section = text.partition("#")
    if key not in sources:
        raise RequirementsFileError(f"{rid}: origin {text!r} is neither a requirement id nor a source")
    return Origin(source=key, section=section or None)


def _parse_rule(raw: dict, rule_ids: set[str], sources: dict[str, Source]) -> Requirement:
    rid = raw.get("id", "?")
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise RequirementsFileError(f"{rid}: unknown keys {sorted(unknown)}")
    match = ID_PATTERN.match(rid)
    if not match:
        raise RequirementsFileError(f"{rid!r} is not a requirement id (OP_R1, OP_C1, … or GR1)")
    if match["gr"]:
        operator, label, kind = GENERAL, rid, "restriction"
    else:
        operator, label = match["op"].lower(), match["label"]
        kind = KINDS[label[0]]
    families = tuple(raw["families"])
    if not families or not set(families) <= {"int", "float"}:
        raise RequirementsFileError(f"{rid}: families must be a non-empty subset of int, float")
    return Requirement(
        id=rid,
        operator=operator,
        label=label,
        kind=kind,
        families=families,
        tensors=tuple(raw.get("tensors", ())),
        statement=raw["statement"],
        origin=tuple(_parse_origin(o, rule_ids, sources, rid) for o in raw["origin"]),
        math=raw.get("math"),
    )


def parse(text: str) -> tuple[dict[str, Requirement], dict[str, Source]]:
    """Parse and check the requirements file's text."""
    data = tomllib.loads(text)
    sources = {}
    for key, raw in data.get("source", {}).items():
        unknown = set(raw) - _SOURCE_KEYS
        if unknown:
            raise RequirementsFileError(f"source {key}: unknown keys {sorted(unknown)}")
        sources[key] = Source(key=key, **raw)
    ids = [raw.get("id") for raw in data.get("rule", [])]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise RequirementsFileError(f"requirement ids defined more than once: {', '.join(duplicates)}")
    rule_ids = set(ids)
    rules = {raw["id"]: _parse_rule(raw, rule_ids, sources) for raw in data.get("rule", [])}
    return rules, sources


@cache
def _load() -> tuple[dict[str, Requirement], dict[str, Source]]:
    return parse(resources.files(__package__).joinpath("requirements.toml").read_text("utf-8"))


def requirements() -> dict[str, Requirement]:
    """All requirements, by id, in the order of the file."""
    return _load()[0]


def sources() -> dict[str, Source]:
    """All sources requirements cite, by key."""
    return _load()[1]


def requirement(req_id: str) -> Requirement:
    """The requirement ``req_id``; KeyError names the unknown id."""
    try:
        return requirements()[req_id]
    except KeyError:
        raise KeyError(f"unknown requirement id {req_id!r}") from None
