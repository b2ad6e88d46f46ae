"""Speed of the reference against numpy's plain kernels and onnxruntime, side by side.

Each operation runs on 10^7 float32 elements, in one process, best of several
repeats. The ratio is the reference's time over numpy's: the reference must
stay within 2x (``--limit``). onnxruntime's time is shown where it is installed.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Callable

import numpy as np

import sonnx_spec

N = 10**7


def best_of(functions: list[Callable[[], object]], repeat: int) -> list[float]:
    """Best time of each function, run in turns so that load on the machine hits all alike."""
    for f in functions:
        f()  # warm up
    times = [[timeit.timeit(f, number=1) for f in functions] for _ in range(repeat)]
    return [min(column) for column in zip(*times, strict=True)]


def onnxruntime_runner(op: str, inputs: list[np.ndarray]) -> Callable[[], object] | None:
    try:
        import onnxruntime
        from onnx import TensorProto, helper
    except ImportError:
        return None
    names = [f"x{m}" for m in range(len(inputs))]
    node = helper.make_node(op, names, ["y"])
    graph = helper.make_graph(
        [node],
        op,
        [
            helper.make_tensor_value_info(n, TensorProto.FLOAT, list(x.shape))
            for n, x in zip(names, inputs, strict=True)
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8  # onnxruntime reads older IR versions than the newest onnx writes
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # one thread, like numpy
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    feed = dict(zip(names, inputs, strict=True))
    return lambda: session.run(None, feed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--limit", type=float, default=2.0, help="largest acceptable ratio to numpy")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = [rng.standard_normal(N).astype(np.float32) for _ in range(4)]
    low, high = np.float32(-0.5), np.float32(0.5)
    cases = [
        (
            "clip",
            lambda: sonnx_spec.clip(x[0], low, high),
            lambda: np.clip(x[0], low, high),
            onnxruntime_runner("Clip", [x[0], np.array(low), np.array(high)]),
        ),
        ("abs", lambda: sonnx_spec.abs(x[0]), lambda: np.abs(x[0]), onnxruntime_runner("Abs", [x[0]])),
        (
            "max of 4",
            lambda: sonnx_spec.max(*x),
            lambda: np.maximum(np.maximum(np.maximum(x[0], x[1]), x[2]), x[3]),
            onnxruntime_runner("Max", x),
        ),
    ]
    print(f"{N:.0e} float32 elements, best of {args.repeat}; ratio = time / numpy's time")
    print(f"{'operation':<10} {'sonnx_spec':>11} {'numpy':>9} {'ratio':>6} {'onnxruntime':>12} {'ratio':>6}")
    over = []
    for name, ours, numpy_kernel, ort in cases:
        times = best_of([ours, numpy_kernel] + ([ort] if ort else []), args.repeat)
        t_ours, t_numpy = times[0], times[1]
        ratio = t_ours / t_numpy
        ort_cells = ("not installed", "")
        if ort is not None:
            ort_cells = (f"{times[2] * 1e3:9.2f} ms", f"{t_ours / times[2]:6.2f}")
        print(
            f"{name:<10} {t_ours * 1e3:8.2f} ms {t_numpy * 1e3:6.2f} ms {ratio:6.2f} "
            f"{ort_cells[0]:>12} {ort_cells[1]:>6}"
        )
        if ratio > args.limit:
            over.append(name)
    if over:
        print(f"over the limit of {args.limit}x numpy: {', '.join(over)}")
        return 1
    print(f"all within {args.limit}x numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
