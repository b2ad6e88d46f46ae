"""What an engine may return for an operator: the reference's result bit for bit, or a result within the
bound the operator's accuracy rule allows engines.

Most operators of the profile are exact: an engine conforms when it gives the reference's result, element
type, shape and bits (every NaN alike). A correctly rounded function cannot ask that of every engine, nor
can a sum that engines may add in any order, so their pages state a bound. Such an operator declares the
bound once, after its registration, with the id of the rule that states it:
``engines_within(exp, Ulps(1, "EXP_P2"))``. ``sonnx-spec compare --by-node`` and the conformance suite judge
engines with it (:func:`judge`), element by element: conforms, outside, or undecided where the bound is
stated but cannot be evaluated from the reference's result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .correctly_rounded import NOT_A_DISTANCE, ulp_distance
from .registry import operators
from .requirements import rules
from .types import FLOAT_TYPES

Masks = tuple[np.ndarray, np.ndarray]
"""Two boolean arrays of the result's shape: the elements outside the bound, and the undecided ones."""


@dataclass(frozen=True)
class Ulps:
    """At most ``limit`` steps (:func:`step_distance`) between an engine's element and the reference's,
    where every input element at that index is finite; the special values exactly: a NaN or an infinite
    input, an input of another shape, and where ``exact_where`` of the inputs is true (Log's ln(±0) = −∞
    and ln 1 = +0)."""

    limit: int
    rule: str
    exact_where: Callable[..., np.ndarray] | None = None

    def allowed(self, reference: np.ndarray, inputs: Sequence[np.ndarray]) -> np.ndarray:
        """The distance allowed at each element of ``reference``."""
        allowed = np.full(reference.shape, self.limit)
        for x in inputs:
            if x.shape != reference.shape:  # no element of it at each index of the result: all exact
                allowed[...] = 0
                return allowed
            with np.errstate(invalid="ignore"):  # bfloat16 flags a signalling NaN as invalid
                allowed[~np.isfinite(x)] = 0
        if self.exact_where is not None:
            with np.errstate(invalid="ignore"):
                allowed[self.exact_where(*inputs)] = 0
        return allowed

    def judge(self, engine: np.ndarray, reference: np.ndarray, inputs: Sequence[np.ndarray]) -> Masks:
        distance = step_distance(engine, reference)
        return distance > self.allowed(reference, inputs), distance < 0  # never undecided


@dataclass(frozen=True)
class Within:
    """|engine − v| ≤ ``error(reference, *inputs)`` at each element, where ``error`` gives the allowed
    absolute error (float64; NaN where the element must be the reference's exactly), and v is the
    reference's element itself or, with ``of_exact``, the exact real value the reference rounds once
    (MatMul's γₙ·Σ|a·b| is a bound on the distance from the exact sum). The reference's rounding is within
    half the spacing of its type there: an element whose distance from the reference is within that margin
    of the bound is undecided. A NaN or an infinite reference element is exact."""

    rule: str
    error: Callable[..., np.ndarray]
    of_exact: bool = False

    def judge(self, engine: np.ndarray, reference: np.ndarray, inputs: Sequence[np.ndarray]) -> Masks:
        with np.errstate(invalid="ignore", over="ignore"):  # ±∞ and NaN elements: exact, decided apart
            error = np.broadcast_to(self.error(reference, *inputs), reference.shape)
            # exact for the narrower types; for float64 within 2⁻⁵³ of it
            apart = np.abs(np.subtract(engine, reference, dtype=np.float64))
            margin = half_spacing(reference) if self.of_exact else 0.0
            exact = ~np.isfinite(reference) | np.isnan(error)
            outside = np.where(exact, step_distance(engine, reference) > 0, ~(apart <= error + margin))
            undecided = ~exact & ~outside & (apart > error - margin)
        return outside, undecided


@dataclass(frozen=True)
class Unchecked:
    """A bound the operator's page states in terms this module does not evaluate yet (HardSwish's, in
    units in the last place of the exact value): an element that differs from the reference's is neither
    within nor outside it, and the judgement says so, naming the rule."""

    rule: str

    def judge(self, engine: np.ndarray, reference: np.ndarray, inputs: Sequence[np.ndarray]) -> Masks:
        distance = step_distance(engine, reference)
        return distance < 0, distance > 0  # never outside, undecided where it differs


Bound = Ulps | Within | Unchecked
_BOUNDS: dict[str, Bound] = {}


