"""The general rules, checked once for every operator, and helpers for the operators' own checks.

:func:`check_general_rules` runs before every operator (see :mod:`.registry`):
each check raises :class:`SonnxError` with the id of the general rule it
enforces, on the line that makes it. An operator module then checks what is
particular to it, naming its own rule ids where it does.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import SonnxError
from .registry import ATTRIBUTE_KINDS
from .types import FLOAT_TYPES, type_names

if TYPE_CHECKING:
    from .registry import Operator


def is_sparse(value: Any) -> bool:
    """True for sparse matrices and arrays (scipy.sparse, pydata sparse, torch)."""
    if hasattr(value, "is_sparse") and value.is_sparse is True:  # torch's tensors
        return True
    return hasattr(value, "nnz") and hasattr(value, "todense")


def is_explicit(value: Any) -> bool:
    """True for a plain numpy array or numpy scalar: shape and element type explicit.

    Python numbers and lists carry no element type; ndarray subclasses (masked
    arrays, matrices) carry semantics of their own, so they are not accepted.
    """
    return type(value) is np.ndarray or isinstance(value, np.generic)


def is_float_scalar(value: Any) -> bool:
    """A Python float or a numpy floating-point scalar, ml_dtypes' bfloat16 included (which numpy does not
    count among its floating types)."""
    return isinstance(value, float | np.floating) or (
        isinstance(value, np.generic) and value.dtype in FLOAT_TYPES
    )


def is_int_scalar(value: Any) -> bool:
    """A Python int or a numpy integer scalar; not a bool, which Python counts among its ints."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


ATTRIBUTE_VALUES: dict[str, Callable[[Any], bool]] = {
    "int": is_int_scalar,
    "float": is_float_scalar,
    "string": lambda value: isinstance(value, str),
}
"""What a value of each scalar kind of attribute is."""
LIST_KINDS = {"ints": "int", "floats": "float"}
"""Each list kind of attribute, a tuple or list of the scalar kind it names."""


def attribute_problem(kind: str, value: Any) -> str | None:
    """Why ``value`` is not an attribute of ``kind`` (a tensor attribute aside: GEN_C1 of a tensor), or
    None if it is one."""
    if kind in LIST_KINDS:
        if not isinstance(value, tuple | list):
            return f"is a {describe(value)}"
        wrong = [m for m, element in enumerate(value) if not ATTRIBUTE_VALUES[LIST_KINDS[kind]](element)]
        return f"has a {describe(value[wrong[0]])} at position {wrong[0]}" if wrong else None
    if kind in ATTRIBUTE_VALUES and not ATTRIBUTE_VALUES[kind](value):
        return f"is a {describe(value)}"
    return None


def describe(value: Any) -> str:
    """A short description of a value for an error message: its type and dtype."""
    dtype = getattr(value, "dtype", None)
    kind = type(value).__module__.split(".")[0] + "." + type(value).__qualname__
    kind = kind.removeprefix("builtins.")
    return f"{kind} of dtype {dtype}" if dtype is not None else kind


def first_index(mask: np.ndarray) -> tuple[int, ...]:
    """The index of the first True element of ``mask`` (which has at least one)."""
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(mask)), mask.shape))


