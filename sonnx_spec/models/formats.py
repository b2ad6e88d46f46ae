"""The reports of the model tools as text, JSON and SARIF 2.1.0 (what static-analysis tools read)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import __version__
from ..registry import operators
from ..requirements import rule
from .by_node import NodeComparison, OutputVerdict
from .compare import Comparison
from .findings import Finding, Report
from .values import exact, exact_array

FORMATS = ("text", "json", "sarif")
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def check_text(report: Report, site: str = "") -> str:
    if report.in_profile:
        lines = [f"{report.source}: in the SONNX profile ({_nodes(report.nodes)}, every static rule holds)"]
    else:
        errors, undecided = len(report.errors), len(report.undecided)
        counts = [f"{errors} violation{'s' * (errors != 1)}"] if errors else []
        counts += [f"{undecided} rule{'s' * (undecided != 1)} undecided"] if undecided else []
        lines = [f"{report.source}: not in the SONNX profile ({', '.join(counts)}; {_nodes(report.nodes)})"]
    for finding in report.findings:
        notes = ["undecided"] if finding.level == "undecided" else []
        notes += (
            [f"{_op_type(finding)}'s draft: {', '.join(finding.draft_labels)}"]
            if finding.draft_labels
            else []
        )
        notes += [f"formerly {', '.join(finding.formerly)}"] if finding.formerly else []
        rule_id = f"{finding.rule} ({'; '.join(notes)})" if notes else finding.rule
        lines.append(f"  {finding.where} — {rule_id} — {finding.message} — {finding.link(site)}")
    if report.unspecified:
        listed = ", ".join(f"{op} ({_nodes(count)})" for op, count in sorted(report.unspecified.items()))
        lines.append(f"Operators not specified by SONNX (yet): {listed}.")
        lines.append(f"SONNX specifies: {', '.join(op.onnx for op in operators().values())}.")
    return "\n".join(lines)


def finding_json(finding: Finding, site: str = "") -> dict[str, Any]:
    node = finding.node
    return {
        "rule": finding.rule,
        "draft_labels": list(finding.draft_labels),
        "formerly": list(finding.formerly),
        "level": finding.level,
        "node": node.name if node else None,
        "node_index": node.index if node else None,
        "op_type": node.op_type if node else None,
        "domain": node.domain if node else None,
        "message": finding.message,
        "statement": finding.statement,
        "link": finding.link(site),
    }


def check_json(report: Report, site: str = "") -> str:
    """A list of objects, one per finding: empty when the model is in the profile."""
    return json.dumps([finding_json(f, site) for f in report.findings], indent=2, ensure_ascii=False)


def check_sarif(report: Report, site: str = "") -> str:
    rule_ids = list(dict.fromkeys(f.rule for f in report.findings))
    rules = []
    for rule_id in rule_ids:
        stated = rule(rule_id)
        entry: dict[str, Any] = {
            "id": rule_id,
            "shortDescription": {"text": stated.statement},
            "help": {"text": f"{stated.statement} (SONNX specification: {stated.page}.html#{rule_id})"},
        }
        if site:
            entry["helpUri"] = f"{site.rstrip('/')}/{stated.page}.html#{rule_id}"
        rules.append(entry)
    results = []
    for finding in report.findings:
        location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": report.source}}}
        if finding.node:
            location["logicalLocations"] = [
                {
                    "name": finding.node.name or f"node {finding.node.index}",
                    "fullyQualifiedName": str(finding.node),
                    "kind": "member",
                    "index": finding.node.index,
                }
            ]
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": rule_ids.index(finding.rule),
            "level": "error" if finding.level == "error" else "warning",
            "message": {"text": f"{finding.where}: {finding.message}"},
            "locations": [location],
        }
        history = {"draft_labels": list(finding.draft_labels), "formerly": list(finding.formerly)}
        if finding.draft_labels or finding.formerly:  # SARIF's property bag: what else names the rule
            result["properties"] = history
        results.append(result)
    driver = {"name": "sonnx-spec", "version": __version__, "rules": rules}
    if site:
        driver["informationUri"] = f"{site.rstrip('/')}/models.html"
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def outputs_text(outputs: Mapping[str, np.ndarray]) -> str:
    return "\n".join(f"{name}: {_array(value)}" for name, value in outputs.items())


def outputs_json(outputs: Mapping[str, np.ndarray]) -> str:
    """Each output's type, shape and elements (as exact text: JSON has no NaN and no float16)."""
    return json.dumps(
        {name: _array_json(value) for name, value in outputs.items()}, indent=2, ensure_ascii=False
    )


