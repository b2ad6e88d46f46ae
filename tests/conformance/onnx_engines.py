"""The engines compared with the spec: numpy, the ONNX reference evaluator and onnxruntime (CPU).

numpy is called as a developer would call it (``np.clip``, ``np.maximum``,
``np.abs``): many runtimes copy its behaviour. The two ONNX engines each run
a one-node model of opset 13 (Clip-13, Max-13 and Abs-13 are
the versions the profile is based on). The model's inputs have a type but no
shape, so that loading it depends on the element type alone: an engine that
cannot load it, or whose API cannot take arrays of that type, does not support
the type ("unsupported"); an error at run time is the engine refusing that
input ("refused").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import onnx
import onnxruntime
from onnx import helper
from onnx.reference import ReferenceEvaluator

OPSET = 13
IR_VERSION = 7  # the IR of opset 13; the newest onnx writes one onnxruntime may not read yet
OP_TYPES = {"clip": "Clip", "max": "Max", "abs": "Abs"}

Status = Literal["output", "refused", "unsupported"]


@dataclass(frozen=True)
class Result:
    """What an engine (or the spec) did with one input: an output, or why there is none."""

    status: Status
    output: np.ndarray | None = None
    message: str = ""  # the engine's error, shortened; for the spec, the id of the rule it enforces


def shorten(error: BaseException, limit: int = 200) -> str:
    """The first line of an error message, cut to ``limit`` characters for the report."""
    lines = str(error).strip().splitlines()
    text = f"{type(error).__name__}: {lines[0] if lines else ''}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_node_model(op: str, dtype: np.dtype, present: Sequence[bool]) -> onnx.ModelProto:
    """A model applying ``op`` to inputs x0, x1, …; an absent input is the empty name ONNX uses."""
    elem_type = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    names = [f"x{i}" if given else "" for i, given in enumerate(present)]
    graph = helper.make_graph(
        [helper.make_node(OP_TYPES[op], names, ["y"])],
        f"sonnx_{op}",
        [helper.make_tensor_value_info(name, elem_type, None) for name in names if name],
        [helper.make_tensor_value_info("y", elem_type, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)


class CannotFeed(Exception):
    """The engine's API takes no array of the inputs' type: the type is unsupported, not the input refused."""


def feeds(inputs: Sequence[np.ndarray | None]) -> dict[str, np.ndarray]:
    return {f"x{i}": value for i, value in enumerate(inputs) if value is not None}


class Engine:
    """Runs ``op`` with a session made once per (op, element type, inputs given)."""

    name: str
    title: str
    version: str

    def __init__(self) -> None:
        self._sessions: dict[tuple[str, np.dtype, tuple[bool, ...]], object | Result] = {}

    def run(self, op: str, inputs: Sequence[np.ndarray | None]) -> Result:
        dtype = next(value.dtype for value in inputs if value is not None)
        key = (op, dtype, tuple(value is not None for value in inputs))
        if key not in self._sessions:
            try:
                self._sessions[key] = self._load(one_node_model(*key))
            except Exception as error:  # no kernel, or a model this engine cannot read
                self._sessions[key] = Result("unsupported", message=shorten(error))
        session = self._sessions[key]
        if isinstance(session, Result):
            return session
        try:
            output = self._execute(session, feeds(inputs))
        except CannotFeed as error:
            return Result("unsupported", message=str(error))
        except Exception as error:  # any failure at run time is the engine refusing the input
            return Result("refused", message=shorten(error))
        return Result("output", np.asarray(output))

    def _load(self, model: onnx.ModelProto) -> object:
        raise NotImplementedError

    def _execute(self, session: object, feeds: dict[str, np.ndarray]) -> np.ndarray:
        raise NotImplementedError


class OnnxReference(Engine):
    name = "onnx-reference"
    title = "ONNX reference evaluator"
    version = onnx.__version__

    def _load(self, model: onnx.ModelProto) -> ReferenceEvaluator:
        return ReferenceEvaluator(model)

    def _execute(self, session: object, feeds: dict[str, np.ndarray]) -> np.ndarray:
        assert isinstance(session, ReferenceEvaluator)
        # ml_dtypes' bfloat16 kernels flag NaN operands as "invalid", a warning
        # (an error under filterwarnings); NaN is an ordinary input here.
        with np.errstate(invalid="ignore"):
            return session.run(None, feeds)[0]


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

    def _execute(self, session: object, feeds: dict[str, np.ndarray]) -> np.ndarray:
        assert isinstance(session, onnxruntime.InferenceSession)
        try:
            values = {name: onnxruntime.OrtValue.ortvalue_from_numpy(value) for name, value in feeds.items()}
        except RuntimeError as error:  # bfloat16: its Python API knows no ml_dtypes array
            dtype = next(iter(feeds.values())).dtype
            raise CannotFeed(f"its Python API takes no {dtype} array ({shorten(error, 100)})") from error
        return session.run_with_ort_values(None, values)[0].numpy()


NUMPY_FUNCTIONS: dict[str, Callable[..., np.ndarray]] = {
    "clip": np.clip,  # an omitted bound is None, numpy's own way to leave a side unbounded
    "max": lambda *inputs: functools.reduce(np.maximum, inputs),
    "abs": np.abs,
}


class Numpy(Engine):
    name = "numpy"
    title = "numpy"
    version = np.__version__

    def run(self, op: str, inputs: Sequence[np.ndarray | None]) -> Result:
        dtype = next(value.dtype for value in inputs if value is not None)
        try:
            with np.errstate(all="ignore"):  # NaN and overflow are inputs here, not accidents
                output = np.asarray(NUMPY_FUNCTIONS[op](*inputs))
        except Exception as error:  # e.g. shapes that do not broadcast
            return Result("refused", message=shorten(error))
        if output.dtype != dtype:  # np.clip on bfloat16: computed and returned in float32
            return Result(
                "unsupported",
                message=f"no {dtype} kernel: numpy computes {op} in {output.dtype} "
                f"and returns {output.dtype}",
            )
        return Result("output", output)


ENGINES: tuple[Engine, ...] = (Numpy(), OnnxReference(), OnnxRuntime())
VERSIONS = {"onnx": onnx.__version__, "onnxruntime": onnxruntime.__version__}
