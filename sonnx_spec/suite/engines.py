"""The engines a suite grades, each behind the same two functions.

An engine is a Python module (or an object) with::

    def prepare(model: bytes) -> object
        # the serialized one-node model -> a session; raise if the engine cannot load it
        # (an operator or a type it lacks): the case is "unsupported"
    def run(session: object, inputs: dict[str, numpy.ndarray]) -> list[numpy.ndarray]
        # the outputs, in the graph's order; raise to refuse the inputs

``--engine`` takes ``onnxruntime``, ``onnx-reference`` (ONNX's reference evaluator), ``reference`` (this
specification's reference, which passes every case), a module's dotted name, or a ``.py`` file.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .errors import SuiteError

BUILT_IN = ("onnxruntime", "onnx-reference", "reference")


class Interface(Protocol):
    def prepare(self, model: bytes) -> object: ...

    def run(self, session: object, inputs: dict[str, np.ndarray]) -> list[np.ndarray]: ...


@dataclass(frozen=True)
class Engine:
    name: str
    version: str
    module: Any  # has prepare and run


class OnnxRuntime:
    def __init__(self) -> None:
        import onnxruntime

        self.onnxruntime = onnxruntime

    def prepare(self, model: bytes) -> object:
        options = self.onnxruntime.SessionOptions()
        options.log_severity_level = 4  # its errors are raised and graded, not logged
        options.intra_op_num_threads = 1
        return self.onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])

    def run(self, session: Any, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
        return session.run(None, inputs)


class OnnxReference:
    def prepare(self, model: bytes) -> object:
        from onnx.reference import ReferenceEvaluator

        return ReferenceEvaluator(model)

    def run(self, session: Any, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
        with np.errstate(all="ignore"):  # its kernels' warnings on NaN, a division by zero
            return session.run(None, inputs)


class Reference:
    def prepare(self, model: bytes) -> object:
        from ..models.check import check_model
        from ..models.load import load_model

        loaded = load_model(model)[0]
        report = check_model(loaded)
        if not report.in_profile:  # a case's model the checker refuses: a defect of the suite, shown
            raise SuiteError(f"the checker refuses the model: {report.findings[0]}")
        return loaded

    def run(self, session: Any, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
        from ..models.run import run_model

        outputs = run_model(session, inputs)
        return [outputs[o.name] for o in session.graph.output]


def load_engine(name: str) -> Engine:
    """The engine ``name``; SuiteError if it is not installed or not a module with prepare and run."""
    from .. import __version__

    try:
        if name == "onnxruntime":
            import onnxruntime

            return Engine(name, onnxruntime.__version__, OnnxRuntime())
        if name == "onnx-reference":
            import onnx

            return Engine(name, onnx.__version__, OnnxReference())
        if name == "reference":
            return Engine(name, __version__, Reference())
    except ImportError as error:
        raise SuiteError(f"engine {name}: {error.name} is not installed (pip install {error.name})") from None
    module = _module(name)
    missing = [f for f in ("prepare", "run") if not callable(getattr(module, f, None))]
    if missing:
        raise SuiteError(f"engine {name}: the module has no {' and no '.join(missing)} function")
    return Engine(name, str(getattr(module, "__version__", "")), module)


def _module(name: str) -> Any:
    """A module by dotted name, or a .py file the user names (nothing else is read)."""
    try:
        if name.endswith(".py"):
            path = Path(name)
            if not path.is_file():
                raise SuiteError(f"engine {name}: no such file")
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
        return importlib.import_module(name)
    except SuiteError:
        raise
    except Exception as error:  # the user's module failed to import: say so in one line
        raise SuiteError(f"engine {name}: cannot be imported ({type(error).__name__}: {error})") from None
