"""The ``sonnx-spec`` command: check, run and compare ONNX models against the profile.

Exit status: 0 the model is in the profile (check), ran (run), agrees bit for bit
(compare); 1 it is not, was refused, or differs; 2 a file cannot be read as a model
or as inputs, or a tool the command needs is missing. Errors are one clear line on
standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import zipfile
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .. import __version__
from ..errors import SonnxError
from ..suite.errors import SuiteError
from .findings import ModelRefused, ModelUnreadable, Report
from .load import require_onnx
from .progress import progress_line

if TYPE_CHECKING:
    import onnx

IN_PROFILE, NOT_IN_PROFILE, UNREADABLE = 0, 1, 2
SITE_VARIABLE = "SONNX_SPEC_SITE"


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="sonnx-spec",
        description="Check, run and compare ONNX models against the SONNX profile.",
        epilog="Exit status: 0 in the profile / ran / agree; 1 not in the profile / refused / differ; "
        "2 the model or the inputs cannot be read.",
    )
    main.add_argument("--version", action="version", version=f"sonnx-spec {__version__}")
    commands = main.add_subparsers(dest="command", required=True, metavar="{check,run,compare,suite}")
    site = {
        "default": os.environ.get(SITE_VARIABLE, ""),
        "help": f"the specification site's address, to make links absolute (default: ${SITE_VARIABLE})",
    }

    check = commands.add_parser(
        "check", help="is the model in the SONNX profile? which node breaks which rule?"
    )
    check.add_argument("model", help="the ONNX model file")
    check.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    check.add_argument("--site", **site)

    run = commands.add_parser("run", help="the model's outputs, computed by the reference operators")
    run.add_argument("model")
    run.add_argument("--inputs", required=True, help="a .npz file: one array per graph input, by name")
    run.add_argument("--output", help="write the outputs to this .npz file")
    run.add_argument("--format", choices=("text", "json"), default="text")
    run.add_argument("--site", **site)

    compare = commands.add_parser("compare", help="the reference's outputs against an engine's, bit for bit")
    compare.add_argument("model")
    compare.add_argument("--inputs", required=True, help="a .npz file: one array per graph input, by name")
    compare.add_argument("--engine", choices=("onnxruntime", "onnx-reference"), default="onnxruntime")
    compare.add_argument(
        "--by-node",
        action="store_true",
        help="judge each node alone, on the reference's values, by its operator's accuracy rule",
    )
    compare.add_argument("--format", choices=("text", "json"), default="text")
    compare.add_argument("--site", **site)

    suite = commands.add_parser("suite", help="the conformance suite: export it, or grade an engine with it")
    steps = suite.add_subparsers(dest="step", required=True, metavar="{export,run}")
    export = steps.add_parser("export", help="write every case as ONNX backend tests into a new folder")
    export.add_argument("folder")
    export.add_argument("--operators", help="comma-separated operators (default: all)")
    grade = steps.add_parser("run", help="grade an engine on an exported suite")
    grade.add_argument("folder")
    grade.add_argument(
        "--engine",
        required=True,
        help="onnxruntime, onnx-reference, reference, or a module (dotted name or .py file) "
        "with prepare(model_bytes) and run(session, inputs)",
    )
    grade.add_argument("--output", help="write grades.json, junit.xml and summary.md into this folder")
    grade.add_argument("--format", choices=("text", "json"), default="text")
    return main


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    try:
        require_onnx()
    except ImportError as error:
        print(f"sonnx-spec: {error}", file=sys.stderr)
        return UNREADABLE
    try:
        return COMMANDS[arguments.command](arguments)
    except (ModelUnreadable, SuiteError) as error:
        print(f"sonnx-spec: {error}", file=sys.stderr)
        return UNREADABLE
    except ModelRefused as refused:
        refused.report.source = arguments.model  # run and compare pass the model they read
        emit(_check_output(refused.report, arguments))
        return NOT_IN_PROFILE
    except SonnxError as error:  # MODEL_E1, or an operator refusing its inputs while the model runs
        if arguments.format == "json":
            emit(json.dumps({"rule": error.req_id, "message": str(error)}, ensure_ascii=False))
        else:
            emit(f"sonnx-spec: refused: {error}")
        return NOT_IN_PROFILE
    except Exception as error:  # a bug of the tool: one line saying so, not a traceback
        print(
            f"sonnx-spec: internal error ({type(error).__name__}: {error}); please report it", file=sys.stderr
        )
        return UNREADABLE


def emit(text: str) -> None:
    """Print a report; a reader that stops early (``| head``) is not an error of the model."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python flushes stdout at exit


