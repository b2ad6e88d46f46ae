"""The traceability exports, next to ``index.html``: ``traceability.json``, ``traceability.csv``, and
the test results the site was built from, ``test-results.xml`` (sphinx-needs writes ``needs.json``)."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

from sphinx.application import Sphinx

from ..data import BuildData, build_data

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
]


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
        writer.writerow({k: "; ".join(map(str, v)) if isinstance(v, list) else v for k, v in row.items()})
    return out.getvalue()


def _export(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    data = build_data(app)
    items = export_items(data)
    outdir = Path(app.outdir)
    (outdir / "traceability.json").write_text(json.dumps(items, indent=2, ensure_ascii=False) + "\n", "utf-8")
    (outdir / "traceability.csv").write_text(_csv(items), "utf-8")
    if data.junit.exists():
        shutil.copyfile(data.junit, outdir / "test-results.xml")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _export)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
