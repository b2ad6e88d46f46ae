"""The model tools: check an ONNX model against the profile, run it with the reference, compare engines.

They read models with ``onnx`` (``pip install 'sonnx-spec[models]'``), imported
when a tool is called: ``import sonnx_spec`` needs numpy and ml_dtypes only.
The command line is :mod:`sonnx_spec.models.cli` (``sonnx-spec``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .findings import Finding, ModelRefused, ModelUnreadable, NodeError, NodeRef, Report
from .load import require_onnx

if TYPE_CHECKING:
    import numpy as np

    from .compare import Comparison


def check_model(source: Any) -> Report:
    """Check a model against the profile: every rule a node breaks, with the node and the reason.

    ``source`` is a file name, the bytes of a model or an ``onnx.ModelProto``.
    ``report.in_profile`` is True when no rule is broken or left undecided.
    Raises :class:`ModelUnreadable` if it cannot be read as a model, ImportError without onnx.
    """
    require_onnx()
    from .check import check_model as check

    return check(source)


def run_model(source: Any, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The graph outputs, by name, computed by the reference operators from ``inputs`` (arrays by name).

    Raises :class:`ModelRefused` (with the report of :func:`check_model`) for a model outside the
    profile, and :class:`~sonnx_spec.SonnxError` for inputs that do not match the graph's (MODEL_E1)
    or that an operator refuses (a :class:`NodeError`, naming the node).
    """
    require_onnx()
    from .run import run_model as run

    return run(source, inputs)


def compare_model(source: Any, inputs: Mapping[str, np.ndarray], engine: str = "onnxruntime") -> Comparison:
    """Run the model with the reference and with ``engine`` ("onnxruntime" or "onnx-reference") and
    compare their outputs bit for bit (NaNs alike)."""
    require_onnx()
    from .compare import compare_model as compare

    return compare(source, inputs, engine)


__all__ = [
    "Finding",
    "ModelRefused",
    "ModelUnreadable",
    "NodeError",
    "NodeRef",
    "Report",
    "check_model",
    "compare_model",
    "run_model",
]
