"""ArgMax (ONNX ArgMax-13 in the SONNX profile): the index of the largest element of X along one axis, a NaN
counting as the largest of all."""

from __future__ import annotations

import numpy as np

from ..checks import new_array
from ..errors import SonnxError
from ..families.axes import normalized_axis
from ..families.reduction import reduced_shape
from ..registry import Attribute, Tensor, operator

Array = np.ndarray | np.generic


def argmax(X: Array, *, axis: int, keepdims: int, select_last_index: int) -> np.ndarray:
    """The index, along ``axis``, of the largest element of each line of ``X`` along that axis.

    ``axis`` is in [−r, r − 1] for ``X`` of rank r (a negative one counts from the end) and ``X`` has at
    least one element along it. A line holding a NaN gives the index of its first NaN (its last with
    ``select_last_index`` 1); any other line the index of its first (or last) greatest element, −0 and
    +0 being equal. ``keepdims`` 1 keeps the axis with size 1, 0 leaves it out.

    Returns a new int64 array.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[1, 9, 3], [4, 2, 6]], np.float32)
    >>> sonnx_spec.argmax(X, axis=1, keepdims=0, select_last_index=0)
    array([1, 2])
    """
    a = normalized_axis(axis, np.ndim(X))
    if a is None:
        rank = np.ndim(X)
        problem = f"argmax: axis is {axis}, outside [{-rank}, {rank - 1}] for X of rank {rank}"
        raise SonnxError("ARGMAX_C1", problem)
    if keepdims not in (0, 1):
        raise SonnxError("ARGMAX_C3", f"argmax: keepdims is {keepdims}, not 0 or 1")
    if select_last_index not in (0, 1):
        raise SonnxError("ARGMAX_C4", f"argmax: select_last_index is {select_last_index}, not 0 or 1")
    if X.shape[a] == 0:
        raise SonnxError("ARGMAX_C2", f"argmax: X has shape {X.shape}, no element along axis {axis}")
    out = new_array("argmax", reduced_shape(X.shape, (a,), bool(keepdims)), np.dtype(np.int64))  # ARGMAX_S1
    lines = np.moveaxis(np.asarray(X), a, -1)
    if select_last_index:
        lines = lines[..., ::-1]  # the last index becomes the first
    if lines.dtype.kind == "f" or lines.dtype.name == "bfloat16":
        nan = _is_nan(lines)  # numpy's own NaN handling in argmax is not relied on
        values = np.where(nan, np.inf, lines)  # a NaN as great as +∞ (bfloat16: in float64, exactly)
        greatest = values == values.max(axis=-1, keepdims=True)  # ARGMAX_S2: IEEE equality, −0 = +0
        wanted = greatest & (nan == nan.any(axis=-1, keepdims=True))  # ARGMAX_S3: its NaNs, if a line has one
    else:
        wanted = lines == lines.max(axis=-1, keepdims=True)  # ARGMAX_S2: exact, in X's own type
    first = np.argmax(wanted, axis=-1)  # ARGMAX_S2: the first True of each line
    last = lines.shape[-1] - 1 - first  # ARGMAX_S2: counted back from the end of the reversed line
    out[...] = (last if select_last_index else first).reshape(out.shape)
    return out


def _is_nan(X: np.ndarray) -> np.ndarray:
    """Where X (of a float type) holds a NaN, read from its bits: its magnitude above that of ∞. Without a
    conversion or a comparison, which warn on a signalling NaN of float32 or bfloat16."""
    unsigned = np.dtype(f"u{X.dtype.itemsize}")
    inf = np.array(np.inf, X.dtype).view(unsigned)
    return X.view(unsigned) & (np.iinfo(unsigned).max >> 1) > inf


argmax = operator(
    argmax,
    onnx="ArgMax",
    version=13,
    inputs=(Tensor("X", "data", "T", doc="the elements compared along axis"),),
    attributes=(
        Attribute("axis", "axis", "int", doc="the axis along which the greatest element is found"),
        Attribute("keepdims", "keepdims", "int", doc="1: Y keeps the axis with size 1; 0: Y leaves it out"),
        Attribute(
            "select_last_index",
            "select_last_index",
            "int",
            doc="0: the first index of the greatest element; 1: the last",
        ),
    ),
    outputs=(
        Tensor("Y", "reduced", "int64", doc="the index along axis of the greatest element of each line"),
    ),
    types={"T": ("int", "float")},
)
