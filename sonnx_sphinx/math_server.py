"""One KaTeX render server per build, started before any page is written and stopped when the build ends.

sphinxcontrib.katex (``katex_prerender = True``) starts a node server the first time a process renders
math, and stops it with ``atexit``. Sphinx writes pages in forked workers (``-j``) that end with
``os._exit``, where ``atexit`` never runs: each worker's server outlived the build, parented to init.
A worker forked after the main process had started its server would instead share its connection with
the other workers, their requests and answers interleaving on one socket. And a server whose socket
was not listening yet when first tried (under load) was left running, its build failed.

Here the main process starts the server when writing starts, each forked worker opens a connection of
its own to it, and the main process stops it when the build finishes (or, interrupted, at its exit).
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from sphinxcontrib import katex
from sphinxcontrib.katex import KaTeXServer

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder

_owner: int | None = None
"""The process that started the server: the only one that stops it."""


def launch(timeout: float = katex.STARTUP_TIMEOUT) -> KaTeXServer:
    """The render server, listening on a Unix socket, with a connection to it; killed if it never answers."""
    rundir = Path(tempfile.mkdtemp(prefix="sonnx_katex"))
    path = rundir / "katex.sock"
    command = KaTeXServer.build_command(socket=path)
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=rundir)
    deadline = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            return KaTeXServer(rundir, process, sock)
        except OSError:  # not there yet, or there but not listening yet
            sock.close()
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                process.wait()
                shutil.rmtree(rundir, ignore_errors=True)
                raise KaTeXServer.timeout_error(timeout) from None
            time.sleep(0.01)


def start(app: Sphinx, builder: Builder) -> None:
    """Before the pages are written (and workers forked): the server every process of the build uses."""
    global _owner
    if app.config.katex_prerender and builder.format == "html" and KaTeXServer.katex_server is None:
        KaTeXServer.katex_server = launch()
        _owner = os.getpid()
        atexit.register(stop, app, None)  # a build interrupted before build-finished


def connect_in_worker() -> None:
    """In a forked process: its own connection to the server, instead of the one it inherited."""
    server = KaTeXServer.katex_server
    if server is None:
        return
    inherited = server.sock
    server.sock = socket.socket(inherited.family, inherited.type)
    try:
        server.sock.connect(inherited.getpeername())
    except OSError:
        server.sock.close()  # rendering fails, and the build with it: no worker starts a server of its own
    finally:
        inherited.close()  # this process's copy only: the parent's connection stays open


def stop(app: Sphinx, exception: BaseException | None) -> None:
    """When the build finishes, successful or not: the server ends with it."""
    global _owner
    server = KaTeXServer.katex_server
    if server is None or _owner != os.getpid():
        return
    KaTeXServer.katex_server = _owner = None
    server.terminate()


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinxcontrib.katex")
    app.connect("write-started", start)
    app.connect("build-finished", stop)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


if hasattr(os, "register_at_fork"):  # where Sphinx forks its workers; once per process, not per build
    os.register_at_fork(after_in_child=connect_in_worker)
