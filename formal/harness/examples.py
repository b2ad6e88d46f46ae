"""The pages' examples as Why3 goals: the second executor of the examples (issue 15, item 3).

Every example of ``docs/operators/<op>.md`` (read by :mod:`sonnx_spec.pages.example_language`, as the site
reads it) and every cell of its special-values table (the rows of :mod:`sonnx_spec.pages.special_values`,
as the page shows them) becomes, for each of its types, one Why3 module::

    module ClipEx1Int8
      use int.Int
      use clip.ClipInt
      goal clip_ex1_int8_holds:
        clip_element (-6) 0 10 = 0 /\\ clip_element 9 0 10 = 9 /\\ …
      goal clip_ex1_int8_refuted: not (…)
    end

``holds`` says that the operator's Why3 element function gives the page's value for every element of the
output; ``refuted`` is its negation. The runner proves ``holds`` and requires that ``refuted`` is NOT
proved: a wrong value on the page (or a wrong specification) then makes ``refuted`` provable, a proof
instead of a time-out. For a table cell the expected value is the one its row states: the
table's data are checked against the Why3 specification, as the build checks the reference against them.

Running them: ``why3 prove -a split_vc`` (one subgoal per element: Z3 fails on some whole conjunctions
of NaN elements that it proves element by element). A ``refuted`` goal that is rightly unprovable costs
the prover's whole give-up time (about 1 s with ``-t 1``, 2 s with ``-t 5``, against some 0.05 s for a
``holds``): try ``refuted`` only for the ``holds`` goals left unproved, which turns their time-out into a
refutation. A proved ``holds`` already excludes a proved ``refuted`` in a consistent theory (the
vacuity check of the operator's theories covers that).

A refused input is a precondition in Why3, not a value: an example with ``error = …`` and a refused row
are not checked here; :func:`skipped_refusals` counts them.

Literals are exact: integers as written; IEEE values as hexadecimal literals of the format (Why3 rejects a
literal the format cannot hold), −0 as ``F.neg 0``, infinities and a NaN input as divisions by zero; an
expected NaN is checked with ``F.is_nan``.

Self-contained on purpose: this module imports nothing from the rest of the harness.
"""

from __future__ import annotations

import functools
import inspect
import math
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from sonnx_spec import Operator, operators
from sonnx_spec.pages.example_language import Example, examples_in
from sonnx_spec.pages.special_values import rows_of
from sonnx_spec.registry import Attribute, Tensor
from sonnx_spec.rounding import rounded_to

ROOT = Path(__file__).resolve().parents[2]

# The Why3 name of each type in an instance module's name (<Op><Type>), and the theory of each IEEE format.
TYPE_NAMES = {
    "int8": "Int8",
    "int16": "Int16",
    "int32": "Int32",
    "int64": "Int64",
    "uint8": "UInt8",
    "uint16": "UInt16",
    "uint32": "UInt32",
    "uint64": "UInt64",
    "float16": "Float16",
    "bfloat16": "BFloat16",
    "float32": "Float32",
    "float64": "Float64",
    "bool": "Bool",
}
FLOAT_THEORIES = {
    "float16": "ieee.Float16",
    "bfloat16": "ieee.BFloat16",
    "float32": "ieee_float.Float32",
    "float64": "ieee_float.Float64",
}
ZERO = "(0.0:F.t)"
INFINITY = "(F.div F.RNE (1.0:F.t) (0.0:F.t))"
CONJUNCTION = " /\\\n    "  # one element per line
NAN = "(F.div F.RNE (0.0:F.t) (0.0:F.t))"  # SMT-LIB has one NaN: any expression of it will do

MODULE_RE = re.compile(r"^\s*(?:module|theory)\s+(\w+)", re.MULTILINE)


@dataclass(frozen=True)
class ExampleCheck:
    holds: str  # goal name: the Why3 spec gives the page's expected output
    refuted: str  # goal name: its negation
    title: str  # the example's title on the page (or the special-values row)
    dtype: str  # numpy dtype name: "float32", "bfloat16", "int8", "bool", …
    source: str  # where it is: "docs/operators/clip.md:123" or the special-values table


@dataclass(frozen=True)
class ExampleModule:
    name: str  # Why3 module name
    text: str  # Why3 source of one module
    checks: list[ExampleCheck]


