"""External data: tensor bytes a model keeps in other files, read only from inside the model's folder.

A tensor whose ``data_location`` is EXTERNAL names a file (the ``location`` of its
``external_data``, relative to the model's folder), an ``offset`` and a ``length``.
The model comes from anyone, so MODEL_C6 holds it to that folder: no absolute path,
no ``..``, no link leading out (real paths are compared), regular files only (a
FIFO would block, a device never ends), offset and length within the file. Every
external tensor of the model, wherever it is (initializers, tensor attributes,
sparse tensors, subgraphs at any depth, functions), is checked before any file is
opened; then the bytes are copied into ``raw_data`` and the external-data fields
cleared, so that nothing downstream (numpy_helper, the checker, an engine given the
model's bytes) opens a file of its own. A model given as bytes or as an
``onnx.ModelProto`` has no folder: any external data in it is refused.
"""

from __future__ import annotations

import os
import re
import stat
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from google.protobuf.message import Message
from onnx import ModelProto, TensorProto

from ..errors import SonnxError
from .findings import ModelUnreadable

RULE = "MODEL_C6"
KEYS = ("location", "offset", "length", "checksum")
"""The keys ONNX defines for ``external_data``; any other is refused. The checksum is accepted, not
verified: ONNX leaves open whether it digests the whole file or the tensor's part of it."""
FILE_KINDS = {
    stat.S_ISDIR: "a folder",
    stat.S_ISFIFO: "a FIFO",
    stat.S_ISSOCK: "a socket",
    stat.S_ISCHR: "a character device",
    stat.S_ISBLK: "a block device",
}
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
OPEN_FLAGS |= getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
"""Reading a checked file: if it was replaced by a link or a FIFO since, fail rather than follow or wait."""


class ExternalDataRefused(ModelUnreadable):
    """A tensor's external data is not a checked extent of a regular file inside the model's folder."""

    def __init__(self, source: str, problem: str) -> None:
        self.req_id = RULE
        self.problem = problem
        super().__init__(f"{source}: {SonnxError(RULE, problem)}")


@dataclass(frozen=True)
class Extent:
    """Where one tensor's bytes are, once checked."""

    tensor: TensorProto
    where: str
    path: str  # the real path, inside the model's folder
    identity: tuple[int, int]  # (device, inode) of the file checked
    offset: int
    length: int


def inline_external_data(model: ModelProto, folder: Path | None, source: str) -> None:
    """Copy every tensor's external data into the model, or raise ExternalDataRefused.

    ``folder`` is the model's folder; None for a model that has none (bytes, a ModelProto), whose
    external data is then refused. Nothing is read unless every tensor's data passes the checks.
    """
    external = [(where, t) for where, t in tensors(model) if t.data_location == TensorProto.EXTERNAL]
    if not external:
        return
    if folder is None:
        where, tensor = external[0]
        raise ExternalDataRefused(  # MODEL_C6: no folder to read from
            source,
            f"{_describe(where, tensor)} keeps its data in an external file, but a model given as bytes "
            "or as an onnx.ModelProto has no folder to read it from (give the model's file name)",
        )
    base = os.path.realpath(folder)
    extents = [_checked(where, tensor, base, source) for where, tensor in external]
    for extent in extents:
        extent.tensor.raw_data = _read(extent, source)
        del extent.tensor.external_data[:]
        extent.tensor.ClearField("data_location")


def tensors(model: ModelProto) -> Iterator[tuple[str, TensorProto]]:
    """Every TensorProto in the model, with its place (``graph.node[0].attribute[0].t``): found by
    walking all of the message's fields, so that no kind of place (sparse tensors, subgraphs,
    functions, training graphs) is forgotten."""
    pending: deque[tuple[str, Message]] = deque([("", model)])
    while pending:
        where, message = pending.popleft()
        if isinstance(message, TensorProto):
            yield where or "tensor", message
            continue
        for field, value in message.ListFields():
            if field.message_type is None:
                continue
            place = f"{where}.{field.name}" if where else field.name
            if isinstance(value, Message):
                pending.append((place, value))
            else:  # a repeated field
                pending += [(f"{place}[{i}]", item) for i, item in enumerate(value)]


