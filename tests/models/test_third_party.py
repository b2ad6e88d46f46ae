"""The model tools on models no one here wrote: ONNX's backend test cases and scikit-learn models.

ONNX's own generators (``onnx.backend.test.case.node``) build a model per test
case; skl2onnx converts trained scikit-learn models. Most use operators the
profile does not specify yet: the report must name each of those nodes. Those made
of specified operators only are run and compared with the operators called one by
one.
"""

from __future__ import annotations

import warnings
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import onnx
import pytest
from graphs import OPERATORS, requires
from onnx.backend.test.case.node import collect_testcases
from support import req

from sonnx_spec import Operator, check_model, run_model
from sonnx_spec.compare import same_result
from sonnx_spec.models import ModelRefused, NodeError
from sonnx_spec.models.graph import ONNX_DOMAINS

SPECIFIED = {op.onnx: op for op in OPERATORS}


@cache
def backend_models() -> dict[str, onnx.backend.test.case.test_case.TestCase]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # other operators' generators overflow on purpose
        return {case.name: case for case in collect_testcases()}


def unspecified_nodes(model: onnx.ModelProto) -> Counter[str]:
    """Independently of the checker: the nodes whose op_type is not an operator of the registry."""
    return Counter(
        n.op_type if n.domain in ONNX_DOMAINS else f"{n.domain}.{n.op_type}"
        for n in model.graph.node
        if n.domain not in ONNX_DOMAINS or n.op_type not in SPECIFIED
    )


@req("MODEL_R1")
def test_every_backend_model_is_checked_and_its_unspecified_operators_listed() -> None:
    checked = 0
    for name, case in backend_models().items():
        report = check_model(case.model)
        assert report.unspecified == unspecified_nodes(case.model), name
        outside = [
            f.node.index for f in report.findings if f.rule == "MODEL_R1" and "not specified" in f.message
        ]
        assert len(outside) == sum(report.unspecified.values()), name
        checked += 1
    assert checked > 1000


@req("GR4")
def test_the_backend_clip_with_default_bounds_breaks_GR4_twice() -> None:
    report = check_model(backend_models()["test_clip_default_inbounds"].model)
    assert [(f.rule, f.node.op_type) for f in report.findings] == [("GR4", "Clip"), ("GR4", "Clip")]
    assert [(f.draft_labels, f.formerly) for f in report.findings] == [
        (("R1",), ("CLIP_R1",)),  # L, then M: each the label the draft gave it
        (("R2",), ("CLIP_R2",)),
    ]


def _profile_cases() -> list[str]:
    return sorted(
        name
        for name, case in backend_models().items()
        if case.model.graph.node and not unspecified_nodes(case.model) and case.data_sets
    )


def attributes_of(op: Operator, node: onnx.NodeProto) -> dict[str, Any]:
    """The node's attributes by the profile's names, read with onnx's helper; None where omitted."""
    given = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    found = {spec.name: given.get(spec.onnx) for spec in op.attributes}
    return {
        k: onnx.numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for k, v in found.items()
    }


@req("MODEL_S1")
def test_backend_models_of_specified_operators_run_as_their_operators_called_one_by_one() -> None:
    ran = refused = 0
    for name in _profile_cases():
        case = backend_models()[name]
        graph = case.model.graph
        for inputs, _ in case.data_sets:
            feeds = dict(zip((v.name for v in graph.input), inputs, strict=True))
            try:
                outputs = run_model(case.model, feeds)
            except (ModelRefused, NodeError):
                refused += 1  # defaults (GR4), or values the profile refuses (a NaN bound, ABS_E1…)
                continue
            values = dict(feeds)
            for node in graph.node:  # one node after another: the generators write them in order
                op = SPECIFIED[node.op_type]
                returned = op.function(*(values[i] for i in node.input), **attributes_of(op, node))
                values.update(zip(node.output, op.results(returned), strict=True))  # each output (Split's)
            for output in graph.output:
                assert same_result(outputs[output.name], values[output.name]), name
            ran += 1
    assert ran >= 10 and refused >= 1, (ran, refused)


# -- scikit-learn models converted by skl2onnx ---------------------------------------------------


@cache
def sklearn_models() -> dict[str, onnx.ModelProto]:
    requires("sklearn")
    requires("skl2onnx")
    from skl2onnx import to_onnx
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x, y = load_iris(return_X_y=True)
    x = x.astype(np.float32)
    mlp = make_pipeline(StandardScaler(), MLPClassifier((8,), max_iter=300, random_state=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: the weights do not matter here
        mlp.fit(x, y)
        logistic = LogisticRegression(max_iter=300).fit(x, y)
    return {
        "mlp": to_onnx(mlp, x[:1], target_opset=13, options={"zipmap": False}),
        "logistic": to_onnx(logistic, x[:1], target_opset=13),
    }


@req("MODEL_R1")
@pytest.mark.parametrize("name", ["mlp", "logistic"])
def test_sklearn_models_are_refused_naming_each_node_outside_the_profile(name: str) -> None:
    model = sklearn_models()[name]
    report = check_model(model)
    assert not report.in_profile
    assert report.unspecified == unspecified_nodes(model)
    named = {(f.node.index, f.node.name) for f in report.findings if f.rule == "MODEL_R1"}
    expected = {
        (i, n.name)
        for i, n in enumerate(model.graph.node)
        if n.domain not in ONNX_DOMAINS or n.op_type not in SPECIFIED
    }
    assert named == expected
    assert any(key.startswith("ai.onnx.ml.") for key in report.unspecified)