@dataclass(frozen=True)
class Case:
    """One example (or one table cell) for one type: the call and the value the page gives for it."""

    key: str  # unique among the operator's cases, a Why3 name part: "Ex3", "SvFloat12"
    title: str
    source: str
    dtype: np.dtype  # the type the example runs for (the instance's)
    inputs: tuple[Any, ...]  # numpy values, in the registry's order (X0, X1, … for a variadic input)
    attributes: dict[str, Any]  # by name, as the reference takes them
    expected: np.ndarray
    output: int | None = None  # for an operator of several outputs, which one ``expected`` is


# -- the cases of a page ----------------------------------------------------------------------------------


def example_modules(op: str, *, root: Path = ROOT) -> list[ExampleModule]:
    """One module per example (and special-values cell) of the page of ``op`` and per type."""
    cases, _ = page_cases(op, root)
    return modules_for(op, cases, instance_modules(op, root))


def skipped_refusals(op: str, *, root: Path = ROOT) -> int:
    """How many (example, type) pairs and table cells the reference refuses: not executed in Why3."""
    return page_cases(op, root)[1]


@functools.cache
def page_cases(op: str, root: Path = ROOT) -> tuple[tuple[Case, ...], int]:
    """The cases of the page of ``op``, and the number of refusals left out."""
    page = root / "docs" / "operators" / f"{op}.md"
    cases: list[Case] = []
    refused = 0
    relative = page.relative_to(root)
    for number, example in enumerate(examples_in(page, op), start=1):
        if example.error:
            refused += len(example.types)
        else:
            line = example.source.rpartition(":")[2]
            cases += example_cases(example, number, f"{relative}:{line}")
    table_cases, table_refused = special_value_cases(op, root)
    return tuple(cases + table_cases), refused + table_refused


def example_cases(example: Example, number: int, source: str = "") -> list[Case]:
    """An example with a result, for each of its types (numbered ``number`` on its page)."""
    cases = []
    for dtype in example.types:
        args, kwargs = example.arguments(dtype)
        for output, expected in outputs_of(example.spec, example.expected_arrays(dtype)):
            cases.append(
                Case(
                    f"Ex{number}{'' if output is None else f'Y{output}'}",
                    example.title,
                    source or example.source,
                    dtype,
                    tuple(args),
                    kwargs,
                    expected,
                    output,
                )
            )
    return cases


def outputs_of(op: Operator, expected: Sequence[np.ndarray]) -> list[tuple[int | None, np.ndarray]]:
    """Each output of a case with its number: None for an operator of one output; 0, 1, … for one of
    several, each output a case of its own (its Why3 functions take the output's number)."""
    if not op.returns_tuple:
        return [(None, expected[0])]
    return list(enumerate(expected))


def special_value_cases(op_name: str, root: Path = ROOT) -> tuple[list[Case], int]:
    """The cells of the operator's special-values table (``[[special]]`` in its rules file, as the page
    shows it), each with the output its row states: the table's data checked against the Why3 specification.
    """
    cases: list[Case] = []
    refused = 0
    for number, row in enumerate(rows_of(op_name), start=1):
        given = [*row.inputs, *(f"{name} = {value}" for name, value in row.attributes)]
        title = f"special values, {row.family} family: {', '.join(given)}"
        path, _, line = row.source.rpartition(":")
        source = (
            f"{Path(path).resolve().relative_to(root)}:{line}"
            if Path(path).is_relative_to(root)
            else row.source
        )
        for dtype in row.types:
            if row.refused:
                refused += 1
                continue
            args, kwargs = row.call(dtype)
            op = row.spec
            count = len(op.results(op.function(*args, **kwargs))) if op.returns_tuple else 1
            for output, expected in outputs_of(op, [row.expected(dtype)] * count):  # the row: each output
                key = f"Sv{number}{'' if output is None else f'Y{output}'}"
                cases.append(Case(key, title, source, dtype, tuple(args), kwargs, expected, output))
    return cases, refused


# -- Why3 text ----------------------------------------------------------------------------------------------


def instance_modules(op: str, root: Path = ROOT) -> frozenset[str]:
    """The modules of formal/<op>.mlw."""
    return frozenset(MODULE_RE.findall((root / "formal" / f"{op}.mlw").read_text("utf-8")))


