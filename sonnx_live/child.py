"""One run, in a fresh process: limit it, read the request on stdin, run it, report on a pipe.

Run by path (``python -I child.py RESULT_FD CPU_SECONDS MEMORY_BYTES FILE_BYTES``), so that it
imports nothing but the standard library before its limits are set. What the code prints,
and the value of each expression statement (as at a ``>>>`` prompt), goes to stdout; the
outcome (status, rule id) goes to RESULT_FD as one JSON object.

A request is ``{"python": code}`` or ``{"example": {"operator", "type", "inputs"}}``: the
inputs of an example in the example language of the pages, run for one type.
"""

from __future__ import annotations

import ast
import json
import linecache
import os
import resource
import sys
import traceback
from types import TracebackType
from typing import Any

FILENAME = "<example>"


def limit(cpu_seconds: int, memory_bytes: int, file_bytes: int) -> None:
    """Hard limits too: the code cannot raise them again (unless it runs as root)."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_python(code: str) -> None:
    """Run ``code`` as the prompt would: statement by statement, showing each expression's value."""
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)  # tracebacks quote it
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for statement in ast.parse(code, FILENAME).body:
        if isinstance(statement, ast.Expr):
            sys.displayhook(eval(compile(ast.Expression(statement.value), FILENAME, "eval"), namespace))
        else:
            exec(compile(ast.Module([statement], []), FILENAME, "exec"), namespace)


class Invalid(Exception):
    """The example cannot be written for that type (a value it does not have, a wrong name)."""


def run_example(operator: str, type_name: str, inputs: str) -> None:
    """The operator on the example's inputs for one type; the result as the doctest shows it."""
    import sonnx_spec  # imported once the limits are set, like everything the reader's code imports
    from sonnx_spec.pages import example_language as language

    op = sonnx_spec.operators().get(operator)
    if op is None:
        raise Invalid(f"no operator {operator!r}")
    output = op.outputs[0].name
    # Lines stating a result (Y = …, error = …) are left out: the run says what the result is.
    lines = [
        line
        for line in inputs.splitlines()
        if not ((m := language.LINE.match(line.strip())) and m["name"] in (output, "error"))
    ]
    try:
        example = language.parse_example("live", operator, [type_name], [*lines, f"{output} = None"])
        args, kwargs = example.arguments(language.TYPE_NAMES[type_name])
    except language.ExampleError as error:
        raise Invalid(str(error)) from None
    print(repr(op.function(*args, **kwargs)))


def user_frames(tb: TracebackType | None) -> TracebackType | None:
    """The traceback from the first frame of the reader's code on: this module's frames are noise."""
    while tb is not None and tb.tb_frame.f_code.co_filename != FILENAME:
        tb = tb.tb_next
    return tb


def outcome(error: BaseException) -> dict[str, Any]:
    """Print what went wrong as Python would; the outcome for the page."""
    errors = sys.modules.get("sonnx_spec.errors")
    if errors is not None and isinstance(error, errors.SonnxError):
        print(f"Traceback (most recent call last):\n  ...\nsonnx_spec.errors.SonnxError: {error}")
        rules = sys.modules["sonnx_spec.requirements"]
        return {"status": "refused", "rule": error.req_id, "page": rules.rule(error.req_id).page}
    if isinstance(error, Invalid):
        return {"status": "invalid", "message": str(error)}
    if isinstance(error, MemoryError):
        return {"status": "memory"}
    if isinstance(error, SyntaxError):
        print("".join(traceback.format_exception_only(error)), end="")
    else:
        print(
            "".join(traceback.format_exception(type(error), error, user_frames(error.__traceback__))), end=""
        )
    return {"status": "error"}


def main() -> None:
    result_fd, cpu_seconds, memory_bytes, file_bytes = map(int, sys.argv[1:5])
    limit(cpu_seconds, memory_bytes, file_bytes)
    request = json.loads(sys.stdin.read())
    try:
        if "python" in request:
            run_python(request["python"])
        else:
            example = request["example"]
            run_example(example["operator"], example["type"], example["inputs"])
        result: dict[str, Any] = {"status": "ok"}
    except BaseException as error:
        result = outcome(error)
    sys.stdout.flush()
    os.write(result_fd, json.dumps(result).encode())


if __name__ == "__main__":
    main()
