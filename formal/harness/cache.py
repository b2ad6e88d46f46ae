"""Results per operator, committed in formal/proofs/<op>.json and reused while their inputs are unchanged.

The key is a digest of everything a result depends on: the operator's Why3 file and deliberate
errors, the shared theories, the harness's code that produces the records (not the code that only
evaluates them), the examples of the operator's page and special-values table as Why3 states them, the tools'
versions and the time limit. An operator whose key is the recorded one is not proved again (a clean
clone reuses the committed results); ``--replay`` proves everything again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from . import example_run
from .sources import FORMAL, LIB, ROOT, mutants_file, operator_file

PROOFS = FORMAL / "proofs"
LIBRARY = "lib"  # the name of the shared theories' record
EVALUATION_ONLY = {"status.py", "allowed.py", "__main__.py", "__init__.py"}
"""Harness modules that read the records without changing them: editing them proves nothing again."""
HARNESS_CODE = [FORMAL / "harness", ROOT / "sonnx_sphinx" / "example_language.py"]


def inputs(op: str) -> list[Path]:
    """The files a result of ``op`` (or of the shared theories, LIBRARY) depends on."""
    files = [p for p in LIB.iterdir() if p.is_file()]
    for code in HARNESS_CODE:
        files += [p for p in code.rglob("*.py") if p.name not in EVALUATION_ONLY] if code.is_dir() else [code]
    if op != LIBRARY:
        files += [operator_file(op), mutants_file(op)]
    return sorted(set(files))


def key(op: str, versions: dict[str, str], timelimit: float) -> str:
    sha = hashlib.sha256()
    for path in inputs(op):
        content = path.read_bytes() if path.exists() else b"(missing)"
        sha.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + content + b"\0")
    if op != LIBRARY:  # the examples as Why3 states them: the page's, and the reference's special values
        examples = example_run.example_modules(op) or []
        sha.update(example_run.file_text(examples).encode() if examples else b"(no examples)")
    sha.update(json.dumps({"versions": versions, "timelimit": timelimit}, sort_keys=True).encode())
    return sha.hexdigest()


def path_of(op: str) -> Path:
    return PROOFS / f"{op}.json"


def load(op: str, wanted: str) -> dict[str, Any] | None:
    """The recorded result of ``op`` if its key is ``wanted``."""
    path = path_of(op)
    if not path.exists():
        return None
    record = json.loads(path.read_text("utf-8"))
    return record if record.get("key") == wanted else None


def save(op: str, record: dict[str, Any]) -> None:
    PROOFS.mkdir(exist_ok=True)
    path_of(op).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", "utf-8")
