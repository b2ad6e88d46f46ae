"""The operator registry: what each operator is, declared once, next to its reference code.

An operator module defines its function, then registers it with :func:`operator`
(``clip = operator(clip, onnx="Clip", version=13, …)``), which states the ONNX
operator it is based on, its inputs, attributes and outputs with their ONNX
names, and the types of its type variables. Every list of operators in the
project (the package's exports aside) is derived from :func:`operators`.

Registering also adds the general checks: before the operator's own code runs,
every argument is checked against the general rules (:mod:`.checks`), so an
operator module checks only what is particular to it. (A call after the
definition rather than a decorator: mutation testing mutates the body of an
undecorated function only.)
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .ids import scope_prefix
from .types import FAMILIES, ONNX_DATA_TYPES, TYPE_SETS


@dataclass(frozen=True)
class Tensor:
    """An input or an output of an operator."""

    name: str  # the specification's name: X, L, M, Y
    onnx: str  # ONNX's name: input, min, max, output
    type: str  # a type variable of the operator ("T"), or a type set ("bool")
    rank: int | None = None  # the rank the operator requires (0: a scalar), if any
    rank_rule: str | None = None  # the rule that requires it
    variadic: bool = False  # one or more tensors, X0, X1, … (ONNX's data_0, data_1, …); last of its list
    doc: str = ""  # what the tensor is, as the operator's page shows it
    sets_shape: bool = False  # an input whose values give an output's shape (Reshape's shape, Slice's starts)
    shape_only: bool = False  # an input of which only the shape is read, not the values (Shape's data)
    type_from: str | None = None  # an output whose element type an int attribute names (Cast's to), by its
    # ONNX TensorProto data type code (types.ONNX_DATA_TYPES); its type is then the type set it may have


ATTRIBUTE_KINDS: Mapping[str, str] = {
    "int": "an int",
    "float": "a float",
    "string": "a string",
    "ints": "a list of ints",
    "floats": "a list of floats",
    "tensor": "a tensor",
}
"""The kinds of attribute an operator may declare, and how the site and the errors name them. ONNX's
graph attributes are left out: only control flow (If, Loop, Scan) takes one, and the profile has none."""


@dataclass(frozen=True)
class Attribute:
    """An attribute: keyword-only in the reference, with no default (GR4)."""

    name: str
    onnx: str
    kind: str  # one of ATTRIBUTE_KINDS: an int is a Python int, a list a tuple, a string a str
    type: str | None = None  # for a tensor attribute: its type variable
    doc: str = ""


@dataclass(frozen=True)
class Operator:
    """What an operator is: its name, its ONNX basis, its signature and its types."""

    name: str  # the Python name: clip, leaky_relu
    onnx: str  # ONNX's op_type: Clip, LeakyRelu
    version: int  # the ONNX operator version the profile is based on: 13 for Clip-13
    inputs: tuple[Tensor, ...]
    attributes: tuple[Attribute, ...]
    outputs: tuple[Tensor, ...]
    types: Mapping[str, tuple[str, ...]]  # type variable -> names of type sets
    function: Callable[..., Any] = field(compare=False, repr=False)

    @property
    def prefix(self) -> str:
        """The scope of its rule ids: CLIP for clip."""
        return scope_prefix(self.name)

    @property
    def page(self) -> str:
        """The site page (docname) that specifies it."""
        return f"operators/{self.name}"

    @property
    def summary(self) -> str:
        """The first line of its docstring: what it computes."""
        return inspect.getdoc(self.function).splitlines()[0]

    def dtypes(self, type_name: str) -> tuple[np.dtype, ...]:
        """The element types a type variable (or a type set such as "bool") stands for."""
        sets = self.types.get(type_name, (type_name,))
        return tuple(t for name in sets for t in TYPE_SETS[name])

    @property
    def numeric_types(self) -> tuple[np.dtype, ...]:
        """Every one of the twelve types some tensor of the operator may have, in the site's order."""
        wanted = {t for var in self.types for t in self.dtypes(var)}
        return tuple(t for family in FAMILIES.values() for t in family if t in wanted)

    @property
    def families(self) -> tuple[str, ...]:
        """The type families the operator is specified for."""
        return tuple(f for f, members in FAMILIES.items() if set(members) & set(self.numeric_types))

    @property
    def main_type(self) -> str:
        """The type variable of the first tensor a type variable types: an input, or a tensor attribute
        for an operator without inputs; a tensor of a fixed type (bool) is passed over, since the types
        the operator is specified for are those of its type variables."""
        typed = [t.type for t in self.inputs] + [a.type for a in self.attributes if a.type]
        return next((name for name in typed if name in self.types), typed[0])

    def output_dtype(
        self, dtype: np.dtype, attributes: Mapping[str, Any], position: int = 0
    ) -> np.dtype | None:
        """The element type of the output at ``position`` (a variadic last one: each of its tensors) in a call
        whose main type is ``dtype``: the type its attribute names (Cast's ``to``), its fixed type (bool), or
        ``dtype`` (that of the first tensor of its type variable). None is no type: a code outside the
        profile, which the operator refuses."""
        tensor = self.outputs[min(position, len(self.outputs) - 1)]
        if tensor.type_from is not None:
            return ONNX_DATA_TYPES.get(attributes[tensor.type_from])
        allowed = self.dtypes(tensor.type)
        return dtype if dtype in allowed else allowed[0]

    def input_names(self, count: int) -> list[str]:
        """The names of the inputs of a call with ``count`` of them: X, L, M; or X0, X1, … for Max."""
        return _names(self.inputs, count)

    def output_names(self, count: int) -> list[str]:
        """The names of ``count`` outputs: Y; or Y0, Y1, … for a variadic output (Split's)."""
        return _names(self.outputs, count)

    @property
    def returns_tuple(self) -> bool:
        """Whether the function returns a tuple of arrays (several outputs) rather than one array."""
        return len(self.outputs) > 1 or any(t.variadic for t in self.outputs)

    def results(self, returned: Any) -> tuple[Any, ...]:
        """What a call returned, as a tuple of its outputs in the declaration's order."""
        return tuple(returned) if self.returns_tuple else (returned,)


