"""The conformance data of each operator: one module per operator, named after it.

The inputs the spec and the engines are run on are small named cases, each
with a topic. Every case is written out by hand (no randomness), so the same
sources give the same report. A case isolates one question an implementer would
ask ("what is max(+0, -0)?") on as few elements as answer it. Values are exact
in every type of their family, so most cases read the same in every type.

A module ``<operator>.py`` gives:

``TOPICS``
    its topics, in the order its conformance section lists them (``ORDINARY`` first);
``rows(v)``
    its cases for one type: ``(name, topic, inputs)`` or ``(name, topic, inputs, attributes)``;
    ``v`` makes arrays of that type (:class:`Values`);
``numpy``
    the operator as a developer computes it with numpy;
``EXPLAINED``
    topic -> :class:`Explanation`: where the spec decides a question engines are known to answer
    differently; a divergence on any other topic fails the tests;
``BACKEND_DIVERGENCES``
    ONNX backend case -> :class:`Divergence`: a case of ONNX's the profile refuses on purpose, or whose
    expected output ONNX rounded otherwise than the profile (``ulps``: how far it may be; ``within``: the
    bound ONNX's outputs meet);
``ACCURACY`` (optional)
    :class:`Accuracy`: a correctly rounded operator whose engines' accuracy is measured and published
    (tests/conformance/test_engine_accuracy.py);
``BACKEND_RULES``, ``SEMANTICS``
    the rule an ONNX backend case exercises: listed, else ``SEMANTICS``;
``bench_call(X)`` (an operator whose inputs place elements: Reshape's shape)
    the arguments the bench times, around the large float32 vector ``X``;
``BENCH_LIMIT`` (optional)
    the largest ratio to numpy the bench accepts for it, where it is not the default 2;
``SAMPLE_FROM_CASES`` (optional)
    true where the shared tests' sample call (tensors of ones of one shape) does not fit the operator (MatMul:
    A and B of one shape (2, 3) do not multiply): the model tests and the differential test call its first
    case instead (:func:`sample_call_of`).

Every operator's cases also include, for each type, the rows of its special-values table (``[[special]]``
in its rules file, :func:`table_cases`): the spec's table is run on the engines too, with no module to edit.
A module may leave rows out where an engine cannot survive them: ``table_left_out(inputs, dtype)``, true for
the rows not run (with the reason in its docstring).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

import ml_dtypes
import numpy as np

from sonnx_spec import FLOAT_TYPES, Operator, operators
from sonnx_spec.pages.special_values import Row, rows_of

ORDINARY = "ordinary"  # the one topic on which every engine must agree with the spec
TABLE_TOPICS = {  # the topic of a table row, from the values it names, in this order; the last always applies
    "NaN": ("NaN",),
    "infinity": ("∞",),
    "subnormal": ("subnormal",),
    "signed zero": ("−0", "+0"),
    "extreme values": ("",),
}

Inputs = tuple[np.ndarray | None, ...]  # in the order of the operator's inputs; None where omitted


@dataclass(frozen=True)
class Explanation:
    rule: str  # the rule of the spec the engines' result departs from
    reason: str


@dataclass(frozen=True)
class Divergence:
    rule: str  # the spec refuses the ONNX case by this rule (or, with ulps, computes it by this rule)
    reason: str
    ulps: int | None = None
    """Not a refusal: ONNX's expected output was computed by an engine that rounds otherwise (numpy's
    float32 exp); the spec's output differs from it, by at most this many units in the last place
    (sonnx_spec.correctly_rounded.ulp_distance), the bound of the operator's accuracy rule."""
    within: Callable[[Inputs, tuple[np.ndarray, ...]], bool] | None = None
    """Not a refusal either, for a bound that is no number of units (HardSwish's): the spec computes the
    case, its outputs differ from ONNX's, and this says whether ONNX's outputs meet the bound ``rule``
    states."""


@dataclass(frozen=True)
class Accuracy:
    """What the measurement of a correctly rounded operator's engines needs (engine_accuracy.py): MPFR's name
    of its function (gmpy2's), its accuracy rule and that rule's bound in units in the last place, and the
    range of float32 inputs sampled uniformly."""

    mpfr: str
    rule: str
    ulps: int
    float32_range: tuple[float, float]


@dataclass(frozen=True)
class Case:
    op: str
    name: str
    topic: str
    inputs: Inputs
    attributes: dict[str, Any] = field(default_factory=dict)

    @property
    def input_names(self) -> list[str]:
        """The names the spec gives the inputs: X, L, M for Clip, X0, X1, … for Max."""
        return operators()[self.op].input_names(len(self.inputs))