WHY3_KEYWORDS = frozenset({"constant", "function", "predicate", "type", "module", "theory", "use", "clone"})


def why3_file(op: str) -> str:
    """The name by which the examples ``use`` formal/<op>.mlw: a Why3 keyword (``constant``) cannot
    be one, so the runner gives such a file a copy named <op>_spec.mlw."""
    return f"{op}_spec" if op in WHY3_KEYWORDS else op


def camel(op: str) -> str:
    """The Why3 name of an operator's modules: LeakyRelu for leaky_relu."""
    return "".join(part.capitalize() for part in op.split("_"))


def instance_for(op: str, dtype: np.dtype, instances: Collection[str]) -> str:
    """The instance module of ``op`` for ``dtype``: <Op><Type>, or <Op>Int for an integer type."""
    wanted = [camel(op) + TYPE_NAMES[dtype.name]]
    if dtype.kind in "iu":
        wanted.append(camel(op) + "Int")
    for name in wanted:
        if name in instances:
            return name
    raise LookupError(f"formal/{op}.mlw has no module {' or '.join(wanted)}")


class OutsideModel(ValueError):
    """A case the formal model does not cover (said in the operator's .mlw header): not a check."""


def modules_for(op: str, cases: Iterable[Case], instances: Collection[str]) -> list[ExampleModule]:
    """The Why3 modules of ``cases`` of ``op``, using the instance modules ``instances``."""
    return [m for m, _ in _modules_and_outside(op, cases, instances) if m is not None]


def outside_model(op: str, *, root: Path = ROOT) -> list[str]:
    """The cases of the page of ``op`` that the formal model does not cover, each with the reason."""
    cases, _ = page_cases(op, root)
    return [why for m, why in _modules_and_outside(op, cases, instance_modules(op, root)) if m is None]


OUTSIDE_RE = re.compile(r"Examples outside the model \(([\w ,]+)\): ([^\n]+)")


def declared_outside(op: str, root: Path = ROOT) -> dict[str, str]:
    """Type name -> reason, for the types whose examples an operator's .mlw header declares outside its
    model, on one line: ``Examples outside the model (float16, float32): <reason>`` (MatMul's floating-point
    results, the exact sum rounded once, which no prover evaluates on literals)."""
    path = root / "formal" / f"{op}.mlw"
    found: dict[str, str] = {}
    if path.exists():
        for types, reason in OUTSIDE_RE.findall(path.read_text("utf-8")):
            found.update((name.strip(), reason.strip()) for name in types.split(","))
    return found


def _modules_and_outside(
    op: str, cases: Iterable[Case], instances: Collection[str]
) -> list[tuple[ExampleModule | None, str]]:
    found: list[tuple[ExampleModule | None, str]] = []
    declared = declared_outside(op)
    for case in cases:
        if case.dtype.name in declared:
            found.append(
                (None, f"{case.source} {case.title!r} ({case.dtype.name}): {declared[case.dtype.name]}")
            )
            continue
        try:
            found.append((module_for(op, case, instance_for(op, case.dtype, instances)), ""))
        except OutsideModel as why:
            found.append((None, f"{case.source} {case.title!r} ({case.dtype.name}): {why}"))
    return found


def module_for(op: str, case: Case, instance: str) -> ExampleModule:
    name = f"{camel(op)}{case.key}{TYPE_NAMES[case.dtype.name]}"
    goal = f"{op}_{case.key.lower()}_{case.dtype.name}"
    check = ExampleCheck(f"{goal}_holds", f"{goal}_refuted", case.title, case.dtype.name, case.source)
    facts = element_facts(op, case)
    conjunction = CONJUNCTION.join(facts) if facts else "true"
    uses = ["int.Int"] if case.dtype.kind in "iu" or index_level(op) or position_level(op) else []
    if index_level(op):
        uses += ["tensor.Shape", "tensor.RowMajor"]  # the lists of integers (shapes, indices), offset
        if any(t.variadic and t.type in operators()[op].types for t in operators()[op].inputs):
            uses.append("broadcast.Broadcast")  # shapes: the shapes of a variadic input's tensors
    if case.dtype.name in FLOAT_THEORIES:
        uses.append(f"{FLOAT_THEORIES[case.dtype.name]} as F")
    uses.append(f"{why3_file(op)}.{instance}")
    text = "\n".join(
        [
            f"module {name}",
            f"  (* {_comment(case.title)}: {_comment(case.source)}, {case.dtype.name} *)",
            *(f"  use {theory}" for theory in uses),
            *(
                ['  meta "compute_max_steps" 1000000  (* the default 1000 stop short of a tensor *)']
                if index_level(op)
                else []
            ),
            "",
            f"  goal {check.holds}:",
            f"    {conjunction}",
            "",
            f"  goal {check.refuted}: not (",
            f"    {conjunction})",
            "end",
            "",
        ]
    )
    return ExampleModule(name, text, [check])