def engines_within(function: Callable[..., Any], bound: Bound) -> None:
    """Declare that an engine conforms to the registered operator ``function`` within ``bound``."""
    _BOUNDS[function.operator.name] = bound  # type: ignore[attr-defined]


def engine_bound(operator: str) -> Bound | None:
    """The bound ``operator`` allows engines: the one its module declares; else, if one of its rules states
    what an engine must meet (its statement begins "An engine"), that rule's bound, stated but not
    evaluated (:class:`Unchecked`); else None, where engines must give the reference's result exactly."""
    operators()  # every operator module imported: its declaration made
    if operator in _BOUNDS:
        return _BOUNDS[operator]
    stated = [
        r.id for r in rules().values() if r.operator == operator and r.statement.startswith(ENGINE_RULE)
    ]
    return Unchecked(stated[0]) if stated else None


ENGINE_RULE = "An engine "
"""How the statement of an operator's rule on engines begins (EXP_P2: "An engine conforms to Exp when…")."""


@dataclass(frozen=True)
class Judgement:
    """An engine's result for one output of one operator, element by element."""

    rule: str  # the accuracy rule that allows a bound, or "" (bit for bit)
    distance: np.ndarray  # steps from the reference's element (int64); NOT_A_DISTANCE: NaN against a number
    outside_at: np.ndarray  # bool: farther than the rule allows
    undecided_at: np.ndarray  # bool: differs, and the rule's bound cannot say whether it is within

    @property
    def verdict(self) -> str:
        """The verdict: "conforms"; "outside", some element is farther than the rule allows; "undecided",
        some element differs from the reference's and the bound cannot be decided there."""
        if self.outside:
            return "outside"
        return "undecided" if self.undecided else "conforms"

    @property
    def outside(self) -> int:
        """How many elements are farther from the reference's than allowed."""
        return int(np.count_nonzero(self.outside_at))

    @property
    def undecided(self) -> int:
        return int(np.count_nonzero(self.undecided_at))

    @property
    def worst(self) -> tuple[int, ...] | None:
        """The index of the element farthest from the reference's among those outside (else among the
        undecided, else among all); None for an empty result or one identical to the reference's."""
        if self.distance.size == 0 or not self.distance.any():
            return None
        among = self.outside_at if self.outside else self.undecided_at if self.undecided else None
        distance = self.distance if among is None else np.where(among, self.distance, -1)
        flat = int(np.argmax(distance))
        return tuple(int(i) for i in np.unravel_index(flat, self.distance.shape))


def judge(
    operator: str, engine: np.ndarray, reference: np.ndarray, inputs: Sequence[np.ndarray]
) -> Judgement:
    """``engine``'s result for ``operator`` applied to ``inputs``, against the reference's ``reference``
    (of the same element type and shape: the caller compares those first)."""
    bound = engine_bound(operator)
    distance = step_distance(engine, reference)
    if bound is None or reference.dtype not in FLOAT_TYPES:
        return Judgement("", distance, distance > 0, distance < 0)  # no element is undecided
    outside, undecided = bound.judge(engine, reference, inputs)
    return Judgement(bound.rule, distance, outside, undecided)


def step_distance(engine: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Steps between the elements of a floating-point type, −0 one step from +0 (the profile tells them
    apart); for the other types, 0 where they are equal and NOT_A_DISTANCE where they are not (an
    integer result is exact or wrong)."""
    if reference.dtype not in FLOAT_TYPES:
        return np.where(engine == reference, 0, NOT_A_DISTANCE)
    flat = ulp_distance(engine.ravel(), reference.ravel())  # 1-d: a 0-d result is an array too
    distance = flat.reshape(reference.shape)
    bits = np.dtype(f"u{reference.dtype.itemsize}")
    with np.errstate(invalid="ignore"):  # bfloat16 flags a NaN compared as invalid
        zeros = (distance == 0) & (engine.view(bits) != reference.view(bits)) & (reference == 0)
    distance[zeros] = 1
    return distance


def half_spacing(values: np.ndarray) -> np.ndarray:
    """Half the distance from each finite element's magnitude to the next value of its type away from zero
    (float64): a correctly rounded value is at most that far from the exact value it rounds; +∞ at the
    largest finite value, whose rounding interval reaches the overflow threshold."""
    magnitude = np.abs(values)
    with np.errstate(invalid="ignore", over="ignore"):  # ∞ − ∞ and the largest value's next: NaN and +∞
        above = np.nextafter(magnitude, np.asarray(np.inf, values.dtype))
        return np.subtract(above, magnitude, dtype=np.float64) / 2