class Values:
    """Makes arrays of one element type, and knows that type's extremes."""

    def __init__(self, dtype: np.dtype) -> None:
        self.dtype = dtype
        self.is_float = dtype in FLOAT_TYPES
        self.signed = self.is_float or np.issubdtype(dtype, np.signedinteger)
        if dtype == np.bool_:  # bool (Not's type): false is its lowest value, true its highest
            self.lowest, self.highest, self.subnormal = np.False_, np.True_, None
            return
        info = ml_dtypes.finfo(dtype) if self.is_float else np.iinfo(dtype)
        self.lowest, self.highest = info.min, info.max
        self.subnormal = info.smallest_subnormal if self.is_float else None

    def __call__(self, values: object, dtype: np.dtype | type | None = None) -> np.ndarray:
        array = np.array(values, dtype=self.dtype if dtype is None else dtype)
        array.flags.writeable = False  # the spec and every engine see the same input
        return array


@cache
def modules() -> dict[str, ModuleType]:
    """operator name -> its conformance module; every operator of the registry has one."""
    found = {
        info.name: importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
    }
    missing = sorted(set(operators()) - set(found))
    unknown = sorted(set(found) - set(operators()))
    assert not missing and not unknown, f"conformance modules missing: {missing}; of no operator: {unknown}"
    return dict(sorted(found.items()))


def sample_call_of(op: Operator, dtype: np.dtype) -> tuple[list[np.ndarray], dict[str, Any]]:
    """support.sample_call, or, for an operator whose module sets ``SAMPLE_FROM_CASES``, its first case."""
    from support import sample_call

    if not getattr(modules()[op.name], "SAMPLE_FROM_CASES", False):
        return sample_call(op, dtype)
    case = cases(op.name, dtype)[0]
    return [np.array(a) for a in case.inputs], dict(case.attributes)


def topics() -> tuple[str, ...]:
    """Every topic, ORDINARY first, then each operator's in the registry's order."""
    ordered = [ORDINARY]
    for module in modules().values():
        ordered += [t for t in module.TOPICS if t not in ordered]
    return tuple(ordered)


def numpy_function(op: str) -> Callable[..., np.ndarray]:
    return modules()[op].numpy


def cases(op: str, dtype: np.dtype) -> list[Case]:
    """The cases of ``op`` for ``dtype``, in the order of their topics; names are unique."""
    module = modules()[op]
    result = []
    for row in module.rows(Values(np.dtype(dtype))):
        name, topic, inputs, *attributes = row
        assert topic in module.TOPICS, (op, name, topic)
        result.append(Case(op, name, topic, inputs, attributes[0] if attributes else {}))
    result += table_cases(op, np.dtype(dtype))
    assert len({case.name for case in result}) == len(result), [case.name for case in result]
    return sorted(result, key=lambda case: module.TOPICS.index(case.topic))


def table_cases(op: str, dtype: np.dtype) -> list[Case]:
    """The rows of the operator's special-values table that hold for ``dtype``, as cases (0-d tensors)."""
    left_out = getattr(modules()[op], "table_left_out", lambda inputs, dtype: False)
    result = []
    for row in rows_of(op):
        if dtype in row.types and not left_out(row.inputs, dtype):
            args, kwargs = row.call(dtype)
            given = [*row.inputs, *(f"{name} = {value}" for name, value in row.attributes)]
            name = f"table: {', '.join(given)}"
            result.append(
                Case(op, name, table_topic(op, row), tuple(map(_read_only, args)), _read_only(kwargs))
            )
    return result


def table_topic(op: str, row: Row) -> str:
    """The module's topic for a table row: the one whose explanation cites the row's rule, if only one does
    (engines known to depart from that rule are explained there); else the first topic its values name."""
    module = modules()[op]
    explained = [topic for topic, explanation in module.EXPLAINED.items() if explanation.rule == row.rule]
    if len(explained) == 1:
        return explained[0]
    names = [*row.inputs, *(str(v) for _, v in row.attributes), row.output]
    family = [topic for topic in TABLE_TOPICS if topic in module.TOPICS]
    return next(t for t in family if any(mark in name for name in names for mark in TABLE_TOPICS[t]))


def _read_only(value: Any) -> Any:
    if isinstance(value, dict):
        return {name: _read_only(v) for name, v in value.items()}
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False  # the spec and every engine see the same input
    return value
