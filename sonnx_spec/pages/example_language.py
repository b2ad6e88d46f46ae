"""The language of the examples on the pages, read without Sphinx.

An example's numbers are written once, in the page::

    :::{example} Values above M are replaced by M
    :types: float16 float32 float64 bfloat16
    X = [-6.3, 9.2, 35.5]
    L = 0.5
    M = 10.1
    Y = [0.5, 9.2, 10.1]
    :::

Each line is ``NAME = value``: the operator's inputs in the order of its
signature (X0, X1, … for a variadic one), then its attributes by name, then its
output (``Y = …``; for an operator of several outputs each of them, ``Y0 = …``, ``Y1 = …`` for a
variadic one, Split's) or the rule that refuses the input (``error = GR4``). Values
are numbers, ``nan``, ``inf``, ``-inf``, ``-0.0``, ``True``, ``False``, nested
lists, or ``None`` (an omitted input). ``:types:`` lists the types the example
holds for; a tensor of a fixed type (bool) keeps it.

The site's directive, the formal harness (which runs the same examples through
Why3) and the live examples all read examples with this module.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sonnx_spec import TYPES, Operator, SonnxError, operators, rules
from sonnx_spec.compare import same_result
from sonnx_spec.rounding import rounded_to
from sonnx_spec.types import BOOL

Value = float | int | bool | str | list | None
TYPE_NAMES = {t.name: t for t in (*TYPES, BOOL)}  # bool for an operator whose type variable takes it (Not)
LINE = re.compile(r"^(?P<name>[A-Za-z]\w*)\s*=\s*(?P<value>.+)$")
FENCE = re.compile(r"^(?P<colons>:{3,})\{example\}\s*(?P<title>.*)$")


class ExampleError(ValueError):
    """The example is malformed (a wrong result is not an ExampleError: it is a mismatch)."""


@dataclass
class Example:
    title: str
    operator: str
    types: list[np.dtype]
    inputs: list[tuple[str, Value]]
    attributes: dict[str, Value] = field(default_factory=dict)
    expected: Value = None  # the output; for an operator of several outputs, the list of their values
    error: str | None = None
    output_names: list[str] = field(default_factory=list)  # the outputs the example states, in order
    source: str = ""  # page:line, for messages
    has_expected: bool = False

    @property
    def spec(self) -> Operator:
        return operators()[self.operator]

    def arguments(self, dtype: np.dtype) -> tuple[list[Any], dict[str, Any]]:
        """The call of the operator for one of the example's types."""
        op = self.spec
        types = input_types(op, len(self.inputs))
        args = [
            to_numpy(value, dtype_of(op, t, dtype)) for (_, value), t in zip(self.inputs, types, strict=True)
        ]
        kwargs = {}
        for attribute in op.attributes:
            value = self.attributes[attribute.name]
            if attribute.kind == "tensor":
                kwargs[attribute.name] = to_numpy(value, dtype_of(op, attribute.type or "", dtype))
            else:
                kwargs[attribute.name] = value
        return args, kwargs

    def expected_array(self, dtype: np.dtype) -> np.ndarray:
        return np.asarray(to_numpy(self.expected, self.spec.output_dtype(dtype, self.attributes)))

    def expected_arrays(self, dtype: np.dtype) -> tuple[np.ndarray, ...]:
        """Every output the example states, in the declaration's order (the one output of most operators)."""
        if not self.spec.returns_tuple:
            return (self.expected_array(dtype),)
        values = self.expected if isinstance(self.expected, list) else []
        return tuple(
            np.asarray(to_numpy(value, self.spec.output_dtype(dtype, self.attributes, position)))
            for position, value in enumerate(values)
        )

    def stated_outputs(self) -> list[tuple[str, Value]]:
        """The output lines of the example: (name, value) for each output."""
        if not self.spec.returns_tuple:
            return [(self.output_names[0] if self.output_names else self.spec.outputs[0].name, self.expected)]
        return list(
            zip(self.output_names, self.expected if isinstance(self.expected, list) else [], strict=True)
        )


def input_types(op: Operator, count: int) -> list[str]:
    if op.inputs and op.inputs[0].variadic:
        return [op.inputs[0].type] * count
    return [t.type for t in op.inputs]


def dtype_of(op: Operator, type_name: str, dtype: np.dtype) -> np.dtype:
    """The type a tensor typed ``type_name`` has in the example run for ``dtype``."""
    allowed = op.dtypes(type_name)
    return dtype if dtype in allowed else allowed[0]


