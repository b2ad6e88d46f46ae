"""Run a command and fail if it leaves a process running: ``python -m sonnx_sphinx.leftovers COMMAND…``.

``nox -s docs`` runs each Sphinx build through it: a build must end every process it starts (a math
server, a Jupyter kernel). On Linux this process is the command's subreaper: whatever the command starts,
however detached (a new session, a double fork), becomes a child of this one when its parent ends. Once
the command has exited, each such process still running after a short grace is named on a line of its
own, ended, and the exit status is 1 (or the command's, if it failed). Elsewhere, without subreapers,
the command's process group is checked. Standard library only.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

GRACE = 2.0
"""Seconds a process may take to end after the command did, before it counts as left behind."""
PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def become_subreaper() -> bool:
    """Orphans among this process's descendants become its children, not init's (Linux only)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def reap() -> None:
    """Collect the exit status of children that have ended, so they are not counted."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def children() -> dict[int, str]:
    """This process's running children (Linux's /proc): pid → command line."""
    reap()
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (name)": state, ppid…
            if int(fields[1]) == os.getpid() and fields[0] != "Z":
                cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").strip()
                found[int(stat.parent.name)] = cmdline.decode(errors="replace")
    return found


def end_leftovers() -> list[str]:
    """Wait GRACE seconds for the command's descendants to end; end those that do not, and theirs."""
    deadline = time.monotonic() + GRACE
    while (left := children()) and time.monotonic() < deadline:
        time.sleep(0.05)
    reported: list[str] = []
    for sig in (signal.SIGTERM, signal.SIGTERM, signal.SIGKILL, signal.SIGKILL):
        # Ending a process makes its own children ours: report and end them in the next round.
        for pid, cmdline in left.items():
            line = f"process {pid} ({cmdline})"
            if line not in reported:
                reported.append(line)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        time.sleep(0.2)
        if not (left := children()):
            break
    return reported


def group_left(pgid: int) -> list[str]:
    """Without a subreaper: the command's process group, if anything in it still runs (then ended)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return []
    return [f"processes of the process group {pgid}"]


def run(command: list[str]) -> int:
    subreaper = become_subreaper()
    child = subprocess.Popen(command, start_new_session=not subreaper)
    # Stopped (nox's interrupt), stop the command, then still end what it leaves.
    signal.signal(signal.SIGTERM, lambda signum, frame: child.terminate())
    try:
        status = child.wait()
    except KeyboardInterrupt:
        child.send_signal(signal.SIGINT)
        status = child.wait()
    left = end_leftovers() if subreaper else group_left(child.pid)
    for line in left:
        print(f"leftovers: `{command[0]}` ended, leaving {line} running; ended now", file=sys.stderr)
    if status < 0:  # ended by a signal: the shell's convention
        status = 128 - status
    return status or (1 if left else 0)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m sonnx_sphinx.leftovers COMMAND [ARGUMENT…]")
    try:
        sys.exit(run(sys.argv[1:]))
    except OSError as error:  # no such command, not executable
        sys.exit(f"leftovers: cannot run `{sys.argv[1]}`: {error.strerror}")