def _names(tensors: tuple[Tensor, ...], count: int) -> list[str]:
    """Each tensor's name, a variadic last one numbered to make ``count`` names in all."""
    fixed = [t.name for t in tensors if not t.variadic]
    if tensors and tensors[-1].variadic:
        return fixed + [f"{tensors[-1].name}{m}" for m in range(count - len(fixed))]
    return fixed


_REGISTRY: dict[str, Operator] = {}


def operator(
    body: Callable[..., Any],
    *,
    onnx: str,
    version: int,
    inputs: tuple[Tensor, ...],
    outputs: tuple[Tensor, ...],
    types: Mapping[str, tuple[str, ...]],
    attributes: tuple[Attribute, ...] = (),
) -> Callable[..., Any]:
    """Register ``body`` as an operator; returns it checked against the general rules."""
    from .checks import (  # checks names rules: pages
        ResultTooLarge,
        bind_arguments,
        check_general_rules,
        out_of_memory,
    )

    signature = inspect.signature(body)

    @functools.wraps(body)
    def checked(*args: Any, **kwargs: Any) -> Any:
        bound = bind_arguments(spec, signature, args, kwargs)  # GR4, GEN_C2: a wrong call
        bound.apply_defaults()  # an empty *X is an empty tuple
        check_general_rules(spec, bound.arguments)
        try:
            return body(*args, **kwargs)
        except ResultTooLarge as error:
            raise out_of_memory(spec.name, error.shape, error.dtype) from None
        except MemoryError:
            raise out_of_memory(spec.name) from None

    spec = Operator(body.__name__, onnx, version, inputs, attributes, outputs, types, checked)
    _check_declaration(spec, signature)
    if spec.name in _REGISTRY:
        raise ValueError(f"operator {spec.name} is registered twice")
    _REGISTRY[spec.name] = spec
    checked.operator = spec  # type: ignore[attr-defined]
    return checked


