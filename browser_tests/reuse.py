"""A check passed on a page is not run again while the page, the site's static files and the checks' code
are unchanged (``browser`` and ``browser-live`` in results.toml); ``--recheck`` runs every check.

A check's page is its ``page_path`` or ``operator`` parameter; a check of no page depends on every page.
CI starts from a clean clone: nothing is carried over, every check runs.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from results import Result, declared, digest_of


def page_of(item: pytest.Item) -> str | None:
    params = getattr(item, "callspec", None)
    params = params.params if params else {}
    if "page_path" in params:
        return params["page_path"]
    if "operator" in params:
        return f"operators/{params['operator']}.html"
    return None


class Reuse:
    """A pytest plugin: each check's key, the record of those that passed (``build/browser/checks.json``)."""

    def __init__(self, root: Path, site: Path, recheck: bool) -> None:
        results = declared(root)
        self.record: Result = results["browser"]
        self.site, self.recheck = site, recheck
        self.shared = self.record.digest()
        self.live = results["browser-live"].digest()
        self.every_page = digest_of(root, site.rglob("*.html"))
        self.passed: dict[str, str] = (
            json.loads(self.record.path.read_text("utf-8")) if self.record.path.exists() else {}
        )
        self.keys: dict[str, str] = {}

    def key(self, item: pytest.Item) -> str:
        page = page_of(item)
        if page is None:
            pages = self.every_page
        else:
            path = self.site / page
            pages = hashlib.sha256(path.read_bytes() if path.exists() else b"(missing)").hexdigest()
        live = self.live if item.path.name == "test_live.py" else ""
        return hashlib.sha256(f"{self.shared}\0{live}\0{page}\0{pages}".encode()).hexdigest()

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            self.keys[item.nodeid] = key = self.key(item)
            if self.passed.get(item.nodeid) == key and not self.recheck:
                item.add_marker(pytest.mark.skip(reason="passed on this very page and code (build/browser/)"))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            self.passed.pop(report.nodeid, None)
        elif report.when == "call" and report.passed and report.nodeid in self.keys:
            self.passed[report.nodeid] = self.keys[report.nodeid]

    def pytest_sessionfinish(self) -> None:
        self.record.path.parent.mkdir(parents=True, exist_ok=True)
        self.record.path.write_text(json.dumps(dict(sorted(self.passed.items())), indent=1) + "\n", "utf-8")
