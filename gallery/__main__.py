"""``python -m gallery DIR``: write every model of the gallery, its conforming version and its inputs into
DIR/<model>/, and print the ``sonnx-spec`` commands that check, run and compare them."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx

from . import models


def write(folder: Path) -> list[str]:
    commands = []
    for model in models():
        where = folder / model.name
        where.mkdir(parents=True, exist_ok=True)
        onnx.save(model.model, where / "model.onnx")
        np.savez(where / "inputs.npz", **model.inputs)
        commands.append(f"sonnx-spec check {where / 'model.onnx'}")
        runnable = where / "model.onnx"
        if model.conforming is not None:
            onnx.save(model.conforming, where / "conforming.onnx")
            runnable = where / "conforming.onnx"
            commands.append(f"sonnx-spec check {runnable}")
        commands.append(f"sonnx-spec run {runnable} --inputs {where / 'inputs.npz'}")
        commands.append(f"sonnx-spec compare {runnable} --inputs {where / 'inputs.npz'} --by-node")
    return commands


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m gallery DIR")
    print("\n".join(write(Path(sys.argv[1]))))
