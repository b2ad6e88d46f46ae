"""The models gallery (gallery/): its conforming rewrite changes a model's form and never what it computes,
and each model is checked, run and judged as the site's page says.

What a model computes is asked of onnxruntime, not of the reference: the original and the conforming
version must give the same bits there, which holds whatever the profile specifies yet. Where the reference
runs a model, its outputs are compared with what scikit-learn itself predicts in float64.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from graphs import make_model, value_info
from onnx import helper

from sonnx_spec import check_model
from sonnx_spec.models.compare import engine_runner

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # gallery/: tooling beside the package
import gallery
from gallery import rewrite

F32 = np.dtype(np.float32)


def onnxruntime(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return engine_runner("onnxruntime")[0](model, inputs)


def rules_broken(model: onnx.ModelProto) -> set[str]:
    return {f.rule for f in check_model(model).findings}


def test_the_gallery_holds_the_models_the_page_shows(made: dict[str, gallery.Model]) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "gallery.md").read_text("utf-8")
    for name in made:
        assert f'"{name}"' in page, name  # every model has its report on the page
    assert {"mlp_regressor", "mlp_classifier", "small_cnn", "fully_connected"} <= set(made)


@pytest.mark.parametrize(
    "name", ["mlp_regressor", "mlp_classifier", "onnxruntime_sigmoid", "onnxruntime_mul_1", "small_cnn"]
)
def test_the_conforming_version_computes_what_the_model_computes(
    made: dict[str, gallery.Model], name: str
) -> None:
    model = made[name]
    assert model.conforming is not None and model.changes
    original = onnxruntime(model.model, model.inputs)
    rewritten = onnxruntime(model.conforming, model.inputs)
    assert list(original) == list(rewritten)
    for key, value in original.items():
        assert value.dtype == rewritten[key].dtype and value.tobytes() == rewritten[key].tobytes(), key


def test_the_conforming_versions_break_only_the_rule_of_operators_not_specified_yet(
    made: dict[str, gallery.Model],
) -> None:
    for model in made.values():
        if model.conforming is None:
            continue
        report = check_model(model.conforming)
        assert {f.rule for f in report.findings} <= {"MODEL_R1"}, model.name
        assert all("not specified" in f.message for f in report.findings), model.name


def test_scikit_learns_exports_break_the_rules_the_rewrite_names(made: dict[str, gallery.Model]) -> None:
    regressor = made["mlp_regressor"]
    assert {"GR2", "MODEL_C3", "GR4"} <= rules_broken(regressor.model)
    assert [c.split(":")[0] for c in regressor.changes] == [
        "GR2",
        "MODEL_C3",
        "GR4",
        "ADD_C1 and its kin",
        "GR2",
    ]
    classifier = made["mlp_classifier"]
    assert any(c.startswith("MODEL_R1: the label lookup ArrayFeatureExtractor") for c in classifier.changes)
    assert not any(n.domain == "ai.onnx.ml" for n in classifier.conforming.graph.node)


def test_the_reference_runs_the_scikit_learn_models_as_scikit_learn_predicts_or_says_what_is_missing(
    made: dict[str, gallery.Model],
) -> None:
    from gallery.scikit_learn import BATCH, data

    for name in ("mlp_regressor", "mlp_classifier", "linear_regression"):
        found = gallery.examine(made[name])
        if found.ran:
            X = data()[0]
            outputs = list(found.outputs.values())
            assert found.by_node is not None and all(n.node.op_type for n in found.by_node.nodes)
            assert outputs[0].shape[0] == BATCH
            # scikit-learn's own prediction in float64 is the independent oracle of what the model computes
            if name != "mlp_classifier":
                predicted = _sklearn(name).predict(X[:BATCH])
                assert np.allclose(outputs[0].reshape(-1), predicted, rtol=1e-4, atol=1e-4)
            else:
                assert np.array_equal(outputs[0], _sklearn(name).predict(X[:BATCH]))
        else:
            assert found.conforming_check is not None
            unspecified = set(found.conforming_check.unspecified)
            assert unspecified and unspecified <= {"MatMul", "Gemm", "Softmax", "Conv", "MaxPool"}, (
                unspecified
            )


def _sklearn(name: str) -> object:
    from sklearn.linear_model import LinearRegression
    from sklearn.neural_network import MLPClassifier, MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from gallery.scikit_learn import data

    X, target, labels = data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "linear_regression":
            return make_pipeline(StandardScaler(), LinearRegression()).fit(X, target)
        if name == "mlp_regressor":
            return MLPRegressor(hidden_layer_sizes=(16, 8), max_iter=400, random_state=0).fit(X, target)
        return MLPClassifier(hidden_layer_sizes=(16,), max_iter=400, random_state=0).fit(X, labels)


def test_an_implicit_broadcast_becomes_an_expand_of_the_smaller_input() -> None:
    model = make_model(
        [helper.make_node("Add", ["a", "b"], ["y"], name="add")],
        [value_info("a", F32, [2, 3])],
        [value_info("y", F32, [2, 3])],
        initializers={"b": np.array([1.0, 2.0, 3.0], F32)},
    )
    assert "ADD_C1" in rules_broken(model)
    changes = rewrite.explicit_broadcasts(model)
    assert changes == [
        "ADD_C1 and its kin: implicit broadcasts made explicit with Expand (b (3,) → (2, 3) for add)"
    ]
    assert [n.op_type for n in model.graph.node] == ["Expand", "Add"]
    assert rules_broken(model) == set()
    a = np.array([[0.5, -1.0, 2.0], [4.0, 8.0, -0.0]], F32)
    assert onnxruntime(model, {"a": a})["y"].tolist() == (a + np.array([1.0, 2.0, 3.0], F32)).tolist()


def test_a_symbolic_batch_becomes_a_number_and_the_outputs_declare_their_shapes() -> None:
    model = make_model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [value_info("x", F32, ["N", 4])],
        [value_info("y", F32, ["N", 4])],
    )
    assert rules_broken(model) == {"GR2"}
    assert rewrite.fixed_batch(model, 8) == [
        "GR2: the symbolic dimensions of the graph inputs set to 8 (x: N)"
    ]
    assert rewrite.inferred_outputs(model) == [
        "GR2: the graph outputs declare their inferred shapes (y (8, 4))"
    ]
    assert rules_broken(model) == set()
    assert rewrite.fixed_batch(model, 8) == [] and rewrite.inferred_outputs(model) == []


def test_the_opset_becomes_one_where_every_node_is_the_profiles_version() -> None:
    model = make_model(
        [helper.make_node("Sigmoid", ["x"], ["s"]), helper.make_node("Abs", ["s"], ["y"])],
        [value_info("x", F32, [2])],
        [value_info("y", F32, [2])],
        opset=9,
    )
    assert "MODEL_C3" in rules_broken(model)
    [change] = rewrite.profile_opset(model)
    assert change.startswith("MODEL_C3: the default opset 9 → 13")
    assert model.opset_import[0].version == 13 and rules_broken(model) == set()
    assert rewrite.profile_opset(model) == []


def test_an_attribute_left_to_its_default_is_written_with_it() -> None:
    model = make_model(
        [helper.make_node("ArgMax", ["x"], ["y"], axis=1)],
        [value_info("x", F32, [2, 3])],
        [value_info("y", np.dtype(np.int64), [2, 1])],
    )
    assert "GR4" in rules_broken(model)
    assert (
        rewrite.explicit_attributes(model)
        == ["GR4: ONNX's defaults written explicitly (ArgMax.keepdims, ArgMax.select_last_index)"]
        or rewrite.explicit_attributes(model) == []
    )
    attributes = {a.name: helper.get_attribute_value(a) for a in model.graph.node[0].attribute}
    assert attributes == {"axis": 1, "keepdims": 1, "select_last_index": 0}
    assert "GR4" not in rules_broken(model)


def test_a_transposed_gemm_operand_becomes_given_transposed() -> None:
    # PyTorch's Linear: Y = X·Wᵀ + b, W an initializer read by this Gemm alone; A transposed by the graph
    weights = {"w": np.arange(12, dtype=F32).reshape(4, 3), "c": np.ones((2, 4), F32)}
    model = make_model(
        [
            helper.make_node(
                "Gemm", ["x", "w", "c"], ["y"], name="fc", alpha=1.0, beta=1.0, transA=1, transB=1
            )
        ],
        [value_info("x", F32, [3, 2])],
        [value_info("y", F32, [2, 4])],
        initializers=weights,
    )
    assert "GEMM_C6" in rules_broken(model)
    x = np.array([[1.0, -2.0], [0.5, 4.0], [-3.0, 0.25]], F32)
    before = onnxruntime(model, {"x": x})["y"]
    assert rewrite.untransposed_gemm(model) == [
        "GEMM_C6: Gemm's operands given transposed, transA and transB = 0 "
        "(fc.transA: x transposed by a Transpose node; fc.transB: w stored transposed)"
    ]
    assert [n.op_type for n in model.graph.node] == ["Transpose", "Gemm"]
    stored = next(t for t in model.graph.initializer if t.name == "w")
    assert tuple(stored.dims) == (3, 4)
    assert rules_broken(model) == {"MODEL_C3"}  # Transpose's profile version is in a later opset
    rewrite.profile_opset(model)
    assert rules_broken(model) == set()
    # small integers and halves: every sum exact, so the two models agree to the bit, and with x.T·W.T + c
    assert onnxruntime(model, {"x": x})["y"].tobytes() == before.tobytes()
    assert before.tolist() == (x.T @ weights["w"].T + 1).tolist()
    assert rewrite.untransposed_gemm(model) == []


def test_a_shared_initializer_is_transposed_by_a_node_not_in_storage() -> None:
    model = make_model(
        [
            helper.make_node(
                "Gemm", ["x", "w", "c"], ["y"], name="fc", alpha=1.0, beta=1.0, transA=0, transB=1
            ),
            helper.make_node("Identity", ["w"], ["w_copy"], name="copy"),
        ],
        [value_info("x", F32, [2, 2])],
        [value_info("y", F32, [2, 2]), value_info("w_copy", F32, [2, 2])],
        initializers={"w": np.array([[1.0, 2.0], [3.0, 4.0]], F32), "c": np.zeros((2, 2), F32)},
    )
    [change] = rewrite.untransposed_gemm(model)
    assert change.endswith("(fc.transB: w transposed by a Transpose node)")
    assert tuple(next(t for t in model.graph.initializer if t.name == "w").dims) == (2, 2)
    x = np.array([[1.0, 0.0], [0.0, 1.0]], F32)
    outputs = onnxruntime(model, {"x": x})
    assert outputs["y"].tolist() == [[1.0, 3.0], [2.0, 4.0]] and outputs["w_copy"].tolist() == [
        [1.0, 2.0],
        [3.0, 4.0],
    ]


def test_scikit_learns_scaler_and_linear_regressor_become_the_profiles_arithmetic(
    made: dict[str, gallery.Model],
) -> None:
    linear = made["linear_regression"]
    assert {n.op_type for n in linear.model.graph.node} == {"Scaler", "LinearRegressor"}
    assert "MODEL_R1" in rules_broken(linear.model)
    assert any(
        c == "MODEL_R1: ai.onnx.ml's linear operators as the profile's (Scaler (Scaler) as Sub and Mul; "
        "LinearRegressor (LinearRegressor) as MatMul and Add)"
        for c in linear.changes
    )
    kinds = [n.op_type for n in linear.conforming.graph.node]
    assert kinds == ["Expand", "Sub", "Expand", "Mul", "MatMul", "Expand", "Add"]
    assert not any(o.domain == "ai.onnx.ml" for o in linear.conforming.opset_import)
    assert rules_broken(linear.conforming) == set()
    # the same computation: scikit-learn's float64 prediction is the oracle of both versions' float32 runs
    predicted = _sklearn("linear_regression").predict(linear.inputs["X"])
    for version in (linear.model, linear.conforming):
        assert np.allclose(
            onnxruntime(version, linear.inputs)["variable"].reshape(-1), predicted, rtol=1e-5, atol=1e-5
        )


def test_a_scaler_or_regressor_with_a_post_transform_is_left_as_it_is() -> None:
    node = helper.make_node(
        "LinearRegressor", ["x"], ["y"], domain="ai.onnx.ml", coefficients=[1.0], post_transform="PROBIT"
    )
    model = make_model([node], [value_info("x", F32, [2, 1])], [value_info("y", F32, [2, 1])])
    assert rewrite.scaler_and_linear_regressor_as_arithmetic(model) == []
    assert [n.op_type for n in model.graph.node] == ["LinearRegressor"]
