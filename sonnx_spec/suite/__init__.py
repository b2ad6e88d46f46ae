"""The conformance suite: the specification's special-values cases as ONNX backend tests.

Every row of every operator's special-values table (``[[special]]`` in its rules file), for every type it
holds for, is one case: a one-node model, its inputs and, where the profile gives a result, the exact
output, in the layout of ONNX's backend node tests, with a manifest naming the rule the case proves.
:func:`export` writes it; :func:`grade` runs an engine on it. ``onnx`` writes and reads the files; the
engines graded are onnxruntime, ONNX's reference evaluator, this reference, or a module of the user's
(:mod:`.engines`).
"""

from .cases import Case, cases
from .export import export
from .grade import Grades, grade

__all__ = ["Case", "Grades", "cases", "export", "grade"]