def _comment(text: str) -> str:
    """Text that cannot end a Why3 comment early."""
    return text.replace("(*", "( *").replace("*)", "* )")


def tensor_level(op_name: str, root: Path = ROOT) -> bool:
    """Whether the operator's Why3 specification says where each element comes from (``<op>_source``:
    data movement, whose elements are placed by index arithmetic) or what it is at an index of the output
    from the whole data input (``<op>_value``: ArgMax's index), rather than what it is computed from at
    the same index (``<op>_element``)."""
    text = (root / "formal" / f"{op_name}.mlw").read_text("utf-8")
    return f"{op_name}_element" not in text and (f"{op_name}_source" in text or value_level(op_name, root))


def position_level(op_name: str, root: Path = ROOT) -> bool:
    """Whether the operator's element function takes the element's row-major position in the output after
    the inputs and attributes (``<op>_element_at``: Range's start + p·delta), not the inputs at that index."""
    path = root / "formal" / f"{op_name}.mlw"
    return path.exists() and f"{op_name}_element_at" in path.read_text("utf-8")


def value_level(op_name: str, root: Path = ROOT) -> bool:
    """Whether the specification gives each element of the output from the data input's elements, at an
    index of the output (``<op>_value``), rather than the index of the input it is copied from."""
    path = root / "formal" / f"{op_name}.mlw"  # a word: Shape's shape_values is not a shape_value
    return path.exists() and re.search(rf"\b{op_name}_value\b", path.read_text("utf-8")) is not None


def values_level(op_name: str, root: Path = ROOT) -> bool:
    """Whether the operator's Why3 specification gives its integer output as a list (``<op>_values``: Shape,
    whose output is made of the input's dimensions, not of its elements)."""
    text = (root / "formal" / f"{op_name}.mlw").read_text("utf-8")
    return f"{op_name}_element" not in text and f"{op_name}_values" in text


def index_level(op_name: str) -> bool:
    """Whether the examples are stated on shapes and indices (lists of integers), not element by element."""
    return tensor_level(op_name) or values_level(op_name)


def values_facts(op_name: str, case: Case) -> list[str]:
    """What the specification of an operator whose integer output is computed from shapes (Shape) says of
    the case: the output's dimensions (``<op>_dims``) and its elements in row-major order, as a list of
    integers (``<op>_values``), both taking the arguments :func:`tensor_facts` passes."""
    given = " ".join(_given(operators()[op_name], case))
    values = _ints(int(v) for v in case.expected.reshape(-1).tolist())
    return [f"{op_name}_dims {given} = {_ints(case.expected.shape)}", f"{op_name}_values {given} = {values}"]


def _given(op: Operator, case: Case) -> list[str]:
    """The arguments of ``<op>_dims`` and its kin: the inputs in the registry's order
    (:func:`tensor_arguments`), the int and int list attributes, and, for an operator of several outputs
    (Split), the number of the output stated."""
    arguments = tensor_arguments(op, given_inputs(op, case.inputs))
    for attribute in op.attributes:
        value = _attribute(op, attribute.name, case.attributes)
        if _is_data(op, attribute):  # the data, as a tensor attribute: its dimensions, as a data input's
            arguments.append(_ints(np.shape(value)))
            continue
        if attribute.kind == "float":  # its float32 value, exactly, as a real literal (Gemm's alpha)
            arguments.append(_real(float(np.float32(float(value)))))
            continue
        if attribute.kind not in ("int", "ints", "string"):
            raise OutsideModel(f"a {attribute.kind} attribute of an operator stated on indices")
        if attribute.kind == "string":  # the codes of its characters: Why3 compares lists of integers
            arguments.append(_ints([ord(c) for c in value]))
        else:
            arguments.append(_ints(value) if attribute.kind == "ints" else _int(int(value)))
    if case.output is not None:  # an operator of several outputs: the number of the one stated
        arguments.append(_int(case.output))
    return arguments


