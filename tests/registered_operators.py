"""Operators registered for a test only, of the kinds the profile is about to have: several outputs
(Split), int-list and string attributes (Transpose, DepthToSpace), an input whose values set the
output's shape (ConstantOfShape), an input of which only the shape is read (Shape).

Each is an ONNX operator the profile does not specify yet, under ONNX's name and version, so that the
ONNX checker, its shape inference and onnxruntime know it. The fixture ``new_kinds`` registers them for
one test and removes them after it: no other test, and no list of operators, sees them. One the profile
has come to specify (Transpose) is not registered again: the fixture gives the registry's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import numpy as np
import pytest

from sonnx_spec.registry import Attribute, Operator, Tensor, operators, registered

OPSET = 25
"""An opset where each of them is the version declared here, and Constant is Constant-25."""


def split(X, *, axis, num_outputs):
    """X cut along axis into num_outputs parts of ⌈n / num_outputs⌉ elements, the last one shorter."""
    size = -(-X.shape[axis] // num_outputs)
    return tuple(p.copy() for p in np.split(X, [size * m for m in range(1, num_outputs)], axis=axis))


def transpose(X, *, perm):
    """X with its axes in the order perm."""
    return np.transpose(X, perm).copy()


def depth_to_space(X, *, blocksize, mode):
    """The channels of X moved to blocks of height and width blocksize, in the order mode names."""
    b, c, h, w = X.shape
    if mode == "DCR":
        blocks = X.reshape(b, blocksize, blocksize, c // blocksize**2, h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        blocks = X.reshape(b, c // blocksize**2, blocksize, blocksize, h, w).transpose(0, 1, 4, 2, 5, 3)
    return blocks.reshape(b, c // blocksize**2, h * blocksize, w * blocksize).copy()


def constant_of_shape(S, *, value):
    """A tensor of shape S whose every element is the one element of value."""
    return np.full(tuple(int(d) for d in S), value.reshape(-1)[0], value.dtype)


def shape(X):
    """The shape of X."""
    return np.array(X.shape, np.int64)


X = (Tensor("X", "input", "T"),)
SPLIT_ATTRIBUTES = (Attribute("axis", "axis", "int"), Attribute("num_outputs", "num_outputs", "int"))
DECLARATIONS = [
    (
        split,
        "Split",
        18,
        X,
        (Attribute("axis", "axis", "int"), Attribute("num_outputs", "num_outputs", "int")),
    ),
    (transpose, "Transpose", 25, (Tensor("X", "data", "T"),), (Attribute("perm", "perm", "ints"),)),
    (
        depth_to_space,
        "DepthToSpace",
        13,
        X,
        (Attribute("blocksize", "blocksize", "int"), Attribute("mode", "mode", "string")),
    ),
    (
        constant_of_shape,
        "ConstantOfShape",
        25,
        (Tensor("S", "input", "int64", rank=1, rank_rule="GR2", sets_shape=True),),
        (Attribute("value", "value", "tensor", "T"),),
    ),
    (shape, "Shape", 25, (Tensor("X", "data", "T", shape_only=True),), ()),
]
OUTPUTS = {
    "Split": (Tensor("Y", "outputs", "T", variadic=True),),
    "Transpose": (Tensor("Y", "transposed", "T"),),
    "Shape": (Tensor("Y", "shape", "int64"),),
}


@pytest.fixture
def new_kinds() -> Iterator[dict[str, Operator]]:
    """The operators above, by ONNX name, registered for the test that asks for them."""
    with ExitStack() as stack:
        found = {}
        specified = {op.onnx: op for op in operators().values()}
        for body, onnx_name, version, inputs, attributes in DECLARATIONS:
            if onnx_name in specified:  # the profile specifies it now: its own declaration serves
                found[onnx_name] = specified[onnx_name]
                continue
            checked = stack.enter_context(
                registered(
                    body,
                    onnx=onnx_name,
                    version=version,
                    inputs=inputs,
                    outputs=OUTPUTS.get(onnx_name, (Tensor("Y", "output", "T"),)),
                    types={"T": ("float",)},
                    attributes=attributes,
                )
            )
            found[onnx_name] = checked.operator
        yield found
