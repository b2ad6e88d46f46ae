"""An engine's grades as files: JSON, JUnit XML (one test suite per operator) and a one-page summary."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from .grade import Grades

FILES = ("grades.json", "junit.xml", "summary.md")


def summary(grades: Grades) -> str:
    """Per operator and type: passed, failed (with the cases), unsupported."""
    lines = [
        f"# {grades.engine} {grades.engine_version} on the SONNX conformance suite {grades.specification}",
        "",
        f"{grades.count('pass')} passed, {grades.count('fail')} failed, "
        f"{grades.count('unsupported')} unsupported, of {len(grades.grades)} cases "
        f"(suite {grades.suite[:12]}).",
        "",
        "| Operator | Type | Pass | Fail | Unsupported |",
        "|---|---|---|---|---|",
    ]
    for (operator, dtype), counts in grades.by_operator_and_type().items():
        lines.append(
            f"| {operator} | {dtype} | {counts['pass']} | {counts['fail']} | {counts['unsupported']} |"
        )
    failed = [g for g in grades.grades if g.outcome == "fail"]
    if failed:
        lines += ["", "## Failed cases", ""]
        lines += [f"- `{g.case}` ({g.rule}): {g.detail}" for g in failed]
    return "\n".join(lines) + "\n"


def junit(grades: Grades) -> str:
    root = ET.Element("testsuites", name=f"sonnx-suite {grades.engine}")
    suites: dict[str, ET.Element] = {}
    for g in grades.grades:
        if g.operator not in suites:
            suites[g.operator] = ET.SubElement(root, "testsuite", name=g.operator)
        case = ET.SubElement(suites[g.operator], "testcase", classname=g.operator, name=g.case)
        if g.outcome == "fail":
            ET.SubElement(case, "failure", message=g.detail)
        elif g.outcome == "unsupported":
            ET.SubElement(case, "skipped", message=g.detail)
    for name, suite in suites.items():
        ours = [g for g in grades.grades if g.operator == name]
        suite.set("tests", str(len(ours)))
        suite.set("failures", str(sum(g.outcome == "fail" for g in ours)))
        suite.set("skipped", str(sum(g.outcome == "unsupported" for g in ours)))
        suite.set("errors", "0")
    return ET.tostring(root, encoding="unicode", xml_declaration=True)


def write(grades: Grades, folder: str | Path) -> list[Path]:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    texts = {
        "grades.json": json.dumps(grades.to_json(), indent=1, ensure_ascii=False),
        "junit.xml": junit(grades),
        "summary.md": summary(grades),
    }
    for name, text in texts.items():
        (out / name).write_text(text, "utf-8")
    return [out / name for name in FILES]
