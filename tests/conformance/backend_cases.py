"""ONNX's backend node test cases for Clip, Max and Abs, from onnx's own generators.

onnx >= 1.23 wheels no longer ship the cases' data files, but they still ship
the code that generates them: ``collect_testcases()``. It imports the
generators of every operator, so it is called once per session.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cache

import numpy as np
from onnx.backend.test.case.node import collect_testcases

OPERATORS = {"Clip": "clip", "Max": "max", "Abs": "abs"}


@dataclass(frozen=True)
class BackendCase:
    name: str
    op: str  # "clip", "max" or "abs"
    inputs: tuple[np.ndarray | None, ...]  # one per input of the node; None where the model omits it
    expected: np.ndarray


@cache
def backend_cases() -> tuple[BackendCase, ...]:
    """The cases whose model is a single Clip, Max or Abs node, by name."""
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
        for number, (inputs, outputs) in enumerate(testcase.data_sets):
            by_name = dict(zip((value.name for value in graph.input), inputs, strict=True))
            name = testcase.name if len(testcase.data_sets) == 1 else f"{testcase.name}[{number}]"
            result.append(
                BackendCase(
                    name=name,
                    op=OPERATORS[node.op_type],
                    inputs=tuple(by_name[input_name] if input_name else None for input_name in node.input),
                    expected=outputs[0],
                )
            )
    return tuple(sorted(result, key=lambda case: case.name))
