"""The grammar of rule ids, written once: everything that reads an id imports it from here.

An id is ``GR<n>``, a general restriction of the SONNX drafts, or ``<SCOPE>_<K><n>``:
``SCOPE`` is an operator's name in capitals (``CLIP``, ``LEAKYRELU``) or ``GEN`` for the
project's own general rules, and ``K`` the kind of the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = {
    "R": "restriction",
    "C": "constraint",
    "E": "error",
    "S": "semantics",
    "P": "postcondition",
}
GENERAL = "general"  # the scope of GR<n> and GEN_<K><n>: every operator
GENERAL_SCOPE = "GEN"

_ID = r"(?:GR\d+|[A-Z][A-Z0-9]*_[RCESP]\d+)"
ID = re.compile(rf"^{_ID}$")
"""A whole id."""
ID_IN_TEXT = re.compile(rf"(?<![A-Za-z0-9_]){_ID}(?![A-Za-z0-9_])")
"""An id inside a comment or a sentence."""
_PARTS = re.compile(r"^(?:GR(?P<gr>\d+)|(?P<scope>[A-Z][A-Z0-9]*)_(?P<kind>[RCESP])(?P<number>\d+))$")


@dataclass(frozen=True)
class RuleId:
    """An id taken apart: ``CLIP_C4`` is scope ``clip``, kind ``constraint``, label ``C4``."""

    text: str
    scope: str  # an operator's name, or GENERAL
    kind: str
    label: str  # what a draft calls the rule within its scope: R1, C4, GR2

    def __str__(self) -> str:
        return self.text


def parse(text: str) -> RuleId:
    """``text`` as a rule id; ValueError if it does not follow the grammar."""
    match = _PARTS.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a rule id (GR<n>, GEN_<K><n> or <OPERATOR>_<K><n>, K in RCESP)")
    if match["gr"]:
        return RuleId(text, GENERAL, "restriction", text)
    scope = match["scope"]
    return RuleId(
        text,
        GENERAL if scope == GENERAL_SCOPE else scope.lower(),
        KINDS[match["kind"]],
        f"{match['kind']}{match['number']}",
    )


def scope_prefix(operator: str) -> str:
    """The scope an operator's ids start with: ``leaky_relu`` -> ``LEAKYRELU``."""
    return operator.replace("_", "").upper()


def in_goal_name(name: str, scopes: list[str]) -> list[str]:
    """The ids a Why3 goal cites at the start of its name: ``clip_s1_s3_nan`` -> CLIP_S1, CLIP_S3.

    Goals are named ``<scope>_<label>[_<label>…]_<what it says>`` (Why3 names are
    lower case; an ``[@expl:…]`` label may keep the capitals); ``scopes`` are the
    prefixes an id may start with (``CLIP``, ``GEN``…). A name that starts with
    no id cites none.
    """
    alternatives = "|".join(re.escape(s) for s in scopes)  # an id is followed by _ or space: no prefix wins
    pattern = re.compile(
        rf"^\s*(?:(?P<scope>{alternatives})(?P<labels>(?:_[rcesp]\d+)+)|gr(?P<gr>\d+))(?=_|\s|$)",
        re.IGNORECASE,
    )
    match = pattern.match(name)
    if match is None:
        return []
    if match["gr"]:
        return [f"GR{match['gr']}"]
    labels = match["labels"].split("_")[1:]  # "_s1_s3" -> s1, s3
    return sorted({f"{match['scope'].upper()}_{label.upper()}" for label in labels})
