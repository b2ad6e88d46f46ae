"""The live server (``nox -s serve``): who may ask for a run, and what a run can do to it.

Each server listens on a free port of 127.0.0.1 chosen by the system, so that tests run in
parallel; it serves a two-file site written here, not the built one.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sonnx_live.runner import Limits
from sonnx_live.server import RUN_PATH, TCP_TABLE, TOKEN_HEADER, LiveServer, peer_uid

PAGE = "<!doctype html><html><head><meta charset='utf-8'><title>t</title></head><body>page</body></html>"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    (root / "index.html").write_text(PAGE)
    (root / "_static").mkdir()
    (root / "_static" / "script.js").write_text("console.log('static');")
    return root


def serve(site: Path, limits: Limits) -> Iterator[LiveServer]:
    server = LiveServer(site, 0, limits, quiet=True)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    yield server
    server.shutdown()
    thread.join()
    server.server_close()


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[LiveServer]:
    yield from serve(site, Limits(seconds=20))  # generous: only the time-out test needs a short limit


@pytest.fixture(scope="module")
def hasty_server(site: Path) -> Iterator[LiveServer]:
    yield from serve(site, Limits(seconds=1))


def request(
    server: LiveServer, method: str, path: str, body: bytes | None = None, **headers: str
) -> tuple[int, dict[str, str], bytes]:
    """One request; ``headers`` (underscores for dashes) replace the defaults a page of the server sends."""
    sent = {"Host": server.host}
    sent.update({name.replace("_", "-"): value for name, value in headers.items()})
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
    try:
        connection.request(method, path, body, {k: v for k, v in sent.items() if v is not None})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def run(server: LiveServer, payload: dict[str, Any], **headers: str) -> tuple[int, bytes]:
    """A run as the server's own page asks for it; ``headers`` replace the page's."""
    defaults = {
        "Origin": server.origin,
        "Content_Type": "application/json",
        TOKEN_HEADER.replace("-", "_"): server.token,
        "Sec_Fetch_Site": "same-origin",
    }
    status, _, body = request(server, "POST", RUN_PATH, json.dumps(payload).encode(), **(defaults | headers))
    return status, body


def outcome(server: LiveServer, code: str) -> dict[str, Any]:
    status, body = run(server, {"python": code})
    assert status == 200, body
    return json.loads(body)


# -- who may ask


def test_listens_on_loopback_only(server: LiveServer) -> None:
    assert server.server_address[0] == "127.0.0.1"


def test_pages_carry_the_token_and_other_files_do_not(server: LiveServer) -> None:
    status, headers, body = request(server, "GET", "/")
    assert status == 200
    assert f'<meta name="sonnx-live-token" content="{server.token}">' in body.decode()
    assert headers["Cache-Control"] == "no-store"
    status, _, script = request(server, "GET", "/_static/script.js")
    assert status == 200 and server.token.encode() not in script


def test_no_other_site_may_frame_or_read_the_pages(server: LiveServer) -> None:
    _, headers, _ = request(server, "GET", "/index.html", Origin="http://evil.example")
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert not any(name.lower().startswith("access-control-") for name in headers)


def test_each_start_draws_its_own_token(site: Path) -> None:
    first, second = LiveServer(site, 0, quiet=True), LiveServer(site, 0, quiet=True)
    try:
        assert first.token != second.token and len(first.token) >= 40
    finally:
        first.server_close()
        second.server_close()


@pytest.mark.parametrize("token", [None, "", "wrong", "x" * 43])
def test_a_run_without_the_token_is_refused(server: LiveServer, token: str | None) -> None:
    status, body = run(server, {"python": "print(1)"}, X_Sonnx_Live_Token=token)
    assert status == 403 and b"token" in body


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.1", "127.0.0.1:1", "localhost:1", ""]
)
def test_a_foreign_host_is_refused_pages_and_runs(server: LiveServer, host: str) -> None:
    """DNS rebinding: a page of evil.example whose name now points to 127.0.0.1 sends Host: evil.example."""
    foreign = host.format(port=server.server_address[1])
    status, _, body = request(server, "GET", "/index.html", Host=foreign)
    assert status == 403 and server.token.encode() not in body
    status, body = run(server, {"python": "print(1)"}, Host=foreign)
    assert status == 403 and b"Host" in body


def test_a_page_asked_as_localhost_is_redirected_to_the_address_served(server: LiveServer) -> None:
    localhost = f"localhost:{server.server_address[1]}"
    status, headers, body = request(server, "GET", "/operators/x.html?a=1", Host=localhost)
    assert (status, headers["Location"], body) == (307, f"{server.origin}/operators/x.html?a=1", b"")
    assert run(server, {"python": "print(1)"}, Host=localhost)[0] == 403  # a run is never redirected


@pytest.mark.parametrize(
    "origin", [None, "null", "http://evil.example", "http://127.0.0.1", "https://127.0.0.1:{port}"]
)
def test_a_run_from_another_origin_is_refused(server: LiveServer, origin: str | None) -> None:
    foreign = origin and origin.format(port=server.server_address[1])
    status, body = run(server, {"python": "print(1)"}, Origin=foreign)
    assert status == 403 and b"Origin" in body


def test_a_cross_site_fetch_is_refused(server: LiveServer) -> None:
    status, _ = run(server, {"python": "print(1)"}, Sec_Fetch_Site="cross-site")
    assert status == 403


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"not json", "application/json", 400),
        (b'{"python": 1}', "application/json", 400),
        (b'{"python": "1", "example": {}}', "application/json", 400),
        (b'{"python": "1"}', "text/plain", 415),
        (b'{"python": "' + b"1" * 70_000 + b'"}', "application/json", 413),
        (b"", "application/json", 400),
    ],
)
def test_a_malformed_run_is_refused(server: LiveServer, body: bytes, content_type: str, status: int) -> None:
    headers = {"Origin": server.origin, "Content-Type": content_type, TOKEN_HEADER: server.token}
    assert request(server, "POST", RUN_PATH, body, **headers)[0] == status


def test_no_directory_listing_and_no_file_outside_the_site(server: LiveServer) -> None:
    assert request(server, "GET", "/_static/")[0] == 404
    status, _, body = request(server, "GET", "/../../../../etc/passwd")
    assert status == 404 and b"root:" not in body


# -- what a run gives


def test_a_normal_run_shows_prints_and_the_value_of_the_last_expression(server: LiveServer) -> None:
    result = outcome(
        server,
        "import numpy as np, sonnx_spec\nprint('hello')\nsonnx_spec.abs(np.array([-3, 2], dtype=np.int8))",
    )
    assert result["status"] == "ok"
    assert result["output"] == "hello\narray([3, 2], dtype=int8)\n"


def test_a_sonnx_error_names_its_rule_and_the_page_defining_it(server: LiveServer) -> None:
    result = outcome(server, "import sonnx_spec\nsonnx_spec.abs(None)")
    assert (result["status"], result["rule"], result["page"]) == ("refused", "GR4", "general-rules")
    last = result["output"].splitlines()[-1]  # as the doctest of a refusal shows it
    assert last.startswith("sonnx_spec.errors.SonnxError: abs: ") and "GR4" in last


def test_an_operator_error_links_the_operator_page(server: LiveServer) -> None:
    result = outcome(
        server, "import numpy as np, sonnx_spec\nsonnx_spec.abs(np.array([-128], dtype=np.int8))"
    )
    assert (result["status"], result["rule"], result["page"]) == ("refused", "ABS_E1", "operators/abs")


def test_a_python_error_shows_the_readers_traceback(server: LiveServer) -> None:
    result = outcome(server, "def f():\n    return 1 / 0\nf()")
    assert result["status"] == "error"
    assert result["output"].startswith('Traceback (most recent call last):\n  File "<example>", line 3')
    assert "child.py" not in result["output"]
    assert result["output"].endswith("ZeroDivisionError: division by zero\n")


def test_an_example_runs_for_the_type_chosen(server: LiveServer) -> None:
    inputs = "X = [0, 5, 18446744073709551615]\nL = 1\nM = 3\nY = [9, 9, 9]"  # Y is left out: the run says
    status, body = run(server, {"example": {"operator": "clip", "type": "uint64", "inputs": inputs}})
    assert status == 200
    result = json.loads(body)
    assert (result["status"], result["output"]) == ("ok", "array([1, 3, 3], dtype=uint64)\n")


def test_an_example_with_a_value_the_type_does_not_have_says_so(server: LiveServer) -> None:
    inputs = "X = [1, 2]\nL = nan\nM = 3"
    _, body = run(server, {"example": {"operator": "clip", "type": "uint64", "inputs": inputs}})
    result = json.loads(body)
    assert result["status"] == "invalid"
    assert result["message"] == "nan is not a value of uint64"


# -- what a run cannot do to the server


def test_a_run_that_takes_too_long_is_stopped(hasty_server: LiveServer) -> None:
    result = outcome(hasty_server, "import time\nprint('started', flush=True)\ntime.sleep(60)")
    assert result["status"] == "timeout"
    assert result["message"] == "Stopped: the run took longer than 1 s."
    assert result["output"] == "started\n"
    assert 1 <= result["seconds"] < 5


def test_a_busy_loop_is_stopped_too(hasty_server: LiveServer) -> None:
    assert outcome(hasty_server, "while True:\n    pass")["status"] == "timeout"


def test_a_crash_is_reported_and_the_server_stays_up(server: LiveServer) -> None:
    result = outcome(server, "import os\nos.abort()")
    assert result["status"] == "crashed"
    assert result["message"] == "The run crashed: its process was killed by SIGABRT."
    assert outcome(server, "1 + 1")["output"] == "2\n"


def test_a_run_that_exits_early_is_reported(server: LiveServer) -> None:
    result = outcome(server, "import os\nos._exit(3)")
    assert (result["status"], result["message"]) == (
        "crashed",
        "The run ended (exit status 3) before it finished.",
    )


def test_a_memory_hog_is_stopped_at_the_limit(server: LiveServer) -> None:
    # 2 GiB of zeros cost nothing without a limit (the pages are never touched): refused, it proves the limit.
    result = outcome(server, "hog = bytearray(2 * 2**30)\nprint('allocated')")
    assert result["status"] == "memory"
    assert result["message"] == "Stopped: the run needed more than 1024 MiB of memory."
    assert "allocated" not in result["output"]


def test_output_is_capped(server: LiveServer) -> None:
    result = outcome(server, "while True:\n    print('x' * 1000)")
    assert result["status"] == "output"
    assert len(result["output"]) == 64 * 1024


def test_what_a_run_forks_does_not_keep_it_alive(server: LiveServer) -> None:
    result = outcome(server, "import os, time\nif os.fork() == 0:\n    time.sleep(60)\nprint('done')")
    assert (result["status"], result["output"]) == ("ok", "done\n")
    assert result["seconds"] < 10


def test_the_owner_of_a_connection_is_read_from_the_tcp_table() -> None:
    table = (
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
        "   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1\n"
        "   1: 0100007F:A1B2 0100007F:1F40 01 00000000:00000000 00:00000000 00000000  1001        0 2\n"
        "   2: 0100007F:1F40 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 3\n"
    )
    assert peer_uid(table, ("127.0.0.1", 0xA1B2), ("127.0.0.1", 8000)) == 1001
    assert peer_uid(table, ("127.0.0.1", 0xA1B3), ("127.0.0.1", 8000)) is None


def test_another_user_of_the_machine_is_refused(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    assert TCP_TABLE.exists()  # Linux, as CI: the check is made
    assert request(server, "GET", "/")[0] == 200  # this user's own connection is recognised
    someone_else = os.getuid() + 1
    monkeypatch.setattr("sonnx_live.server.os.getuid", lambda: someone_else)  # as if the server were theirs
    status, _, body = request(server, "GET", "/")
    assert status == 403 and server.token.encode() not in body
    assert run(server, {"python": "print(1)"})[0] == 403