def _checked(where: str, tensor: TensorProto, base: str, source: str) -> Extent:
    """The extent of a tensor's external data; ExternalDataRefused if any check fails (no file opened)."""

    def refuse(problem: str) -> ExternalDataRefused:
        return ExternalDataRefused(source, f"{_describe(where, tensor)}: {problem}")

    entries: dict[str, str] = {}
    for entry in tensor.external_data:
        if entry.key not in KEYS:
            known = ", ".join(KEYS)
            raise refuse(f"external data key {entry.key!r} is not one ONNX defines ({known})")  # MODEL_C6
        if entry.key in entries:
            raise refuse(f"external data key {entry.key!r} is given twice")  # MODEL_C6: which would hold?
        entries[entry.key] = entry.value
    location = entries.get("location", "")
    if not location or "\0" in location:
        raise refuse(f"its external data location {location!r} is not a file name")  # MODEL_C6
    parts = re.split(r"[\\/]", location)
    if location.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", location):
        raise refuse(f"its external data location {location!r} is an absolute path")  # MODEL_C6
    if ".." in parts:
        raise refuse(f"its external data location {location!r} goes up a folder (..)")  # MODEL_C6
    path = os.path.realpath(os.path.join(base, location))
    if not _inside(path, base):
        raise refuse(f"its external data {location!r} leads out of the model's folder")  # MODEL_C6: links
    try:
        status = os.stat(path)
    except OSError as error:
        raise refuse(f"its external data {location!r}: {error.strerror}") from None  # MODEL_C6
    if not stat.S_ISREG(status.st_mode):
        kind = next((name for test, name in FILE_KINDS.items() if test(status.st_mode)), "a special file")
        raise refuse(f"its external data {location!r} is {kind}, not a regular file")  # MODEL_C6
    offset = _count(entries.get("offset", "0"), "offset", refuse)
    length = _count(entries.get("length", str(max(status.st_size - offset, 0))), "length", refuse)
    if offset + length > status.st_size:
        raise refuse(  # MODEL_C6: the extent lies within the file
            f"its external data {location!r} holds {status.st_size} bytes; "
            f"offset {offset} and length {length} reach past its end"
        )
    return Extent(tensor, where, path, (status.st_dev, status.st_ino), offset, length)


def _count(text: str, key: str, refuse: Callable[[str], ExternalDataRefused]) -> int:
    if not re.fullmatch(r"[0-9]+", text):
        raise refuse(f"its external data {key} {text!r} is not a number of bytes")  # MODEL_C6
    return int(text)


def _inside(path: str, folder: str) -> bool:
    """Whether the real path ``path`` is ``folder`` or below it."""
    try:
        return os.path.commonpath([folder, path]) == folder
    except ValueError:  # on another drive
        return False


def _read(extent: Extent, source: str) -> bytes:
    """The checked bytes; the file opened is the one checked (same device and inode, still regular)."""
    changed = ExternalDataRefused(
        source, f"{_describe(extent.where, extent.tensor)}: its external data file changed while being read"
    )
    try:
        descriptor = os.open(extent.path, OPEN_FLAGS)
    except OSError:
        raise changed from None  # MODEL_C6: replaced by a link, or removed, since it was checked
    with open(descriptor, "rb") as file:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or (status.st_dev, status.st_ino) != extent.identity:
            raise changed  # MODEL_C6: another file than the one checked
        file.seek(extent.offset)
        data = file.read(extent.length)
    if len(data) != extent.length:
        raise changed  # MODEL_C6: truncated since it was checked
    return data


def _describe(where: str, tensor: TensorProto) -> str:
    return f"tensor {tensor.name!r} ({where})" if tensor.name else f"the tensor at {where}"