def tensors_of(op: Operator, arguments: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
    """(name, type, value) of every tensor argument: inputs (X0, X1, … for a variadic one), then
    tensor attributes."""
    inputs = [
        (name, tensor.type, value)
        for tensor in op.inputs
        for name, value in (
            [(f"{tensor.name}{m}", v) for m, v in enumerate(arguments[tensor.name])]
            if tensor.variadic
            else [(tensor.name, arguments[tensor.name])]
        )
    ]
    return inputs + [(a.name, a.type, arguments[a.name]) for a in op.attributes if a.kind == "tensor"]


def bind_arguments(
    op: Operator, signature: inspect.Signature, args: tuple[Any, ...], kwargs: Mapping[str, Any]
) -> inspect.BoundArguments:
    """The call's arguments by name. A call Python would refuse with a bare TypeError is refused with the
    rule it breaks: GR4 for an input or attribute left out, GEN_C2 for one the operator does not have."""
    inputs = [t.name for t in op.inputs if not t.variadic]  # a variadic input takes the remaining ones
    attributes = [a.name for a in op.attributes]
    if len(inputs) == len(op.inputs) and len(args) > len(inputs):
        has = f"{len(inputs)} input{'s' * (len(inputs) > 1)} ({', '.join(inputs)})" if inputs else "no input"
        named = f"; its attributes are given by name ({', '.join(attributes)})" if attributes else ""
        raise SonnxError(
            "GEN_C2", f"{op.name}: input {len(inputs) + 1} is given, but {op.name} has {has}{named}"
        )
    for name in kwargs:
        if name in inputs[: len(args)]:
            raise SonnxError("GEN_C2", f"{op.name}: input {name} is given twice, by position and by name")
        if name not in attributes and name not in inputs:
            has = ", ".join(attributes) or "none"
            problem = f"{op.name}: {name}= is not an attribute of {op.name} (its attributes: {has})"
            raise SonnxError("GEN_C2", problem)
    for position, name in enumerate(inputs):
        if position >= len(args) and name not in kwargs:
            raise SonnxError("GR4", f"{op.name}: input {name} is not given", **about(op, name))
    for name in attributes:
        if name not in kwargs:
            raise SonnxError("GR4", f"{op.name}: attribute {name} is not given", **about(op, name))
    try:
        return signature.bind(*args, **kwargs)
    except TypeError as error:  # a call the checks above do not foresee: still the signature's rule
        raise SonnxError("GEN_C2", f"{op.name}: {error}") from None


def about(op: Operator, name: str) -> dict[str, str]:
    """The operator and the declared tensor (X for X0) of a failure: the drafts' labels depend on both."""
    variadic = [t.name for t in op.inputs if t.variadic and name.removeprefix(t.name).isdigit()]
    return {"operator": op.name, "tensor": variadic[0] if variadic else name}


def check_general_rules(op: Operator, arguments: Mapping[str, Any]) -> None:
    """Refuse an argument that breaks a general rule, in the order a reader would check it."""
    tensors = tensors_of(op, arguments)
    attributes = {a.name for a in op.attributes}
    for name, _, value in tensors:
        if value is None:
            kind = "attribute" if name in attributes else "input"  # a tensor attribute is still an attribute
            raise SonnxError("GR4", f"{op.name}: {kind} {name} is not given", **about(op, name))
    for attribute in op.attributes:
        if arguments[attribute.name] is None:
            raise SonnxError(
                "GR4", f"{op.name}: attribute {attribute.name} is not given", **about(op, attribute.name)
            )
    for name, _, value in tensors:
        if is_sparse(value):
            raise SonnxError(
                "GR1", f"{op.name}: {name} is a sparse tensor ({describe(value)})", **about(op, name)
            )
        if not is_explicit(value):
            problem = f"{op.name}: {name} is a {describe(value)}, not a numpy array or scalar"
            raise SonnxError("GR2", problem, **about(op, name))
    first_of_type: dict[str, tuple[str, np.dtype]] = {}
    for name, type_name, value in tensors:
        allowed = op.dtypes(type_name)
        if value.dtype not in allowed or not value.dtype.isnative:
            raise SonnxError(
                "GEN_C1",
                f"{op.name}: {name} has element type {value.dtype}, not one {op.name} takes for "
                f"{name} ({type_names(allowed)})",
                **about(op, name),
            )
        first, dtype = first_of_type.setdefault(type_name, (name, value.dtype))
        if value.dtype != dtype:  # never converted to a common type
            raise SonnxError(
                "GR3",
                f"{op.name}: {name} has element type {value.dtype} but {first} has {dtype}",
                **about(op, name),
            )
    for tensor in op.inputs:
        if tensor.rank_rule is not None:  # the declaration gives a rank its rule
            value = arguments[tensor.name]
            if value.ndim != tensor.rank:
                wanted = "the shape () of a scalar" if tensor.rank == 0 else f"rank {tensor.rank}"
                raise SonnxError(
                    tensor.rank_rule,
                    f"{op.name}: {tensor.name} has shape {value.shape}, not {wanted}",
                    **about(op, tensor.name),
                )
    for attribute in op.attributes:
        problem = attribute_problem(attribute.kind, arguments[attribute.name])
        if problem is not None:
            wanted = ATTRIBUTE_KINDS[attribute.kind]
            raise SonnxError(
                "GEN_C1",
                f"{op.name}: attribute {attribute.name} {problem}, not {wanted}",
                **about(op, attribute.name),
            )


def same_shape(operator: str, rule: str, **tensors: np.ndarray | np.generic) -> None:
    """Refuse, naming ``rule``, tensors that do not all have the shape of the first one."""
    (first, value), *others = tensors.items()
    for name, other in others:
        if other.shape != value.shape:
            problem = f"{operator}: {name} has shape {other.shape} but {first} has shape {value.shape}"
            raise SonnxError(rule, problem)


def out_of_memory(
    operator: str, shape: tuple[int, ...] | None = None, dtype: np.dtype | None = None
) -> SonnxError:
    what = f"a result of shape {shape} and type {dtype}" if shape is not None else "its result"
    return SonnxError("GEN_E1", f"{operator}: {what} does not fit in this machine's memory")


class ResultTooLarge(MemoryError):
    """A result that could not be allocated; the registry reports it as GEN_E1, naming the operator."""

    def __init__(self, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.shape, self.dtype = shape, dtype


def allocated(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A new, uninitialised array for a result; :class:`ResultTooLarge` if it cannot be allocated."""
    try:
        return np.empty(shape, dtype)
    except (MemoryError, ValueError):  # ValueError: more bytes than an address can count
        raise ResultTooLarge(shape, dtype) from None


def new_array(operator: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A new, uninitialised array for a result; GEN_E1 if it cannot be allocated."""
    try:
        return allocated(shape, dtype)
    except ResultTooLarge:
        raise out_of_memory(operator, shape, dtype) from None
