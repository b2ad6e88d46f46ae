"""The rule ids a goal names, read with the one grammar (sonnx_spec.ids), checked against the catalogue."""

from __future__ import annotations

from collections.abc import Iterable

from sonnx_spec import ids
from sonnx_spec.requirements import Catalogue


def scopes(op: str) -> list[str]:
    """The scopes a goal of ``op`` may cite: its own, and the general rules (GEN_…; GR<n> always)."""
    return [ids.scope_prefix(op), ids.GENERAL_SCOPE]


def ids_of(names: Iterable[str], op: str) -> list[str]:
    """The ids the names cite at their start (``clip_s1_s3_nan`` -> CLIP_S1, CLIP_S3)."""
    return sorted({i for name in names for i in ids.in_goal_name(name, scopes(op))})


def id_problem(goal_ids: list[str], catalogue: Catalogue) -> str | None:
    """Why the ids of a goal do not trace it to rules, or None."""
    if not goal_ids:
        return "names no rule id (start its name with one: clip_S1_..., or label it [@expl:clip_S1_...])"
    for rule_id in goal_ids:
        if rule_id in catalogue.retired:
            return f"names the retired id {rule_id} (now {catalogue.retired[rule_id].successor})"
        if rule_id not in catalogue.rules:
            return f"names the unknown id {rule_id}"
    return None
