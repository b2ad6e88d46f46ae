"""``export``: the suite written as files any ONNX runtime's test harness reads.

    DIR/manifest.json                 the suite: its version, and every case with its rule and result
    DIR/README.md                     how to grade an engine
    DIR/node/<case>/model.onnx        a one-node model (opset: the version the profile is based on)
    DIR/node/<case>/test_data_set_0/input_<i>.pb, output_0.pb   TensorProto files, as ONNX's backend tests
    DIR/node/<case>/manifest.json     the case's rule, its origin, and how its output is judged

A case the profile refuses has no output file: an engine conforms by refusing its inputs.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .. import __version__
from .cases import Case, cases
from .errors import SuiteError
from .model import constant_inputs, one_node_model

FORMAT = "sonnx-conformance-suite/1"
README = """# The SONNX conformance suite, version {version}

{count} cases of {operators} operators, each proving one rule of the SONNX specification: a one-node
model in `node/<case>/model.onnx` with its inputs and, where the profile gives a result, the exact output
(`test_data_set_0/*.pb`, ONNX's backend-test layout). `manifest.json` lists every case with its rule;
{refused} cases are inputs the profile refuses: an engine conforms by refusing them.

Grade an engine (pip install 'sonnx-spec[models]'):

    sonnx-spec suite run . --engine onnxruntime --output results/
    sonnx-spec suite run . --engine my_runtime_module --output results/

An output passes when it has the element type, shape and bits of the expected one (every NaN alike), or,
for a case whose manifest says `"result": "bounded"`, when it has the expected type and shape and is at most
`bound.steps` values of the type from the expected one: the accuracy rule `bound.rule` allows engines that.
"""


def export(folder: str | Path, operators: Iterable[str] | None = None) -> dict[str, Any]:
    """Write the suite into ``folder`` (made if missing) and return its manifest. A folder holding
    anything but an earlier suite is refused (SuiteError): nothing of the user's is overwritten."""
    from onnx import numpy_helper

    root = Path(folder)
    if root.exists() and any(root.iterdir()) and not (root / "manifest.json").is_file():
        raise SuiteError(f"{root}: not empty and not a suite; export into a new folder")
    selected = cases(None if operators is None else set(operators))
    shutil.rmtree(root / "node", ignore_errors=True)  # an earlier export's cases: none may linger
    listed = []
    for case in selected:
        where = root / "node" / case.name
        data = where / "test_data_set_0"
        data.mkdir(parents=True)
        output = None if case.expected is None else case.expected.dtype
        shape = None if case.expected is None else case.expected.shape
        model = one_node_model(case.operator, case.inputs, dict(case.attributes), output, shape)
        (where / "model.onnx").write_bytes(model.SerializeToString())
        constant = constant_inputs(case.operator, len(case.inputs))  # in the model, as initializers
        fed = [(i, value) for i, value in enumerate(case.inputs) if i not in constant]
        for k, (i, value) in enumerate(fed):
            tensor = numpy_helper.from_array(value, f"x{i}")
            (data / f"input_{k}.pb").write_bytes(tensor.SerializeToString())
        if case.expected is not None:
            tensor = numpy_helper.from_array(case.expected, "y0")
            (data / "output_0.pb").write_bytes(tensor.SerializeToString())
        manifest = case.manifest()
        (where / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), "utf-8")
        listed.append(manifest)
    suite = {
        "format": FORMAT,
        "specification": __version__,
        "digest": _digest(selected),
        "cases": listed,
    }
    (root / "manifest.json").write_text(json.dumps(suite, indent=1, ensure_ascii=False), "utf-8")
    readme = README.format(
        version=__version__,
        count=len(selected),
        operators=len({c.onnx for c in selected}),
        refused=sum(c.refused for c in selected),
    )
    (root / "README.md").write_text(readme, "utf-8")
    return suite


def _digest(selected: list[Case]) -> str:
    """What the cases state, hashed: two exports of the same specification have the same digest."""
    sha = hashlib.sha256()
    for case in selected:
        sha.update(json.dumps(case.manifest(), sort_keys=True, ensure_ascii=False).encode())
        for value in (*case.inputs, *(() if case.expected is None else (case.expected,))):
            sha.update(value.dtype.name.encode() + value.tobytes())
    return sha.hexdigest()