def _check(arguments: argparse.Namespace) -> int:
    from .check import check_model

    report = check_model(arguments.model)
    emit(_check_output(report, arguments))
    return IN_PROFILE if report.in_profile else NOT_IN_PROFILE


def _run(arguments: argparse.Namespace) -> int:
    from .formats import outputs_json, outputs_text
    from .load import load_model
    from .run import run_model

    model, _ = load_model(arguments.model)
    with progress_line("nodes") as line:
        outputs = run_model(model, read_inputs(arguments.inputs, model), line)
    if arguments.output:
        np.savez(arguments.output, **outputs)
    emit(outputs_json(outputs) if arguments.format == "json" else outputs_text(outputs))
    return 0


def _compare(arguments: argparse.Namespace) -> int:
    from .compare import compare_model
    from .formats import comparison_json, comparison_text
    from .load import load_model

    model, name = load_model(arguments.model)
    if arguments.by_node:
        return _compare_nodes(model, name, arguments)
    comparison = compare_model(model, read_inputs(arguments.inputs, model), arguments.engine)
    comparison.source = name
    emit(comparison_json(comparison) if arguments.format == "json" else comparison_text(comparison))
    return 0 if comparison.agree else NOT_IN_PROFILE


def _compare_nodes(model: onnx.ModelProto, name: str, arguments: argparse.Namespace) -> int:
    from .by_node import compare_nodes
    from .formats import node_comparison_json, node_comparison_text

    with progress_line("node steps") as line:
        inputs = read_inputs(arguments.inputs, model)
        comparison = compare_nodes(model, inputs, arguments.engine, progress=line)
    comparison.source = name
    emit(node_comparison_json(comparison) if arguments.format == "json" else node_comparison_text(comparison))
    return 0 if comparison.conforms else NOT_IN_PROFILE


def _suite(arguments: argparse.Namespace) -> int:
    from ..suite.cli import suite_command

    return suite_command(arguments, emit)


COMMANDS = {"check": _check, "run": _run, "compare": _compare, "suite": _suite}


def _check_output(report: Report, arguments: argparse.Namespace) -> str:
    from .formats import check_json, check_sarif, check_text

    formats = {"text": check_text, "json": check_json, "sarif": check_sarif}
    return formats[getattr(arguments, "format", "text")](report, arguments.site)


def read_inputs(path: str, model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """The arrays of a .npz file, by name. numpy saves a bfloat16 array as raw 2-byte records: such an
    array is read as the type the model declares for that input."""
    from onnx import helper

    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ModelUnreadable(f"{path}: cannot be read as a .npz file of inputs ({error})") from None
    except (AttributeError, TypeError):  # np.load gave a single array (a .npy file), not a context manager
        raise ModelUnreadable(
            f"{path}: a .npy file; give the inputs as a .npz file, one array per name"
        ) from None
    declared = {v.name: v.type.tensor_type.elem_type for v in model.graph.input}
    for name, array in arrays.items():
        if array.dtype.kind == "V" and declared.get(name):
            dtype = np.dtype(helper.tensor_dtype_to_np_dtype(declared[name]))
            if dtype.itemsize == array.dtype.itemsize:
                arrays[name] = array.view(dtype)
    return arrays
