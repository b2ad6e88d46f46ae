"""Shared test tools: the types, independent oracles, strategies, comparisons.

The oracles restate the specification element by element in plain Python, on
Python ints and floats (exact for every SONNX value), without numpy's kernels.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import gmpy2
import ml_dtypes
import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sonnx_spec import FAMILIES, FLOAT_TYPES, INT_TYPES, TYPES, Operator, SonnxError, operators, rules
from sonnx_spec.compare import same_result
from sonnx_spec.requirements import catalogue

req = pytest.mark.req

ALL = pytest.mark.parametrize("dtype", TYPES, ids=[t.name for t in TYPES])
INTS = pytest.mark.parametrize("dtype", INT_TYPES, ids=[t.name for t in INT_TYPES])
FLOATS = pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=[t.name for t in FLOAT_TYPES])
ALL_AND_BOOL = pytest.mark.parametrize("dtype", [*TYPES, np.dtype(np.bool_)], ids=lambda t: t.name)
SPARSE_TYPES = [t for t in TYPES if t.name not in ("float16", "bfloat16")]  # the types scipy.sparse takes
SPARSE = pytest.mark.parametrize("dtype", SPARSE_TYPES, ids=[t.name for t in SPARSE_TYPES])
SIGNED = [t for t in INT_TYPES if np.issubdtype(t, np.signedinteger)]
SIGNED_INTS = pytest.mark.parametrize("dtype", SIGNED, ids=[t.name for t in SIGNED])
OUTSIDE_TYPES = [np.dtype(t) for t in (np.bool_, np.complex64, np.complex128, np.longdouble, object, "U3")]
OUTSIDE_TYPES += [np.dtype(t) for t in (ml_dtypes.float8_e4m3fn, np.dtype(">f4"))]
OUTSIDE = pytest.mark.parametrize("bad_dtype", OUTSIDE_TYPES, ids=[str(t) for t in OUTSIDE_TYPES])


OPERATORS = list(operators().values())


CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unavailable(reason: str) -> None:
    """A tool or library a test needs is missing: outside CI the test is skipped, in CI it fails."""
    if CI:
        pytest.fail(f"CI requires it: {reason}")
    pytest.skip(reason)


def each_operator_and_type() -> pytest.MarkDecorator:
    """Parametrize ``op`` and ``dtype`` over every operator and every type of its first input."""
    params = [
        pytest.param(op, dtype, id=f"{op.name}-{dtype.name}")
        for op in OPERATORS
        for dtype in op.dtypes(op.main_type)
    ]
    return pytest.mark.parametrize(("op", "dtype"), params)


def tensor_type(op: Operator, type_name: str, dtype: np.dtype) -> np.dtype:
    """The type a tensor typed ``type_name`` has in a call where the first input has ``dtype``."""
    allowed = op.dtypes(type_name)
    return dtype if dtype in allowed else allowed[0]


def sample_call(op: Operator, dtype: np.dtype, shape: tuple[int, ...] = (2, 3)) -> tuple[list, dict]:
    """Arguments every operator accepts: tensors of ``shape`` (or of their declared rank) filled
    with ones (True for bool), two inputs for a variadic one, float attributes 0.5, int attributes 1.
    An operator whose inputs or attributes place elements (Reshape's shape, Transpose's perm), where no
    such filling fits, takes its first conformance case of ``dtype`` instead."""
    if places_elements(op):
        case = conformance_cases(op.name, dtype)[0]
        return [np.array(a) for a in case.inputs], {k: _copy(v) for k, v in case.attributes.items()}

    def ones(type_name: str, rank: int | None) -> np.ndarray:
        return np.ones(shape if rank is None else shape[:rank], tensor_type(op, type_name, dtype))

    args = [ones(t.type, t.rank) for t in op.inputs for _ in range(2 if t.variadic else 1)]
    scalars = {"float": 0.5, "int": 1}  # 1: ONNX's code of float32, where an int names a type (Cast's to)
    kwargs = {
        a.name: scalars[a.kind] if a.kind in scalars else ones(a.type or "", None) for a in op.attributes
    }
    return args, kwargs


def conformance_cases(operator: str, dtype: np.dtype) -> list:
    """The conformance cases of ``operator`` for ``dtype`` (tests/conformance/operator_cases)."""
    cases_path = str(Path(__file__).parent / "conformance")
    if cases_path not in sys.path:
        sys.path.insert(0, cases_path)
    from operator_cases import cases

    return cases(operator, dtype)


def places_elements(op: Operator) -> bool:
    """Whether some input's values set the result's shape, or some attribute is a list or a string: the
    operators whose valid calls depend on values (Reshape, Transpose)."""
    return any(t.sets_shape for t in op.inputs) or any(a.kind in ("ints", "string") for a in op.attributes)


def _copy(value: object) -> object:
    return np.array(value) if isinstance(value, np.ndarray) else value


def tensor_positions(op: Operator, args: list, kwargs: dict) -> list[tuple[str, int | str]]:
    """(name, position) of every tensor argument of a call: an index into args, or a keyword."""
    names = op.input_names(len(args))
    found: list[tuple[str, int | str]] = list(zip(names, range(len(args)), strict=True))
    return found + [(a.name, a.name) for a in op.attributes if a.kind == "tensor"]


def call_with(op: Operator, args: list, kwargs: dict, position: int | str, value: object) -> object:
    """Call ``op`` with the argument at ``position`` replaced by ``value``."""
    args, kwargs = list(args), dict(kwargs)
    if isinstance(position, int):
        args[position] = value
    else:
        kwargs[position] = value
    return op.function(*args, **kwargs)


IMPLICIT_FORMS: dict[str, Callable[[np.ndarray], object]] = {
    "list": lambda a: a.tolist(),
    "python number": lambda a: a.ravel()[0].item() if a.size else 0,
    "masked array": np.ma.masked_array,
    "matrix": np.asmatrix,
}
"""Values without an explicit shape and element type (GR2), made from an array."""
IMPLICIT = pytest.mark.parametrize("form", IMPLICIT_FORMS)


@contextmanager
def raises_req(req_id: str) -> Iterator[pytest.ExceptionInfo[SonnxError]]:
    """Expect a SonnxError for ``req_id`` whose message names the rule, the label the operator's drafts give
    it for the tensor at fault (from the operator's rules file), and its page."""
    with pytest.raises(SonnxError) as info:
        yield info
    error = info.value
    assert error.req_id == req_id, f"expected {req_id}, got {error.req_id}: {error}"
    rule = rules()[req_id]
    labelled = catalogue().labels_of(error.operator, req_id, error.tensor) if error.operator else ()
    labels = tuple(dict.fromkeys(d.label for d in labelled))
    assert error.draft_labels == labels, f"{error}: the labels of {error.operator}'s rules file are {labels}"
    cited = ""
    if labels:
        drafts = "drafts" if len({d.origin.source for d in labelled}) > 1 else "draft"
        cited = f" ({operators()[error.operator].onnx}'s {drafts}: {', '.join(labels)})"
    assert (
        str(error) == f"{error.problem} — {req_id}{cited}: {rule.statement} (see {rule.page}.html#{req_id})"
    )
    assert error.problem and "\n" not in str(error)


def scalar(dtype: np.dtype, value: float | int) -> np.generic:
    return np.array(value, dtype=dtype)[()]


# -- comparison -------------------------------------------------------------


def assert_same(actual: np.ndarray, expected: np.ndarray) -> None:
    """A new array, and the same result for the profile (bit for bit, all NaNs alike)."""
    assert type(actual) is np.ndarray, type(actual)
    assert same_result(actual, expected), (actual, expected)


def assert_computes(
    function: Callable[..., np.ndarray],
    oracle: Callable[..., int | float],
    dtype: np.dtype,
    *inputs: np.ndarray,
) -> None:
    """``function(*inputs)`` leaves its inputs unchanged and returns a new array of ``dtype`` that is, at
    every index, what the Python ``oracle`` gives for the inputs' elements there."""
    inputs_unchanged = unchanged(*inputs)
    result = function(*inputs)
    inputs_unchanged()
    assert not any(np.shares_memory(result, x) for x in inputs)
    assert_same(result, elementwise(oracle, dtype, *inputs))


# -- the order of the Max draft, on Python values ----------------------------


def to_python(value: np.generic) -> int | float:
    """The exact value of a SONNX scalar as a Python int or float."""
    if value.dtype in INT_TYPES:
        return int(value)
    return float(np.float64(value))  # every float16/bfloat16/float32 is exact in float64


def order_key(v: int | float) -> tuple[float | int, int]:
    """Sort key of a non-NaN value: -0 before +0, as in the Max draft."""
    return (v, 0 if math.copysign(1.0, v) < 0 else 1) if isinstance(v, float) else (v, 0)


def is_nan(v: int | float) -> bool:
    return isinstance(v, float) and math.isnan(v)


def ordered_max(*values: int | float) -> int | float:
    return math.nan if any(map(is_nan, values)) else max(values, key=order_key)


def ordered_min(*values: int | float) -> int | float:
    return math.nan if any(map(is_nan, values)) else min(values, key=order_key)


def elementwise(f: Callable[..., int | float], dtype: np.dtype, *arrays: np.ndarray) -> np.ndarray:
    """Apply the Python oracle ``f`` to every index of the broadcast arrays."""
    views = np.broadcast_arrays(*(np.asarray(a) for a in arrays))
    shape = views[0].shape if views else ()
    out = np.empty(shape, dtype)
    for index in np.ndindex(shape):
        out[index] = f(*(to_python(v[index]) for v in views))
    return out


# -- row-major order, written out (the data movement operators' oracles) ------


def offset(index: tuple[int, ...], shape: tuple[int, ...]) -> int:
    """The row-major position of ``index`` in ``shape``."""
    position = 0
    for i, d in zip(index, shape, strict=True):
        position = position * d + i
    return position


def index_of(position: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The index at row-major ``position`` in ``shape``: the inverse of :func:`offset`."""
    index = []
    for d in reversed(shape):
        position, i = divmod(position, d)
        index.append(i)
    return tuple(reversed(index))


def copy_patterns(dtype: np.dtype) -> tuple[np.dtype, list[int]]:
    """The unsigned type of ``dtype``'s width, and bit patterns a copy must keep: −0, a NaN payload, a
    negative NaN of another payload, a NaN with the quiet bit clear, the smallest subnormal, +0."""
    unsigned = np.dtype(f"u{dtype.itemsize}")
    top = 1 << (8 * dtype.itemsize - 1)
    exponent = int(np.array(np.inf, dtype).view(unsigned))
    return unsigned, [top, exponent | 1, exponent | 3 | top, exponent | (exponent >> 1 & ~exponent) | 1, 1, 0]


def bits(X: np.ndarray) -> np.ndarray:
    """The elements' bit patterns (bool as bytes): what a copy must keep."""
    return X.view(np.uint8) if X.dtype == np.bool_ else X.view(np.dtype(f"u{X.itemsize}"))


# -- strategies -------------------------------------------------------------


def special_values(dtype: np.dtype) -> list[int | float]:
    """Integer extremes or floating-point specials of ``dtype`` as Python values."""
    if dtype in INT_TYPES:
        info = np.iinfo(dtype)
        return sorted({info.min, info.min + 1, -1 if info.min < 0 else 0, 0, 1, info.max - 1, info.max})
    info = ml_dtypes.finfo(dtype)
    return [
        math.nan,
        -math.inf,
        math.inf,
        -0.0,
        0.0,
        float(info.max),
        float(info.min),
        float(info.smallest_subnormal),
        -float(info.smallest_subnormal),
        1.0,
        -1.0,
    ]


def elements(dtype: np.dtype) -> st.SearchStrategy[np.generic]:
    """Any value of ``dtype`` (for floats: any bit pattern), specials often."""
    if dtype == np.bool_:
        return st.booleans().map(np.bool_)
    specials = st.sampled_from([scalar(dtype, v) for v in special_values(dtype)])
    if dtype in INT_TYPES:
        info = np.iinfo(dtype)
        anything = st.integers(int(info.min), int(info.max)).map(lambda v: scalar(dtype, v))
    else:
        bits = np.dtype(f"u{dtype.itemsize}")
        anything = st.integers(0, 2 ** (8 * dtype.itemsize) - 1).map(
            lambda v: np.array(v, dtype=bits).view(dtype)[()]
        )
    return st.one_of(specials, anything)


def shapes(max_dims: int = 4) -> st.SearchStrategy[tuple[int, ...]]:
    """Shapes of rank 0 to ``max_dims``, empty ones included."""
    return hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=4)


@st.composite
def tensors(draw: st.DrawFn, dtype: np.dtype, shape: tuple[int, ...] | None = None) -> np.ndarray:
    shape = draw(shapes()) if shape is None else shape
    values = draw(st.lists(elements(dtype), min_size=math.prod(shape), max_size=math.prod(shape)))
    return np.array(values, dtype=dtype).reshape(shape)


@st.composite
def same_shape_pair(draw: st.DrawFn, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Two tensors of one shape, any values of ``dtype`` (any bit pattern for floats)."""
    shape = draw(shapes())
    return draw(tensors(dtype, shape)), draw(tensors(dtype, shape))


def unchanged(*arrays: np.ndarray) -> Callable[[], None]:
    """Snapshot ``arrays``; the returned check asserts they were not modified."""
    copies = [np.array(a, copy=True) for a in arrays]

    def check() -> None:
        for before, after in zip(copies, arrays, strict=True):
            assert_same(np.asarray(after), np.asarray(before))

    return check


# -- the correctly rounded oracle (MPFR) --------------------------------------


def wrapped(value: int, dtype: np.dtype) -> int:
    """The value of the integer type ``dtype`` congruent to ``value`` modulo 2^n."""
    lowest = int(np.iinfo(dtype).min)
    return (value - lowest) % 2 ** (8 * dtype.itemsize) + lowest


def ieee_context(dtype: np.dtype) -> gmpy2.context:
    """MPFR's arithmetic in ``dtype``: its significand bits, its exponent range, its subnormals.

    MPFR writes a number as m·2^e with 1/2 ≤ m < 1, one more than IEEE 754's exponent: emax is
    IEEE's emax + 1, and emin, for subnormal results, IEEE's emin − p + 2.
    """
    info = ml_dtypes.finfo(dtype)
    precision = info.nmant + 1
    emin = info.minexp - precision + 2
    return gmpy2.context(precision=precision, emax=info.maxexp, emin=emin, subnormalize=True)


def correctly_rounded(dtype: np.dtype, operation: str, *operands: float) -> float:
    """The IEEE 754 ``operation`` (gmpy2's name: ``div``, ``sqrt``…) of exact operands, rounded once to
    ``dtype`` (to nearest, ties to even) by MPFR; returned as a Python float, which holds it exactly."""
    return float(getattr(ieee_context(dtype), operation)(*map(gmpy2.mpfr, operands)))


# -- operator families: what a member states for its family's shared tests ----------------------------


def no_change(*operands: np.ndarray) -> tuple[np.ndarray, ...]:
    return operands


@dataclass(frozen=True)
class Member:
    """What the shared tests of a family (tests/test_family_*.py) need of one of its operators, stated in
    the operator's own test module as ``FAMILY_MEMBER``: its exact oracle and the ids they prove.

    ``oracle(dtype)`` is the Python function of the elements at one index. ``results`` are the ids of
    the result's shape and type, ``shapes`` the id that refuses operands of different shapes (None for
    one operand), ``semantics`` the ids the oracle states (a test in a type proves those whose rules
    file names the type's family: :func:`proved_in`). ``defined(*operands)`` replaces the elements the
    operator refuses (its own tests test that) by ones it computes; ``attributes`` are the keyword
    arguments of a call.
    """

    oracle: Callable[[np.dtype], Callable[..., int | float | bool]]
    results: tuple[str, ...]
    semantics: tuple[str, ...]
    shapes: str | None = None
    defined: Callable[..., tuple[np.ndarray, ...]] = no_change
    attributes: dict[str, object] = field(default_factory=dict)


def proved_in(ids: tuple[str, ...], dtype: np.dtype) -> tuple[str, ...]:
    """The rules of ``ids`` that concern ``dtype``'s type family (int, float or bool), as their rules files
    say."""
    family = next(name for name, members in FAMILIES.items() if dtype in members)
    return tuple(i for i in ids if family in rules()[i].families)


def family_member(op: Operator) -> Member:
    """The ``FAMILY_MEMBER`` of ``op``'s test module; a clear failure if it has none."""
    module = importlib.import_module(f"test_{op.name}")
    member = getattr(module, "FAMILY_MEMBER", None)
    assert isinstance(member, Member), f"tests/test_{op.name}.py states no FAMILY_MEMBER = Member(…)"
    return member


def without_lowest(X: np.ndarray) -> tuple[np.ndarray]:
    """X with the lowest value of a signed integer type (which Abs and Neg refuse) replaced by 0."""
    if X.dtype.kind != "i":
        return (X,)
    return (np.where(X == np.iinfo(X.dtype).min, np.zeros_like(X), X),)


# The variadic family (Max, Min): the broadcasting rule restated, and inputs that follow it.
def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...] | None:
    """The common shape of the broadcasting rule, restated; None if there is none."""
    rank = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (rank - len(s)) + s for s in shapes]
    common = []
    for sizes in zip(*padded, strict=True):
        others = {d for d in sizes if d != 1}
        if len(others) > 1:
            return None
        common.append(others.pop() if others else 1)
    return tuple(common)


@st.composite
def broadcastable(draw: st.DrawFn, dtype: np.dtype) -> list[np.ndarray]:
    """One to four tensors whose shapes broadcast: a common shape with dimensions set to 1 or dropped."""
    common = draw(st.lists(st.integers(0, 3), max_size=3).map(tuple))
    shapes = []
    for _ in range(draw(st.integers(1, 4))):
        drop = draw(st.integers(0, len(common)))
        shape = tuple(d if draw(st.booleans()) else 1 for d in common[drop:])
        shapes.append(shape)
    return [draw(tensors(dtype, shape)) for shape in shapes]
