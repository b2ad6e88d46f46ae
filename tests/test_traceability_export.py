"""The site's traceability export (sonnx_sphinx/output/exports.py): a search for a draft's old label finds the
rule that states it now, with the drafts' labels of each operator for a general rule."""

from __future__ import annotations

import csv
import importlib
import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from sonnx_spec.requirements import catalogue

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # sonnx_sphinx/ is tooling beside the package, not installed
exports = importlib.import_module("sonnx_sphinx.output.exports")

# What the seeds' restrictions became (seeds 000, 003 and 004: Clip, Max and Abs), read from the drafts.
SEED_RESTRICTIONS = {
    "CLIP_R1": "GR4",  # input L must be set
    "CLIP_R2": "GR4",  # input M must be set
    "CLIP_R3": "GR1",  # sparse tensors are not supported
    "CLIP_R4": "GR2",  # shape of tensors shall be explicit
    "CLIP_R5": "GR3",  # all tensors shall have the same datatype
    "MAX_R1": "GR1",
    "MAX_R2": "GR2",
    "ABS_R1": "GEN_C1",  # X must have a valid numeric type
    "ABS_R2": "GR1",
    "ABS_R3": "GR2",
}


def _no_run(rule_id: str) -> SimpleNamespace:
    return SimpleNamespace(functions={}, cases=[], result="")


@pytest.fixture(scope="module")
def items() -> dict[str, dict]:
    """The export of the package's rules, as a build without test results or proofs writes it."""
    found = catalogue()
    data = SimpleNamespace(
        rules=found.rules, catalogue=found, code={}, tests_of=_no_run, goals_of=lambda rule_id: []
    )
    exported = exports.export_items(data)
    assert all(list(item) == exports.EXPORT_KEYS for item in exported)
    return {item["id"]: item for item in exported}


@pytest.mark.parametrize(("old", "now"), SEED_RESTRICTIONS.items())
def test_a_retired_label_is_found_on_the_rule_that_states_it_now(items: dict, old: str, now: str) -> None:
    assert [item["id"] for item in items.values() if old in item["formerly"]] == [now]
    assert old in json.dumps(items[now])


def test_every_retired_id_of_the_rules_files_is_on_its_successor(items: dict) -> None:
    for retired in catalogue().retired.values():
        assert retired.id in items[retired.successor]["formerly"]


def test_a_general_rule_carries_the_drafts_labels_of_each_operator_and_their_tensors(items: dict) -> None:
    gr4 = items["GR4"]["draft_labels"]
    assert {"operator": "clip", "label": "R1", "tensors": ["L"], "origin": "seed-clip#R1"} in gr4
    assert {"operator": "clip", "label": "R2", "tensors": ["M"], "origin": "seed-clip#R2"} in gr4
    assert [
        (d["operator"], d["label"])
        for d in items["GR1"]["draft_labels"]
        if d["operator"] in ("clip", "max", "abs")
    ] == [("abs", "R2"), ("clip", "R3"), ("max", "R1")]
    assert all(d["label"] != "Contents" for d in items["GEN_C1"]["draft_labels"])  # a section, not a label
    assert items["CLIP_C4"]["draft_labels"] == [] and items["CLIP_S5"]["formerly"] == ["CLIP_E1"]


def test_the_csv_has_one_cell_per_field(items: dict) -> None:
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(exports._csv(list(items.values()))))}
    assert rows["GR4"]["formerly"] == "CLIP_R1; CLIP_R2"
    # LeakyRelu's R1 about alpha is cited twice (its real and float sections): one cell names it once
    cited = rows["GR4"]["draft_labels"].split("; ")
    assert [c for c in cited if c.split()[0] in ("clip", "constant", "leaky_relu")] == [
        "clip R1 (L)",
        "clip R2 (M)",
        "constant R1",
        "leaky_relu R1 (alpha)",
    ]


def test_a_rules_checksum_changes_with_what_it_states_and_nothing_else(items: dict) -> None:
    from dataclasses import replace

    rule = catalogue().rules["CLIP_C4"]
    assert items["CLIP_C4"]["content_sha256"] == exports.content_sha256(rule)
    assert len({item["content_sha256"] for item in items.values()}) == len(items)  # one per rule
    for change in [
        {"statement": rule.statement + " "},
        {"math": (rule.math or "") + "x"},
        {"families": ("int",)},
        {"static": not rule.static},
        {"origin": ()},
    ]:
        assert exports.content_sha256(replace(rule, **change)) != items["CLIP_C4"]["content_sha256"], change
    assert exports.content_sha256(replace(rule)) == items["CLIP_C4"]["content_sha256"]
