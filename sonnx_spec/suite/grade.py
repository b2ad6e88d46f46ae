"""``grade``: an engine run on every case of a suite, each case passed, failed or unsupported.

A case the profile gives a result for passes when the engine's output has the expected element type,
shape and bits (every NaN alike); it fails when the output differs or the engine refuses the inputs. A case
the profile refuses passes when the engine refuses it too, and fails when the engine gives an output. A
case is unsupported when the engine cannot load its model (an operator or a type it lacks).
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from .errors import SuiteError
from .export import FORMAT

Outcome = Literal["pass", "fail", "unsupported"]
CASE_NAME = re.compile(r"^[A-Za-z0-9_]+$")  # a folder of the suite, never a path leading out of it


@dataclass(frozen=True)
class Grade:
    case: str
    operator: str
    type: str
    rule: str
    outcome: Outcome
    detail: str = ""


@dataclass
class Grades:
    """An engine's grades on one suite."""

    engine: str
    engine_version: str
    suite: str  # the suite's digest
    specification: str
    grades: list[Grade] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        return sum(g.outcome == outcome for g in self.grades)

    def by_operator_and_type(self) -> dict[tuple[str, str], Counter]:
        table: dict[tuple[str, str], Counter] = {}
        for g in self.grades:
            table.setdefault((g.operator, g.type), Counter())[g.outcome] += 1
        return dict(sorted(table.items()))

    def to_json(self) -> dict[str, Any]:
        totals = {o: self.count(o) for o in ("pass", "fail", "unsupported")}
        return {
            "engine": self.engine,
            "engine_version": self.engine_version,
            "suite": self.suite,
            "specification": self.specification,
            "totals": totals,
            "grades": [asdict(g) for g in self.grades],
        }


def read_manifest(root: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((root / "manifest.json").read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise SuiteError(f"{root}: not a suite (manifest.json cannot be read: {error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise SuiteError(f"{root}: manifest.json is not a {FORMAT} manifest")
    for case in manifest.get("cases", []):
        if not isinstance(case, dict) or not CASE_NAME.match(str(case.get("name", ""))):
            raise SuiteError(f"{root}: manifest.json names a case that is no folder name: {case!r:.80}")
    return manifest


def grade(folder: str | Path, engine: str, progress: Callable[[int, int], None] | None = None) -> Grades:
    """Run the engine named ``engine`` (see :mod:`.engines`) on every case of the suite in ``folder``, in a
    process of its own: a case that crashes it fails, and the next case runs in a new process."""
    root = Path(folder)
    manifest = read_manifest(root)
    listed = manifest["cases"]
    with _Worker(engine, root) as worker:
        result = Grades(engine, worker.version, manifest.get("digest", ""), manifest.get("specification", ""))
        for done, case in enumerate(listed):
            outcome, detail = worker.grade(case["name"])
            result.grades.append(
                Grade(case["name"], case["operator"], case["type"], case.get("rule", ""), outcome, detail)
            )
            if progress:
                progress(done + 1, len(listed))
    return result


class _Worker:
    """The engine's process (:mod:`.worker`), started again after a crash, ended when grading ends."""

    def __init__(self, engine: str, root: Path) -> None:
        self.engine, self.root = engine, root
        self.process: subprocess.Popen | None = None
        self.version = ""

    def __enter__(self) -> _Worker:
        self._start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop()

    def _start(self) -> None:
        command = [sys.executable, "-m", "sonnx_spec.suite.worker", self.engine, str(self.root)]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        hello = self._answer()
        if hello is None or "error" in hello:
            self._stop()
            why = hello["error"] if hello else "its process ended at once"
            raise SuiteError(why if why.startswith("engine") else f"engine {self.engine}: {why}")
        self.version = hello.get("version", "")

    def _stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream:
                    stream.close()
            self.process = None

    def _answer(self) -> dict[str, Any] | None:
        assert self.process is not None and self.process.stdout is not None
        line = self.process.stdout.readline()
        return json.loads(line) if line else None

    def grade(self, case: str) -> tuple[Outcome, str]:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(case + "\n")
            self.process.stdin.flush()
            answer = self._answer()
        except BrokenPipeError:
            answer = None
        if answer is None:  # the engine crashed its process on this case
            code = self.process.wait()
            self._stop()
            self._start()
            how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
            return "fail", f"the engine crashed its process ({how})"
        if "error" in answer:
            raise SuiteError(answer["error"])
        return answer["outcome"], answer["detail"]