def _check_declaration(op: Operator, signature: inspect.Signature) -> None:
    """The declaration matches the function's signature, and names only known types."""
    params = list(signature.parameters.values())
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    variadic = [p.name for p in params if p.kind is p.VAR_POSITIONAL]
    keyword = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    declared = [t.name for t in op.inputs]
    problems = []
    if positional + variadic != declared:
        problems.append(f"inputs {declared} but the function takes {positional + variadic}")
    if any(t.variadic for t in op.inputs) != bool(variadic):
        problems.append("a variadic input is a *parameter, and only that")
    if keyword != [a.name for a in op.attributes]:
        problems.append(f"attributes {[a.name for a in op.attributes]} but keyword-only parameters {keyword}")
    if any(t.variadic for t in op.outputs[:-1]):
        problems.append("only the last output may be variadic")
    for a in op.attributes:
        if a.kind not in ATTRIBUTE_KINDS:
            problems.append(f"attribute {a.name}: kind {a.kind!r} is not one of {', '.join(ATTRIBUTE_KINDS)}")
        elif (a.kind == "tensor") != (a.type is not None):
            problems.append(f"attribute {a.name}: a tensor attribute has a type, and only a tensor attribute")
    kinds = {a.name: a.kind for a in op.attributes}
    for t in op.inputs + op.outputs:
        if t.type_from is not None and (t in op.inputs or kinds.get(t.type_from) != "int"):
            problems.append(f"{t.name}: type_from names an int attribute, and only for an output")
    if any(t.sets_shape or t.shape_only for t in op.outputs):
        problems.append("sets_shape and shape_only describe inputs, not outputs")
    if any((t.rank is None) != (t.rank_rule is None) for t in op.inputs):
        problems.append("a declared rank needs the rule that requires it, and a rule its rank")
    if any(p.default is not p.empty for p in params):
        problems.append("a parameter has a default value (GR4: no default values)")
    for name in [t.type for t in op.inputs + op.outputs] + [a.type for a in op.attributes if a.type]:
        if name not in op.types and name not in TYPE_SETS:
            problems.append(f"type {name!r} is neither a type variable nor a type set")
    for var, sets in op.types.items():
        problems += [f"type variable {var}: unknown type set {s!r}" for s in sets if s not in TYPE_SETS]
    if problems:
        raise TypeError(f"operator {op.name}: " + "; ".join(problems))


@contextmanager
def registered(body: Callable[..., Any], **declaration: Any) -> Iterator[Callable[..., Any]]:
    """Register ``body`` (as :func:`operator` does) for the duration of a ``with`` block only: an operator
    a test needs (one with several outputs, say) that no other test, and no list of operators, sees."""
    checked = operator(body, **declaration)
    try:
        yield checked
    finally:
        del _REGISTRY[checked.operator.name]


@functools.cache
def _import_operator_modules() -> None:
    """Import every module of ``ops`` once: importing one registers its operator."""
    from . import ops

    for module in pkgutil.iter_modules(ops.__path__):
        importlib.import_module(f"{ops.__name__}.{module.name}")


def operators() -> dict[str, Operator]:
    """Every operator, by name, in alphabetical order: the one list the project derives its lists from."""
    _import_operator_modules()  # listing the package's folder each call was most of a small model's run
    return dict(sorted(_REGISTRY.items()))


def get(name: str) -> Operator:
    """The operator ``name``; KeyError names the unknown operator."""
    try:
        return operators()[name]
    except KeyError:
        raise KeyError(f"no operator {name!r} (known: {', '.join(operators())})") from None
