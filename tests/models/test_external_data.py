"""External data (MODEL_C6): a model reads only regular files inside its own folder, checked first.

A model comes from anyone. Each refusal is tested through ``check``, ``run`` and
``compare`` (exit status 2, one line naming MODEL_C6), with an audit hook that
records every file Python opens: the refused file is never opened, and when one
tensor of a model is refused, no file of the others is read either. A model whose
external data is inside its folder, or a sub-folder of it, still works, from any
current directory, and onnxruntime is handed the model's bytes with the data in it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import onnx
import pytest
from graphs import make_model, requires, value_info
from onnx import TensorProto, helper, numpy_helper
from support import req

from sonnx_spec.models import check_model, compare_model, run_model
from sonnx_spec.models.cli import main
from sonnx_spec.models.external_data import inline_external_data, tensors
from sonnx_spec.models.findings import ModelUnreadable

F32 = np.dtype(np.float32)
SECRET = b"API_TOKEN=s3cr3t"  # 16 bytes: what a model must not be able to read
VALUE = np.array([1.5, -2.0, 3.25, 0.5], F32)  # 16 bytes, the legitimate data
COMMANDS = ("check", "run", "compare")

_opened: list[str] | None = None  # the files opened while a test records them


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _opened is not None and isinstance(args[0], str | bytes | os.PathLike):
        _opened.append(os.path.realpath(os.fsdecode(args[0])))


@pytest.fixture(scope="session")
def audited() -> None:
    sys.addaudithook(_audit)  # a hook cannot be removed: it records nothing unless a test asks


@pytest.fixture
def opened(audited: None) -> Iterator[list[str]]:
    """Every file Python opens during the test (real paths)."""
    global _opened
    _opened = []
    try:
        yield _opened
    finally:
        _opened = None


# -- models -------------------------------------------------------------------------------------------


def external(name: str, location: str, **extent: int | str) -> TensorProto:
    """A float32 tensor of shape (4,) whose data is in ``location`` (offset, length if given)."""
    tensor = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=[4])
    tensor.data_location = TensorProto.EXTERNAL
    for key, value in {"location": location, **extent}.items():
        entry = tensor.external_data.add()
        entry.key, entry.value = key, str(value)
    return tensor


def inline(name: str = "") -> TensorProto:
    return numpy_helper.from_array(VALUE, name)


def _constant_model(value: TensorProto, **attributes: object) -> onnx.ModelProto:
    node = helper.make_node("Constant", [], ["y"], name="c", value=value, **attributes)
    return make_model([node], [], [value_info("y", F32, [4])])


def _subgraph(value: TensorProto, name: str = "branch") -> onnx.GraphProto:
    node = helper.make_node("Constant", [], ["b"], value=value)
    return helper.make_graph([node], name, [], [value_info("b", F32, [4])])


def in_initializer(tensor: TensorProto) -> onnx.ModelProto:
    tensor.name = "w"
    node = helper.make_node("Abs", ["w"], ["y"], name="abs")
    model = make_model([node], [], [value_info("y", F32, [4])])
    model.graph.initializer.append(tensor)
    return model


def in_attribute_t(tensor: TensorProto) -> onnx.ModelProto:
    return _constant_model(tensor)  # the case of the issue: Constant's value


def in_attribute_tensors(tensor: TensorProto) -> onnx.ModelProto:
    return _constant_model(inline(), extra=[inline(), tensor])  # an attribute the profile refuses anyway


def in_sparse_initializer(tensor: TensorProto) -> onnx.ModelProto:
    model = _constant_model(inline())
    indices = numpy_helper.from_array(np.arange(4, dtype=np.int64))
    model.graph.sparse_initializer.append(helper.make_sparse_tensor(tensor, indices, [8]))
    return model


def in_sparse_attribute(tensor: TensorProto) -> onnx.ModelProto:
    indices = numpy_helper.from_array(np.arange(4, dtype=np.int64))
    sparse = helper.make_sparse_tensor(tensor, indices, [8])
    node = helper.make_node("Constant", [], ["y"], name="c", sparse_value=sparse)
    return make_model([node], [], [value_info("y", F32, [8])])


def in_subgraph_g(tensor: TensorProto) -> onnx.ModelProto:
    node = helper.make_node(
        "If", ["c"], ["y"], then_branch=_subgraph(tensor), else_branch=_subgraph(inline(), "other")
    )
    return make_model([node], [value_info("c", np.dtype(bool), [])], [value_info("y", F32, [4])])


def in_nested_graphs(tensor: TensorProto) -> onnx.ModelProto:
    """Three graphs deep: graphs -> g -> the Constant holding the tensor."""
    middle = helper.make_node(
        "If", ["c"], ["b"], then_branch=_subgraph(tensor), else_branch=_subgraph(inline())
    )
    outer = helper.make_graph([middle], "outer", [], [value_info("b", F32, [4])])
    return _constant_model(inline(), bodies=[_subgraph(inline(), "first"), outer])


def in_function(tensor: TensorProto) -> onnx.ModelProto:
    body = helper.make_node("Constant", [], ["out"], value=tensor)
    function = helper.make_function("local", "Weights", [], ["out"], [body], [helper.make_opsetid("", 13)])
    node = helper.make_node("Weights", [], ["y"], domain="local")
    model = make_model([node], [], [value_info("y", F32, [4])])
    model.opset_import.append(helper.make_opsetid("local", 1))
    model.functions.append(function)
    return model


PLACES: dict[str, Callable[[TensorProto], onnx.ModelProto]] = {
    "initializer": in_initializer,
    "attribute t": in_attribute_t,
    "attribute tensors": in_attribute_tensors,
    "sparse initializer": in_sparse_initializer,
    "sparse attribute": in_sparse_attribute,
    "subgraph g": in_subgraph_g,
    "nested graphs": in_nested_graphs,
    "function": in_function,
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A model's folder, with a secret beside it (in its parent) and a current directory elsewhere."""
    (tmp_path / "secret.bin").write_bytes(SECRET)
    (tmp_path / "model").mkdir()
    return tmp_path / "model"


