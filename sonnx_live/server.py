"""The live server: the built site on 127.0.0.1, and runs of the code its own pages send.

Only its own pages may ask for a run (the README's "Live examples" gives the threat model):

- it listens on 127.0.0.1 only, and (on Linux) answers only connections of the user who started it,
  so that other accounts of the machine can read neither the pages nor the token;
- every request, pages included, must name ``127.0.0.1:<port>`` as its Host: a site that rebinds
  its name to 127.0.0.1 (DNS rebinding) gets the browser to send that name, and is refused;
- a run must come from a page of this origin: ``Origin: http://127.0.0.1:<port>`` (and
  ``Sec-Fetch-Site: same-origin`` when the browser sends it);
- and carry the token drawn at start, which the server writes into each page it serves
  (``<meta name="sonnx-live-token">``). Other sites cannot read those pages (same-origin policy:
  the server sends no CORS header), and the token is in no script another page could include.

No other site may frame the pages or load their files (X-Frame-Options, Cross-Origin-Resource-Policy).
"""

from __future__ import annotations

import hmac
import io
import json
import os
import re
import secrets
import socket
import socketserver
import struct
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from . import runner
from .runner import Limits

LOOPBACK = "127.0.0.1"
RUN_PATH = "/_live/run"
TOKEN_HEADER = "X-Sonnx-Live-Token"
TOKEN_META = '<meta name="sonnx-live-token" content="{token}">'
MAX_REQUEST = 64 * 1024  # bytes of JSON: an example is a few hundred
MAX_DRAINED = 16 * MAX_REQUEST  # read of a body too large, before it is refused
HEAD = re.compile(rb"<head\b[^>]*>", re.IGNORECASE)
TCP_TABLE = Path("/proc/net/tcp")  # Linux: each IPv4 TCP socket with the uid owning it
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class LiveServer(ThreadingHTTPServer):
    """The site in ``site`` on 127.0.0.1:``port`` (0: any free port), and its runs within ``limits``."""

    daemon_threads = True

    def __init__(
        self,
        site: Path,
        port: int = 8000,
        limits: Limits | None = None,
        *,
        parallel_runs: int = 2,
        quiet: bool = False,
    ) -> None:
        self.site = site
        self.limits = limits or Limits()
        self.token = secrets.token_urlsafe(32)  # drawn at each start: a page of an earlier start cannot run
        self.runs = threading.BoundedSemaphore(parallel_runs)
        self.quiet = quiet
        super().__init__((LOOPBACK, port), LiveHandler)

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # HTTPServer's would look the host's name up
        self.server_name, self.server_port = LOOPBACK, self.server_address[1]

    @property
    def host(self) -> str:
        """The one Host header accepted."""
        return f"{LOOPBACK}:{self.server_address[1]}"

    @property
    def origin(self) -> str:
        return f"http://{self.host}"

    @property
    def url(self) -> str:
        return f"{self.origin}/"

    def log(self, message: str) -> None:
        if not self.quiet:
            print(message, file=sys.stderr, flush=True)


def with_token(page: bytes, token: str) -> bytes:
    """The page with the token in its head, where the page's script finds it."""
    meta = TOKEN_META.format(token=token).encode()
    match = HEAD.search(page)
    at = match.end() if match else 0
    return page[:at] + meta + page[at:]


def peer_uid(table: str, client: tuple[str, int], server: tuple[str, int]) -> int | None:
    """The uid owning the client's end of a loopback connection, read from a /proc/net/tcp table."""
    wanted = [_tcp_address(client), _tcp_address(server)]
    for line in table.splitlines()[1:]:
        fields = line.split()
        if fields[1:3] == wanted:
            return int(fields[7])
    return None


def _tcp_address(address: tuple[str, int]) -> str:
    """127.0.0.1:8000 as /proc/net/tcp writes it: the address as a word in the machine's byte order.

    On x86 and ARM (little-endian): 0100007F:1F40.
    """
    word = struct.unpack("=I", socket.inet_aton(address[0]))[0]
    return f"{word:08X}:{address[1]:04X}"


def parse_request(body: bytes) -> dict[str, Any] | None:
    """``{"python": code}`` or ``{"example": {"operator", "type", "inputs"}}``, all strings; else None."""
    try:
        request = json.loads(body)
    except ValueError:
        return None
    if not isinstance(request, dict):
        return None
    if set(request) == {"python"} and isinstance(request["python"], str):
        return request
    example = request.get("example")
    if (
        set(request) == {"example"}
        and isinstance(example, dict)
        and set(example) == {"operator", "type", "inputs"}
        and all(isinstance(v, str) for v in example.values())
    ):
        return request
    return None


