"""One run of a reader's code: a fresh process with limits, its output capped, its outcome classified.

The child (:mod:`.child`) sets its own memory, CPU-time and file-size limits before it reads
the code; this side enforces the wall-clock limit and the output cap, and kills the child's
whole process group when either is passed. Nothing the child does can stop this side:
a crash, a hang, a flood of output or an exhausted memory each become an outcome.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

CHILD = Path(__file__).with_name("child.py")
RESULT_CAP = 64 * 1024  # the child's outcome is a short JSON object
POLL_SECONDS = 0.05  # how often a run is asked whether it has ended
# Only what numpy needs; one BLAS thread, so that a run is one process of known size.
ENVIRONMENT = {
    "PATH": os.defpath,
    "LANG": "C.UTF-8",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
_running: set[subprocess.Popen] = set()  # so that stopping the server stops the runs under way
_running_lock = threading.Lock()


@dataclass(frozen=True)
class Limits:
    seconds: float = 5.0  # wall clock, from start to outcome
    memory_mib: int = 1024  # address space of the process (numpy alone takes about 100 MiB)
    output_kib: int = 64  # what it prints, stdout and stderr together
    file_kib: int = 1024  # what it may write to files (in its own temporary directory)

    def describe(self) -> str:
        return f"{self.seconds:g} s, {self.memory_mib} MiB of memory, {self.output_kib} KiB of output"


@dataclass
class Outcome:
    """What the page shows: ``status`` says how the run ended, ``output`` what it printed."""

    status: str  # ok, refused, error, invalid | timeout, memory, output, crashed
    output: str
    rule: str | None = None  # refused: the id of the violated rule
    page: str | None = None  # refused: the page (docname) that defines it
    message: str = ""  # what to say besides the output
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def run(request: dict[str, Any], limits: Limits) -> Outcome:
    """Run ``request`` (``{"python": …}`` or ``{"example": …}``, see :mod:`.child`) within ``limits``."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sonnx-live-") as workdir:
        result_read, result_write = os.pipe()
        try:
            child = _start(limits, result_write, workdir)
        except BaseException:
            os.close(result_read)
            raise
        finally:
            os.close(result_write)  # the child has its copy: the pipe closes when the child ends
        with _running_lock:
            _running.add(child)
        try:
            output, result, stopped = _collect(
                child, json.dumps(request).encode(), result_read, limits, start
            )
        finally:
            _kill(child)
            os.close(result_read)
            with _running_lock:
                _running.discard(child)
    outcome = _classify(child.returncode, output, result, stopped, limits)
    outcome.seconds = round(time.monotonic() - start, 3)
    return outcome


def _start(limits: Limits, result_write: int, workdir: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-I",  # no environment variables, no user site, no current directory on the path
            "-X",
            "utf8",
            str(CHILD),
            str(result_write),
            str(math.ceil(limits.seconds)),
            str(limits.memory_mib * 2**20),
            str(limits.file_kib * 2**10),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        pass_fds=(result_write,),
        cwd=workdir,
        env=ENVIRONMENT,
        process_group=0,  # its own group: killing it kills whatever it started
    )


def _collect(
    child: subprocess.Popen, request: bytes, result_read: int, limits: Limits, start: float
) -> tuple[bytes, bytes, str | None]:
    """Feed the request; read output and outcome until the child ends, the time is up or output overflows."""
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdin.write(request)
        child.stdin.close()
    except BrokenPipeError:
        pass  # the child died before reading: its exit status tells why
    deadline = start + limits.seconds
    cap = limits.output_kib * 2**10
    output, result = bytearray(), bytearray()
    buffers = {child.stdout.fileno(): output, result_read: result}
    with selectors.DefaultSelector() as selector:
        for fd in buffers:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            ended = child.poll() is not None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return bytes(output), bytes(result), "timeout"
            # Once the child has ended, all it wrote is in the pipes: read that and stop, as what it
            # forked may hold them open.
            events = selector.select(0 if ended else min(remaining, POLL_SECONDS))
            if ended and not events:
                break
            for key, _ in events:
                data = os.read(key.fd, 65536)
                if not data:
                    selector.unregister(key.fd)
                    continue
                buffers[key.fd].extend(data)
                if len(output) > cap or len(result) > RESULT_CAP:
                    return bytes(output[:cap]), b"", "output"
    try:
        child.wait(max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:
        return bytes(output), bytes(result), "timeout"
    return bytes(output), bytes(result), None


def stop_all() -> None:
    """Kill the runs under way (their process groups are not the server's: Ctrl-C does not reach them)."""
    with _running_lock:
        for child in _running:
            _kill_group(child)


def _kill_group(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # the group is gone already


def _kill(child: subprocess.Popen) -> None:
    """Kill the child's process group (what it forked too), then reap the child."""
    _kill_group(child)
    child.wait()
    if child.stdout is not None:
        child.stdout.close()


def _classify(returncode: int, raw: bytes, result: bytes, stopped: str | None, limits: Limits) -> Outcome:
    output = raw.decode("utf-8", errors="replace")
    if stopped == "timeout":
        return Outcome("timeout", output, message=f"Stopped: the run took longer than {limits.seconds:g} s.")
    if stopped == "output":
        return Outcome(
            "output", output, message=f"Stopped: the run printed more than {limits.output_kib} KiB."
        )
    try:
        reported = json.loads(result)
    except ValueError:
        reported = None  # the child ended before it could say how
    if isinstance(reported, dict) and isinstance(reported.get("status"), str):
        status = reported["status"]
        if status == "memory":
            return Outcome(
                "memory",
                output,
                message=f"Stopped: the run needed more than {limits.memory_mib} MiB of memory.",
            )
        return Outcome(
            status,
            output,
            rule=reported.get("rule"),
            page=reported.get("page"),
            message=str(reported.get("message", "")),
        )
    if returncode < 0:
        if -returncode == signal.SIGXCPU:
            return Outcome(
                "timeout", output, message=f"Stopped: the run used more than {limits.seconds:g} s of CPU."
            )
        return Outcome(
            "crashed", output, message=f"The run crashed: its process was killed by {_name(-returncode)}."
        )
    return Outcome("crashed", output, message=f"The run ended (exit status {returncode}) before it finished.")


def _name(signal_number: int) -> str:
    try:
        return signal.Signals(signal_number).name
    except ValueError:
        return f"signal {signal_number}"
