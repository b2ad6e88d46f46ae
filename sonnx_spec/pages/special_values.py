"""Special-values tables as data: what each operator gives on NaN, ±0, ±∞, subnormals and extremes.

Each row is written once, in the operator's rules file (``sonnx_spec/requirements/<op>.toml``), from
the specification (the drafts, IEEE 754), not from the reference's output::

    [[special]]
    inputs = ["NaN", "−1", "+1"]  # one special value per input, by name (value_tables.FLOAT_SPECIALS …),
                                  # a name in brackets for a tensor of that one element and rank 1 or more
                                  # ("[NaN]": shape (1,)), or a tensor in the examples' notation: "[]",
                                  # "[2, 3]" (Reshape's shape)
    types = "float"               # "float", "int", "signed", "unsigned", or a list of type names
    output = "NaN"                # a value's name, a decimal (rounded once to the type), or "refused"
    rule = "CLIP_S3"              # the rule that gives this output; for "refused", the rule that refuses
    attributes = { alpha = 0.01 } # if the operator has attributes: a tensor attribute by a value's name
                                  # (a list attribute as a list: perm = [])

A row holds for the types of its ``types`` that the operator takes and that have all its input values
(−1 is no uint8 value). For one family, the rows with the same inputs and attributes must give each type
exactly once: a table has no hole and no cell stated twice. The page's ``{special-values}`` renders these
rows; the build, the tests (``tests/test_special_values.py``), the conformance runs and the formal harness
check the reference, the engines and the Why3 specifications against them.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from sonnx_spec import FAMILIES, Operator, SonnxError, operators, rules
from sonnx_spec.compare import same_result
from sonnx_spec.ids import KINDS
from sonnx_spec.requirements import files

from .example_language import ExampleError, dtype_of, input_types, parse_value, to_numpy
from .value_tables import BOOL_SPECIALS, FLOAT_SPECIALS, INT_SPECIALS, show, special_value

REFUSED = "refused"
TYPE_GROUPS = {
    "float": lambda t: t in FAMILIES["float"],
    "int": lambda t: t in FAMILIES["int"],
    "signed": lambda t: t.kind == "i",
    "unsigned": lambda t: t.kind == "u",
    "bool": lambda t: t in FAMILIES["bool"],
}
_KEYS = {"inputs", "types", "output", "rule", "attributes"}
_HEADER = re.compile(r"^[ \t]*\[\[special\]\]", re.MULTILINE)


class SpecialValuesError(ValueError):
    """A row of a special-values table is malformed, or a table has a hole or a cell stated twice."""


@dataclass(frozen=True)
class Row:
    """One row of an operator's special-values data, for the types it holds for."""

    operator: str
    inputs: tuple[str, ...]
    attributes: tuple[tuple[str, Any], ...]
    types: tuple[np.dtype, ...]
    output: str
    rule: str
    source: str  # path:line of its [[special]], for messages

    @property
    def spec(self) -> Operator:
        return operators()[self.operator]

    @property
    def family(self) -> str:
        return next(name for name, members in FAMILIES.items() if self.types[0] in members)

    @property
    def refused(self) -> bool:
        return self.output == REFUSED

    def call(self, dtype: np.dtype) -> tuple[list[Any], dict[str, Any]]:
        """The operator's arguments for ``dtype``: the named values as 0-d arrays, tensors as written."""
        op = self.spec
        types = input_types(op, len(self.inputs))
        args = [input_value(name, dtype_of(op, t, dtype)) for name, t in zip(self.inputs, types, strict=True)]
        kwargs = {}
        for name, value in self.attributes:
            attribute = next(a for a in op.attributes if a.name == name)
            if attribute.kind == "tensor":
                kwargs[name] = np.asarray(special_value(value, dtype_of(op, attribute.type or "", dtype)))
            else:
                kwargs[name] = value
        return args, kwargs

    def expected(self, dtype: np.dtype) -> np.ndarray:
        """The output the row states for ``dtype``, as a 0-d array of the output's type."""
        op = self.spec
        out = op.output_dtype(dtype, dict(self.attributes))
        depth, name = nested(self.output)
        value = special_value(name, out)
        if value is not None:
            return np.asarray(value).reshape((1,) * depth)  # "[[NaN]]": Flatten's Y of shape (1, 1)
        try:
            return np.asarray(to_numpy(parse_value(self.output.replace("−", "-")), out))
        except ExampleError as error:
            raise SpecialValuesError(f"{self.source}: output {self.output!r}: {error}") from None

    def check(self, dtype: np.dtype) -> str | None:
        """What the reference does otherwise than the row says for ``dtype``, or None."""
        args, kwargs = self.call(dtype)
        try:
            result = self.spec.function(*args, **kwargs)
        except SonnxError as error:
            if self.refused and error.req_id == self.rule:
                return None
            return f"{dtype.name}: the reference refuses it ({error.req_id}), the row says {self.output}"
        if self.refused:
            return f"{dtype.name}: the reference gives {shown(result)}, the row says refused ({self.rule})"
        if not same_result(result, self.expected(dtype)):
            return f"{dtype.name}: the reference gives {shown(result)}, the row says {self.output}"
        return None

    def shown(self, dtype: np.dtype) -> str:
        """The cell of the page's table: the stated output in the notation of the pages."""
        return f"{REFUSED}: {self.rule}" if self.refused else shown(self.expected(dtype))


