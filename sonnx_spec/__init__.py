"""sonnx_spec: the executable specification of the SONNX profile of ONNX.

Each operator returns a new numpy array of its inputs' type and refuses every
input the profile refuses with a :class:`SonnxError` naming the rule.
"""

from .errors import SonnxError
from .models import check_model, run_model
from .ops.abs import abs  # noqa: A004 - the operators' names
from .ops.add import add
from .ops.clip import clip
from .ops.max import max  # noqa: A004
from .ops.mul import mul
from .ops.sub import sub
from .registry import Operator, operators
from .requirements import Rule, rule, rules
from .types import FAMILIES, FLOAT_TYPES, INT_TYPES, TYPES

__all__ = [
    "FAMILIES",
    "FLOAT_TYPES",
    "INT_TYPES",
    "TYPES",
    "Operator",
    "Rule",
    "SonnxError",
    "abs",
    "add",
    "check_model",
    "clip",
    "max",
    "mul",
    "operators",
    "rule",
    "rules",
    "run_model",
    "sub",
]
__version__ = "0.2.0"
