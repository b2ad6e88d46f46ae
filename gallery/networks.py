"""Networks written with onnx.helper in the shape of the profile's use cases
(``upstream/requirements/scope.md``): a small convolutional classifier (Conv, Relu, MaxPool, Flatten, Gemm,
Softmax) and a fully connected network of small dimensions (the "Helicopters" and "classic inference
layer" cases: Gemm, Tanh, Sigmoid, Softmax). Every attribute is written, every shape is fixed, the weights
come from a seeded generator: they are written to conform, but for the CNN's Gemm, which reads its
weights transposed as PyTorch's exports do (its conforming version stores them transposed), and
``sonnx-spec check`` says what the profile still lacks for them."""

from __future__ import annotations

import itertools

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from . import MODEL_BENCH_LIMIT, Model
from .rewrite import conforming, profile_opset

F32 = TensorProto.FLOAT


def build() -> list[Model]:
    return [small_cnn(), fully_connected()]


def _model(
    name: str, nodes: list, inputs: list, outputs: list, weights: dict[str, np.ndarray]
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes, name, inputs, outputs, initializer=[numpy_helper.from_array(v, k) for k, v in weights.items()]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    profile_opset(model)  # the opset in which every node is the profile's version, where there is one
    return model


def small_cnn() -> Model:
    rng = np.random.default_rng(7)
    weights = {
        "conv_w": rng.normal(0.0, 0.5, (4, 1, 3, 3)).astype(np.float32),
        "conv_b": rng.normal(0.0, 0.1, (4,)).astype(np.float32),
        "fc_w": rng.normal(0.0, 0.2, (10, 64)).astype(np.float32),
        "fc_b": rng.normal(0.0, 0.1, (1, 10)).astype(np.float32),
    }
    nodes = [
        helper.make_node(
            "Conv",
            ["image", "conv_w", "conv_b"],
            ["features"],
            name="conv",
            auto_pad="NOTSET",
            dilations=[1, 1],
            group=1,
            kernel_shape=[3, 3],
            pads=[1, 1, 1, 1],
            strides=[1, 1],
        ),
        helper.make_node("Relu", ["features"], ["active"], name="relu"),
        helper.make_node(
            "MaxPool",
            ["active"],
            ["pooled"],
            name="pool",
            auto_pad="NOTSET",
            ceil_mode=0,
            dilations=[1, 1],
            kernel_shape=[2, 2],
            pads=[0, 0, 0, 0],
            storage_order=0,
            strides=[2, 2],
        ),
        helper.make_node("Flatten", ["pooled"], ["flat"], name="flatten", axis=1),
        helper.make_node(
            "Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", alpha=1.0, beta=1.0, transA=0, transB=1
        ),
        helper.make_node("Softmax", ["logits"], ["probabilities"], name="softmax", axis=1),
    ]
    model = _model(
        "small_cnn",
        nodes,
        [helper.make_tensor_value_info("image", F32, [1, 1, 8, 8])],
        [helper.make_tensor_value_info("probabilities", F32, [1, 10])],
        weights,
    )
    image = np.random.default_rng(8).uniform(0.0, 1.0, (1, 1, 8, 8)).astype(np.float32)
    rewritten, changes = conforming(model, 1)  # its Gemm reads fc_w transposed, as PyTorch's Linear does
    return Model(
        "small_cnn",
        "A small convolutional classifier",
        "onnx.helper: an 8×8 image, Conv 3×3 (4 filters), Relu, MaxPool 2×2, Flatten, Gemm to 10 classes, "
        "Softmax",
        model,
        {"image": image},
        rewritten,
        changes,
        bench_limit=MODEL_BENCH_LIMIT,
    )


def fully_connected() -> Model:
    rng = np.random.default_rng(11)
    sizes = [5, 32, 32, 3]
    weights = {}
    for layer, (n, m) in enumerate(itertools.pairwise(sizes)):
        weights[f"w{layer}"] = rng.normal(0.0, 1.0 / np.sqrt(n), (n, m)).astype(np.float32)
        weights[f"b{layer}"] = rng.normal(0.0, 0.1, (1, m)).astype(np.float32)
    activations = ["Tanh", "Sigmoid", "Softmax"]
    nodes, previous = [], "state"
    for layer, activation in enumerate(activations):
        nodes.append(
            helper.make_node(
                "Gemm",
                [previous, f"w{layer}", f"b{layer}"],
                [f"z{layer}"],
                name=f"dense{layer}",
                alpha=1.0,
                beta=1.0,
                transA=0,
                transB=0,
            )
        )
        out = "command" if layer == len(activations) - 1 else f"h{layer}"
        extra = {"axis": 1} if activation == "Softmax" else {}
        nodes.append(
            helper.make_node(activation, [f"z{layer}"], [out], name=activation.lower() + str(layer), **extra)
        )
        previous = out
    model = _model(
        "fully_connected",
        nodes,
        [helper.make_tensor_value_info("state", F32, [1, 5])],
        [helper.make_tensor_value_info("command", F32, [1, 3])],
        weights,
    )
    state = np.random.default_rng(12).uniform(-1.0, 1.0, (1, 5)).astype(np.float32)
    return Model(
        "fully_connected",
        "A fully connected network of small dimensions",
        "onnx.helper: 5 inputs, two hidden layers of 32 (Gemm, Tanh; Gemm, Sigmoid), 3 outputs "
        "(Gemm, Softmax)",
        model,
        {"state": state},
    )
