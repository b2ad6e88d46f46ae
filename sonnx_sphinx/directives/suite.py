"""The conformance suite on the site: ``{conformance-suite}`` grades engines with it while the page is
read, and the build writes the suite itself beside the pages as a download.

The suite is exported from the installed specification (``sonnx_spec.suite``); the engines graded are
this reference (which must pass every case, or the build fails), onnxruntime and ONNX's reference
evaluator. Every count on the page is from that run.
"""

from __future__ import annotations

import shutil
import tempfile
import zipfile
from collections import Counter
from pathlib import Path
from typing import ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

from sonnx_spec import __version__
from sonnx_spec.suite import Grades, export, grade

from ..domain import add_directive
from ..i18n import Say, speaker
from ..myst import SiteDirective, code, details, escape, need, table

ENGINES = ("reference", "onnxruntime", "onnx-reference")
DOWNLOAD = f"downloads/sonnx-conformance-suite-{__version__}.zip"


def _cell(counts: Counter, say: Say) -> str:
    shown = [say("{count} pass", count=counts["pass"])]
    shown += [say("**{count} fail**", count=counts["fail"])] if counts["fail"] else []
    shown += [say("{count} unsupported", count=counts["unsupported"])] if counts["unsupported"] else []
    return ", ".join(shown)


def grades_section(results: list[Grades], cases: int, refused: int, say: Say) -> list[str]:
    header = [say(h) for h in ("Engine", "Version", "Pass", "Fail", "Unsupported")]
    rows = [
        [
            escape(g.engine),
            code(g.engine_version),
            str(g.count("pass")),
            str(g.count("fail")),
            str(g.count("unsupported")),
        ]
        for g in results
    ]
    lines = [
        say(
            "The suite has {cases} cases, {refused} of them inputs the profile refuses. "
            "The engines below were graded with it while this site was built:",
            cases=cases,
            refused=refused,
        ),
        "",
        *table(header, rows, classes="sonnx-cards"),  # one card per engine, per operator, on a phone
    ]
    operators = sorted({g.operator for r in results for g in r.grades})
    per_operator = [
        [escape(op)] + [_cell(Counter(g.outcome for g in r.grades if g.operator == op), say) for r in results]
        for op in operators
    ]
    header = [say("Operator"), *(escape(r.engine) for r in results)]
    lines += table(header, per_operator, classes="sonnx-cards")
    for result in results:
        failed = [g for g in result.grades if g.outcome == "fail"]
        if failed:
            body = [f"- {code(g.case)} ({need(g.rule)}): {escape(g.detail)}" for g in failed]
            title = say("{engine}: the {count} failed cases", engine=result.engine, count=len(failed))
            lines += details(title, [*body, ""])
    return lines


class ConformanceSuite(SiteDirective):
    """The suite's download link and the grades of the engines, from a run made while the page is read."""

    option_spec: ClassVar = {}

    def run(self) -> list[nodes.Node]:
        self.build_data()  # a change of the rules files reads the page again
        folder = Path(tempfile.mkdtemp(prefix="sonnx-suite-"))
        try:
            manifest = export(folder / "suite")
            results = [grade(folder / "suite", engine) for engine in ENGINES]
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        ours = results[0]
        if ours.count("pass") != len(ours.grades):
            wrong = next(g for g in ours.grades if g.outcome != "pass")
            raise self.error(f"the reference does not pass its own suite: {wrong.case}: {wrong.detail}")
        cases = manifest["cases"]
        refused = sum(c["result"] == "refused" for c in cases)
        link = self.site_link(DOWNLOAD, f"sonnx-conformance-suite-{__version__}.zip")
        say = speaker(self.env)
        lines = [
            say("Download: {link} (digest {digest}).", link=link, digest=code(manifest["digest"][:16])),
            "",
        ]
        return self.render(lines + grades_section(results, len(cases), refused, say))


def _write_download(app: Sphinx, exception: Exception | None) -> None:
    """The suite as a zip beside the pages; the same sources give the same bytes (fixed dates, order)."""
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / DOWNLOAD
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sonnx-suite-") as folder:
        root = Path(folder) / f"sonnx-conformance-suite-{__version__}"
        export(root)
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    info = zipfile.ZipInfo(
                        path.relative_to(folder).as_posix(), date_time=(1980, 1, 1, 0, 0, 0)
                    )
                    info.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(info, path.read_bytes())


def setup(app: Sphinx) -> ExtensionMetadata:
    add_directive(app, "conformance-suite", ConformanceSuite)
    app.connect("build-finished", _write_download, priority=500)  # before the site's link check (900)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
