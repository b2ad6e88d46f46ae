"""Predicates the operators use to check their inputs.

The operators make the checks themselves, each next to the id of the rule it
enforces; these helpers only answer questions about one value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .types import family_of


def is_sparse(value: Any) -> bool:
    """True for sparse matrices and arrays (scipy.sparse, pydata sparse, torch)."""
    if getattr(value, "is_sparse", False) is True:
        return True
    return hasattr(value, "nnz") and hasattr(value, "todense")


def is_explicit(value: Any) -> bool:
    """True for a plain numpy array or numpy scalar: shape and element type explicit.

    Python numbers and lists carry no element type; ndarray subclasses (masked
    arrays, matrices) carry semantics of their own, so they are not accepted.
    """
    return type(value) is np.ndarray or isinstance(value, np.generic)


def sonnx_family(value: np.ndarray | np.generic) -> str | None:
    """The type family of an explicit value, or None for a type outside the twelve."""
    return family_of(value.dtype)


def describe(value: Any) -> str:
    """A short description of a value for an error message: its type and dtype."""
    dtype = getattr(value, "dtype", None)
    kind = type(value).__module__.split(".")[0] + "." + type(value).__qualname__
    if kind.startswith("builtins."):
        kind = kind.removeprefix("builtins.")
    return f"{kind} of dtype {dtype}" if dtype is not None else kind


def first_index(mask: np.ndarray) -> tuple[int, ...]:
    """The index of the first True element of ``mask`` (which has at least one)."""
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(mask)), mask.shape))
