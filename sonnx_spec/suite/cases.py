"""The suite's cases, derived from the special-values rows: the one place their values are written."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..accuracy import Ulps, engine_bound
from ..pages.special_values import Row, special_rows
from ..requirements import catalogue
from ..types import FLOAT_TYPES


@dataclass(frozen=True)
class Case:
    """One operator applied to 0-d inputs, with the output the profile gives, or the rule refusing it."""

    name: str  # unique, a folder name: test_sonnx_<op>_<inputs>_<type>
    operator: str  # the reference's name (``leaky_relu``)
    onnx: str  # ONNX's name and the version the profile is based on
    version: int
    dtype: np.dtype  # the type of the row's table this case is the cell of
    rule: str
    inputs: tuple[np.ndarray, ...]
    attributes: tuple[tuple[str, Any], ...]
    expected: np.ndarray | None  # None: the profile refuses the inputs (``rule`` says why)
    row: str  # the row's [[special]], path:line

    @property
    def refused(self) -> bool:
        return self.expected is None

    def manifest(self) -> dict[str, Any]:
        """What a grader needs besides the files: the rule proved, and how the output is judged."""
        origins = [str(o) for o in catalogue().rules[self.rule].origin]
        bound = self.bound()
        labels = catalogue().labels(self.operator, self.rule)
        return {
            "name": self.name,
            "operator": self.onnx,
            "opset": self.version,
            "type": self.dtype.name,
            "rule": self.rule,
            "origin": origins,
            "draft_labels": list(labels),
            "result": "refused" if self.refused else "bounded" if bound else "exact",
            "bound": None if bound is None else {"rule": bound[0], "steps": bound[1]},
            "judged": (
                "an engine conforms by refusing these inputs (an error, no output)"
                if self.refused
                else f"the same element type and shape, and a value at most {bound[1]} step(s) from the "
                f"expected one in the type's order (±0 one step apart, a NaN only where a NaN is expected): "
                f"{bound[0]}"
                if bound
                else "the same element type, shape and bits; every NaN is alike (sign and payload aside)"
            ),
            "special_values_row": self.row,
        }

    def bound(self) -> tuple[str, int] | None:
        """The accuracy rule of the operator and the steps it allows an engine on this case, where it
        allows any (Exp's EXP_P2 on a finite input); None where the output must be exact."""
        declared = engine_bound(self.operator)
        if self.expected is None or not isinstance(declared, Ulps) or self.expected.dtype not in FLOAT_TYPES:
            return None
        steps = int(declared.allowed(self.expected, self.inputs).max(initial=0))
        return (declared.rule, steps) if steps else None


def _slug(text: str) -> str:
    """A value's name as part of a folder name: −∞ -> minf, +0 -> p0, min + 1 -> min_plus_1."""
    text = text.replace(" + ", " plus ").replace(" − ", " minus ")
    text = text.replace("−", "m").replace("-", "m").replace("+", "p").replace("∞", "inf")
    return re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").lower()


def _relative(source: str) -> str:
    """``…/sonnx_spec/requirements/clip.toml:117`` -> ``sonnx_spec/requirements/clip.toml:117``."""
    parts = source.replace("\\", "/").split("/")
    return "/".join(parts[parts.index("sonnx_spec") :]) if "sonnx_spec" in parts else source


def _cases_of(row: Row) -> Iterator[Case]:
    spec = row.spec
    values = "_".join(_slug(v) for v in row.inputs)
    options = "_".join(f"{k}_{_slug(str(v))}" for k, v in row.attributes)
    for dtype in row.types:
        args, kwargs = row.call(dtype)
        parts = ["test_sonnx", row.operator, values, options, dtype.name]
        yield Case(
            name="_".join(p for p in parts if p),
            operator=row.operator,
            onnx=spec.onnx,
            version=spec.version,
            dtype=dtype,
            rule=row.rule,
            inputs=tuple(np.asarray(a) for a in args),
            attributes=tuple(kwargs.items()),
            expected=None if row.refused else row.expected(dtype),
            row=_relative(row.source),
        )


def cases(operators: set[str] | None = None) -> list[Case]:
    """Every case of the operators named (reference names; None: all), in the order of their rules files.
    Two rows that differ only in attributes of the same text would share a name: a number tells them apart."""
    found: list[Case] = []
    seen: dict[str, int] = {}
    for operator, rows in special_rows().items():
        if operators is not None and operator not in operators:
            continue
        for row in rows:
            for case in _cases_of(row):
                count = seen.get(case.name, 0)
                seen[case.name] = count + 1
                if count:
                    case = Case(**{**case.__dict__, "name": f"{case.name}_{count + 1}"})
                found.append(case)
    return found
