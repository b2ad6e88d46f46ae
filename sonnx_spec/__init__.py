"""sonnx_spec: the executable specification of the SONNX profile of ONNX.

Each operator returns a new numpy array of its inputs' type and refuses every
input the profile refuses with a :class:`SonnxError` naming the requirement.
"""

from .errors import SonnxError
from .ops import abs, clip, max  # noqa: A004 - the operators' names
from .requirements import Requirement, requirement, requirements
from .types import FAMILIES, FLOAT_TYPES, INT_TYPES, TYPES

__all__ = [
    "FAMILIES",
    "FLOAT_TYPES",
    "INT_TYPES",
    "TYPES",
    "Requirement",
    "SonnxError",
    "abs",
    "clip",
    "max",
    "requirement",
    "requirements",
]
__version__ = "0.1.0"
