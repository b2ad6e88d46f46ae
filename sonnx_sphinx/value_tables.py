"""Tables computed by the reference while the site is built (the code the pages' live cells run).

A special-values table runs an operator on the special values of every type of
a family (NaN, ±0, ±∞, extremes) and shows what it returns or which rule
refuses the input. Nothing here decides a result: the reference does.
No Sphinx here: the Jupyter kernel of a live cell imports this module.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ml_dtypes
import numpy as np

from sonnx_spec import FAMILIES, TYPES, Operator, SonnxError, operators

FLOAT_SPECIALS: dict[str, Callable[[np.dtype], float]] = {
    "NaN": lambda t: math.nan,
    "−∞": lambda t: -math.inf,
    "lowest": lambda t: float(ml_dtypes.finfo(t).min),
    "−1": lambda t: -1.0,
    "−min subnormal": lambda t: -float(ml_dtypes.finfo(t).smallest_subnormal),
    "−0": lambda t: -0.0,
    "+0": lambda t: 0.0,
    "min subnormal": lambda t: float(ml_dtypes.finfo(t).smallest_subnormal),
    "+1": lambda t: 1.0,
    "+2": lambda t: 2.0,
    "max": lambda t: float(ml_dtypes.finfo(t).max),
    "+∞": lambda t: math.inf,
}
INT_SPECIALS: dict[str, Callable[[np.dtype], int]] = {
    "min": lambda t: int(np.iinfo(t).min),
    "min + 1": lambda t: int(np.iinfo(t).min) + 1,
    "−1": lambda t: -1,
    "0": lambda t: 0,
    "1": lambda t: 1,
    "2": lambda t: 2,
    "max − 1": lambda t: int(np.iinfo(t).max) - 1,
    "max": lambda t: int(np.iinfo(t).max),
}
BOOL_SPECIALS = {"true": True, "false": False}
UNARY = {
    "float": ["NaN", "−∞", "lowest", "−1", "−min subnormal", "−0", "+0", "+1", "max", "+∞"],
    "int": ["min", "min + 1", "−1", "0", "1", "max"],
}
BINARY = {
    "float": [
        ("NaN", "+1"),
        ("+1", "NaN"),
        ("+0", "−0"),
        ("−0", "+0"),
        ("−0", "−0"),
        ("+1", "+0"),
        ("+1", "−0"),
        ("+0", "+0"),
        ("+∞", "+∞"),
        ("+∞", "−∞"),
        ("−∞", "+1"),
        ("max", "max"),
        ("max", "+2"),
        ("min subnormal", "+2"),
    ],
    "int": [
        ("max", "1"),
        ("min", "−1"),
        ("min", "1"),
        ("max", "max"),
        ("min", "min"),
        ("max", "2"),
        ("1", "0"),
        ("0", "0"),
        ("−1", "2"),
    ],
}
"""The default cases of an operator of two inputs: the questions implementers ask of every one."""


class Table:
    """An HTML table that Jupyter (and so jupyter-sphinx) displays."""

    def __init__(self, headers: Sequence[str], rows: Sequence[Sequence[str]], caption: str = "") -> None:
        self.headers, self.rows, self.caption = headers, rows, caption

    def __repr__(self) -> str:
        """The table as text: what Jupyter shows without HTML, and what the search index reads."""
        rows = [list(self.headers), *map(list, self.rows)]
        widths = [max(len(row[i]) for row in rows) for i in range(len(self.headers))]
        lines = [
            "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)) for row in rows
        ]
        return "\n".join([self.caption, *lines] if self.caption else lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in self.rows
        )
        caption = f"<caption>{html.escape(self.caption)}</caption>" if self.caption else ""
        table = f"{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
        return f'<div class="sonnx-scroll"><table class="sonnx-values">{table}</table></div>'


def show(value: np.generic) -> str:
    """A value as the notation page writes it: integers exact, every float in shortest form."""
    if value.dtype == np.bool_:
        return "true" if value else "false"
    if value.dtype.kind in "iu":
        return str(int(value)).replace("-", "−")
    v = float(np.float64(value))
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+∞" if v > 0 else "−∞"
    if v == 0:
        return "−0" if math.copysign(1.0, v) < 0 else "+0"
    text = repr(v)
    if text.endswith(".0"):  # 2.0 is written 2, as the examples and the notation write it
        text = text[:-2]
    return text.replace("-", "−")


def outcome(op: Operator, args: list[Any], kwargs: Mapping[str, Any]) -> str:
    try:
        return show(op.function(*args, **kwargs)[()])
    except SonnxError as error:
        return f"refused: {error.req_id}"


def _value(name: str, dtype: np.dtype) -> np.generic | None:
    if dtype == np.bool_:
        return np.bool_(BOOL_SPECIALS[name]) if name in BOOL_SPECIALS else None
    specials = INT_SPECIALS if dtype.kind in "iu" else FLOAT_SPECIALS
    if name not in specials:
        return None
    value = specials[name](dtype)
    if dtype.kind == "u" and value < 0:
        return None
    return np.array(value, dtype=dtype)[()]


def default_cases(op: Operator, family: str) -> list[tuple[str, ...]]:
    """Every special value for one input; the standard pairs for two inputs of one type."""
    arity = len(op.input_names(2))
    if arity == 1:
        return [(name,) for name in UNARY[family]]
    if arity == 2 and len({t.type for t in op.inputs}) == 1:
        return BINARY[family]
    raise ValueError(f"{op.name}: give the cases of its special-values table")


def table(
    operator: str,
    family: str,
    cases: Sequence[Sequence[str]] | None = None,
    attributes: Mapping[str, Any] | None = None,
) -> Table:
    """What ``operator`` gives on ``cases`` (names of special values, one per input) for every type
    of ``family`` it takes; "—" where a value does not exist in a type (−1 in uint8)."""
    op = operators()[operator]
    cases = default_cases(op, family) if cases is None else cases
    types = [t for t in FAMILIES[family] if t in op.dtypes(op.main_type)]
    names = op.input_names(len(cases[0]))
    input_types = [op.inputs[0].type] * len(names) if op.inputs[0].variadic else [t.type for t in op.inputs]
    rows = []
    for case in cases:
        cells = list(case)
        for dtype in types:
            args = [
                _value(value, dtype if dtype in op.dtypes(t) else op.dtypes(t)[0])
                for value, t in zip(case, input_types, strict=True)
            ]
            cells.append("—" if any(a is None for a in args) else outcome(op, args, attributes or {}))
        rows.append(cells)
    given = ", ".join(f"{k} = {v}" for k, v in (attributes or {}).items())
    call = f"{operator}({', '.join(names)}{'; ' + given if given else ''})"
    scalars = {t.name for t in op.inputs if t.rank == 0}
    headers = [n if n in scalars else f"{n}[i]" for n in names]
    return Table(headers + [t.name for t in types], rows, f"{call}[i], {family} family")


def types_table() -> Table:
    rows = []
    for dtype in TYPES:
        family = "int" if dtype.kind in "iu" else "float"
        info = np.iinfo(dtype) if family == "int" else ml_dtypes.finfo(dtype)
        low, high = np.array(info.min, dtype)[()], np.array(info.max, dtype)[()]
        precision = "exact" if family == "int" else f"{info.nmant} fraction bits, ε = {float(info.eps):g}"
        rows.append([dtype.name, family, str(8 * dtype.itemsize), show(low), show(high), precision])
    return Table(["Type", "Family", "Bits", "Lowest", "Highest", "Precision"], rows)
