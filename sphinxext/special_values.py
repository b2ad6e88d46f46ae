"""Tables computed by the reference while the site is built (imported by the pages' live cells).

Each table runs ``sonnx_spec`` on the special values of every type of a family
(NaN, ±0, ±inf, extremes) and shows what it returns or which rule refuses the
input. Nothing here decides a result: the reference does.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

import sonnx_spec
from sonnx_spec import FAMILIES, TYPES, SonnxError

Value = int | float
FLOAT_SPECIALS: dict[str, Callable[[np.dtype], float]] = {
    "NaN": lambda t: math.nan,
    "−∞": lambda t: -math.inf,
    "lowest": lambda t: float(ml_dtypes.finfo(t).min),
    "−1": lambda t: -1.0,
    "−min subnormal": lambda t: -float(ml_dtypes.finfo(t).smallest_subnormal),
    "−0": lambda t: -0.0,
    "+0": lambda t: 0.0,
    "+1": lambda t: 1.0,
    "max": lambda t: float(ml_dtypes.finfo(t).max),
    "+∞": lambda t: math.inf,
}
INT_SPECIALS: dict[str, Callable[[np.dtype], int]] = {
    "min": lambda t: int(np.iinfo(t).min),
    "min + 1": lambda t: int(np.iinfo(t).min) + 1,
    "−1": lambda t: -1,
    "0": lambda t: 0,
    "1": lambda t: 1,
    "max": lambda t: int(np.iinfo(t).max),
}


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
        return f'<table class="sonnx-values">{table}</table>'


def show(value: np.generic) -> str:
    """A value as the notation page writes it."""
    if value.dtype.kind in "iu":
        return str(int(value))
    v = float(np.float64(value))
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+∞" if v > 0 else "−∞"
    if v == 0:
        return "−0" if math.copysign(1.0, v) < 0 else "+0"
    return repr(v).replace("-", "−")


def outcome(operator: Callable[..., np.ndarray], *args: np.generic) -> str:
    try:
        return show(operator(*args)[()])
    except SonnxError as error:
        return f"refused: {error.req_id}"


def _value(name: str, dtype: np.dtype) -> np.generic | None:
    specials = INT_SPECIALS if dtype.kind in "iu" else FLOAT_SPECIALS
    if name not in specials:
        return None
    value = specials[name](dtype)
    if dtype.kind == "u" and value < 0:
        return None
    return np.array(value, dtype=dtype)[()]


def _rows(
    family: str, cases: Sequence[Sequence[str]], operator: Callable[..., np.ndarray]
) -> list[list[str]]:
    rows = []
    for case in cases:
        cells = list(case)
        for dtype in FAMILIES[family]:
            args = [_value(name, dtype) for name in case]
            cells.append("—" if any(a is None for a in args) else outcome(operator, *args))
        rows.append(cells)
    return rows


def abs_table(family: str) -> Table:
    specials = INT_SPECIALS if family == "int" else FLOAT_SPECIALS
    rows = _rows(family, [[name] for name in specials], sonnx_spec.abs)
    return Table(["X[i]", *(t.name for t in FAMILIES[family])], rows, f"abs(X)[i], {family} family")


def max_table(family: str) -> Table:
    if family == "float":
        pairs = [
            ("NaN", "+1"),
            ("+1", "NaN"),
            ("NaN", "−∞"),
            ("+0", "−0"),
            ("−0", "+0"),
            ("−0", "−0"),
            ("+∞", "−∞"),
            ("−∞", "lowest"),
            ("max", "+∞"),
            ("−min subnormal", "−0"),
        ]
    else:
        pairs = [("min", "max"), ("min", "min + 1"), ("−1", "0"), ("max", "min"), ("0", "1")]
    rows = _rows(family, pairs, sonnx_spec.max)
    return Table(
        ["X0[i]", "X1[i]", *(t.name for t in FAMILIES[family])], rows, f"max(X0, X1)[i], {family} family"
    )


def clip_table(family: str) -> Table:
    if family == "float":
        cases = [
            ("NaN", "−1", "+1"),
            ("NaN", "+1", "−1"),
            ("−0", "+0", "+1"),
            ("+0", "−1", "−0"),
            ("+1", "+0", "−0"),
            ("+∞", "−∞", "+∞"),
            ("−∞", "−1", "+1"),
            ("+1", "NaN", "+1"),
            ("+1", "−1", "NaN"),
            ("max", "lowest", "−0"),
        ]
    else:
        cases = [
            ("min", "min", "max"),
            ("max", "min", "max"),
            ("min", "0", "max"),
            ("max", "−1", "0"),
            ("0", "max", "min"),
            ("min + 1", "min", "min"),
        ]
    rows = _rows(family, cases, sonnx_spec.clip)
    return Table(
        ["X[i]", "L", "M", *(t.name for t in FAMILIES[family])], rows, f"clip(X, L, M)[i], {family} family"
    )


def types_table() -> Table:
    rows = []
    for dtype in TYPES:
        family = "int" if dtype.kind in "iu" else "float"
        info = np.iinfo(dtype) if family == "int" else ml_dtypes.finfo(dtype)
        low, high = np.array(info.min, dtype)[()], np.array(info.max, dtype)[()]
        precision = "exact" if family == "int" else f"{info.nmant} fraction bits, ε = {float(info.eps):g}"
        rows.append([dtype.name, family, str(8 * dtype.itemsize), show(low), show(high), precision])
    return Table(["Type", "Family", "Bits", "Lowest", "Highest", "Precision"], rows)
