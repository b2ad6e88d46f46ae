"""The sample models onnxruntime ships in ``onnxruntime.datasets``: Sigmoid, Mul and a logistic regression
of the iris data (``ai.onnx.ml`` operators, which the profile does not specify)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx

from . import Model
from .rewrite import conforming

SAMPLES = {
    "sigmoid": "Sigmoid of a 3×4×5 tensor (opset 9)",
    "mul_1": "Mul of a 3×2 tensor by a constant tensor (opset 7)",
    "logreg_iris": "a logistic regression of the iris data set (ai.onnx.ml LinearClassifier, Normalizer, "
    "ZipMap)",
}


def build() -> list[Model]:
    import onnxruntime.datasets

    folder = Path(onnxruntime.datasets.__file__).parent
    made = []
    for name, what in SAMPLES.items():
        model = onnx.load(folder / f"{name}.onnx")
        rng = np.random.default_rng(len(name))
        inputs = {
            value.name: rng.uniform(
                -4.0, 4.0, [d.dim_value for d in value.type.tensor_type.shape.dim]
            ).astype(np.float32)
            for value in model.graph.input
        }
        rewritten, changes = conforming(model, 1)
        made.append(
            Model(
                name=f"onnxruntime_{name}",
                title=f"onnxruntime's sample {name}.onnx",
                origin=f"onnxruntime.datasets: {what}",
                model=model,
                inputs=inputs,
                conforming=rewritten if changes else None,
                changes=changes,
            )
        )
    return made
