"""sonnx_spec: the executable specification of the SONNX profile of ONNX.

Each operator returns a new numpy array of its inputs' type and refuses every
input the profile refuses with a :class:`SonnxError` naming the rule.
"""

from .errors import SonnxError
from .models import check_model, run_model
from .ops.abs import abs  # noqa: A004 - the operators' names
from .ops.clip import clip
from .ops.leaky_relu import leaky_relu
from .ops.max import max  # noqa: A004
from .ops.neg import neg
from .ops.relu import relu
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
    "check_model",
    "clip",
    "leaky_relu",
    "max",
    "neg",
    "operators",
    "relu",
    "rule",
    "rules",
    "run_model",
]
__version__ = "0.2.0"
