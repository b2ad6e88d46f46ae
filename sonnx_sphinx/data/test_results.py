"""The test run the site publishes: pytest's JUnit XML with each case's rule ids.

``tests/conftest.py`` records, as properties of each test case, the ids of its
``@pytest.mark.req`` marks, its dtype and its node id.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class TestCase:
    nodeid: str
    outcome: str  # pass, fail, skip
    req: tuple[str, ...]
    dtype: str | None

    @property
    def function(self) -> str:
        """The test function's id: the node id without its parameters."""
        return self.nodeid.split("[", 1)[0]

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]


@dataclass
class TestSummary:
    """The tests of one rule, grouped by test function."""

    cases: list[TestCase] = field(default_factory=list)

    @property
    def functions(self) -> dict[str, list[TestCase]]:
        grouped: dict[str, list[TestCase]] = defaultdict(list)
        for case in self.cases:
            grouped[case.function].append(case)
        return dict(grouped)

    @property
    def result(self) -> str:
        """pass only if there are cases and all passed; else fail, skip or none."""
        outcomes = {case.outcome for case in self.cases}
        if not outcomes:
            return "none"
        if "fail" in outcomes:
            return "fail"
        return "skip" if "skip" in outcomes else "pass"


def _outcome(testcase: ET.Element) -> str:
    if testcase.find("failure") is not None or testcase.find("error") is not None:
        return "fail"
    return "skip" if testcase.find("skipped") is not None else "pass"


def read_junit(path: Path) -> list[TestCase]:
    """The test cases of a pytest JUnit XML file (xunit1, with our properties)."""
    cases = []
    for testcase in ET.parse(path).getroot().iter("testcase"):
        props: dict[str, list[str]] = defaultdict(list)
        for prop in testcase.iter("property"):
            props[prop.get("name", "")].append(prop.get("value", ""))
        nodeid = (
            props["nodeid"][0] if props["nodeid"] else f"{testcase.get('classname')}::{testcase.get('name')}"
        )
        dtype = props["dtype"][0] if props["dtype"] else None
        cases.append(TestCase(nodeid, _outcome(testcase), tuple(dict.fromkeys(props["req"])), dtype))
    return cases


def tests_by_id(cases: list[TestCase]) -> dict[str, TestSummary]:
    summaries: dict[str, TestSummary] = defaultdict(TestSummary)
    for case in cases:
        for req_id in case.req:
            summaries[req_id].cases.append(case)
    return dict(summaries)


def test_lines(root: Path, cases: list[TestCase]) -> dict[str, int]:
    """``path::function`` -> the line that defines the test function, for links to its source."""
    lines: dict[str, int] = {}
    for file in sorted({case.file for case in cases}):
        path = root / file
        if not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                lines.setdefault(f"{file}::{node.name}", first)
    return lines
