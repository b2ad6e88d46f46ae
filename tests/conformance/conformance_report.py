"""What the conformance tests record, and the JSON report the site's conformance page is built from.

The tests hand their outcomes to a :class:`Recorder`; at the end of the session
``conftest.py`` writes :func:`report` to ``build/conformance.json``. The report
depends on the sources and the installed versions only: keys are sorted, lists
are in a fixed order (types and topics in the spec's order, cases by topic then
name, backend cases by name), values are strings, and there is no timestamp.

Format ``FORMAT``::

    format               int
    versions             {package: version}: numpy, ml_dtypes, onnx, onnxruntime, sonnx_spec
    engines              [{name, title, version}], in the order of the page's columns
    types, topics        [str], in the spec's order
    families             {int, float: [type]}
    operators.<op>       for every operator of the registry:
      onnx               {op_type, version}: the ONNX operator the one-node models use
      types              [str]: the types it was run on
      matrix             {type: {engine: {agrees, differs, unsupported}}}: numbers of cases
      totals             {engine: {agrees, differs, unsupported}}
      cases              [{name, topic, types}]: what was run
      divergences        [{case, topic, types, inputs, attributes, spec, engines, rule, reason, explained}]
      unsupported        [{engine, message, types, cases: {type: number of cases}}]
      backend            [{name, outcome, rule, reason, spec: {status, rule}, detail}]
      backend_totals     {pass, expected divergence, unexpected divergence}

A tensor is ``{shape, values}``: ``values`` nested like the tensor, each element
a string ("-0.0", "nan", "-128"); it has a ``dtype`` only where that is not the
type of the case. A tensor of more than ``SHOWN`` elements is abridged: ``values``
holds its first and ``last`` its last elements in row-major order, flat, and
``abridged`` is true (one case of Range has 2^23 elements: written out whole, it
made the report 570 MB and the site's build half an hour). ``inputs`` is
``[{name, value}]`` with ``value`` null for an omitted input. A result is
``{status: "output", output}``, ``{status: "refused", rule}`` for the spec,
``{status: "refused" | "unsupported", message}`` for an engine; in a
divergence each engine's result also has its ``verdict``. A divergence lists the
types where it reads the same (same values, same outputs).
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import ml_dtypes
import numpy as np
from onnx_engines import ENGINES, VERSIONS, Result
from operator_cases import Case, topics

import sonnx_spec
from sonnx_spec import FAMILIES, INT_TYPES, TYPES, Operator, operators

FORMAT = 3
SHOWN = 16  # elements of a tensor written out; a larger one is abridged to its ends
VERDICTS = ("agrees", "differs", "unsupported")
BACKEND_OUTCOMES = ("pass", "expected divergence", "unexpected divergence")

Verdict = Literal["agrees", "differs", "unsupported"]
Json = dict[str, Any]


@dataclass(frozen=True)
class CaseOutcome:
    """One differential case run by one engine, compared with the spec."""

    case: Case
    dtype: np.dtype
    spec: Result
    result: Result
    verdict: Verdict
    rule: str | None = None  # for a divergence: the rule its explanation cites; None if unexplained
    reason: str | None = None


@dataclass(frozen=True)
class BackendOutcome:
    """One ONNX backend node case run by the spec."""

    name: str
    op: str
    outcome: Literal["pass", "expected divergence", "unexpected divergence"]
    rule: str
    spec: Result
    reason: str | None = None
    detail: str = ""  # for an unexpected divergence: what happened instead


@dataclass
class Recorder:
    differential: dict[tuple[str, str, str], list[CaseOutcome]] = field(default_factory=dict)
    backend: dict[str, BackendOutcome] = field(default_factory=dict)

    def add_differential(self, op: str, dtype: np.dtype, engine: str, outcomes: list[CaseOutcome]) -> None:
        self.differential[(op, np.dtype(dtype).name, engine)] = outcomes

    def add_backend(self, outcome: BackendOutcome) -> None:
        self.backend[outcome.name] = outcome

    def merge(self, other: Recorder) -> None:
        """Add what another process (a pytest-xdist worker) recorded."""
        self.differential.update(other.differential)
        self.backend.update(other.backend)

    def missing(self, backend_names: set[str]) -> int:
        """How many conformance tests recorded nothing (deselected, or not reached)."""
        runs = {(op.name, t.name, e.name) for op in operators().values() for t in _types(op) for e in ENGINES}
        return len(runs - set(self.differential)) + len(backend_names - set(self.backend))


REPORT = "build/conformance.json"  # relative to the repository root, where the site reads it


def conclude(recorder: Recorder, root: Path) -> str:
    """Write the report if every conformance test recorded its outcome; say what was done."""
    from backend_cases import backend_cases  # cached: it costs nothing once a backend test ran

    if not recorder.backend or recorder.missing({case.name for case in backend_cases()}):
        return f"{REPORT} not written: not every conformance test ran"
    write(report(recorder), root / REPORT)
    return f"conformance report written to {REPORT}"


def write(content: Json, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(content, sort_keys=True, indent=1, ensure_ascii=False) + "\n", "utf-8")
    os.replace(partial, path)  # a reader never sees half a report


def report(recorder: Recorder) -> Json:
    versions = {
        "numpy": np.__version__,
        "ml_dtypes": ml_dtypes.__version__,
        "sonnx_spec": sonnx_spec.__version__,
    }
    return {
        "format": FORMAT,
        "versions": versions | VERSIONS,
        "engines": [{"name": e.name, "title": e.title, "version": e.version} for e in ENGINES],
        "types": [t.name for t in TYPES],
        "families": {family: [t.name for t in members] for family, members in FAMILIES.items()},
        "topics": list(topics()),
        "operators": {op.name: _operator(recorder, op) for op in operators().values()},
    }


# One list of outcomes per type, each list holding one tuple per case: the engines' outcomes.
_Runs = dict[str, list[tuple[CaseOutcome, ...]]]


def _types(op: Operator) -> tuple[np.dtype, ...]:
    return op.dtypes(op.main_type)


def _operator(recorder: Recorder, spec: Operator) -> Json:
    op = spec.name
    runs: _Runs = {
        t.name: list(
            zip(*(recorder.differential.get((op, t.name, e.name), []) for e in ENGINES), strict=True)
        )
        for t in _types(spec)
    }
    backend = sorted((b for b in recorder.backend.values() if b.op == op), key=lambda b: b.name)
    return {
        "onnx": {"op_type": spec.onnx, "version": spec.version},
        "types": [t.name for t in _types(spec)],
        "matrix": {t: _counts(runs[t]) for t in runs},
        "totals": _counts(row for t in runs for row in runs[t]),
        "cases": _cases(runs),
        "divergences": _divergences(runs),
        "unsupported": _unsupported(runs),
        "backend": [_backend(b) for b in backend],
        "backend_totals": {k: sum(b.outcome == k for b in backend) for k in BACKEND_OUTCOMES},
    }


def _counts(rows: Iterable[tuple[CaseOutcome, ...]]) -> Json:
    counts = {e.name: Counter[str]() for e in ENGINES}
    for row in rows:
        for engine, outcome in zip(ENGINES, row, strict=True):
            counts[engine.name][outcome.verdict] += 1
    return {engine: {v: counter[v] for v in VERDICTS} for engine, counter in counts.items()}


def _order(case: Case) -> tuple[int, str]:
    return topics().index(case.topic), case.name


def _merge(entries: Iterable[tuple[tuple[int, str], str, Json]]) -> list[Json]:
    """Entries that read the same for several types, as one entry listing those types."""
    merged: dict[str, tuple[tuple[int, str], Json]] = {}
    for order, type_name, entry in entries:
        key = json.dumps(entry, sort_keys=True)
        merged.setdefault(key, (order, entry | {"types": []}))[1]["types"].append(type_name)
    return [entry for _, entry in sorted(merged.values(), key=lambda item: (item[0], _first_type(item[1])))]


def _first_type(entry: Json) -> int:
    """The place of an entry's first type: the families' order, bool (Not, Identity) after the twelve."""
    return [t.name for members in FAMILIES.values() for t in members].index(entry["types"][0])


def _cases(runs: _Runs) -> list[Json]:
    return _merge(
        (_order(row[0].case), t, {"name": row[0].case.name, "topic": row[0].case.topic})
        for t in runs
        for row in runs[t]
    )


def _divergences(runs: _Runs) -> list[Json]:
    entries = []
    for t, rows in runs.items():
        for row in rows:
            differing = [o for o in row if o.verdict == "differs"]
            if not differing:
                continue
            first = row[0]
            entry = {
                "case": first.case.name,
                "topic": first.case.topic,
                "inputs": [
                    {"name": name, "value": None if value is None else _tensor(value, first.dtype)}
                    for name, value in zip(first.case.input_names, first.case.inputs, strict=True)
                ],
                "attributes": {
                    name: _tensor(np.asarray(value), first.dtype)
                    for name, value in first.case.attributes.items()
                },
                "spec": _result(first.spec, first.dtype, spec=True),
                "engines": {
                    e.name: _result(o.result, o.dtype) | {"verdict": o.verdict}
                    for e, o in zip(ENGINES, row, strict=True)
                },
                "rule": differing[0].rule,
                "reason": differing[0].reason,
                "explained": all(o.rule is not None for o in differing),
            }
            entries.append((_order(first.case), t, entry))
    return _merge(entries)


def _unsupported(runs: _Runs) -> list[Json]:
    """Per engine and message: the types, each with the number of its cases the engine could not run."""
    groups: dict[tuple[str, str], Json] = {}
    for t, rows in runs.items():  # in the spec's order of types
        for row in rows:
            for engine, outcome in zip(ENGINES, row, strict=True):
                if outcome.verdict == "unsupported":
                    key = (engine.name, outcome.result.message)
                    group = groups.setdefault(
                        key, {"engine": key[0], "message": key[1], "types": [], "cases": {}}
                    )
                    if t not in group["cases"]:
                        group["types"].append(t)
                    group["cases"][t] = group["cases"].get(t, 0) + 1
    engines = [e.name for e in ENGINES]
    return sorted(groups.values(), key=lambda g: (engines.index(g["engine"]), _first_type(g), g["message"]))


def _backend(outcome: BackendOutcome) -> Json:
    return {
        "name": outcome.name,
        "outcome": outcome.outcome,
        "rule": outcome.rule,
        "reason": outcome.reason,
        "spec": {"status": outcome.spec.status, "rule": outcome.spec.message or None},
        "detail": outcome.detail,
    }


def _result(result: Result, dtype: np.dtype, spec: bool = False) -> Json:
    if result.status == "output":
        assert result.output is not None
        return {"status": "output", "output": _tensor(result.output, dtype)}
    return {"status": result.status, "rule" if spec else "message": result.message}


def _tensor(array: np.ndarray, dtype: np.dtype) -> Json:
    tensor: Json = {"shape": list(array.shape)}
    if array.size > SHOWN:
        flat = array.reshape(-1)
        ends = SHOWN // 4
        tensor |= {
            "values": _values(flat[: SHOWN - ends]),
            "last": _values(flat[-ends:]),
            "abridged": True,
        }
    else:
        tensor["values"] = _values(array)
    if array.dtype != dtype:
        tensor["dtype"] = array.dtype.name
    return tensor


def _values(array: np.ndarray) -> Any:
    if array.ndim:
        return [_values(sub) for sub in array]
    return _text(array[()])


def _text(value: np.generic) -> str:
    """The exact value of one element, as text; NaN's sign and payload are not shown (nor compared)."""
    if value.dtype in INT_TYPES:
        return str(int(value))
    if value.dtype == np.bool_:
        return "true" if value else "false"
    if value.dtype.kind == "U":  # a string attribute's value (Pad's mode)
        return str(value)
    number = float(value)  # exact: every SONNX float is a float64
    if math.isnan(number):
        return "nan"
    return repr(number)  # "-0.0", "inf", "1.5", "5.960464477539063e-08"
