"""What the site says about each requirement beyond its statement, gathered from the run.

- code: the lines of ``sonnx_spec`` that name the id where a check is made:
  a string literal that is exactly the id (``SonnxError("CLIP_R1", …)``) or a
  comment mentioning it. Docstrings do not count.
- tests: the JUnit XML of the pytest run (``tests/conftest.py`` records each
  case's ``@pytest.mark.req`` ids, its dtype and node id as properties).
- formal: the Why3 goals of ``build/formal-status.json`` (``nox -s formal``).

No Sphinx here: the extensions and the traceability export share this data.
"""

from __future__ import annotations

import io
import json
import re
import tokenize
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ID_TOKEN = re.compile(r"\b(GR\d+|(?:CLIP|MAX|ABS)_[A-Z]\d+)\b")
CODE_DIR = "sonnx_spec"
NOT_CODE = {"sonnx_spec/requirements.py"}  # the loader describes ids, it checks none


@dataclass(frozen=True)
class CodeRef:
    path: str  # relative to the repository root
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


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


@dataclass(frozen=True)
class FormalGoal:
    file: str
    theory: str
    goal: str
    line: int
    status: str
    prover: str | None
    ids: tuple[str, ...]

    @property
    def ref(self) -> CodeRef:
        return CodeRef(self.file, self.line)


@dataclass
class TestSummary:
    """The tests of one requirement, grouped by test function."""

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


def scan_code(root: Path) -> tuple[dict[str, list[CodeRef]], list[tuple[CodeRef, str]]]:
    """Requirement ids named at checks in the package, and every id-like token found.

    Returns (id -> lines naming it, all (line, token) pairs) so that the caller
    can report tokens that are not known ids.
    """
    found: dict[str, list[CodeRef]] = defaultdict(list)
    tokens: list[tuple[CodeRef, str]] = []
    for path in sorted((root / CODE_DIR).rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in NOT_CODE:
            continue
        for token in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
            if token.type == tokenize.STRING:
                names = [token.string.strip("'\"")] if ID_TOKEN.fullmatch(token.string.strip("'\"")) else []
            elif token.type == tokenize.COMMENT:
                names = ID_TOKEN.findall(token.string)
            else:
                continue
            for name in names:
                ref = CodeRef(rel, token.start[0])
                tokens.append((ref, name))
                if ref not in found[name]:
                    found[name].append(ref)
    return dict(found), tokens


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


def read_formal(path: Path) -> tuple[dict, list[FormalGoal]]:
    """The Why3 run's header (tool, provers, mutants) and its goals."""
    data = json.loads(path.read_text("utf-8"))
    goals = [
        FormalGoal(
            g["file"], g["theory"], g["goal"], int(g["line"]), g["status"], g.get("prover"), tuple(g["ids"])
        )
        for g in data["goals"]
    ]
    return data, goals
