"""Operator families: what the members of a family share, written once.

A family is a kind of operator (element-wise unary, element-wise binary
arithmetic, comparison, variadic, data movement…) whose members share their checks and the
scalar semantics of their types. Each family module gives the helpers its members
compute with; an operator module states only what is its own: its function and
docstring, its rule ids on the lines that check them, and the family it belongs
to, declared once, after its registration (``member(BINARY_ARITHMETIC, add)``).
The family tests and the site list a family's members from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..registry import Operator, operators

UNARY = "element-wise unary"
BINARY_ARITHMETIC = "element-wise binary arithmetic"
COMPARISON = "comparison"
VARIADIC = "variadic"
DATA_MOVEMENT = "data movement"
FAMILIES = (UNARY, BINARY_ARITHMETIC, COMPARISON, VARIADIC, DATA_MOVEMENT)
"""The families an operator may be declared a member of."""

_FAMILY_OF: dict[str, str] = {}


def member(family: str, function: Callable[..., Any]) -> None:
    """Declare the registered operator ``function`` a member of ``family``."""
    if family not in FAMILIES:
        raise ValueError(f"unknown operator family {family!r} (known: {', '.join(FAMILIES)})")
    _FAMILY_OF[function.operator.name] = family  # type: ignore[attr-defined]


def members(family: str) -> list[Operator]:
    """The operators of ``family``, in the registry's (alphabetical) order."""
    return [op for name, op in operators().items() if _FAMILY_OF.get(name) == family]
