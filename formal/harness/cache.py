"""Results per operator, committed in formal/proofs/<op>.json and reused while their inputs are unchanged.

A record is one JSON document written one line per entry, to be read in a diff: a header (the key,
the tools' versions, the time limit, the file, its theories, errors, the run's time), then one line
per goal (its theory, name, line, ids, kind, each prover's answer and time, its tasks), per deliberate
error, per module's vacuity check and per example. What every goal of a record shares (its file) and a
default (not a termination goal) are left out of its line and restored when it is read.

The key is a digest of everything a result depends on: the operator's Why3 file and deliberate
errors, the shared theories, the harness's code that produces the records (not the code that only
evaluates them, nor the examples' generator and language, whose output is in the key), the examples of
the operator's page and special-values table as Why3 states them and how they are run, the tools'
versions and the time limit. An operator whose key is the recorded one is not proved again (a clean clone
reuses the committed results); ``--replay`` proves everything again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from results import declared

from . import example_run
from .sources import FORMAL, ROOT, mutants_file, operator_file

PROOFS = FORMAL / "proofs"
LIBRARY = "lib"  # the name of the shared theories' record
SHARED = "proof-record"
"""The entry of results.toml that lists what every operator's record depends on: the shared theories, the
harness's code that produces the records (not the code that only evaluates them, nor the examples' generator
and language: the examples they give are in each operator's key)."""


def inputs(op: str) -> list[Path]:
    """The files a result of ``op`` (or of the shared theories, LIBRARY) depends on."""
    files = declared(ROOT)[SHARED].files()
    if op != LIBRARY:
        files += [operator_file(op), mutants_file(op)]
    return sorted(set(files))


def key(op: str, versions: dict[str, str], timelimit: float) -> str:
    sha = hashlib.sha256()
    for path in inputs(op):
        content = path.read_bytes() if path.exists() else b"(missing)"
        sha.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + content + b"\0")
    if op != LIBRARY:  # the examples as Why3 states them (the page's, and the special values) and how
        # they are run: what formal/harness/examples.py makes of them, so that editing it for one
        # operator's examples proves again that operator only (results.toml leaves the file out)
        examples = example_run.example_modules(op) or []
        sha.update(example_run.file_text(examples).encode() if examples else b"(no examples)")
        sha.update(repr((example_run.transformations(op), example_run.outside_model(op))).encode())
    sha.update(json.dumps({"versions": versions, "timelimit": timelimit}, sort_keys=True).encode())
    return sha.hexdigest()


def path_of(op: str) -> Path:
    return PROOFS / f"{op}.json"


def read_record(path: Path) -> dict[str, Any] | None:
    """The record in ``path`` as the harness uses it (None if there is none), whatever its key."""
    if not path.exists():
        return None
    record = json.loads(path.read_text("utf-8"))
    for goal in record.get("goals", []):
        goal.setdefault("file", record.get("file"))
        goal.setdefault("termination", False)
    return record


def load(op: str, wanted: str) -> dict[str, Any] | None:
    """The recorded result of ``op`` if its key is ``wanted``."""
    record = read_record(path_of(op))
    return record if record is not None and record.get("key") == wanted else None


GOAL_FIELDS = ("theory", "goal", "line", "kind", "ids", "answers", "time", "tasks", "termination", "file")
"""The order of a goal's line: where it is and what it is first, then its answers."""


def _line(entry: Any, shared_file: str | None) -> str:
    if isinstance(entry, dict) and "goal" in entry and "answers" in entry:
        entry = {k: entry[k] for k in GOAL_FIELDS if k in entry} | entry
        if entry.get("file") == shared_file:
            del entry["file"]
        if entry.get("termination") is False:
            del entry["termination"]
    return json.dumps(entry, ensure_ascii=False)


ROWS = ("goals", "mutants", "vacuity", "examples")
"""The lists of a record written one entry per line, after the header, in this order."""


def text_of(record: dict[str, Any]) -> str:
    """``record`` as a JSON document: its header a line per field, then its lists a line per entry."""
    shared = record.get("file")
    header = [(n, v) for n, v in sorted(record.items()) if n not in ROWS]
    fields = [f" {json.dumps(n)}: {json.dumps(v, ensure_ascii=False, sort_keys=True)}" for n, v in header]
    for name in [n for n in ROWS if n in record]:
        value = record[name]
        if not value:
            fields.append(f" {json.dumps(name)}: {json.dumps(value)}")
            continue
        rows = ",\n".join(f"  {_line(e, shared)}" for e in value)
        fields.append(f" {json.dumps(name)}: [\n{rows}\n ]")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def save(op: str, record: dict[str, Any], folder: Path | None = None) -> None:
    """Into formal/proofs/, or ``folder``."""
    path = path_of(op) if folder is None else folder / f"{op}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text_of(record), "utf-8")
