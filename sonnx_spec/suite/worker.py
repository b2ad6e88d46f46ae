"""The process an engine runs in while it is graded: a crash (onnxruntime's SIGFPE on an integer division
by zero) ends this process, not the grading, and fails the case that caused it.

``python -m sonnx_spec.suite.worker ENGINE SUITE``: first line out, the engine's name and version as JSON
(or ``{"error": …}``); then, for each case name read on stdin, one JSON line: its outcome and detail.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

from ..accuracy import step_distance
from ..compare import same_result
from ..models.values import exact_array
from .engines import Engine, load_engine
from .errors import SuiteError


def read_case(root: Path, name: str) -> tuple[bytes, dict[str, np.ndarray], np.ndarray | None, dict]:
    """The model, the inputs by name, the expected output (None: refused) and the case's manifest, read
    from the suite folder ``root`` (resolved) and from nowhere else."""
    where = root / "node" / name
    from onnx import TensorProto, numpy_helper

    def read(path: Path) -> bytes:
        if not path.resolve().is_relative_to(root):  # a link out of the suite: not what the user named
            raise SuiteError(f"{path}: leads out of the suite folder; not read")
        return path.read_bytes()

    def tensor(path: Path) -> tuple[str, np.ndarray]:
        proto = TensorProto()
        proto.ParseFromString(read(path))
        return proto.name, numpy_helper.to_array(proto)

    try:
        manifest = json.loads(read(where / "manifest.json").decode("utf-8"))
        data = where / "test_data_set_0"
        count = len(list(data.glob("input_*.pb")))
        inputs = dict(tensor(data / f"input_{i}.pb") for i in range(count))
        expected = tensor(data / "output_0.pb")[1] if manifest["result"] != "refused" else None
        return read(where / "model.onnx"), inputs, expected, manifest
    except (OSError, ValueError, KeyError) as error:
        raise SuiteError(f"{where}: the case's files cannot be read ({error})") from None


def grade_case(engine: Engine, root: Path, name: str) -> tuple[str, str]:
    model, inputs, expected, manifest = read_case(root, name)
    rule = manifest.get("rule", "")
    try:
        session = engine.module.prepare(model)
    except Exception as error:  # no kernel for the operator or the type: the engine's limit, not a fault
        return "unsupported", one_line(error)
    try:
        outputs = engine.module.run(session, inputs)
        actual = np.asarray(outputs[0])
    except Exception as error:  # the engine refuses the inputs
        if expected is None:
            return "pass", f"refused, as {rule} requires: {one_line(error)}"
        return "fail", f"refused inputs the profile accepts: {one_line(error)}"
    if expected is None:
        return "fail", f"gave {exact_array(actual)}; the profile refuses these inputs ({rule})"
    if same_result(actual, expected):
        return "pass", ""
    bound = manifest.get("bound") if manifest["result"] == "bounded" else None
    if bound and within(actual, expected, int(bound["steps"])):
        return (
            "pass",
            f"within {bound['rule']}: gave {exact_array(actual)}, correctly rounded {exact_array(expected)}",
        )
    return (
        "fail",
        f"gave {actual.dtype} {exact_array(actual)}, expected {expected.dtype} {exact_array(expected)}",
    )


def within(actual: np.ndarray, expected: np.ndarray, steps: int) -> bool:
    """Of the expected type and shape, each element at most ``steps`` values of the type from the expected
    one (−0 one step from +0; a NaN only where a NaN is expected)."""
    if actual.dtype != expected.dtype or actual.shape != expected.shape:
        return False
    return bool(np.all(step_distance(actual, expected) <= steps))


def one_line(error: BaseException) -> str:
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= 300 else text[:299] + "…"


def main(engine_name: str, suite: str) -> None:
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # what the engine prints goes to stderr, not here
    sys.stdout = sys.stderr

    def say(message: dict) -> None:
        print(json.dumps(message), file=protocol, flush=True)

    try:
        engine = load_engine(engine_name)
    except SuiteError as error:
        say({"error": str(error)})
        return
    say({"engine": engine.name, "version": engine.version})
    for line in sys.stdin:
        try:
            outcome, detail = grade_case(engine, Path(suite).resolve(), line.strip())
        except SuiteError as error:
            say({"error": str(error)})
            return
        say({"outcome": outcome, "detail": detail})


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
