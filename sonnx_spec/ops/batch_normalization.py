"""BatchNormalization (ONNX BatchNormalization-15 in the SONNX profile, inference mode):
Y[n, c, …] = scale[c]·(X[n, c, …] − mean[c])/√(var[c] + ε) + B[c], correctly rounded.

The formula is evaluated by sonnx_spec.correctly_rounded (Ziv's strategy) as a function of five operands, the
four parameters broadcast along X's channel axis. For float16, bfloat16 and float32 the float64 evaluation
d = x − m, t = s·d, w = v + ε, √w, q = t/√w, y = q + b rounds each of its six steps once (u = 2⁻⁵³) and
nothing underflows or overflows in float64 (every product and quotient of such inputs lies between 2⁻³⁶³
and 2³³²): q̂ = q(1 + θ) with |θ| ≤ (1 + u)³/((1 − u)^(3/2)) − 1 < 5u. Only the last sum can cancel: where
|q̂| ≤ 2¹⁰·|ŷ|, |ŷ − r| ≤ 5u(1 + u)|q| + u|r| gives |ŷ − r| ≤ (5·2¹⁰ + 2)u·|r|/(1 − 5·2¹⁰u) < 2⁻⁴⁰·|r|, the
module's bound (RELATIVE_ERROR). Where |q̂| > 2¹⁰·|ŷ| (q and B cancel, ŷ = 0 included) the evaluation writes
a value below every type's smallest normal value, which sends the element to the exact evaluation (the
module sends every such result there). The exact evaluation takes t and w as exact rationals; √w is a
rational where w is a square (then the value itself is rounded once), else irrational, and bracketed by
integer square roots at a precision doubled until both ends round alike, to the same value and the same sign
(Ziv's loop). The loop ends, and within ATTEMPTS attempts. With w = n/d in lowest terms, N = n·d (no square),
the attempt at k bits brackets √N by R/2^k < √N < (R + 1)/2^k and the value v = t·d/√N + b between the ends
t·d·2^k/R + b and t·d·2^k/(R + 1) + b. If a boundary μ (a midpoint between neighbours of the type, the
overflow threshold, or 0, where a zero's sign changes) lies between the ends, then c = μ − b ≠ 0 and
r = t·d/c, a fraction, lies within 2⁻ᵏ of √N; N − r² is then not 0 and |N − r²| ≤ 2⁻ᵏ(2√N + 1), while r's
denominator divides C·2^α (c = C/2^γ, t = T/2^α, integers): 2ᵏ ≤ C²·2^(2α)·(2√N + 1). With 2^−σ the type's
smallest subnormal value and 2^(E+1) its overflow threshold: α = 2σ, γ = σ + 1 and |c| < 2^(E+2) (|μ|, |b| <
2^(E+1)), w < 2¹²⁹ (or 2¹⁰²⁵ for float64) and d ≤ 2^max(σ, 149) (ε a float32). So k > 396 bits decide every
float16 element, 1274 bfloat16, 1370 float32 and 10085 float64, and the ninth attempt, at (p + 16)·2⁸ bits,
has 6912, 6144, 10240 and 17664 bits. A tenth is never made: the loop raises instead of running on.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np

from ..accuracy import Within, engines_within
from ..correctly_rounded import RELATIVE_ERROR, Elementary, rounded
from ..errors import SonnxError
from ..registry import Attribute, Tensor, operator

if TYPE_CHECKING:
    import gmpy2

Array = np.ndarray | np.generic

CANCELLATION = 2.0**10
"""How much larger than the computed result |q̂| may be before the float64 evaluation is not trusted."""

UNDECIDED = 2.0**-1074
"""The float64 evaluation's mark for an element it cannot decide: not zero, below every target's smallest
normal value, so that sonnx_spec.correctly_rounded sends it to the exact evaluation."""

GUARD_BITS = 16
"""The bits the exact evaluation's first bracket of √w has beyond the target's precision."""

ATTEMPTS = 9
"""Ziv's loop's attempts at most: the ninth, at 2⁸ times the first one's bits, decides every element of every
type (the module's docstring derives the bound); the loop stops there, whatever its arithmetic does."""

PARAMETERS = ("scale", "B", "input_mean", "input_var")


def stored_epsilon(epsilon: float | np.generic) -> float:
    """ε: the float32 ONNX stores for ``epsilon``, nearest, ties to even (BATCHNORMALIZATION_S2); refused
    unless positive and finite (BATCHNORMALIZATION_C5)."""
    with np.errstate(over="ignore"):  # a finite epsilon beyond float32's range is refused just below
        epsilon32 = np.float32(epsilon)  # one rounding from epsilon's own type, as ONNX's serialization does
    if not (epsilon32 > 0 and np.isfinite(epsilon32)):  # NaN compares false: refused too
        problem = (
            f"batch_normalization: epsilon is {epsilon!r}, stored by ONNX as the float32 {epsilon32}:"
            " it must be positive and finite"
        )
        raise SonnxError("BATCHNORMALIZATION_C5", problem, operator="batch_normalization", tensor="epsilon")
    return float(epsilon32)


def check_shapes(X: Array, parameters: dict[str, Array]) -> None:
    """BATCHNORMALIZATION_C1: X of rank 2 or more; BATCHNORMALIZATION_C2: each parameter of shape (C,)."""
    if np.ndim(X) < 2:
        problem = (
            f"batch_normalization: X has shape {np.shape(X)}; X must have rank 2 or more, (N, C, …): a model "
            "reshapes a vector to (N, 1) first"
        )
        raise SonnxError("BATCHNORMALIZATION_C1", problem, operator="batch_normalization", tensor="X")
    channels = np.shape(X)[1]
    for name, value in parameters.items():
        if np.shape(value) != (channels,):  # rank 1 checked with the general rules (rank_rule)
            problem = (
                f"batch_normalization: {name} has shape {np.shape(value)}, not ({channels},): one value per "
                f"channel of X, of shape {np.shape(X)}"
            )
            raise SonnxError("BATCHNORMALIZATION_C2", problem, operator="batch_normalization", tensor=name)


def check_variance(input_var: Array) -> None:
    """BATCHNORMALIZATION_E1: no variance below zero (−0 is zero; a NaN is no number, and propagates)."""
    with np.errstate(invalid="ignore"):  # bfloat16 flags a NaN compared as invalid; it is not negative
        negative = np.asarray(input_var) < 0
    if negative.any():
        channel = int(np.argmax(negative))
        problem = (
            f"batch_normalization: input_var[{channel}] is {np.asarray(input_var)[channel]}: a variance is "
            "never negative"
        )
        raise SonnxError("BATCHNORMALIZATION_E1", problem, operator="batch_normalization", tensor="input_var")


def _float64_bn(
    out: np.ndarray,
    X: np.ndarray,
    scale: np.ndarray,
    B: np.ndarray,
    mean: np.ndarray,
    var: np.ndarray,
    *,
    epsilon: float,
) -> None:
    # BATCHNORMALIZATION_S1 within 2⁻⁴⁰ where trusted; BATCHNORMALIZATION_S4, BATCHNORMALIZATION_S5: IEEE
    # 754's NaN, infinities and signed zeros of the formula, step by step, exactly.
    root = np.add(var, epsilon, dtype=np.float64)  # w = v + ε > 0 (v ≥ 0 or NaN, E1)
    np.sqrt(root, out=root)
    np.subtract(X, mean, out=out, dtype=np.float64)  # d: exact, or (no cancellation) within u
    np.multiply(out, scale, out=out)
    np.divide(out, root, out=out)  # q̂
    quotient = root
    quotient[...] = out
    np.add(out, B, out=out)  # ŷ = q̂ + b
    cancelled = np.abs(quotient) > CANCELLATION * np.abs(out)  # NaN compares false: kept
    out[cancelled] = UNDECIDED


def _mpfr_bn(
    context: gmpy2.context,
    x: gmpy2.mpfr,
    s: gmpy2.mpfr,
    b: gmpy2.mpfr,
    m: gmpy2.mpfr,
    v: gmpy2.mpfr,
    *,
    epsilon: float,
) -> gmpy2.mpfr:
    """The exact value of s·(x − m)/√(v + ε) + b rounded once in ``context``."""
    import gmpy2  # imported by correctly_rounded before this runs (its docstring says why)

    if all(map(gmpy2.is_finite, (x, s, b, m, v))):
        product = gmpy2.mpq(s) * (gmpy2.mpq(x) - gmpy2.mpq(m))
        if product != 0:  # BATCHNORMALIZATION_S1
            return _rounded_value(context, product, gmpy2.mpq(v) + gmpy2.mpq(epsilon), gmpy2.mpq(b))
    # BATCHNORMALIZATION_S4, BATCHNORMALIZATION_S5: a NaN, an infinity, b itself or a signed zero
    return gmpy2.mpfr(_ieee(x, s, b, m, v, epsilon), context=context)


def _ieee(
    x: gmpy2.mpfr, s: gmpy2.mpfr, b: gmpy2.mpfr, m: gmpy2.mpfr, v: gmpy2.mpfr, epsilon: float
) -> gmpy2.mpfr:
    """IEEE 754's evaluation of the formula step by step, in MPFR's exponent range (2^±(2³⁰)), where no
    step overflows or underflows: exact where a NaN, an infinity or a zero product decides the result (it
    is then a NaN, an infinity, b itself, or a zero of the sign IEEE 754's rules give)."""
    import gmpy2

    wide = gmpy2.context(precision=64)  # a zero stays a zero, a non-zero value stays non-zero
    return wide.add(wide.div(wide.mul(s, wide.sub(x, m)), wide.sqrt(wide.add(v, epsilon))), b)


def _rounded_value(context: gmpy2.context, t: gmpy2.mpq, w: gmpy2.mpq, b: gmpy2.mpq) -> gmpy2.mpfr:
    """t/√w + b (t ≠ 0, w > 0) rounded once: √w = √(n·d)/d, bracketed by integer square roots."""
    import gmpy2

    radicand = w.numerator * w.denominator
    bits = context.precision + GUARD_BITS
    for _ in range(ATTEMPTS):  # a bounded loop: ATTEMPTS suffice (the module's docstring)
        root, remainder = gmpy2.isqrt_rem(radicand << (2 * bits))  # root ≤ √(n·d)·2^bits < root + 1
        scale = w.denominator << bits
        if remainder == 0:  # w is a square: the value is rational, rounded once (a midpoint included)
            return gmpy2.mpfr(t * scale / root + b, context=context)
        ends = (t * scale / root + b, t * scale / (root + 1) + b)  # √w between root/scale and (root+1)/scale
        low, high = (gmpy2.mpfr(end, context=context) for end in ends)
        # BATCHNORMALIZATION_S1: the value lies between the ends, and rounding keeps order; −0 == +0, so the
        # signs too (the value is not 0, and a zero result has its sign)
        if low == high and gmpy2.is_signed(low) == gmpy2.is_signed(high):
            return low
        bits *= 2
    raise ArithmeticError(f"batch_normalization: Ziv's loop undecided after {ATTEMPTS} attempts (a fault)")


def batch_normalization(
    X: Array,
    scale: Array,
    B: Array,
    input_mean: Array,
    input_var: Array,
    *,
    epsilon: float,
    momentum: float,
    training_mode: int,
) -> np.ndarray:
    """Per-channel normalisation of X, inference mode: scale·(X − mean)/√(var + ε) + B, correctly rounded.

    ``X`` has shape (N, C, d₂, …), rank 2 or more (BATCHNORMALIZATION_C1); ``scale``, ``B``,
    ``input_mean`` and ``input_var`` have shape (C,) (BATCHNORMALIZATION_C2), all five of one
    floating-point type (GR3). ε is the float32 ONNX stores for ``epsilon`` (BATCHNORMALIZATION_S2),
    positive and finite (BATCHNORMALIZATION_C5); ``momentum`` is read by training only and has no effect
    (BATCHNORMALIZATION_S3); ``training_mode`` is 0 (BATCHNORMALIZATION_C6); a negative variance is
    refused (BATCHNORMALIZATION_E1). Each element of Y is the exact real value of the formula rounded once
    to the type, to nearest with ties to even; NaN, infinities and the sign of a zero are those of IEEE
    754's evaluation of the formula step by step.

    Returns a new array of X's shape and type.

    >>> import numpy as np, sonnx_spec
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    >>> one = np.ones(2, np.float32)
    >>> sonnx_spec.batch_normalization(X, one, one * 0, one * 2, one * 3, epsilon=1.0, momentum=0.9,
    ...     training_mode=0)
    array([[-0.5,  0. ],
           [ 0.5,  1. ]], dtype=float32)
    """
    if training_mode != 0:
        problem = (
            f"batch_normalization: training_mode is {training_mode!r}; the profile specifies inference only "
            "(training_mode = 0)"
        )
        raise SonnxError(
            "BATCHNORMALIZATION_C6", problem, operator="batch_normalization", tensor="training_mode"
        )
    eps = stored_epsilon(epsilon)  # BATCHNORMALIZATION_C5, BATCHNORMALIZATION_S2
    check_shapes(X, dict(zip(PARAMETERS, (scale, B, input_mean, input_var), strict=True)))
    check_variance(input_var)
    # BATCHNORMALIZATION_S3: momentum is not read. Each parameter along X's channel axis (axis 1).
    along = (-1,) + (1,) * (np.ndim(X) - 2)
    parameters = [
        np.broadcast_to(np.reshape(p, along), np.shape(X)) for p in (scale, B, input_mean, input_var)
    ]
    function = Elementary(
        "batch_normalization",
        float64=partial(_float64_bn, epsilon=eps),
        mpfr=partial(_mpfr_bn, epsilon=eps),
        error=RELATIVE_ERROR,
    )
    # BATCHNORMALIZATION_C3, BATCHNORMALIZATION_C4: a new array of X's shape and type.
    # BATCHNORMALIZATION_S1: the exact value rounded once (Ziv: float64, else the exact evaluation).
    return rounded("batch_normalization", function, np.asarray(X), *parameters)


batch_normalization = operator(
    batch_normalization,
    onnx="BatchNormalization",
    version=15,
    inputs=(
        Tensor("X", "X", "T", doc="the input, of shape (N, C, d₂, …), rank 2 or more"),
        Tensor("scale", "scale", "T", rank=1, rank_rule="BATCHNORMALIZATION_C2", doc="γ, one per channel"),
        Tensor("B", "B", "T", rank=1, rank_rule="BATCHNORMALIZATION_C2", doc="β, one per channel"),
        Tensor(
            "input_mean",
            "input_mean",
            "T",
            rank=1,
            rank_rule="BATCHNORMALIZATION_C2",
            doc="the mean per channel",
        ),
        Tensor(
            "input_var",
            "input_var",
            "T",
            rank=1,
            rank_rule="BATCHNORMALIZATION_C2",
            doc="the variance per channel, not negative",
        ),
    ),
    attributes=(
        Attribute("epsilon", "epsilon", "float", doc="ε added to the variance, stored as float32, positive"),
        Attribute("momentum", "momentum", "float", doc="read by training only: no effect"),
        Attribute("training_mode", "training_mode", "int", doc="0 only: inference"),
    ),
    outputs=(Tensor("Y", "Y", "T", doc="the normalised X, of X's shape"),),
    types={"T": ("float",)},
)


SMALLEST_EPSILON = 2.0**-149
"""The smallest positive float32: no ε is smaller (BATCHNORMALIZATION_C5, BATCHNORMALIZATION_S2)."""

ENGINE_ULPS = 8
"""BATCHNORMALIZATION_P2's factor: an engine's result is within 8u·M + 8η of the exact value."""


def engine_error(
    Y: np.ndarray,
    X: np.ndarray,
    scale: np.ndarray,
    B: np.ndarray,
    mean: np.ndarray,
    var: np.ndarray,
    *_: object,
) -> np.ndarray:
    """BATCHNORMALIZATION_P2's bound at each element of Y (float64): 8u·M + 8η, M the sum of the terms'
    magnitudes, raised by a few float64 units for its own roundings; +∞ (any value) where 9u·M passes the
    type's largest value; NaN (the reference's result exactly) where an operand is not finite. The judge sees
    the tensors, not ε: M is taken with the smallest ε there is, SMALLEST_EPSILON, a larger M (a looser
    bound) for every ε, close to the true one wherever the variance is large against ε."""
    info = ml_dtypes.finfo(Y.dtype)
    u = 2.0 ** -(info.nmant + 1)
    eta = float(info.smallest_subnormal) / 2
    along = (-1,) + (1,) * (X.ndim - 2)
    s, b, m, v = (np.reshape(np.asarray(p, np.float64), along) for p in (scale, B, mean, var))
    with np.errstate(all="ignore"):  # infinities and NaN (0·∞, ∞ − ∞): exact elements, marked below
        # |X| in X's type is exact; added to float64's |m| it is float64
        magnitudes = np.abs(s) * (np.abs(X) + np.abs(m)) / np.sqrt(v + SMALLEST_EPSILON) + np.abs(b)
        magnitudes *= 1 + 8 * 2.0**-53
        error = np.nextafter(ENGINE_ULPS * u * magnitudes + ENGINE_ULPS * eta, np.inf)
        error[9 * u * magnitudes > float(info.max)] = np.inf
        finite = np.isfinite(X) & np.isfinite(s) & np.isfinite(b) & np.isfinite(m) & np.isfinite(v)
    return np.where(finite, error, np.nan)


engines_within(batch_normalization, Within("BATCHNORMALIZATION_P2", engine_error, of_exact=True))
