"""ONNX's backend node test cases of the profile's operators, from onnx's own generators.

onnx >= 1.23 wheels no longer ship the cases' data files, but they still ship
the code that generates them: ``collect_testcases()``. It imports the
generators of every operator, so it is called once per session.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cache

import numpy as np
import onnx
from onnx import numpy_helper
from onnx.backend.test.case.node import collect_testcases

from sonnx_spec import SonnxError, operators
from sonnx_spec.models.binding import attribute_value

OPERATORS = {op.onnx: op.name for op in operators().values()}
"""ONNX's op_type -> the profile's operator."""


@dataclass(frozen=True)
class BackendCase:
    name: str
    op: str  # the profile's name of the operator
    inputs: tuple[np.ndarray | None, ...]  # one per input of the node; None where the model omits it
    attributes: dict  # by the profile's names
    expected: tuple[np.ndarray, ...]  # the node's outputs, in its order (optional ones omitted last)


@cache
def backend_cases() -> tuple[BackendCase, ...]:
    """The cases whose model is a single node of an operator of the profile, by name."""
    with warnings.catch_warnings():
        # The generators of other operators (Cast, ReduceLogSum, …) overflow or
        # divide by zero on purpose to make their special values.
        generators = r"onnx\.backend\.test\.case\.node\."
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=generators)
        testcases = collect_testcases()
    result = []
    for testcase in testcases:
        graph = testcase.model.graph
        if len(graph.node) != 1 or graph.node[0].op_type not in OPERATORS:
            continue  # other operators, and the "_expanded" function bodies that use these ones
        node = graph.node[0]
        for number, (proto_inputs, proto_outputs) in enumerate(testcase.data_sets):
            inputs, outputs = _arrays(proto_inputs), _arrays(proto_outputs)
            by_name = dict(zip((value.name for value in graph.input), inputs, strict=True))
            name = testcase.name if len(testcase.data_sets) == 1 else f"{testcase.name}[{number}]"
            result.append(
                BackendCase(
                    name=name,
                    op=OPERATORS[node.op_type],
                    inputs=_padded(node, tuple(by_name[name] if name else None for name in node.input)),
                    attributes=_attributes(node),
                    expected=tuple(outputs),
                )
            )
    return tuple(sorted(result, key=lambda case: case.name))


def _arrays(values) -> list:
    """A case's values as numpy arrays: a generator gives a TensorProto where numpy has no type of its own
    (Cast's cases, whose float8 and int4 tensors onnx reads as ml_dtypes arrays)."""
    return [numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for v in values]


def _attributes(node) -> dict:
    """The node's attributes by the profile's names: floats as floats, tensors as arrays, None if omitted."""
    spec = operators()[OPERATORS[node.op_type]]
    by_onnx = {a.onnx: a for a in spec.attributes}
    found: dict = {a.name: None for a in spec.attributes}  # one the node omits is None, as for inputs
    for attribute in node.attribute:
        if attribute.name not in by_onnx:  # an attribute the profile does not have: the spec refuses it
            found[attribute.name] = attribute
        else:
            spec_attribute = by_onnx[attribute.name]
            try:  # as the model reader gives it: a str for a string, a tuple for a list
                found[spec_attribute.name] = attribute_value(spec_attribute, attribute)
            except SonnxError:  # of another kind: given as ONNX has it, for the spec to refuse (GEN_C1)
                found[spec_attribute.name] = onnx.helper.get_attribute_value(attribute)
    return found


def _padded(node, inputs: tuple) -> tuple:
    """ONNX drops trailing omitted inputs from a node; the spec takes every input, None if omitted."""
    spec = operators()[OPERATORS[node.op_type]]
    if any(t.variadic for t in spec.inputs):
        return inputs
    return inputs + (None,) * (len(spec.inputs) - len(inputs))
