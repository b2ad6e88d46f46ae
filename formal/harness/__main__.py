"""The command line: ``python -m formal.harness`` (``nox -s formal`` runs it).

Exit status: 0 when every goal is proved by both provers (or allowed), every deliberate error is
refuted, no module is vacuous and every example agrees; 1 otherwise; 2 when the proofs cannot run
(why3, Z3 or cvc5 missing, an unknown operator). A missing tool is an error, in CI as anywhere.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from sonnx_spec import operators
from sonnx_spec.requirements import catalogue

from . import cache, run, status
from .allowed import allowances
from .sources import BUILD, operator_file, read
from .tools import ToolError, Tools, detect

TIMELIMIT = 5.0


def log(message: str) -> None:
    print(message, flush=True)


def record_of(op: str, tools: Tools, timelimit: float, replay: bool) -> dict[str, Any]:
    """The result of ``op`` (or of the shared theories): the recorded one if its inputs did not change."""
    key = cache.key(op, tools.versions, timelimit)
    recorded = None if replay else cache.load(op, key)
    if recorded is not None:
        return {**recorded, "reused": True}
    log(f"{op}: proving…")
    if op == cache.LIBRARY:
        record = run.prove_library(tools, timelimit)
    else:
        record = run.prove_operator(op, tools, timelimit, log)
    record.update(key=key, versions=tools.versions, timelimit=timelimit)
    cache.save(op, record)
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m formal.harness", description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated operators (default: every registered operator)")
    parser.add_argument("--replay", action="store_true", help="prove everything again, ignoring the records")
    parser.add_argument(
        "--status", default=str(BUILD / "formal-status.json"), help="the status file to write"
    )
    parser.add_argument("--timelimit", type=float, default=TIMELIMIT, help="seconds per task and prover")
    args = parser.parse_args(argv)
    names = list(operators())
    chosen = names if not args.only else [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in chosen if n not in names]
    if unknown:
        print(
            f"formal: error: unknown operators {', '.join(unknown)} (known: {', '.join(names)})",
            file=sys.stderr,
        )
        return 2
    try:
        tools = detect()
    except ToolError as error:
        print(f"formal: error: {error}", file=sys.stderr)
        return 2
    start = time.monotonic()
    records: dict[str, dict[str, Any] | None] = {
        cache.LIBRARY: record_of(cache.LIBRARY, tools, args.timelimit, args.replay)
    }
    files = {}
    for op in chosen:
        if not operator_file(op).exists():
            records[op] = None
            continue
        files[op] = read(operator_file(op))
        records[op] = record_of(op, tools, args.timelimit, args.replay)
    evaluation = status.evaluate(records, files, catalogue(), allowances())
    for op, record in records.items():
        if record is not None and record.get("reused"):
            evaluation.operators[op]["reused"] = True
    data = status.status_json(evaluation, tools.versions, args.timelimit, allowances())
    for entry in data["operators"].values():
        entry.pop("reused", None)  # the same file whether the results were reused or not
    status.write(Path(args.status), data)
    for failure in evaluation.failures:
        print(f"formal: error: {failure}", file=sys.stderr)
    lines = status.summary(evaluation)
    for line in lines[:-1]:
        log(line)
    log(f"{lines[-1]} ({time.monotonic() - start:.0f} s)")
    return 1 if evaluation.failures else 0


if __name__ == "__main__":
    sys.exit(main())
