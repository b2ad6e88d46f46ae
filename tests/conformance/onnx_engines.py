"""The engines compared with the spec: numpy, the ONNX reference evaluator and onnxruntime (CPU).

numpy is called as a developer would call it (``np.clip``, ``np.maximum``,
``np.abs``: each operator's conformance module says how): many runtimes copy its
behaviour. The two ONNX engines each run a one-node model whose opset is the
version of the ONNX operator the profile is based on (13 for Clip-13), so that
the node resolves to exactly that version. The model's inputs have a type but no
shape, so that loading it depends on the element type alone: an engine that
cannot load it, or whose API cannot take arrays of that type, does not support
the type ("unsupported"); an error at run time is the engine refusing that
input ("refused").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import onnx
import onnxruntime
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from operator_cases import numpy_function

from sonnx_spec import operators
from sonnx_spec.suite.model import output_type

Status = Literal["output", "refused", "unsupported"]


@dataclass(frozen=True)
class Result:
    """What an engine (or the spec) did with one input: its outputs, or why there are none."""

    status: Status
    outputs: tuple[np.ndarray, ...] = ()  # every output of the operator, in the declaration's order
    message: str = ""  # the engine's error, shortened; for the spec, the id of the rule it enforces

    @property
    def output(self) -> np.ndarray | None:
        """The first output (the only one of most operators), as the report shows it."""
        return self.outputs[0] if self.outputs else None


def shorten(error: BaseException, limit: int = 200) -> str:
    """The first line of an error message, cut to ``limit`` characters for the report."""
    lines = str(error).strip().splitlines()
    text = f"{type(error).__name__}: {lines[0] if lines else ''}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def ir_version(opset: int) -> int:
    """The oldest IR version of ``opset``: the newest onnx writes one onnxruntime may not read yet."""
    return helper.find_min_ir_version_for([helper.make_opsetid("", opset)])


LIST_TYPES = {"ints": onnx.AttributeProto.INTS, "floats": onnx.AttributeProto.FLOATS}
"""The ONNX type of each list kind of attribute: helper.make_attribute cannot infer it from an empty list."""


def one_node_model(
    op: str, present: Sequence[np.dtype | None], attributes: Mapping[str, Any], count: int | None = None
) -> onnx.ModelProto:
    """A model applying ``op`` to inputs x0, x1, … of the given types, giving outputs y0, y1, … (``count``
    of them for a variadic output; else one per declared output); an absent input (None) is the empty
    name ONNX uses. Tensor attributes become TensorProto values."""
    spec = operators()[op]
    count = len(spec.outputs) if count is None else count
    names = [f"x{i}" if dtype is not None else "" for i, dtype in enumerate(present)]
    values = {
        spec_attr.onnx: numpy_helper.from_array(np.asarray(attributes[spec_attr.name]))
        if spec_attr.kind == "tensor"
        else attributes[spec_attr.name]
        for spec_attr in spec.attributes
        if spec_attr.kind not in LIST_TYPES
    }
    inputs = [
        helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(t), None)
        for name, t in zip(names, present, strict=True)
        if t is not None
    ]
    outputs = [
        helper.make_tensor_value_info(
            f"y{m}", helper.np_dtype_to_tensor_dtype(output_type(op, present, attributes, m)), None
        )
        for m in range(count)
    ]
    node = helper.make_node(spec.onnx, names, [o.name for o in outputs], **values)
    node.attribute.extend(  # a list attribute with its type, which an empty one does not show (perm = [])
        helper.make_attribute(a.onnx, attributes[a.name], attr_type=LIST_TYPES[a.kind])
        for a in spec.attributes
        if a.kind in LIST_TYPES
    )
    graph = helper.make_graph(
        [node],
        f"sonnx_{op}",
        inputs,
        outputs,
    )
    opset = [helper.make_opsetid("", spec.version)]
    return helper.make_model(graph, opset_imports=opset, ir_version=ir_version(spec.version))


class CannotFeed(Exception):
    """The engine's API takes no array of the inputs' type, or gives none of the output's: the type is
    unsupported, not the input refused."""


def feeds(inputs: Sequence[np.ndarray | None]) -> dict[str, np.ndarray]:
    return {f"x{i}": value for i, value in enumerate(inputs) if value is not None}


class Engine:
    """Runs ``op`` with a session made once per (op, element type, inputs given)."""

    name: str
    title: str
    version: str

    def __init__(self) -> None:
        self._sessions: dict[tuple, object | Result] = {}

    def run(
        self,
        op: str,
        inputs: Sequence[np.ndarray | None],
        attributes: Mapping[str, Any],
        count: int | None = None,
    ) -> Result:
        """The engine's outputs (``count`` of them for a variadic output), or why there are none."""
        present = tuple(None if value is None else value.dtype for value in inputs)
        key = (
            op,
            present,
            count,
            repr(sorted((k, np.asarray(v).tobytes(), repr(v)) for k, v in attributes.items())),
        )
        if key not in self._sessions:
            try:
                self._sessions[key] = self._load(one_node_model(op, present, attributes, count))
            except Exception as error:  # no kernel, or a model this engine cannot read
                status = "refused" if self.refuses_attributes(error) else "unsupported"
                self._sessions[key] = Result(status, message=shorten(error))
        session = self._sessions[key]
        if isinstance(session, Result):
            return session
        try:
            outputs = self._execute(session, feeds(inputs))
        except CannotFeed as error:
            return Result("unsupported", message=str(error))
        except Exception as error:  # any failure at run time is the engine refusing the input
            return Result("refused", message=shorten(error))
        return Result("output", tuple(np.asarray(output) for output in outputs))

    def _load(self, model: onnx.ModelProto) -> object:
        raise NotImplementedError

    def refuses_attributes(self, error: Exception) -> bool:
        """Whether a failure to load the model is the kernel refusing the node's attribute values (the
        refusal of that node), rather than no kernel for its types."""
        return False

    def _execute(self, session: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        raise NotImplementedError


class OnnxReference(Engine):
    name = "onnx-reference"
    title = "ONNX reference evaluator"
    version = onnx.__version__

    def _load(self, model: onnx.ModelProto) -> ReferenceEvaluator:
        return ReferenceEvaluator(model)

    def _execute(self, session: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        assert isinstance(session, ReferenceEvaluator)
        # ml_dtypes' bfloat16 kernels flag NaN operands as "invalid", numpy a division by zero
        # or an overflow: warnings (errors under filterwarnings) of results the evaluator returns.
        with np.errstate(all="ignore"):
            return session.run(None, feeds)


class OnnxRuntime(Engine):
    name = "onnxruntime"
    title = "onnxruntime (CPU)"
    version = onnxruntime.__version__

    def _load(self, model: onnx.ModelProto) -> onnxruntime.InferenceSession:
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 4  # fatal only: the errors it logs are the refusals this run records
        return onnxruntime.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )

    def refuses_attributes(self, error: Exception) -> bool:
        # the kernel was found, and its constructor refused the attributes (Transpose's perm = [-1, 0])
        return "Exception during initialization" in str(error)

    def _execute(self, session: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        assert isinstance(session, onnxruntime.InferenceSession)
        try:
            values = {name: onnxruntime.OrtValue.ortvalue_from_numpy(value) for name, value in feeds.items()}
        except RuntimeError as error:  # bfloat16: its Python API knows no ml_dtypes array
            dtype = next(iter(feeds.values())).dtype
            raise CannotFeed(f"its Python API takes no {dtype} array ({shorten(error, 100)})") from error
        return [_readable(output) for output in session.run_with_ort_values(None, values)]


def _readable(output: onnxruntime.OrtValue) -> np.ndarray:
    try:
        return output.numpy()
    except RuntimeError as error:  # a bfloat16 output of a model without inputs: not readable either
        element = output.data_type().removeprefix("tensor(").removesuffix(")")
        raise CannotFeed(f"its Python API gives no {element} array ({shorten(error, 100)})") from error


class Numpy(Engine):
    name = "numpy"
    title = "numpy"
    version = np.__version__

    def run(
        self,
        op: str,
        inputs: Sequence[np.ndarray | None],
        attributes: Mapping[str, Any],
        count: int | None = None,
    ) -> Result:
        present = [None if v is None else v.dtype for v in inputs]
        try:
            with np.errstate(all="ignore"):  # NaN and overflow are inputs here, not accidents
                returned = numpy_function(op)(*inputs, **attributes)
        except Exception as error:  # e.g. shapes that do not broadcast
            return Result("refused", message=shorten(error))
        outputs = tuple(np.asarray(o) for o in operators()[op].results(returned))
        for position, output in enumerate(outputs):
            dtype = output_type(op, present, attributes, position)
            if output.dtype != dtype:  # np.clip on bfloat16: computed and returned in float32
                return Result(
                    "unsupported",
                    message=f"no {dtype} kernel: numpy computes {op} in {output.dtype} "
                    f"and returns {output.dtype}",
                )
        return Result("output", outputs)


ENGINES: tuple[Engine, ...] = (Numpy(), OnnxReference(), OnnxRuntime())
VERSIONS = {"onnx": onnx.__version__, "onnxruntime": onnxruntime.__version__}
