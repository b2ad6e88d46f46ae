"""After an HTML build, verify the site works offline and its links resolve.

Fails the build (located warnings) if a page loads a script, stylesheet, image,
font or frame from another host, or if an internal link points to a missing
file or anchor. Links *to* other sites (``<a href="https://…">``) are allowed:
following them is the reader's choice; loading them is not the page's.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sphinx.application import Sphinx

from . import report

LOADING = {
    ("script", "src"),
    ("img", "src"),
    ("iframe", "src"),
    ("source", "src"),
    ("link", "href"),
    ("embed", "src"),
    ("object", "data"),
    ("audio", "src"),
    ("video", "src"),
}
CSS_URL = re.compile(r"""url\(\s*['"]?(?P<url>[^'")]+)""")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.anchors: set[str] = set()
        self.loads: list[str] = []
        self.links: list[str] = []
        self.switches: list[str] = []  # the language switch's links: to the other language's site

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v for k, v in attrs if v is not None}
        switch = any(k == "data-sonnx-language" for k, _ in attrs)  # an attribute without a value
        for key in ("id", "name"):
            if key in values:
                self.anchors.add(values[key])
        for attr in ("src", "href", "data"):
            if attr not in values:
                continue
            if switch:
                self.switches.append(values[attr])
            elif (tag, attr) in LOADING and not (
                tag == "link" and values.get("rel") in ("canonical", "next", "prev")
            ):
                self.loads.append(values[attr])
            else:
                self.links.append(values[attr])


def _external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.netloc) or parts.scheme not in ("", "file")


def check_site(outdir: Path) -> list[tuple[str, str]]:
    """(file, problem) for each external load and each broken internal link."""
    pages = {}
    for path in sorted(outdir.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text("utf-8"))
        pages[path] = page
    problems = []
    for path, page in pages.items():
        rel = path.relative_to(outdir).as_posix()
        for url in page.loads:
            if _external(url) and not url.startswith(("data:", "mailto:")):
                problems.append((rel, f"loads {url} from another host"))
            elif not _external(url):
                problems += _resolve(outdir, path, url, pages, rel)
        for url in page.links:
            if not _external(url):
                problems += _resolve(outdir, path, url, pages, rel)
        for url in page.switches:  # checked by the build of the site that holds both languages
            if outdir.resolve() in (path.parent / url).resolve().parents:
                problems += _resolve(outdir, path, url, pages, rel)
    for css in sorted(outdir.rglob("*.css")):
        for match in CSS_URL.finditer(css.read_text("utf-8", errors="replace")):
            if _external(match["url"]) and not match["url"].startswith("data:"):
                problems.append(
                    (css.relative_to(outdir).as_posix(), f"loads {match['url']} from another host")
                )
    return problems


def _resolve(outdir: Path, page: Path, url: str, pages: dict[Path, _Page], rel: str) -> list[tuple[str, str]]:
    parts = urlsplit(url)
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
    if parts.path and not target.exists():
        return [(rel, f"links to {url}, which does not exist")]
    if parts.fragment and target.suffix == ".html":
        anchors = pages[target].anchors if target in pages else set()
        if unquote(parts.fragment) not in anchors:
            return [(rel, f"links to {url}, whose anchor #{parts.fragment} does not exist")]
    return []


def _after_build(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for rel, problem in check_site(Path(app.outdir)):
        report("site", str(Path(app.outdir) / rel), f"{rel} {problem}")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _after_build, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