def _real(value: float) -> str:
    """A finite, non-negative float as an exact Why3 real literal (a float's decimal expansion is finite);
    a negative or non-finite one is outside the model, which states no real arithmetic on literals."""
    if not math.isfinite(value) or math.copysign(1.0, value) < 0:
        raise OutsideModel(f"the float attribute {value!r} as a real literal")
    return format(Decimal(value), "f") if value != int(value) else f"{int(value)}.0"


def _is_data(op: Operator, attribute: Attribute) -> bool:
    """Whether an attribute holds the operator's data: a tensor of its type variable (ConstantOfShape's)."""
    return attribute.kind == "tensor" and attribute.type in op.types


def tensor_facts(op_name: str, case: Case) -> list[str]:
    """What the specification of a data movement operator says of the case: the output's dimensions
    (``<op>_dims``), then each element, in row-major order, the element of a data input at the index
    ``<op>_source`` gives, read from the list of that input's elements (``elts``) at the row-major position
    of the index. Both take the arguments :func:`_given` lists. With one data input the source is an index
    of it; with several (a variadic one counting as one per tensor given) it is ``Cons k i``: index ``i`` of
    the ``k``-th tensor given (not a pair: Why3's tuples leave Z3 and cvc5 unable to prove the lemmas of a
    module that uses them). An operator whose data is a tensor attribute rather than an input
    (ConstantOfShape's value) reads its elements there."""
    op = operators()[op_name]
    given = given_inputs(op, case.inputs)
    data = [value for tensor, value in given if tensor.type in op.types]
    data += [np.asarray(_attribute(op, a.name, case.attributes)) for a in op.attributes if _is_data(op, a)]
    arguments = _given(op, case)
    lists = [_elements(X, case.dtype) for X in data]
    arguments_text = " ".join(arguments)
    facts = [f"{op_name}_dims {arguments_text} = {_ints(case.expected.shape)}"]
    single = len(data) == 1 and not any(t.variadic for t in op.inputs if t.type in op.types)
    variadic = any(t.variadic for t in op.inputs if t.type in op.types)
    if value_level(op_name) and not variadic:  # each element from the lists of the inputs' elements
        for index in np.ndindex(case.expected.shape):  # (MatMul's A and B: both lists, in order)
            call = f"({op_name}_value {arguments_text} {' '.join(lists)} {_ints(index)})"
            facts.append(_fact(call, case.expected[index], case.dtype))
        return facts
    for index in np.ndindex(case.expected.shape):
        source = f"{op_name}_source {arguments_text} {_ints(index)}"
        if single:
            element = f"(nth (offset ({source}) {_ints(data[0].shape)}) {lists[0]})"
        else:
            element = (
                f"(match {source} with Cons k i -> {_element_of_input(data, lists)} | Nil -> nth 0 ENil end)"
            )
            if case.expected.dtype == np.bool_:  # a bool term chosen by a match: compared, not a formula
                facts.append(f"{element} = {_literal(case.expected[index], case.dtype)}")
                continue
        facts.append(_fact(element, case.expected[index], case.dtype))
    return facts


def given_inputs(op: Operator, inputs: Sequence[Any]) -> list[tuple[Tensor, np.ndarray]]:
    """Each input given with its declaration: a variadic input (last of its list) declares every tensor
    from its position on."""
    if op.inputs and op.inputs[-1].variadic:
        fixed = len(op.inputs) - 1
        declarations = [*op.inputs[:fixed], *[op.inputs[-1]] * (len(inputs) - fixed)]
    else:
        declarations = list(op.inputs)
    return [(t, np.asarray(v)) for t, v in zip(declarations, inputs, strict=True)]


