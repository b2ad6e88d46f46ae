"""LeakyRelu (ONNX LeakyRelu-16 in the SONNX profile): Y[i] = X[i] if X[i] ≥ 0, else α·X[i]."""

from __future__ import annotations

import numpy as np

from ..errors import SonnxError
from ..families import UNARY, member
from ..families.elementwise import select_bits
from ..registry import Attribute, Tensor, operator
from ..rounding import rounded_to

Array = np.ndarray | np.generic


def stored_alpha(alpha: float | np.generic) -> np.float32:
    """The float32 ONNX stores for ``alpha``: the nearest one, ties to even (LEAKYRELU_S2).

    A finite alpha that float32 would round to an infinity is refused (LEAKYRELU_C3).
    """
    with np.errstate(over="ignore"):  # an overflow is refused below, naming the rule
        alpha32 = np.float32(alpha)  # one rounding from alpha's own type, as ONNX's serialization does
    if np.isinf(alpha32) and np.isfinite(alpha):
        raise SonnxError(
            "LEAKYRELU_C3",
            f"leaky_relu: alpha is {alpha!r}, beyond the range of float32, in which ONNX stores it "
            f"(its nearest float32 is {alpha32})",
        )
    return alpha32


def leaky_relu(X: Array, *, alpha: float | np.generic) -> np.ndarray:
    """Element-wise leaky rectified linear unit: ``X[i]`` where ``X[i] ≥ 0``, ``α·X[i]`` where ``X[i] < 0``.

    ``α`` is the float32 ONNX stores for ``alpha`` (a Python float or a numpy
    float, rounded to nearest float32; a finite alpha beyond float32's range is
    refused). ``α·X[i]`` is the IEEE 754 product rounded once to ``X``'s type.
    The comparison is IEEE 754's: ``−0`` and NaN are not negative, and stay as
    they are.

    Returns a new array of ``X``'s shape and type.

    >>> import numpy as np, sonnx_spec
    >>> sonnx_spec.leaky_relu(np.array([6.0, -9.5, 35.0], dtype=np.float32), alpha=0.5)
    array([ 6.  , -4.75, 35.  ], dtype=float32)
    """
    alpha32 = stored_alpha(alpha)
    with np.errstate(invalid="ignore"):  # bfloat16 flags comparisons with NaN; NaN is a value here
        negative = X < 0  # LEAKYRELU_S1: false for −0 and NaN, which are kept
    # LEAKYRELU_S1, LEAKYRELU_S3: α′·X[i] is exact in float64 for float16, bfloat16 and float32 (at most
    # 24 + 24 bits, exponents within ±300), and one IEEE multiplication for float64; rounded once.
    with np.errstate(invalid="ignore", over="ignore"):  # 0·∞ is NaN and a product may overflow: IEEE's
        product = rounded_to(np.asarray(X, np.float64) * alpha32, X.dtype)  # float64 · float32: float64
    # LEAKYRELU_C1, LEAKYRELU_C2: X's shape and type. LEAKYRELU_S1: X[i] itself where X[i] is not below 0,
    # bit for bit, the product elsewhere.
    return select_bits(~negative, X, product)


leaky_relu = operator(
    leaky_relu,
    onnx="LeakyRelu",
    version=16,
    inputs=(Tensor("X", "X", "T", doc="the input tensor"),),
    attributes=(Attribute("alpha", "alpha", "float", doc="the coefficient of leakage, stored as float32"),),
    outputs=(Tensor("Y", "Y", "T", doc="X with each negative element multiplied by α"),),
    types={"T": ("float",)},
)
member(UNARY, leaky_relu)
