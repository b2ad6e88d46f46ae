"""scikit-learn models exported by skl2onnx: a multilayer perceptron regressor and classifier and a
linear regression of standardized features, trained here on a small synthetic data set (fixed seeds: the
same weights on every machine)."""

from __future__ import annotations

import numpy as np

from . import MODEL_BENCH_LIMIT, Model
from .rewrite import conforming

BATCH = 16
FEATURES = 4


def data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(2026)
    X = rng.normal(size=(256, FEATURES)).astype(np.float32)
    target = X @ np.array([1.0, -2.0, 0.5, 3.0]) + np.tanh(X[:, 0] * X[:, 1])
    return X, target, (target > 0).astype(np.int64)


def build() -> list[Model]:
    from skl2onnx import to_onnx
    from sklearn.linear_model import LinearRegression
    from sklearn.neural_network import MLPClassifier, MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, target, labels = data()
    inputs = {"X": X[:BATCH]}
    regressor = MLPRegressor(hidden_layer_sizes=(16, 8), max_iter=400, random_state=0).fit(X, target)
    classifier = MLPClassifier(hidden_layer_sizes=(16,), max_iter=400, random_state=0).fit(X, labels)
    linear = make_pipeline(StandardScaler(), LinearRegression()).fit(X, target)
    exported = {
        "regressor": to_onnx(regressor, X[:1], target_opset=18),
        "classifier": to_onnx(
            classifier,
            X[:1],
            target_opset={"": 18, "ai.onnx.ml": 3},
            options={id(classifier): {"zipmap": False}},
        ),
    }
    made = []
    for kind, model in exported.items():
        rewritten, changes = conforming(model, BATCH)
        made.append(
            Model(
                name=f"mlp_{kind}",
                title=f"Multilayer perceptron {kind} (scikit-learn)",
                origin=f"sklearn.neural_network.MLP{kind.title()}, trained here and exported by skl2onnx "
                "(target opset 18); its graph input X has a symbolic batch dimension",
                model=model,
                inputs=inputs,
                conforming=rewritten,
                changes=changes,
                bench_limit=MODEL_BENCH_LIMIT,
            )
        )
    model = to_onnx(linear, X[:1], target_opset={"": 18, "ai.onnx.ml": 3})
    rewritten, changes = conforming(model, BATCH)
    made.append(
        Model(
            name="linear_regression",
            title="Linear regression of standardized features (scikit-learn)",
            origin="sklearn.pipeline of StandardScaler and LinearRegression, trained here and exported by "
            "skl2onnx as ai.onnx.ml's Scaler and LinearRegressor; its graph input X has a symbolic batch "
            "dimension",
            model=model,
            inputs=inputs,
            conforming=rewritten,
            changes=changes,
            bench_limit=MODEL_BENCH_LIMIT,
        )
    )
    return made