def nested(output: str) -> tuple[int, str]:
    """A row's output as the number of brackets around it and what they hold: ``[[NaN]]`` is ``(2, "NaN")``,
    the one element of a tensor of shape (1, 1) (a data movement operator's result on a 0-d input may
    have a rank of its own); ``NaN`` is ``(0, "NaN")``."""
    depth = len(output) - len(output.lstrip("["))
    if depth and output.endswith("]" * depth):
        return depth, output[depth:-depth]
    return 0, output


def shown(result: np.ndarray) -> str:
    """A result of one element in the notation of the pages, in brackets as many as its rank."""
    result = np.asarray(result)
    if result.size != 1:
        return str(result.tolist())
    return "[" * result.ndim + show(result.reshape(-1)[0]) + "]" * result.ndim


def input_value(name: str, dtype: np.dtype) -> np.ndarray | None:
    """A row's input: a value's name as a 0-d tensor of ``dtype``; a value's name in brackets as a tensor of
    that one element and of rank the number of brackets (``[NaN]``: an input of rank 1 or more, Concat's,
    Gather's data); or a tensor written in brackets in the examples' notation (an input that places
    elements rather than holding them: Reshape's shape ``[]``); None if ``dtype`` has no such value."""
    depth, inner = nested(name)
    if depth and special_value(inner, dtype) is not None:
        return np.asarray(special_value(inner, dtype)).reshape((1,) * depth)
    if name.startswith("["):
        try:
            return np.asarray(to_numpy(parse_value(name.replace("−", "-")), dtype))
        except ExampleError:
            return None
    value = special_value(name, dtype)
    return None if value is None else np.asarray(value)


def _has_values(
    op: Operator, inputs: tuple[str, ...], attributes: Mapping[str, Any], dtype: np.dtype
) -> bool:
    """Whether every value the row names exists in the tensors' types for ``dtype`` (−1 is no uint8)."""
    named = list(zip(inputs, input_types(op, len(inputs)), strict=True))
    named += [(attributes[a.name], a.type or "") for a in op.attributes if a.kind == "tensor"]
    return all(input_value(name, dtype_of(op, tensor, dtype)) is not None for name, tensor in named)


def _types(op: Operator, group: str | list[str], source: str) -> list[np.dtype]:
    """The operator's types that ``types = …`` names."""
    taken = op.dtypes(op.main_type)
    if isinstance(group, str):
        if group not in TYPE_GROUPS:
            raise SpecialValuesError(
                f"{source}: types = {group!r}: one of {', '.join(TYPE_GROUPS)}, or a list"
            )
        return [t for t in taken if TYPE_GROUPS[group](t)]
    wrong = [n for n in group if n not in {t.name for t in taken}]
    if wrong:
        raise SpecialValuesError(f"{source}: {op.name} does not take {', '.join(wrong)}")
    return [t for t in taken if t.name in group]


def _names(dtype: np.dtype) -> Mapping[str, Any]:
    if dtype == np.bool_:
        return BOOL_SPECIALS
    return INT_SPECIALS if dtype.kind in "iu" else FLOAT_SPECIALS


