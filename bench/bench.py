"""Speed of the reference against numpy's plain kernels and onnxruntime, for every operator of the registry.

Each operator runs on 10^7 float32 elements (standard normal; bool tensors random;
scalar inputs -0.5, 0.5, …; float attributes 0.5, other attributes (an axis, a mode) those of the
operator's first conformance case; four inputs for a variadic one), or, for an operator whose inputs
place elements (Reshape's shape), the call its conformance module's ``bench_call(X)`` makes of them,
in one process, best of several interleaved repeats. numpy is called as each
operator's conformance module says a developer calls it. The ratio is the
reference's time over numpy's: the reference must stay within 2x (``--limit``), or within the limit its
conformance module sets (``BENCH_LIMIT``: 3x for a correctly rounded function, which numpy's is not), unless
it is within ``FIXED_COST`` of numpy's (an operator whose result is a few elements, Shape's).
onnxruntime's time is shown where it is installed and has the kernel.
"""

from __future__ import annotations

import argparse
import functools
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from sonnx_spec import Operator, operators

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "conformance"))
from operator_cases import cases, modules, numpy_function

N = 10**7


MEASURED = 0.01
"""Seconds a measurement lasts at least: a call shorter than that (Shape's) is timed in a loop of calls, so
that the timer's resolution and one scheduling hiccup do not make its figure."""

FIXED_COST = 1e-4
"""Seconds a call may take beyond numpy's whatever the ratio: the checks every call makes (an input's type,
an attribute) cost some microseconds, which on a result of a few elements is the whole time."""


def best_of(functions: list[Callable[[], object]], repeat: int) -> list[float]:
    """Best time per call of each function, run in turns so that load on the machine hits all alike."""
    numbers = [max(1, int(MEASURED / timeit.timeit(f, number=1))) for f in functions]  # also a warm-up
    times = [
        [timeit.timeit(f, number=n) / n for f, n in zip(functions, numbers, strict=True)]
        for _ in range(repeat)
    ]
    return [min(column) for column in zip(*times, strict=True)]


def bench_type(op: Operator, type_name: str) -> np.dtype:
    """float32 where the tensor may be float32, else its only type (bool)."""
    allowed = op.dtypes(type_name)
    return np.dtype(np.float32) if np.dtype(np.float32) in allowed else allowed[0]


def arguments(op: Operator, rng: np.random.Generator) -> tuple[list[np.ndarray], dict[str, Any]]:
    placing = getattr(modules()[op.name], "bench_call", None)
    if placing is not None:  # the values that place the elements depend on the data: the module's call
        return placing(rng.standard_normal(N).astype(bench_type(op, op.main_type)))

    def tensor(type_name: str, rank: int | None, index: int) -> np.ndarray:
        dtype = bench_type(op, type_name)
        if rank == 0:
            return np.array(-0.5 + index, dtype)
        if dtype == np.bool_:
            return rng.random(N) < 0.5
        return rng.standard_normal(N).astype(dtype)

    args = [tensor(t.type, t.rank, i) for t in op.inputs for i in range(4 if t.variadic else 1)]
    kwargs: dict[str, Any] = {}
    for a in op.attributes:
        if a.kind == "float":
            kwargs[a.name] = 0.5
        elif a.kind == "tensor":
            kwargs[a.name] = tensor(a.type or "", None, 0)
        else:  # an axis, a mode, Cast's to, Mod's fmod: no value fits every operator
            kwargs[a.name] = conformance_attribute(op, a.name)
    return args, kwargs


def conformance_attribute(op: Operator, name: str) -> Any:
    """The attribute ``name`` of the operator's first conformance case that gives it."""
    dtype = bench_type(op, op.main_type)
    given = [case.attributes[name] for case in cases(op.name, dtype) if case.attributes.get(name) is not None]
    if not given:
        raise SystemExit(f"bench: no conformance case of {op.name} gives its attribute {name}")
    return given[0]


def onnxruntime_runner(
    op: Operator, args: list[np.ndarray], kwargs: dict[str, Any]
) -> Callable[[], object] | None:
    try:
        import onnxruntime
        from onnx import helper, numpy_helper
    except ImportError:
        return None
    names = [f"x{m}" for m in range(len(args))]
    outputs = op.results(op.function(*args, **kwargs))  # how many: a variadic output gives several
    attributes = {
        a.onnx: numpy_helper.from_array(kwargs[a.name]) if a.kind == "tensor" else kwargs[a.name]
        for a in op.attributes
    }
    inputs = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(x.dtype), list(x.shape))
        for n, x in zip(names, args, strict=True)
    ]
    declared = [
        helper.make_tensor_value_info(f"y{m}", helper.np_dtype_to_tensor_dtype(y.dtype), None)
        for m, y in enumerate(outputs)
    ]
    graph = helper.make_graph(
        [helper.make_node(op.onnx, names, [y.name for y in declared], **attributes)],
        op.name,
        inputs,
        declared,
    )
    opset = [helper.make_opsetid("", op.version)]
    model = helper.make_model(graph, opset_imports=opset, ir_version=helper.find_min_ir_version_for(opset))
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # one thread, like numpy
    options.log_severity_level = 4
    try:
        session = onnxruntime.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
    except Exception:  # no kernel for this operator and type
        return None
    feed = dict(zip(names, args, strict=True))
    return lambda: session.run(None, feed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--limit", type=float, default=2.0, help="largest acceptable ratio to numpy")
    parser.add_argument("operators", nargs="*", help="the operators to time (default: all)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{N:.0e} float32 elements, best of {args.repeat}")
    print(f"{'operator':<12} {'sonnx_spec':>11} {'numpy':>9} {'÷ numpy':>8} {'onnxruntime':>12} {'÷ ort':>6}")
    over = []
    for op in operators().values():
        if args.operators and op.name not in args.operators:
            continue
        call_args, call_kwargs = arguments(op, rng)
        numpy_kernel = numpy_function(op.name)
        ours = [
            functools.partial(op.function, *call_args, **call_kwargs),
            functools.partial(numpy_kernel, *call_args, **call_kwargs),
        ]
        ort = onnxruntime_runner(op, call_args, call_kwargs)
        with np.errstate(all="ignore"):  # numpy's kernel flags the NaNs (√ of a negative) it computes
            times = best_of(ours + ([ort] if ort else []), args.repeat)
        ratio = times[0] / times[1]
        ort_cells = (f"{times[2] * 1e3:9.2f} ms", f"{times[0] / times[2]:6.2f}") if ort else ("no kernel", "")
        print(
            f"{op.name:<12} {times[0] * 1e3:8.2f} ms {times[1] * 1e3:6.2f} ms {ratio:8.2f} "
            f"{ort_cells[0]:>12} {ort_cells[1]:>6}"
        )
        if (
            ratio > getattr(modules()[op.name], "BENCH_LIMIT", args.limit)
            and times[0] - times[1] > FIXED_COST
        ):
            over.append(op.name)
    print("÷ numpy: the reference's time over numpy's; ÷ ort: the reference's time over onnxruntime's")
    if over:
        print(
            f"over the limit (of {args.limit}x numpy, or the operator's own, and 0.1 ms): {', '.join(over)}"
        )
        return 1
    print(f"all within {args.limit}x numpy, or the operator's own limit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