def comparison_text(comparison: Comparison) -> str:
    engine = f"{comparison.engine} {comparison.engine_version}"
    verdict = "agree bit for bit" if comparison.agree else "differ"
    lines = [f"{comparison.source}: the reference (sonnx-spec {__version__}) and {engine} {verdict}"]
    if comparison.reference_refusal:
        lines.append(f"  the reference refuses the inputs: {comparison.reference_refusal}")
    if comparison.engine_failure:
        lines.append(f"  {comparison.engine} fails: {comparison.engine_failure}")
    for output in comparison.outputs:
        if output.agree:
            lines.append(f"  {output.name}: agree ({_array(output.reference, 0)})")
            continue
        lines.append(f"  {output.name}: differ: {output.why}")
        for difference in output.differences:
            index = f"{output.name}[{', '.join(map(str, difference.index))}]"
            lines.append(
                f"    {index}: reference {difference.reference}, {comparison.engine} {difference.engine}"
            )
        if not output.differences:
            for who, value in (("reference", output.reference), (comparison.engine, output.engine)):
                if value is not None:
                    lines.append(f"    {who}: {_array(value)}")
    return "\n".join(lines)


def comparison_json(comparison: Comparison) -> str:
    document = {
        "model": comparison.source,
        "engine": comparison.engine,
        "engine_version": comparison.engine_version,
        "agree": comparison.agree,
        "reference_refusal": comparison.reference_refusal or None,
        "reference_rule": comparison.reference_rule or None,
        "engine_failure": comparison.engine_failure or None,
        "outputs": [
            {
                "name": o.name,
                "agree": o.agree,
                "why": o.why or None,
                "first_differences": [
                    {"index": list(d.index), "reference": d.reference, "engine": d.engine}
                    for d in o.differences
                ],
                "reference": None if o.reference is None else _array_json(o.reference),
                "engine": None if o.engine is None else _array_json(o.engine),
            }
            for o in comparison.outputs
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def node_comparison_text(comparison: NodeComparison) -> str:
    engine = f"{comparison.engine} {comparison.engine_version}".strip()
    good = sum(n.conforms for n in comparison.nodes)
    lines = [
        f"{comparison.source}: {engine} judged node by node against the SONNX accuracy rules: "
        f"{good} of {_nodes(len(comparison.nodes))} conform"
    ]
    for verdict in comparison.nodes:
        if verdict.engine_failure:
            lines.append(f"  {verdict.node}: the engine fails: {verdict.engine_failure}")
        for output in verdict.outputs:
            lines.append(f"  {verdict.node}, output {output.name!r}: {_output_verdict(output)}")
    return "\n".join(lines)


def _output_verdict(output: OutputVerdict) -> str:
    rule = output.rule or "bit for bit"
    if output.verdict == "differs":
        return f"differs: {output.why}"
    words = {
        "conforms": f"conforms ({rule})",
        "outside": f"outside {output.rule}" if output.rule else "differs (bit for bit required)",
        "undecided": f"undecided under {rule}",
    }
    text = words[output.verdict]
    if output.why:
        text += f": {output.why}"
    elif output.differing:
        text += f", {output.differing} elements not bit for bit"
    if output.worst is not None:
        steps = (
            "NaN against a number"
            if output.steps is None
            else f"{output.steps} step{'s' * (output.steps != 1)}"
        )
        index = ", ".join(map(str, output.worst))
        text += f"; worst [{index}]: reference {output.reference}, engine {output.engine} ({steps})"
    return text


def node_comparison_json(comparison: NodeComparison) -> str:
    document = {
        "model": comparison.source,
        "engine": comparison.engine,
        "engine_version": comparison.engine_version,
        "conforms": comparison.conforms,
        "nodes": [
            {
                "node_index": n.node.index,
                "node": n.node.name or None,
                "op_type": n.node.op_type,
                "conforms": n.conforms,
                "engine_failure": n.engine_failure or None,
                "outputs": [
                    {
                        "name": o.name,
                        "verdict": o.verdict,
                        "rule": o.rule or None,
                        "why": o.why or None,
                        "differing_elements": o.differing,
                        "worst": None
                        if o.worst is None
                        else {
                            "index": list(o.worst),
                            "reference": o.reference,
                            "engine": o.engine,
                            "steps": o.steps,
                        },
                    }
                    for o in n.outputs
                ],
            }
            for n in comparison.nodes
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def _array(value: np.ndarray, limit: int = 20) -> str:
    head = f"{value.dtype.name} of shape {tuple(value.shape)}"
    return head if limit == 0 else f"{head} {exact_array(value, limit)}"


def _array_json(value: np.ndarray) -> dict[str, Any]:
    values = [exact(v) for v in np.asarray(value).reshape(-1)]
    return {"dtype": value.dtype.name, "shape": list(value.shape), "values": values}


def _op_type(finding: Finding) -> str:
    return finding.node.op_type if finding.node else "the model"


def _nodes(count: int) -> str:
    return f"{count} node{'s' * (count != 1)}"
