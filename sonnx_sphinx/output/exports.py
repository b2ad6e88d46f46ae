"""The traceability exports, next to ``index.html``: ``traceability.json``, ``traceability.csv``, and
the test results the site was built from, ``test-results.xml`` (sphinx-needs writes ``needs.json``).

Each item says what else named its rule: the ids it replaced (``formerly``: CLIP_R1 on GR4) and, for a
general rule, the drafts' labels for it in each operator (``draft_labels``), so that a search of the
export for a draft's label finds the rule that states it now. ``content_sha256`` is a digest of what
the rule says (its kind, scope, type families, tensors, statement, formula, origin, whether it is static):
two releases' exports show which statements changed, whatever else moved. Importing this module needs no
Sphinx.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sonnx_spec.requirements import Catalogue, Rule

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import BuildData

EXPORT_KEYS = [
    "id",
    "kind",
    "operator",
    "type_family",
    "statement",
    "origin",
    "static",
    "code",
    "tests",
    "test_cases",
    "result",
    "formal",
    "tensors",
    "page",
    "formerly",
    "draft_labels",
    "content_sha256",
]


def formerly(catalogue: Catalogue, rule_id: str) -> list[str]:
    """The retired ids, of every operator, that ``rule_id`` states now."""
    return [r.id for r in catalogue.retired_into(rule_id)]


def draft_labels(catalogue: Catalogue, rule_id: str) -> list[dict[str, Any]]:
    """What the drafts call a general rule in each operator, and about which tensors ([] for every one)."""
    return [
        {"operator": operator, "label": d.label, "tensors": list(d.tensors), "origin": str(d.origin)}
        for operator, labels in catalogue.draft_labels.items()
        for d in labels.get(rule_id, ())
        if d.label
    ]


def content_sha256(rule: Rule) -> str:
    """The digest of what ``rule`` states: a change of its words, formula, scope or origin changes it;
    its code, tests and results (which change with every run) do not."""
    content = {
        "id": rule.id,
        "kind": rule.kind,
        "operator": rule.operator,
        "families": list(rule.families),
        "tensors": list(rule.tensors),
        "statement": rule.statement,
        "math": rule.math,
        "origin": [str(o) for o in rule.origin],
        "static": rule.static,
    }
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def export_items(data: BuildData) -> list[dict]:
    items = []
    for rule in data.rules.values():
        tests = data.tests_of(rule.id)
        items.append(
            {
                "id": rule.id,
                "kind": rule.kind,
                "operator": rule.operator,
                "type_family": list(rule.families),
                "statement": rule.statement,
                "origin": [str(o) for o in rule.origin],
                "static": rule.static,
                "code": [str(ref) for ref in data.code.get(rule.id, [])],
                "tests": list(tests.functions),
                "test_cases": len(tests.cases),
                "result": tests.result,
                "formal": [
                    {"theory": g.theory, "goal": g.goal, "file": g.file, "line": g.line, "status": g.status}
                    for g in data.goals_of(rule.id)
                ],
                "tensors": list(rule.tensors),
                "page": f"{rule.page}.html#{rule.id}",
                "formerly": formerly(data.catalogue, rule.id),
                "draft_labels": draft_labels(data.catalogue, rule.id),
                "content_sha256": content_sha256(rule),
            }
        )
    return items


def _csv(items: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=EXPORT_KEYS, lineterminator="\n")
    writer.writeheader()
    for item in items:
        row = dict(item)
        row["formal"] = [f"{g['theory']}.{g['goal']} ({g['status']})" for g in item["formal"]]
        row["draft_labels"] = list(
            dict.fromkeys(label_text(d) for d in item["draft_labels"])
        )  # R1 (real), R1 (float)
        writer.writerow({k: "; ".join(map(str, v)) if isinstance(v, list) else v for k, v in row.items()})
    return out.getvalue()


def label_text(label: dict[str, Any]) -> str:
    """``clip R1 (L)``: a draft label in one cell of the CSV or one value of a need's field."""
    about = f" ({' and '.join(label['tensors'])})" if label["tensors"] else ""
    return f"{label['operator']} {label['label']}{about}"


def _export(app: Sphinx, exception: Exception | None) -> None:
    from ..data import build_data  # Sphinx's: imported by the build only

    if exception is not None or app.builder.format != "html":
        return
    data = build_data(app)
    items = export_items(data)
    outdir = Path(app.outdir)
    (outdir / "traceability.json").write_text(json.dumps(items, indent=2, ensure_ascii=False) + "\n", "utf-8")
    (outdir / "traceability.csv").write_text(_csv(items), "utf-8")
    if data.current["tests"]:  # the run on these sources only
        shutil.copyfile(data.junit, outdir / "test-results.xml")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _export)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
