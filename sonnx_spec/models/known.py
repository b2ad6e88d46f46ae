"""What the checker knows of a tensor's values before the model runs, and why it knows nothing of others.

Initializers and the outputs of nodes computed from known values (Constant, Shape
of a tensor of known shape, arithmetic on initializers) are known, when small; a
graph input is not, nor anything computed from one: its value "depends on the
input". An operator whose output's shape depends on an input's values (Reshape's
shape, Slice's starts) is checked with those values where they are known; a
value that sets a shape and depends on a graph input breaks GR2 (every shape of a
profile model is known before it runs); where it is unknown for another reason
(too large to keep) the node is left undecided, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import numpy_helper

VALUE_LIMIT = 2**20
"""The most bytes of a tensor whose value the checker keeps: shapes, indices and small constants."""


INPUT_DEPENDENT = "depends on the input"


@dataclass
class KnownValues:
    """The tensors whose values are known, and for each other one, why it is not."""

    values: dict[str, np.ndarray | np.generic] = field(default_factory=dict)
    unknown: dict[str, str] = field(default_factory=dict)  # tensor -> why its value is not known

    @classmethod
    def of_graph(cls, graph: onnx.GraphProto) -> KnownValues:
        """Initializers known (when small and readable); graph inputs, even with a default, not."""
        known = cls()
        for tensor in graph.initializer:
            try:
                value = numpy_helper.to_array(tensor)
            except Exception as error:  # data the model does not hold, or malformed: the checker says so
                known.forget(tensor.name, f"cannot be read ({type(error).__name__})")
                continue
            known.keep(tensor.name, value)
        for tensor in graph.sparse_initializer:
            known.forget(tensor.values.name, "is a sparse tensor")
        for value_info in graph.input:  # an initializer of a graph input is a default the caller replaces
            known.forget(value_info.name, f"{INPUT_DEPENDENT} {value_info.name!r}")
        return known

    def keep(self, name: str, value: np.ndarray | np.generic) -> None:
        if value.nbytes > VALUE_LIMIT:
            self.forget(name, f"holds more than {VALUE_LIMIT} bytes, more than the checker keeps")
        else:
            self.values[name] = value
            self.unknown.pop(name, None)

    def forget(self, name: str, why: str) -> None:
        self.values.pop(name, None)
        self.unknown[name] = why

    def __contains__(self, name: str) -> bool:
        return name in self.values

    def __getitem__(self, name: str) -> np.ndarray | np.generic:
        return self.values[name]

    def depends_on_input(self, name: str) -> bool:
        """Whether the value of ``name`` is unknown because a graph input gives it, at run time."""
        return self.unknown.get(name, "").startswith(INPUT_DEPENDENT)

    def why(self, name: str) -> str:
        """Why the value of ``name`` is not known: "depends on the input 'x'", for example."""
        return self.unknown.get(name, "is not computed by the checker")
