"""The live server as a user installs it: from a wheel, into a fresh virtual environment.

A wheel holds the installed packages only. An example run that reads a file beside them (the page
language once lived in sonnx_sphinx/, which no wheel ships) works from the repository and fails there:
so this test builds the wheel, installs it with its dependencies from the package index (pip's cache
makes a second run quick), starts ``python -m sonnx_live`` from that environment and runs an edited
example through it, as a page served by it would.
"""

from __future__ import annotations

import fnmatch
import http.client
import json
import re
import shutil
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from sonnx_live.server import RUN_PATH, TOKEN_HEADER

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60  # for the server to say where it listens; it is killed past that
PAGE = "<!doctype html><html><head><meta charset='utf-8'><title>t</title></head><body>page</body></html>"


def pip(python: Path | str, *args: str, cwd: Path) -> None:
    done = subprocess.run(
        [str(python), "-m", "pip", "--disable-pip-version-check", "-q", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"pip {' '.join(args)} failed:\n{done.stdout}{done.stderr}"


def project_copy(folder: Path) -> Path:
    """What setuptools reads to build the wheel, copied: pyproject.toml, the readme and the packages it
    includes (building in place would leave build/ and *.egg-info in the repository)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    included = project["tool"]["setuptools"]["packages"]["find"]["include"]
    copy = folder / "project"
    copy.mkdir()
    for name in ["pyproject.toml", project["project"]["readme"]]:
        shutil.copy(ROOT / name, copy / name)
    for package in ROOT.iterdir():
        if package.is_dir() and any(fnmatch.fnmatch(package.name, pattern) for pattern in included):
            shutil.copytree(package, copy / package.name, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh virtual environment where the wheel of this repository is installed."""
    folder = tmp_path_factory.mktemp("installed")
    pip(
        sys.executable,
        "wheel",
        "--no-deps",
        "-w",
        str(folder / "wheels"),
        str(project_copy(folder)),
        cwd=folder,
    )
    [wheel] = (folder / "wheels").glob("sonnx_spec-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    python = folder / "venv" / "bin" / "python"
    pip(python, "install", str(wheel), cwd=folder)
    return python


@pytest.fixture
def live_url(installed: Path, tmp_path: Path) -> Iterator[str]:
    """``python -m sonnx_live`` of the installed package on a free port; always stopped at the end."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(PAGE)
    server = subprocess.Popen(
        # -I: neither the current directory nor the environment can put the repository on the path
        [str(installed), "-I", "-m", "sonnx_live", "--site", str(site), "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    watchdog = threading.Timer(START_SECONDS, server.kill)  # a server that never says where it listens
    watchdog.start()
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        watchdog.cancel()
        match = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert match, f"the server did not start: {first}{server.stdout.read() if server.poll() else ''}"
        yield match[0]
    finally:
        watchdog.cancel()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stdout is not None:
            server.stdout.close()


def ask(url: str, method: str, path: str, body: dict | None = None, token: str = "") -> tuple[int, bytes]:
    """A request as the server's own page sends it."""
    host = url.removeprefix("http://").rstrip("/")
    headers = {"Host": host}
    if body is not None:
        headers |= {"Origin": f"http://{host}", "Content-Type": "application/json", TOKEN_HEADER: token}
    connection = http.client.HTTPConnection(*host.split(":"), timeout=60)
    try:
        connection.request(method, path, json.dumps(body).encode() if body is not None else None, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def run(url: str, request: dict) -> dict:
    status, page = ask(url, "GET", "/")
    assert status == 200, page
    token = re.search(rb'<meta name="sonnx-live-token" content="([^"]+)">', page)
    assert token, page
    status, body = ask(url, "POST", RUN_PATH, request, token[1].decode())
    assert status == 200, body
    return json.loads(body)


def test_an_edited_example_runs_on_the_installed_server(live_url: str, installed: Path) -> None:
    # Clip's first example with M edited from 10.1 to 3: -6.3 is raised to L, 9.2 and 35.5 lowered to M.
    inputs = "X = [-6.3, 9.2, 35.5]\nL = 0.5\nM = 3.0\nY = [0.5, 9.2, 10.1]"
    outcome = run(live_url, {"example": {"operator": "clip", "type": "float32", "inputs": inputs}})
    assert outcome["status"] == "ok", outcome
    assert outcome["output"].strip() == "array([0.5, 3. , 3. ], dtype=float32)"
    # and the reference that ran is the installed one, not the repository's
    where = run(live_url, {"python": "import sonnx_spec\nprint(sonnx_spec.__file__)"})
    assert where["status"] == "ok", where
    assert Path(where["output"].strip()).is_relative_to(installed.parent.parent)
