"""What an engine may return for an operator: the reference's result bit for bit, or a result within the
bound the operator's accuracy rule allows engines.

Most operators of the profile are exact: an engine conforms when it gives the reference's result, element
type, shape and bits (every NaN alike). A correctly rounded function cannot ask that of every engine, so its
page states a bound (EXP_P2: the correctly rounded result or one of its two neighbours, the special values
exactly). Such an operator declares the bound once, after its registration, with the id of the rule that
states it: ``engines_within(exp, Ulps(1, "EXP_P2"))``. ``sonnx-spec compare --by-node`` judges each node of
a model with it (:func:`judge`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .correctly_rounded import NOT_A_DISTANCE, ulp_distance
from .registry import operators
from .types import FLOAT_TYPES


@dataclass(frozen=True)
class Ulps:
    """At most ``limit`` steps (:func:`~sonnx_spec.correctly_rounded.ulp_distance`) between an engine's
    element and the reference's, where every input element at that index is finite; the special values
    exactly: a NaN or an infinite input, an input of another shape, and where ``exact_where`` of the
    inputs is true (Log's ln(±0) = −∞ and ln 1 = +0)."""

    limit: int
    rule: str
    exact_where: Callable[..., np.ndarray] | None = None

    def allowed(self, reference: np.ndarray, inputs: Sequence[np.ndarray]) -> np.ndarray:
        """The distance allowed at each element of ``reference``."""
        allowed = np.full(reference.shape, self.limit, np.int64)
        for x in inputs:
            if x.shape != reference.shape:  # no element of it at each index of the result: exact there
                return np.zeros(reference.shape, np.int64)
            with np.errstate(invalid="ignore"):  # bfloat16 flags a signalling NaN as invalid
                allowed[~np.isfinite(x)] = 0
        if self.exact_where is not None:
            with np.errstate(invalid="ignore"):
                allowed[self.exact_where(*inputs)] = 0
        return allowed


@dataclass(frozen=True)
class Unchecked:
    """A bound the operator's page states in terms this module does not evaluate yet (HardSwish's, in
    units in the last place of the exact value): an element that differs from the reference's is neither
    within nor outside it, and the judgement says so, naming the rule."""

    rule: str


Bound = Ulps | Unchecked
_BOUNDS: dict[str, Bound] = {}


def engines_within(function: Callable[..., Any], bound: Bound) -> None:
    """Declare that an engine conforms to the registered operator ``function`` within ``bound``."""
    _BOUNDS[function.operator.name] = bound  # type: ignore[attr-defined]


def engine_bound(operator: str) -> Bound | None:
    """The bound ``operator`` allows engines; None where they must give the reference's result exactly."""
    operators()  # every operator module imported: its declaration made
    return _BOUNDS.get(operator)


@dataclass(frozen=True)
class Judgement:
    """An engine's result for one output of one operator, element by element."""

    rule: str  # the accuracy rule that allows a bound, or "" (bit for bit)
    distance: np.ndarray  # steps from the reference's element (int64); NOT_A_DISTANCE: NaN against a number
    allowed: np.ndarray  # the distance allowed there
    checked: bool = True  # False: the rule's bound is not evaluated here (Unchecked)

    @property
    def verdict(self) -> str:
        """The verdict: "conforms"; "outside", some element is farther than the rule allows; "undecided",
        some element differs from the reference's, and the rule's bound is not evaluated here."""
        if self.conforms:
            return "conforms"
        return "outside" if self.checked else "undecided"

    @property
    def conforms(self) -> bool:
        return bool(np.all(self.distance <= self.allowed))

    @property
    def outside(self) -> int:
        """How many elements are farther from the reference's than allowed."""
        return int(np.count_nonzero(self.distance > self.allowed))

    @property
    def worst(self) -> tuple[int, ...] | None:
        """The index of the element farthest beyond what is allowed (or, if none is, farthest from the
        reference's); None for an empty result or one identical to the reference's."""
        if self.distance.size == 0 or not self.distance.any():
            return None
        excess = self.distance - self.allowed
        flat = int(np.argmax(excess)) if self.outside else int(np.argmax(self.distance))
        return tuple(int(i) for i in np.unravel_index(flat, self.distance.shape))


def judge(
    operator: str, engine: np.ndarray, reference: np.ndarray, inputs: Sequence[np.ndarray]
) -> Judgement:
    """``engine``'s result for ``operator`` applied to ``inputs``, against the reference's ``reference``
    (of the same element type and shape: the caller compares those first)."""
    bound = engine_bound(operator)
    distance = step_distance(engine, reference)
    exact = np.zeros(reference.shape, np.int64)
    if bound is None or reference.dtype not in FLOAT_TYPES:
        return Judgement("", distance, exact)
    if isinstance(bound, Unchecked):
        return Judgement(bound.rule, distance, exact, checked=False)
    return Judgement(bound.rule, distance, bound.allowed(reference, inputs))


def step_distance(engine: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Steps between the elements of a floating-point type, −0 one step from +0 (the profile tells them
    apart); for the other types, 0 where they are equal and NOT_A_DISTANCE where they are not (an
    integer result is exact or wrong)."""
    if reference.dtype not in FLOAT_TYPES:
        return np.where(engine == reference, 0, NOT_A_DISTANCE).astype(np.int64)
    flat = ulp_distance(engine.reshape(-1), reference.reshape(-1))  # 1-d: a 0-d result is an array too
    distance = flat.reshape(reference.shape)
    bits = np.dtype(f"u{reference.dtype.itemsize}")
    with np.errstate(invalid="ignore"):  # bfloat16 flags a NaN compared as invalid
        zeros = (distance == 0) & (engine.view(bits) != reference.view(bits)) & (reference == 0)
    distance[zeros] = 1
    return distance
