"""Reading a model: from a file, bytes or an ``onnx.ModelProto``; anything else is ModelUnreadable.

``onnx`` is an optional dependency (``pip install 'sonnx-spec[models]'``): it is
imported here, when a model is read, never by ``import sonnx_spec``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .findings import ModelUnreadable

if TYPE_CHECKING:
    import onnx

PROTOBUF_LIMIT = 2**31 - 1
"""The largest message protobuf parses: a larger model keeps its tensors in external data files."""
INSTALL_HINT = "the model tools need the onnx package: pip install 'sonnx-spec[models]'"


def require_onnx() -> Any:
    """The onnx module; ImportError saying how to install it if it is missing."""
    try:
        import onnx
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return onnx


def load_model(source: str | os.PathLike | bytes | onnx.ModelProto) -> tuple[onnx.ModelProto, str]:
    """The model and a name for it in reports. External data is read from the model's folder, checked
    (MODEL_C6), into the model: the model returned names no file. A model given as bytes or as a
    ModelProto has no folder, and no external data."""
    onnx = require_onnx()
    from .external_data import inline_external_data

    if isinstance(source, onnx.ModelProto):
        inline_external_data(source, None, "<model>")  # refuses any: reads nothing, changes nothing
        return source, "<model>"
    if isinstance(source, bytes):
        model = _parse(onnx, source, "<bytes>")
        inline_external_data(model, None, "<bytes>")
        return model, "<bytes>"
    path = Path(source)
    try:
        size = path.stat().st_size
        if size > PROTOBUF_LIMIT:
            raise ModelUnreadable(
                f"{path}: {size} bytes, more than the 2 GiB a protobuf message can hold "
                "(a model that large keeps its tensors in external data files)"
            )
        data = path.read_bytes()
    except OSError as error:
        raise ModelUnreadable(f"{path}: cannot be read ({error.strerror or error})") from None
    model = _parse(onnx, data, str(path))
    inline_external_data(model, path.parent, str(path))
    return model, str(path)


def _parse(onnx: Any, data: bytes, name: str) -> onnx.ModelProto:
    from google.protobuf.message import DecodeError

    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, ValueError, RuntimeError) as error:  # truncated, corrupt, or not a protobuf
        raise ModelUnreadable(f"{name}: not an ONNX model (protobuf cannot parse it: {error})") from None
    if not model.HasField("graph") and not model.opset_import:
        # protobuf reads many byte strings as a message of unknown fields: a model has at least these
        raise ModelUnreadable(f"{name}: not an ONNX model (it has no graph and no opset import)")
    return model