class LiveHandler(SimpleHTTPRequestHandler):
    server: LiveServer
    server_version = "sonnx-live"
    sys_version = ""
    timeout = 30  # seconds a client may take to send its request

    def __init__(self, request: Any, client_address: Any, server: LiveServer) -> None:
        super().__init__(request, client_address, server, directory=str(server.site))

    # -- who may ask
    def refusal(self, run: bool) -> str | None:
        """Why this request is refused, or None."""
        if not self.from_this_user():
            return "the connection comes from another user of this machine"
        if (self.headers.get_all("Host") or []) != [self.server.host]:
            return f"Host {self.headers.get('Host')!r} is not {self.server.host}"
        if not run:
            return None
        if self.headers.get("Origin") != self.server.origin:
            return f"Origin {self.headers.get('Origin')!r} is not {self.server.origin}"
        if self.headers.get("Sec-Fetch-Site", "same-origin") != "same-origin":
            return f"Sec-Fetch-Site is {self.headers.get('Sec-Fetch-Site')!r}"
        token = self.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(token.encode(), self.server.token.encode()):
            return "the token is missing or wrong (a page of an earlier start? reload it)"
        return None

    def from_this_user(self) -> bool:
        try:
            table = TCP_TABLE.read_text()
        except OSError:
            return True  # not Linux: other accounts are not told apart (README)
        return peer_uid(table, self.client_address[:2], self.server.server_address[:2]) == os.getuid()

    def refused(self, run: bool = False) -> bool:
        reason = self.refusal(run)
        if reason is not None:
            self.server.log(f"refused {self.command} {self.path}: {reason}")
            self.send_text(HTTPStatus.FORBIDDEN, f"Refused: {reason}.")
        return reason is not None

    # -- the site
    def do_GET(self) -> None:
        if not self.redirected() and not self.refused():
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self.redirected() and not self.refused():
            super().do_HEAD()

    def redirected(self) -> bool:
        """A page asked of localhost:<port> (a name no site can rebind) is sent to the address served."""
        if (
            self.headers.get("Host") != f"localhost:{self.server.server_address[1]}"
            or not self.from_this_user()
        ):
            return False
        self.send_response(HTTPStatus.TEMPORARY_REDIRECT)
        self.send_header("Location", self.server.origin + self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()
        return True

    def send_head(self) -> io.BytesIO | Any:
        """Pages as built, with the token; every other file as it is."""
        path = Path(self.translate_path(self.path))
        if path.is_dir() and urlsplit(self.path).path.endswith("/"):
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        page = with_token(path.read_bytes(), self.server.token)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.send_header("Cache-Control", "no-store")  # the token changes at each start
        self.end_headers()
        return io.BytesIO(page)

    def list_directory(self, path: str | Path) -> None:
        self.send_error(HTTPStatus.NOT_FOUND)  # the site's pages only

    def end_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    # -- the runs
    def do_POST(self) -> None:
        # The body is read first, whoever sends it: a socket closed on unread data may lose the answer.
        try:
            length = max(int(self.headers.get("Content-Length") or 0), 0)
        except ValueError:
            length = 0  # then the body is no JSON: 400
        body = self.rfile.read(min(length, MAX_DRAINED))
        if self.refused(run=urlsplit(self.path).path == RUN_PATH):
            return
        if urlsplit(self.path).path != RUN_PATH:
            self.send_text(HTTPStatus.NOT_FOUND, "Not found.")
            return
        if length > MAX_REQUEST:
            self.send_text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"A run is at most {MAX_REQUEST} bytes.")
            return
        if self.headers.get_content_type() != "application/json":
            self.send_text(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "Send JSON.")
            return
        request = parse_request(body)
        if request is None:
            self.send_text(HTTPStatus.BAD_REQUEST, 'Send {"python": code} or {"example": {...}}.')
            return
        if not self.server.runs.acquire(timeout=2 * self.server.limits.seconds):
            self.send_text(HTTPStatus.SERVICE_UNAVAILABLE, "Too many runs at once: try again.")
            return
        try:
            outcome = runner.run(request, self.server.limits)
        except OSError as error:  # no process could be started (too many processes, no memory)
            self.send_text(HTTPStatus.SERVICE_UNAVAILABLE, f"No run could be started: {error}.")
            return
        finally:
            self.server.runs.release()
        self.server.log(f"run {next(iter(request))}: {outcome.status} in {outcome.seconds:.2f} s")
        self.send_json(outcome.to_json())

    def send_text(self, status: HTTPStatus, text: str) -> None:
        self.send_body(status, text.encode(), "text/plain; charset=utf-8")

    def send_json(self, value: dict[str, Any]) -> None:
        self.send_body(HTTPStatus.OK, json.dumps(value).encode(), "application/json")

    def send_body(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # refusals and runs are logged by name; a line per file would bury them
