"""The shared tests of the data movement family (Reshape, and the shape and indexing operators after it),
written once and run for every member the registry lists, on every conformance case of every type it takes.

A data movement operator computes nothing: each element of a result is an element of the data input,
copied bit for bit, and every result is a new array. These tests check that much of every member on its
conformance cases (the ordinary ones, and those with NaN payloads, signed zeros and extremes); where each
element goes is each member's own rule, tested in its own module.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from support import conformance_cases, unchanged

from sonnx_spec import Operator, SonnxError
from sonnx_spec.families import DATA_MOVEMENT, members

MEMBERS = members(DATA_MOVEMENT)


def bits(value: np.ndarray) -> list[int]:
    """The bit pattern of each element (a bool as its byte)."""
    value = np.ascontiguousarray(value)
    unsigned = np.dtype(f"u{value.dtype.itemsize}")
    return value.view(np.uint8 if value.dtype == np.bool_ else unsigned).reshape(-1).tolist()


def data_inputs(op: Operator, inputs: tuple) -> list[np.ndarray]:
    """The inputs whose elements the results hold: those of the operator's type variables (a variadic
    input, the last, declares every tensor from its position on: Concat's)."""
    declared = list(op.inputs)
    if declared and declared[-1].variadic:
        declared += [declared[-1]] * (len(inputs) - len(declared))
    return [np.asarray(v) for t, v in zip(declared, inputs, strict=False) if t.type in op.types]


PARAMS = [
    pytest.param(op, dtype, id=f"{op.name}-{dtype.name}")
    for op in MEMBERS
    for dtype in op.dtypes(op.main_type)
]


def test_the_family_has_its_members() -> None:
    names = [op.name for op in MEMBERS]  # a new member adds itself: no list here to extend
    assert "reshape" in names and names == sorted(names)


@pytest.mark.req("GEN_P1", "GEN_P2")
@pytest.mark.parametrize(("op", "dtype"), PARAMS)
def test_every_element_of_a_result_is_an_element_of_the_data_copied_bit_for_bit(
    op: Operator, dtype: np.dtype
) -> None:
    computed = 0
    for case in conformance_cases(op.name, dtype):
        inputs = [np.array(v) if isinstance(v, np.ndarray) else v for v in case.inputs]
        inputs_unchanged = unchanged(*[v for v in inputs if isinstance(v, np.ndarray)])
        try:
            results = op.results(op.function(*inputs, **case.attributes))
        except SonnxError:
            continue  # a refusal: the member's own tests name its rule
        inputs_unchanged()
        computed += 1
        available = Counter(b for X in data_inputs(op, tuple(inputs)) for b in bits(X))
        for Y in results:
            assert type(Y) is np.ndarray and Y.dtype == dtype and Y.flags.writeable, case.name
            assert not any(np.shares_memory(Y, X) for X in inputs if isinstance(X, np.ndarray)), case.name
            missing = set(bits(Y)) - set(available)
            assert not missing, f"{case.name}: bit patterns {sorted(missing)} are in no input"
    assert computed, "no conformance case of this type is computed"