def tensor_arguments(op: Operator, given: Sequence[tuple[Tensor, np.ndarray]]) -> list[str]:
    """The inputs as ``<op>_dims`` and ``<op>_source`` take them, in the registry's order: a data input
    (of the operator's type variable) as its dimensions; a variadic data input as one argument, the
    dimensions of its tensors as a ``shapes`` list (``SCons d0 (SCons d1 SNil)``, formal/lib/broadcast.mlw);
    an int64 input whose values set a shape (``sets_shape``: Reshape's shape, Slice's starts) as the list of
    its values; any other int64 input (Gather's indices: its shape matters too) as two arguments, its
    dimensions then its values in row-major order."""
    arguments: list[str] = []
    variadic: list[str] = []
    for tensor, value in given:
        if tensor.type in op.types and tensor.variadic:
            variadic.append(_ints(value.shape))
        elif tensor.type in op.types:
            arguments.append(_ints(value.shape))
        elif tensor.sets_shape:
            arguments.append(_ints(value.reshape(-1).tolist()))
        else:
            arguments += [_ints(value.shape), _ints(value.reshape(-1).tolist())]
    if variadic:
        text = "SNil"
        for dims in reversed(variadic):
            text = f"(SCons {dims} {text})"
        arguments.append(text)  # a variadic input is the last of the inputs
    return arguments


def _elements(X: np.ndarray, dtype: np.dtype) -> str:
    """The elements of ``X`` in row-major order, as Why3's ``elts``."""
    elements = "ENil"
    for element in reversed(X.reshape(-1)):
        elements = f"(ECons {_literal(element, dtype)} {elements})"
    return elements


def _element_of_input(data: Sequence[np.ndarray], lists: Sequence[str]) -> str:
    """The element at index ``i`` of the ``k``-th data input (``k`` and ``i`` bound by the fact's match;
    a source of no coordinate at all is ``Nil``, which gives ``nth 0 ENil`` too):
    a choice among the inputs given; a ``k`` that names none gives ``nth 0 ENil``, which no computation
    reduces to a value (the fact is then not proved)."""
    text = "nth 0 ENil"
    for k in reversed(range(len(data))):
        read = f"nth (offset i {_ints(data[k].shape)}) {lists[k]}"
        text = f"if k = {k} then {read} else {text}"
    return text


def _int(value: int) -> str:
    return f"({value})" if value < 0 else str(value)


def _ints(values: Iterable[int]) -> str:
    """A list of integers (a shape, an index, axes) as Why3's ``ints``."""
    text = "Nil"
    for value in reversed(list(values)):
        text = f"(Cons {_int(value)} {text})"
    return text


def element_facts(op_name: str, case: Case) -> list[str]:
    """For every element of the output, in row-major order: its element function's call equals the
    expected value."""
    op = operators()[op_name]
    if tensor_level(op_name):
        return tensor_facts(op_name, case)
    if values_level(op_name):
        return values_facts(op_name, case)
    typed_by = op.outputs[0].type_from
    if typed_by is not None and case.expected.dtype.kind not in "iu":
        raise OutsideModel(
            f"a {case.expected.dtype.name} result: the instances give the integer value of an output whose "
            f"type the attribute {typed_by} names, and model the integer targets only"
        )
    shape = case.expected.shape
    tensors = [np.broadcast_to(np.asarray(x), shape) for x in case.inputs]
    attributes = [_attribute(op, a.name, case.attributes) for a in op.attributes]
    tensors += [
        np.broadcast_to(np.asarray(v), shape)
        for a, v in zip(op.attributes, attributes, strict=True)
        if a.kind == "tensor"
    ]
    scalars = {
        a.name: _literal(_scalar_attribute(a.kind, v, case.dtype), case.dtype)
        for a, v in zip(op.attributes, attributes, strict=True)
        if a.kind != "tensor"
    }
    at_position = position_level(op_name)
    facts = []
    if at_position and case.dtype.kind in "iu":  # the count: the output's one dimension
        count = " ".join(_literal(np.asarray(x)[()], case.dtype) for x in case.inputs)
        facts.append(f"{op_name}_count {count} = {_int(shape[0])}")
    elif at_position and not case.expected.size:
        raise OutsideModel(f"an empty {case.dtype.name} result: the count is modelled on the integers only")
    for position, index in enumerate(np.ndindex(shape)):
        values = iter([_literal(t[index], case.dtype) for t in tensors])
        inputs = [next(values) for _ in case.inputs]
        attribute_literals = [scalars[a.name] if a.kind != "tensor" else next(values) for a in op.attributes]
        if at_position:
            attribute_literals.append(_position(position, case.dtype))
        call = _call(op, inputs, attribute_literals, at_position)
        facts.append(_fact(call, case.expected[index], case.dtype))
    return facts


