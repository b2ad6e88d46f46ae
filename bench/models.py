"""Speed of ``sonnx-spec run`` against onnxruntime on the models gallery's models that the profile runs.

For each model of ``gallery/`` in the profile (or whose conforming version is): the reference's
``run_model``, the model's check included as ``sonnx-spec run`` does it, against onnxruntime's
``session.run`` (one thread, the session made once) and against the ONNX reference evaluator (a Python
peer, made once), on the gallery's inputs, best of several runs. A model that states a ``bench_limit`` fails
the bench above it; the others (onnxruntime's one-node samples, where the check of the model is the whole
time) are shown.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # gallery/: tooling beside the package
import gallery
from bench import best_of  # bench/bench.py, beside this script
from sonnx_spec import check_model, run_model


def times(model: onnx.ModelProto, inputs: dict[str, np.ndarray], repeat: int) -> tuple[float, float, float]:
    """Seconds per run of the reference, of onnxruntime and of the ONNX reference evaluator."""
    import onnxruntime
    from onnx.reference import ReferenceEvaluator

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # one thread, like the reference
    options.log_severity_level = 4
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    evaluator = ReferenceEvaluator(model)
    ours, theirs, peer = best_of(
        [
            lambda: run_model(model, inputs),
            lambda: session.run(None, inputs),
            lambda: evaluator.run(None, inputs),
        ],
        repeat,
    )
    return ours, theirs, peer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's convergence notices
        made = gallery.models()
    header = f"{'model':<26} {'sonnx-spec run':>15} {'onnxruntime':>12} {'ratio':>6}"
    print(f"{header} {'onnx.reference':>15} {'ratio':>6}")
    over = []
    for model in made:
        target = model.model if check_model(model.model).in_profile else model.conforming
        if target is None or not check_model(target).in_profile:
            print(f"{model.name:<26} not in the profile yet")
            continue
        ours, theirs, peer = times(target, model.inputs, args.repeat)
        print(
            f"{model.name:<26} {ours * 1e3:12.2f} ms {theirs * 1e3:9.3f} ms {ours / theirs:6.1f} "
            f"{peer * 1e3:12.3f} ms {ours / peer:6.1f}"
        )
        if model.bench_limit is not None and ours / theirs > model.bench_limit:
            over.append(f"{model.name} (limit {model.bench_limit}x)")
    print("ratio: the reference's whole run (the model's check included) over onnxruntime's session.run,")
    print("and over the ONNX reference evaluator's run")
    if over:
        print(f"over their limit: {', '.join(over)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