def parse_value(text: str) -> Value:
    """A literal of the example language."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ExampleError(f"cannot read {text!r}: {exc.msg}") from None
    return _literal(tree, text)


def _literal(node: ast.expr, text: str) -> Value:
    if isinstance(node, ast.List):
        return [_literal(e, text) for e in node.elts]
    if isinstance(node, ast.Constant) and (node.value is None or type(node.value) in (int, float, bool, str)):
        return node.value  # a str: a string attribute's value (Pad's mode)
    if isinstance(node, ast.Name) and node.id in ("nan", "inf"):
        return math.nan if node.id == "nan" else math.inf
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand, text)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner
    raise ExampleError(f"{text!r}: only numbers, nan, inf, True, False, strings, lists and None are allowed")


def parse_example(title: str, operator: str, types: list[str], body: list[str], source: str = "") -> Example:
    if operator not in operators():
        raise ExampleError(f"no operator {operator!r}")
    unknown = [t for t in types if t not in TYPE_NAMES]
    if unknown or not types:
        raise ExampleError(f":types: must list SONNX types, got {' '.join(types) or 'nothing'}")
    op = operators()[operator]
    wrong = [t for t in types if TYPE_NAMES[t] not in op.dtypes(op.main_type)]
    if wrong:
        raise ExampleError(f"{operator} does not take {', '.join(wrong)}")
    example = Example(title, operator, [TYPE_NAMES[t] for t in types], [], source=source)
    attribute_names = {a.name for a in op.attributes}
    output = op.outputs[0].name
    outputs: list[tuple[str, Value]] = []
    for line in filter(None, (raw.strip() for raw in body)):
        match = LINE.match(line)
        if not match:
            raise ExampleError(f"expected `NAME = value`, got {line!r}")
        name, text = match["name"], match["value"]
        if is_output(op, name):
            outputs.append((name, parse_value(text)))
        elif name == "error":
            if text not in rules():
                raise ExampleError(f"error = {text}: not a rule id")
            example.error = text
        elif name in attribute_names:
            example.attributes[name] = parse_value(text)
        else:
            example.inputs.append((name, parse_value(text)))
    names = [name for name, _ in example.inputs]
    wanted = op.input_names(len(names))
    if names != wanted:
        raise ExampleError(
            f"{operator} takes inputs {', '.join(wanted) or 'none'}; the example gives {', '.join(names)}"
        )
    missing = attribute_names - set(example.attributes)
    if missing:
        raise ExampleError(f"give the attributes {', '.join(sorted(missing))} (use None for an omitted one)")
    if outputs:
        stated = [name for name, _ in outputs]
        if stated != op.output_names(len(stated)):
            raise ExampleError(
                f"{operator} gives outputs {', '.join(op.output_names(len(stated)))}, in order"
            )
        example.output_names, example.has_expected = stated, True
        example.expected = [value for _, value in outputs] if op.returns_tuple else outputs[0][1]
        output = stated[0] if len(stated) == 1 else f"{stated[0]} = …, {stated[-1]}"
    if (example.error is None) == (not example.has_expected):
        raise ExampleError(f"give either `{output} = …` or `error = <rule id>`")
    return example


def is_output(op: Operator, name: str) -> bool:
    """Whether ``name`` is an output of ``op``: Y, or Y0, Y1, … for a variadic output."""
    fixed = {t.name for t in op.outputs if not t.variadic}
    variadic = next((t.name for t in op.outputs if t.variadic), None)
    return name in fixed or (variadic is not None and re.fullmatch(rf"{variadic}\d+", name) is not None)


def to_numpy(value: Value, dtype: np.dtype) -> np.ndarray | np.generic | None:
    """The example value as a numpy array (a list) or scalar of ``dtype``; exact for integers."""
    if value is None:
        return None
    flat = np.ravel(np.array(value, dtype=object))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        for v in flat:
            if not isinstance(v, int) or isinstance(v, bool) or not info.min <= v <= info.max:
                raise ExampleError(f"{v!r} is not a value of {dtype.name}")
    elif dtype == np.bool_ and not all(isinstance(v, bool) for v in flat):
        raise ExampleError(f"{value!r}: a bool tensor holds True and False")
    if dtype.kind == "f" or dtype.name == "bfloat16":  # a decimal literal, rounded once to the type
        array = rounded_to(np.array(value, dtype=np.float64), dtype)
    else:
        array = np.array(value, dtype=dtype)
    return array if isinstance(value, list) else array[()]


def check(example: Example) -> list[str]:
    """Run the example for each of its types; the mismatches, described."""
    problems = []
    op = example.spec
    for dtype in example.types:
        args, kwargs = example.arguments(dtype)
        try:
            result = op.function(*args, **kwargs)
        except SonnxError as error:
            if error.req_id != example.error:
                problems.append(
                    f"{dtype.name}: refused with {error.req_id} ({error.problem}), "
                    f"the example says {'error = ' + example.error if example.error else 'it gives a result'}"
                )
            continue
        if example.error:
            problems.append(f"{dtype.name}: gave {result!r}, the example says error = {example.error}")
            continue
        outputs, expected = op.results(result), example.expected_arrays(dtype)
        if len(outputs) != len(expected) or not all(
            same_result(ours, stated) for ours, stated in zip(outputs, expected, strict=True)
        ):
            problems.append(f"{dtype.name}: gave {result!r}, the example says {example.expected!r}")
    return problems


def examples_in(path: Path, operator: str | None = None) -> Iterator[Example]:
    """The examples of a Markdown page, read as the site reads them (``operator``: the page's)."""
    lines = path.read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start, colons, options, body = i + 1, match["colons"], {}, []
        i += 1
        while i < len(lines) and lines[i].strip() != colons:
            option = re.match(r"^:(\w+):\s*(.*)$", lines[i])
            if option and not body:
                options[option[1]] = option[2]
            else:
                body.append(lines[i])
            i += 1
        name = options.get("operator", operator)
        if name is None:
            raise ExampleError(f"{path}:{start}: the example names no operator")
        yield parse_example(match["title"], name, options.get("types", "").split(), body, f"{path}:{start}")
        i += 1