def _row(op: Operator, raw: dict, source: str) -> Row:
    unknown = set(raw) - _KEYS
    missing = {"inputs", "types", "output", "rule"} - set(raw)
    if unknown or missing:
        raise SpecialValuesError(
            f"{source}: keys {sorted(_KEYS)}; unknown {sorted(unknown)}, missing {sorted(missing)}"
        )
    types = _types(op, raw["types"], source)
    inputs = tuple(raw["inputs"])
    if len(inputs) != len(op.input_names(len(inputs))) or (not op.inputs and inputs):
        raise SpecialValuesError(f"{source}: {op.name} takes inputs {', '.join(op.input_names(2))}")
    # a list attribute (Transpose's perm) as a tuple: what the reference takes, and a row's key is hashable
    attributes = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.get("attributes", {}).items()}
    if set(attributes) != {a.name for a in op.attributes}:
        raise SpecialValuesError(f"{source}: give the attributes {', '.join(a.name for a in op.attributes)}")
    tensor_types = input_types(op, len(inputs))
    for t in types:  # every name is a value of some type of the row
        for name, tensor in zip(inputs, tensor_types, strict=True):
            if not name.startswith("[") and name not in _names(dtype_of(op, tensor, t)):
                raise SpecialValuesError(f"{source}: {name!r} names no special value of {t.name}")
    types = [t for t in types if _has_values(op, inputs, attributes, t)]
    if not types:
        raise SpecialValuesError(f"{source}: no type of {op.name} has all these values")
    rule = raw["rule"]
    if rule not in rules():
        raise SpecialValuesError(f"{source}: rule = {rule!r}: not a rule id")
    if (raw["output"] == REFUSED) != (rules()[rule].kind == KINDS["E"]):
        raise SpecialValuesError(f"{source}: a refused row cites an error rule, and only a refused row does")
    row = Row(op.name, inputs, tuple(attributes.items()), tuple(types), raw["output"], rule, source)
    for t in types:
        if not row.refused:
            row.expected(t)  # the output is a value of every type of the row
    return row


def rows_in(operator: str, path: Path, text: str) -> list[Row]:
    """The ``[[special]]`` rows of one rules file, each with the line of its header."""
    op = operators()[operator]
    lines = [text[: m.start()].count("\n") + 1 for m in _HEADER.finditer(text)]
    raw_rows = tomllib.loads(text).get("special", [])
    return [_row(op, raw, f"{path}:{line}") for raw, line in zip(raw_rows, lines, strict=True)]


@cache
def special_rows() -> dict[str, tuple[Row, ...]]:
    """Every operator's rows, checked for holes and cells stated twice, by operator name."""
    found = {}
    for scope, path, text in files():
        if scope in operators():
            found[scope] = tuple(rows_in(scope, path, text))
            check_complete(found[scope])
    return found


def rows_of(operator: str) -> tuple[Row, ...]:
    return special_rows().get(operator, ())


def check_complete(rows: tuple[Row, ...]) -> None:
    """No cell of a table stated twice, and no hole: each type that has the values of a line is given."""
    given: dict[tuple, dict[np.dtype, Row]] = {}
    for row in rows:
        cells = given.setdefault((row.family, row.inputs, row.attributes), {})
        for t in row.types:
            if t in cells:
                raise SpecialValuesError(f"{row.source}: {t.name} is given by {cells[t].source} already")
            cells[t] = row
    for (family, inputs, attributes), cells in given.items():
        first = next(iter(cells.values()))
        op = first.spec
        for t in FAMILIES[family]:
            if (
                t in op.dtypes(op.main_type)
                and t not in cells
                and _has_values(op, inputs, dict(attributes), t)
            ):
                raise SpecialValuesError(f"{first.source}: no row gives {', '.join(inputs)} for {t.name}")


@dataclass(frozen=True)
class Table:
    """A page's table: one family, one set of scalar attributes; a line per inputs, a cell per type."""

    family: str
    attributes: tuple[tuple[str, Any], ...]  # the attributes that are not tensors, shown in the caption
    columns: tuple[str, ...]  # inputs, then tensor attributes
    types: tuple[np.dtype, ...]
    lines: tuple[tuple[tuple[str, ...], dict[np.dtype, Row]], ...]


def tables(operator: str) -> Iterator[Table]:
    """The tables of an operator's page, in the order of its families and rows."""
    op = operators()[operator]
    tensor_attributes = [a.name for a in op.attributes if a.kind == "tensor"]
    for family in op.families:
        grouped: dict[tuple, dict[tuple[str, ...], dict[np.dtype, Row]]] = {}
        for row in rows_of(operator):
            if row.family != family:
                continue
            scalars = tuple((k, v) for k, v in row.attributes if k not in tensor_attributes)
            values = row.inputs + tuple(v for k, v in row.attributes if k in tensor_attributes)
            cells = grouped.setdefault(scalars, {}).setdefault(values, {})
            cells.update(dict.fromkeys(row.types, row))
        types = tuple(t for t in FAMILIES[family] if t in op.dtypes(op.main_type))
        columns = tuple(op.input_names(len(next(iter(rows_of(operator))).inputs))) + tuple(tensor_attributes)
        for scalars, lines in grouped.items():
            yield Table(family, scalars, columns, types, tuple(lines.items()))
