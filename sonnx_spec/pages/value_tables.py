"""The special values of each type by name (NaN, ±0, ±∞, extremes), the notation of the pages' tables,
and the types table computed while the site is built (the Jupyter kernel of a live cell imports this).

The special-values tables themselves are data: :mod:`.special_values`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

from sonnx_spec import TYPES

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


def special_value(name: str, dtype: np.dtype) -> np.generic | None:
    if dtype == np.bool_:
        return np.bool_(BOOL_SPECIALS[name]) if name in BOOL_SPECIALS else None
    specials = INT_SPECIALS if dtype.kind in "iu" else FLOAT_SPECIALS
    if name not in specials:
        return None
    value = specials[name](dtype)
    if dtype.kind == "u" and value < 0:
        return None
    return np.array(value, dtype=dtype)[()]


def types_table() -> Table:
    rows = []
    for dtype in TYPES:
        family = "int" if dtype.kind in "iu" else "float"
        info = np.iinfo(dtype) if family == "int" else ml_dtypes.finfo(dtype)
        low, high = np.array(info.min, dtype)[()], np.array(info.max, dtype)[()]
        precision = "exact" if family == "int" else f"{info.nmant} fraction bits, ε = {float(info.eps):g}"
        rows.append([dtype.name, family, str(8 * dtype.itemsize), show(low), show(high), precision])
    return Table(["Type", "Family", "Bits", "Lowest", "Highest", "Precision"], rows)
