"""The models gallery: real models, made on this machine without downloads, checked, run and compared.

Each module of this folder makes models (``build() -> list[Model]``): scikit-learn models exported by
skl2onnx, networks written with onnx.helper in the shape of the profile's use cases, the samples onnxruntime
ships. :func:`examine` checks a model, checks its conforming version (:mod:`gallery.rewrite`: what a
model author changes to bring it into the profile), runs whichever is in the profile on the model's inputs,
and judges onnxruntime on it node by node against the operators' accuracy rules. The site's page
``docs/gallery.md`` shows what it finds; ``python -m gallery DIR`` writes the files to do it again with
``sonnx-spec check``, ``run`` and ``compare --by-node``.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field

import numpy as np
import onnx

from sonnx_spec import check_model, run_model
from sonnx_spec.errors import SonnxError
from sonnx_spec.models.by_node import NodeComparison, compare_nodes
from sonnx_spec.models.findings import Report

NOT_MODELS = {"rewrite"}  # modules of the gallery that make no model

MODEL_BENCH_LIMIT = 2000.0
"""The bench limit of the MLPs and the CNN (see ``Model.bench_limit``)."""


@dataclass(frozen=True)
class Model:
    name: str  # a file name: mlp_regressor
    title: str
    origin: str  # how it was made, in a sentence
    model: onnx.ModelProto
    inputs: dict[str, np.ndarray]
    conforming: onnx.ModelProto | None = None  # the same computation, rewritten into the profile
    changes: tuple[str, ...] = ()  # what the rewrite changed, each with the rule it satisfies
    bench_limit: float | None = None  # bench/models.py: the largest ratio of its run to onnxruntime's
    # (issue 23 asks 3x; a node costs the reference ~0.3 ms of Python checks and exact sums against
    # onnxruntime's microseconds, so the limit guards today's ~500x against a regression, with room)


def models() -> list[Model]:
    """Every model of the gallery, module by module in alphabetical order."""
    found: list[Model] = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name not in NOT_MODELS and not module.name.startswith("_"):
            found += importlib.import_module(f"{__name__}.{module.name}").build()
    return found


@dataclass
class Examination:
    model: Model
    check: Report
    conforming_check: Report | None = None
    ran: str = ""  # which version ran: "model", "conforming", or "" (neither is in the profile)
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    refusal: str = ""  # an operator refused the inputs
    by_node: NodeComparison | None = None


def examine(model: Model, engine: str = "onnxruntime") -> Examination:
    found = Examination(model, check_model(model.model))
    found.check.source = f"{model.name}.onnx"
    if model.conforming is not None:
        found.conforming_check = check_model(model.conforming)
        found.conforming_check.source = f"{model.name}.conforming.onnx"
    if found.check.in_profile:
        found.ran, target = "model", model.model
    elif found.conforming_check is not None and found.conforming_check.in_profile:
        found.ran, target = "conforming", model.conforming
    else:
        return found
    try:
        found.outputs = run_model(target, model.inputs)
    except SonnxError as error:
        found.refusal = str(error)
        return found
    found.by_node = compare_nodes(target, model.inputs, engine)
    found.by_node.source = f"{model.name}{'.conforming' if found.ran == 'conforming' else ''}.onnx"
    return found


def report(name: str) -> str:
    """What :func:`examine` finds for the gallery's model ``name``, as the site shows it."""
    from sonnx_spec.models.formats import check_text, node_comparison_text

    model = next(m for m in _models() if m.name == name)
    found = examine(model)
    lines = [f"{model.title}: {model.origin}.", "", check_text(found.check)]
    if model.conforming is not None:
        lines += ["", "The conforming version changes:"] + [f"  - {change}" for change in model.changes]
        lines += ["", check_text(found.conforming_check)] if found.conforming_check else []
    if not found.ran:
        lines += ["", "Not run: neither version is in the profile yet."]
    elif found.refusal:
        lines += ["", f"Run: refused: {found.refusal}"]
    else:
        shapes = ", ".join(f"{k} {v.dtype.name}{list(v.shape)}" for k, v in found.outputs.items())
        lines += ["", f"Run ({found.ran} version): {shapes}"]
        if found.by_node is not None:
            lines += ["", node_comparison_text(found.by_node)]
    text = "\n".join(lines).splitlines()
    return "\n".join(line for line in text if not line.startswith("SONNX specifies:"))  # the site lists them


_CACHE: list[Model] = []


def _models() -> list[Model]:
    """The gallery's models, made once per process (training the scikit-learn ones takes a second)."""
    if not _CACHE:
        _CACHE.extend(models())
    return _CACHE
