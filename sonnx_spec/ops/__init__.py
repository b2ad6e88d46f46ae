"""One module per operator: its checks, each next to its rule id, then its semantics."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from .abs import abs  # noqa: A004 - the operator's name
from .clip import clip
from .max import max  # noqa: A004 - the operator's name

OPERATORS: dict[str, Callable[..., object]] = {"clip": clip, "max": max, "abs": abs}


def input_names(operator: str, count: int) -> list[str]:
    """The names the specification gives an operator's inputs, read from its signature.

    clip: X, L, M; abs: X; max, which is variadic: X0, X1, … (``count`` of them).
    """
    parameters = list(inspect.signature(OPERATORS[operator]).parameters.values())
    if parameters[0].kind is inspect.Parameter.VAR_POSITIONAL:
        return [f"{parameters[0].name}{m}" for m in range(count)]
    return [p.name for p in parameters]
