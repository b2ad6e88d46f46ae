"""The command line: ``python -m formal.harness`` (``nox -s formal`` runs it).

Exit status: 0 when every goal is proved by the provers it needs (or excused), every deliberate error
is refuted, no module is vacuous, every example agrees and (``--verify``) no committed record claims
more than the fresh proof gives; 1 otherwise; 2 when the proofs cannot run (why3, Z3 or cvc5 missing,
an unknown operator, an unreadable excuses file). A missing tool is an error, in CI as anywhere.

``--verify`` (CI): every record is proved again, cold, and checked against the committed one
(verify.py); the committed records are left as they are, the fresh ones written to build/formal/proofs/.
With ``--since REV``, only the records changed since REV, or no longer matching their inputs, are
(changes.py); the others are reused.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sonnx_spec import operators
from sonnx_spec.requirements import catalogue

from . import cache, changes, run, status, verify
from .allowed import ExcuseError, allowances
from .sources import BUILD, operator_file, read
from .tools import ToolError, Tools, detect

TIMELIMIT = 10.0  # seconds per task and prover: twice the longest proof seen on an idle machine
FRESH = BUILD / "formal" / "proofs"  # where --verify writes the records it proves


def log(message: str) -> None:
    print(message, flush=True)


def record_of(
    op: str, tools: Tools, timelimit: float, replay: bool, folder: Path | None = None
) -> dict[str, Any]:
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
    cache.save(op, record, folder)
    return record


def verified(op: str, tools: Tools, timelimit: float, problems: list[str]) -> dict[str, Any]:
    """The fresh result of ``op``, proved cold; what its committed record claims beyond it: ``problems``."""
    committed = cache.read_record(cache.path_of(op))
    fresh = record_of(op, tools, timelimit, replay=True, folder=FRESH)
    problems += verify.claims_beyond(op, committed, fresh, allowances([op]))
    return fresh


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m formal.harness", description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated operators (default: every registered operator)")
    parser.add_argument("--replay", action="store_true", help="prove everything again, ignoring the records")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="prove everything again and fail where a committed record claims more (CI); records unchanged",
    )
    parser.add_argument(
        "--since",
        metavar="REV",
        help="with --verify: prove again only the records changed since the commit REV, or stale",
    )
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
        excuses = allowances([cache.LIBRARY, *chosen])
        changed = changes.changed_records(args.since, cache.LIBRARY) if args.since else None
    except (ToolError, ExcuseError, changes.ChangesError) as error:
        print(f"formal: error: {error}", file=sys.stderr)
        return 2
    start = time.monotonic()
    problems: dict[str, list[str]] = {}

    def current(op: str) -> bool:
        return cache.load(op, cache.key(op, tools.versions, args.timelimit)) is not None

    def result(op: str) -> dict[str, Any]:
        if args.verify and (changed is None or op in changed or not current(op)):
            return verified(op, tools, args.timelimit, problems.setdefault(op, []))
        return record_of(op, tools, args.timelimit, args.replay)

    present = [op for op in chosen if operator_file(op).exists()]
    files = {op: read(operator_file(op)) for op in present}
    with ThreadPoolExecutor(run.WORKERS) as pool:  # two operators at a time; two provers in all
        futures = {op: pool.submit(result, op) for op in [cache.LIBRARY, *present]}
    records: dict[str, dict[str, Any] | None] = {
        op: futures[op].result() if op in futures else None for op in [cache.LIBRARY, *chosen]
    }
    evaluation = status.evaluate(records, files, catalogue(), excuses)
    evaluation.failures += [p for op in records for p in problems.get(op, [])]
    for op, record in records.items():
        if record is not None and record.get("reused"):
            evaluation.operators[op]["reused"] = True
    data = status.status_json(evaluation, tools.versions, args.timelimit, excuses)
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
