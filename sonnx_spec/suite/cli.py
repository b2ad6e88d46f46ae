"""``sonnx-spec suite export DIR`` and ``sonnx-spec suite run DIR --engine E``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from ..models.progress import progress_line
from ..registry import operators
from . import report
from .errors import SuiteError
from .export import export
from .grade import grade

PASSED, FAILED = 0, 1


def suite_command(arguments: argparse.Namespace, emit: Callable[[str], None]) -> int:
    if arguments.step == "export":
        return _export(arguments, emit)
    return _run(arguments, emit)


def _export(arguments: argparse.Namespace, emit: Callable[[str], None]) -> int:
    selected = None
    if arguments.operators:
        known = {op.onnx.lower(): name for name, op in operators().items()} | {n: n for n in operators()}
        asked = [n.strip() for n in arguments.operators.split(",") if n.strip()]
        unknown = [n for n in asked if n.lower() not in known]
        if unknown:
            raise SuiteError(f"--operators: {', '.join(unknown)} is no operator of the profile")
        selected = {known[n.lower()] for n in asked}
    manifest = export(arguments.folder, selected)
    cases = manifest["cases"]
    refused = sum(c["result"] == "refused" for c in cases)
    digest = manifest["digest"][:16]
    emit(f"{arguments.folder}: {len(cases)} cases ({refused} refused by the profile), digest {digest}")
    return PASSED


def _run(arguments: argparse.Namespace, emit: Callable[[str], None]) -> int:
    with progress_line("cases") as line:
        grades = grade(arguments.folder, arguments.engine, line)
    if arguments.output:
        report.write(grades, arguments.output)
    if arguments.format == "json":
        emit(json.dumps(grades.to_json(), ensure_ascii=False))
    else:
        emit(report.summary(grades).rstrip("\n"))
    return FAILED if grades.count("fail") else PASSED