def save(model: onnx.ModelProto, folder: Path) -> Path:
    path = folder / "model.onnx"
    path.write_bytes(model.SerializeToString())
    return path


def cli(command: str, model: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command, in this process (so that the audit hook sees its files)."""
    inputs = model.parent.parent / "inputs.npz"
    if not inputs.exists():
        np.savez(inputs)
    arguments = [command, str(model)] + ([] if command == "check" else ["--inputs", str(inputs)])
    status = main(arguments)
    out, err = capsys.readouterr()
    return status, out, err


def assert_refused(status: int, out: str, err: str, *words: str) -> None:
    assert status == 2, (out, err)
    assert out == "" and err.startswith("sonnx-spec: ") and err.count("\n") == 1, err
    assert "MODEL_C6" in err and "internal error" not in err and "Traceback" not in err, err
    assert all(word in err for word in words), (words, err)


# -- what is refused ----------------------------------------------------------------------------------


def _bad_locations(folder: Path) -> dict[str, tuple[str, dict[str, int | str], str]]:
    """name -> (location, offset and length, a word of the message); the files made in ``folder``."""
    secret = folder.parent / "secret.bin"
    (folder / "link.bin").symlink_to(secret)
    (folder / "up").symlink_to(folder.parent, target_is_directory=True)
    (folder / "sub").mkdir()
    os.mkfifo(folder / "pipe")
    (folder / "data.bin").write_bytes(VALUE.tobytes())
    return {
        "up a folder": ("../secret.bin", {}, "(..)"),
        "up a folder, in the middle": ("sub/../../secret.bin", {}, "(..)"),
        "absolute": (str(secret), {}, "absolute"),
        "link to a file outside": ("link.bin", {}, "leads out"),
        "through a linked folder": ("up/secret.bin", {}, "leads out"),
        "folder": ("sub", {}, "a folder"),
        "FIFO": ("pipe", {}, "a FIFO"),
        "missing": ("absent.bin", {}, "No such file"),
        "offset past the end": ("data.bin", {"offset": 17}, "past its end"),
        "length past the end": ("data.bin", {"offset": 4, "length": 16}, "past its end"),
        "negative offset": ("data.bin", {"offset": "-4"}, "not a number"),
        "unknown key": ("data.bin", {"basepath": "/"}, "'basepath'"),
    }


@req("MODEL_C6")
@pytest.mark.parametrize("command", COMMANDS)
def test_each_bad_location_is_refused_before_any_file_is_opened(
    command: str, folder: Path, capsys: pytest.CaptureFixture[str], opened: list[str]
) -> None:
    for case, (location, extent, word) in _bad_locations(folder).items():
        model = save(in_attribute_t(external("v", location, **extent)), folder)
        others = {os.path.realpath(p) for p in folder.parent.rglob("*")}  # the secret, the data, the FIFO…
        others -= {os.path.realpath(model), os.path.realpath(folder.parent / "inputs.npz")}
        opened.clear()
        status, out, err = cli(command, model, capsys)
        assert_refused(status, out, err, word)
        assert not set(opened) & others, (case, opened)


@req("MODEL_C6")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_FIFO_is_never_opened(command: str, folder: Path) -> None:
    # Opening a FIFO to read waits for a writer: a run that opened it would hang, and time out.
    os.mkfifo(folder / "pipe")
    model = save(in_attribute_t(external("v", "pipe")), folder)
    np.savez(folder.parent / "inputs.npz")
    inputs = [] if command == "check" else ["--inputs", str(folder.parent / "inputs.npz")]
    done = subprocess.run(
        [sys.executable, "-m", "sonnx_spec", command, str(model), *inputs],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert_refused(done.returncode, done.stdout, done.stderr, "a FIFO, not a regular file")


@req("MODEL_C6")
@pytest.mark.parametrize("command", COMMANDS)
def test_devices_and_sockets_are_refused(
    command: str,
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    opened: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(folder)
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind("socket")  # relative: the path of a socket is limited to about 100 bytes
        model = save(in_attribute_t(external("v", "socket")), folder)
        status, out, err = cli(command, model, capsys)
    assert_refused(status, out, err, "a socket")
    assert os.path.realpath(folder / "socket") not in opened
    # A device: /dev is a folder whose files are devices (creating one elsewhere needs root).
    with pytest.raises(ModelUnreadable, match=r"'null' is a character device.*MODEL_C6"):
        inline_external_data(in_attribute_t(external("v", "null")), Path("/dev"), "model")
    assert "/dev/null" not in opened


@req("MODEL_C6")
@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("command", COMMANDS)
def test_external_data_anywhere_in_the_model_is_checked(
    place: str, command: str, folder: Path, capsys: pytest.CaptureFixture[str], opened: list[str]
) -> None:
    model = save(PLACES[place](external("v", "../secret.bin")), folder)
    status, out, err = cli(command, model, capsys)
    assert_refused(status, out, err, "(..)")
    assert os.path.realpath(folder.parent / "secret.bin") not in opened


@req("MODEL_C6")
@pytest.mark.parametrize("command", COMMANDS)
def test_the_issue_a_file_of_the_current_directory_is_not_read(
    command: str,
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    opened: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(folder.parent)  # secret.bin is in the current directory, not the model's folder
    model = save(in_attribute_t(external("v", "secret.bin")), folder)
    status, out, err = cli(command, model, capsys)
    assert_refused(status, out, err, "'secret.bin'", "No such file")
    assert os.path.realpath("secret.bin") not in opened


@req("MODEL_C6")
def test_one_refused_tensor_stops_the_model_before_the_good_ones_are_read(
    folder: Path, capsys: pytest.CaptureFixture[str], opened: list[str]
) -> None:
    (folder / "data.bin").write_bytes(VALUE.tobytes())
    model = in_initializer(external("w", "data.bin"))
    model.graph.node.append(helper.make_node("Constant", [], ["z"], value=external("v", "../secret.bin")))
    path = save(model, folder)
    opened.clear()
    status, out, err = cli("run", path, capsys)
    assert_refused(status, out, err, "(..)")
    assert os.path.realpath(folder / "data.bin") not in opened


@req("MODEL_C6")
@pytest.mark.parametrize("given", ["bytes", "ModelProto"])
def test_a_model_without_a_folder_has_no_external_data(
    given: str, folder: Path, opened: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / "data.bin").write_bytes(VALUE.tobytes())
    monkeypatch.chdir(folder)  # even where the file is
    opened.clear()
    calls = {
        "check": check_model,
        "run": lambda m: run_model(m, {}),
        "compare": lambda m: compare_model(m, {}, "onnx-reference"),
    }
    for place, build in PLACES.items():
        model = build(external("v", "data.bin"))
        before = model.SerializeToString()
        for command, call in calls.items():
            with pytest.raises(ModelUnreadable, match=r"has no folder.*MODEL_C6") as refused:
                call(before if given == "bytes" else model)
            assert "\n" not in str(refused.value), (place, command)
        assert model.SerializeToString() == before, place  # refused, not changed
    assert os.path.realpath(folder / "data.bin") not in opened


# -- what still works ---------------------------------------------------------------------------------

WEIGHTS = np.array([0.25, 0.5, 0.75, 1.0], F32)
SUM = np.array([1.75, -1.5, 4.0, 1.5], F32)  # VALUE + WEIGHTS, exact in float32


def save_with_external_data(folder: Path, location: str) -> Path:
    """y = Constant(VALUE) + w (w = WEIGHTS), both tensors saved in ``location``, one after the other."""
    nodes = [
        helper.make_node("Constant", [], ["c"], name="c", value=inline()),
        helper.make_node("Add", ["c", "w"], ["y"], name="add"),
    ]
    model = make_model(nodes, [], [value_info("y", F32, [4])], {"w": WEIGHTS})
    (folder / location).parent.mkdir(parents=True, exist_ok=True)
    path = folder / "model.onnx"
    onnx.save_model(
        model,
        str(path),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location=location,
        size_threshold=0,
        convert_attribute=True,
    )
    saved = onnx.load(str(path), load_external_data=False)
    stored = [t for _, t in tensors(saved) if t.data_location == TensorProto.EXTERNAL]
    assert len(stored) == 2 and not any(t.raw_data for t in stored)  # the data is really outside
    return path


@req("MODEL_C6")
@pytest.mark.parametrize("location", ["weights.bin", "data/weights.bin", "a link inside the folder"])
def test_external_data_in_the_model_folder_or_below_still_works(
    location: str, folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    requires("onnxruntime")
    if location == "a link inside the folder":
        model = save_with_external_data(folder, "weights.bin")
        (folder / "data").mkdir()
        (folder / "weights.bin").rename(folder / "data" / "weights.bin")
        (folder / "weights.bin").symlink_to(Path("data", "weights.bin"))  # its real path: still inside
    else:
        model = save_with_external_data(folder, location)
    (folder.parent / "elsewhere").mkdir()
    monkeypatch.chdir(folder.parent / "elsewhere")  # the data is found from the model, not from here
    assert cli("check", model, capsys)[0] == 0
    output = folder.parent / "out.npz"
    assert main(["run", str(model), "--inputs", str(_inputs(folder)), "--output", str(output)]) == 0
    capsys.readouterr()
    with np.load(output) as outputs:
        assert outputs["y"].dtype == F32 and outputs["y"].tobytes() == SUM.tobytes()
    for engine in ("onnxruntime", "onnx-reference"):
        status = main(["compare", str(model), "--inputs", str(_inputs(folder)), "--engine", engine])
        out, err = capsys.readouterr()
        assert status == 0, (engine, out, err)


@req("MODEL_C6")
def test_onnxruntime_is_given_the_model_bytes_with_the_data_in_them(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    onnxruntime = requires("onnxruntime")
    given: list[object] = []
    session = onnxruntime.InferenceSession

    def spy(model: object, *args: object, **kwargs: object) -> object:
        given.append(model)
        return session(model, *args, **kwargs)

    monkeypatch.setattr(onnxruntime, "InferenceSession", spy)
    comparison = compare_model(save_with_external_data(folder, "weights.bin"), {}, "onnxruntime")
    assert comparison.agree and not comparison.engine_failure
    [model] = given
    assert isinstance(model, bytes)  # not a path: onnxruntime opens no file of its own
    parsed = onnx.ModelProto.FromString(model)
    assert sorted(t.raw_data for _, t in tensors(parsed)) == sorted([VALUE.tobytes(), WEIGHTS.tobytes()])
    assert not any(t.data_location == TensorProto.EXTERNAL or t.external_data for _, t in tensors(parsed))


def _inputs(folder: Path) -> Path:
    inputs = folder.parent / "inputs.npz"
    np.savez(inputs)
    return inputs


@req("MODEL_C6")
@pytest.mark.parametrize("swap", ["another file", "a link", "a FIFO", "a shorter file"])
def test_a_file_replaced_between_its_check_and_its_reading_is_refused(
    swap: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sonnx_spec.models import external_data

    data = folder / "data.bin"
    data.write_bytes(VALUE.tobytes())
    (folder.parent / "secret.bin").write_bytes(SECRET)
    checked = external_data._checked

    def check_then_swap(*args: object) -> object:
        extent = checked(*args)  # type: ignore[arg-type]
        if swap == "another file":  # made before the checked one goes, so that it is another inode
            (folder / "other.bin").write_bytes(SECRET)
            os.replace(folder / "other.bin", data)
            return extent
        data.unlink()
        if swap == "a link":
            data.symlink_to(folder.parent / "secret.bin")
        elif swap == "a FIFO":
            os.mkfifo(data)
        else:
            data.write_bytes(VALUE.tobytes()[:8])
        return extent

    monkeypatch.setattr(external_data, "_checked", check_then_swap)
    with pytest.raises(ModelUnreadable, match=r"changed while being read.*MODEL_C6"):
        inline_external_data(in_attribute_t(external("v", "data.bin")), folder, "model")
