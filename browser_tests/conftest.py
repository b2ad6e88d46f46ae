"""What the browser tests share: the site served on loopback, one Chromium, and a visit that records
everything that went wrong while a page loaded."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # results.py: tooling beside the package, not installed
from reuse import Reuse  # noqa: E402

SITE = ROOT / "docs" / "_build" / "html"
SHOTS = ROOT / "build" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Chromium's own background traffic is refused on this closed network; none of it is the site's.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--recheck", action="store_true", help="also run the checks that passed on these pages")


def pytest_configure(config: pytest.Config) -> None:
    """A check that passed is not run again while its page and code are unchanged (reuse.py)."""
    config.pluginmanager.register(Reuse(ROOT, SITE, config.getoption("--recheck")), "sonnx-reuse")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass  # the test reports what matters


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """``python -m http.server`` over the site, on loopback: as a plain file server serves it."""
    handler = functools.partial(QuietHandler, directory=str(SITE))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        httpd.block_on_close = True  # join request threads on close: no socket left open
        thread = threading.Thread(target=httpd.serve_forever)
        thread.start()
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
        httpd.shutdown()
        thread.join()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Visit:
    """A page, and everything that went wrong while it loaded."""

    def __init__(self, page: Page, allowed_origin: str) -> None:
        self.page, self.problems = page, []
        page.on("requestfailed", lambda r: self.problems.append(f"failed request {r.url}: {r.failure}"))
        page.on(
            "response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status} for {r.url}")
        )
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))

        def other_host(request) -> None:
            url = urlsplit(request.url)
            if (
                url.scheme not in ("data", "blob", "about")
                and f"{url.scheme}://{url.netloc}" != allowed_origin
            ):
                self.problems.append(f"request to another host: {request.url}")

        page.on("request", other_host)

    def open(self, url: str) -> Page:
        # "load": every script, style sheet and image of the page; then the fonts, which measurements need.
        # Not "networkidle": a static page makes no request after "load", and Chromium sometimes never
        # reports the idle state then (seen on the conformance page: every request finished, 30 s waited).
        self.page.goto(url, wait_until="load")
        self.page.evaluate("document.fonts.ready.then(() => true)")
        return self.page