def _position(position: int, dtype: np.dtype) -> str:
    """An element's position for ``<op>_element_at``: an integer in an integer instance; in an IEEE
    instance, a value of its type (the provers evaluate IEEE operations on literals, not Why3's axiomatised
    conversion from the integers), outside the model where the type does not hold it exactly."""
    if dtype.kind in "iu":
        return _int(position)
    in_type = np.array(position, dtype)
    if float(in_type) != position:
        raise OutsideModel(f"position {position} is not a {dtype.name} value")
    return _literal(in_type[()], dtype)


def _attribute(op: Operator, name: str, given: dict[str, Any]) -> Any:
    """The attribute's value in the example; an omitted one (None) takes the function's default."""
    value = given.get(name)
    if value is not None:
        return value
    default = inspect.signature(op.function).parameters[name].default
    if default is inspect.Parameter.empty:
        raise ValueError(f"{op.name}: attribute {name} has no value and no default")
    return default


def _scalar_attribute(kind: str, value: Any, dtype: np.dtype) -> np.generic:
    """A float attribute as ONNX stores it, a float32, given to the instance as a value of its own float
    type (the instances take it so); an int attribute as an integer. A float32 that the instance's type
    cannot hold (α = 0.01 for a float16 X) is outside the model."""
    if kind == "float":
        if dtype.name not in FLOAT_THEORIES:
            raise ValueError(f"a float attribute in a {dtype.name} instance")
        stored = np.float32(float(value))
        in_type = rounded_to(np.array(float(stored), np.float64), dtype)[()]
        if float(in_type) != float(stored) and not np.isnan(stored):
            raise OutsideModel(
                f"the float32 attribute {float(stored)!r} is not a {dtype.name} value; the instance takes "
                "the attribute in its own type"
            )
        return in_type
    return np.array(int(value), np.int64)[()]


def _call(op: Operator, inputs: Sequence[str], attributes: Sequence[str], at_position: bool = False) -> str:
    """The element function applied: inputs in order, then attributes (and the position, for
    ``<op>_element_at``); a variadic input folded left."""
    function = f"{op.name}_element_at" if at_position else f"{op.name}_element"
    if op.inputs and op.inputs[0].variadic:
        result = inputs[0]
        for value in inputs[1:]:
            result = f"({function} {result} {value})"
        return result  # Max has no attribute
    return f"({' '.join([function, *inputs, *attributes])})"


def _fact(call: str, expected: np.generic, dtype: np.dtype) -> str:
    if expected.dtype == np.bool_:
        return call if expected else f"not {call}"  # a bool term is a formula; so is a predicate's call
    if expected.dtype.kind == "f" or expected.dtype.name == "bfloat16":
        if math.isnan(float(expected)):
            return f"F.is_nan {call}"
    return f"{call} = {_literal(expected, dtype)}"


def _literal(value: np.generic, dtype: np.dtype) -> str:
    """An exact Why3 literal of ``value``: of the instance's float type F if a float."""
    value = np.asarray(value)[()]
    if value.dtype == np.bool_:
        return "True" if value else "False"
    if value.dtype.kind in "iu":
        number = int(value)
        return f"({number})" if number < 0 else str(number)
    if value.dtype != dtype:
        raise ValueError(f"a {value.dtype.name} value in a {dtype.name} instance")
    x = float(value)  # exact: float64 holds every value of the four formats
    if math.isnan(x):
        return NAN
    negative = math.copysign(1.0, x) < 0
    if math.isinf(x):
        return f"(F.neg {INFINITY})" if negative else INFINITY
    if x == 0:
        return f"(F.neg {ZERO})" if negative else ZERO
    return f"({'-' if negative else ''}{_hexadecimal(abs(x))}:F.t)"


def _hexadecimal(x: float) -> str:
    """A positive finite float as 0x1.<fraction>p<exponent>, subnormals of float64 included."""
    fraction, exponent = math.frexp(x)  # x = fraction · 2^exponent, 0.5 <= fraction < 1
    digits = (fraction * 2).hex()  # 0x1.<13 hex digits>p+0: exact, as fraction · 2 is in [1, 2)
    hex_fraction = digits[digits.index(".") + 1 : digits.index("p")].rstrip("0")
    return f"0x1{'.' + hex_fraction if hex_fraction else ''}p{exponent - 1}"
