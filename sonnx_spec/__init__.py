"""sonnx_spec: the executable specification of the SONNX profile of ONNX.

Each operator returns a new numpy array of its inputs' type and refuses every
input the profile refuses with a :class:`SonnxError` naming the rule. The
operators are the functions of the registry, each named after its operator
(``sonnx_spec.clip``, ``sonnx_spec.leaky_relu``): a new operator module is a new
export, with nothing here to edit.
"""

from .errors import SonnxError
from .models import check_model, run_model
from .registry import Operator, operators
from .requirements import Rule, rule, rules
from .types import FAMILIES, FLOAT_TYPES, INT_TYPES, TYPES

_FUNCTIONS = {name: op.function for name, op in operators().items()}
globals().update(_FUNCTIONS)  # sonnx_spec.clip, sonnx_spec.max, … (max and abs shadow builtins here only)

__all__ = [
    "FAMILIES",
    "FLOAT_TYPES",
    "INT_TYPES",
    "TYPES",
    "Operator",
    "Rule",
    "SonnxError",
    "check_model",
    "operators",
    "rule",
    "rules",
    "run_model",
    *_FUNCTIONS,
]
__version__ = "0.2.0"
