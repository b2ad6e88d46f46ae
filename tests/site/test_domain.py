"""The ``sonnx`` domain (sonnx_sphinx/domain.py): rules and operators placed by the pages, linked by
``{sonnx:rule}`` and ``{sonnx:op}``, listed in ``objects.inv`` and in the index of rules, in a parallel
build too (each reader's findings merged)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from sonnx_sphinx.domain import add_directive, sonnx_domain


class PlaceRule(SphinxDirective):
    required_arguments = 1

    def run(self):
        sonnx_domain(self.env).note_rule(self.arguments[0], self.env.docname, self.lineno)
        return [nodes.target("", "", ids=[self.arguments[0]])]


class PlaceOperator(SphinxDirective):
    required_arguments = 1

    def run(self):
        sonnx_domain(self.env).note_operator(self.arguments[0], self.env.docname)
        return []


def setup(app):
    add_directive(app, "place-rule", PlaceRule)
    add_directive(app, "place-operator", PlaceOperator)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rules_and_operators_are_linked_indexed_and_exported(tmp_path: Path, jobs: str) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "probe.py").write_text(PROBE)
    (source / "conf.py").write_text(
        'import sys; sys.path.insert(0, ".")\n'
        'extensions = ["myst_parser", "sonnx_sphinx.domain", "probe"]\n'
        'myst_enable_extensions = ["colon_fence"]\n'
    )
    pages = {
        "index": "# Index\n\n```{toctree}\nclip\nabs\nreader\n```\n",
        "clip": "# Clip\n\n:::{place-operator} Clip\n:::\n\n:::{place-rule} CLIP_C4\n:::\n\nC4.\n",
        "abs": "# Abs\n\n:::{sonnx:place-rule} ABS_E1\n:::\n\nE1.\n",  # the domain's name works too
        "reader": "# Reader\n\nSee {sonnx:rule}`CLIP_C4`, {sonnx:rule}`ABS_E1` and {sonnx:op}`Clip`, and the "
        "{ref}`index of rules <sonnx-rules>`.\n",
    }
    for name, text in pages.items():
        (source / f"{name}.md").write_text(textwrap.dedent(text))
    out = tmp_path / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-j", jobs, "-b", "html", str(source), str(out)],
        capture_output=True,
        text=True,
        cwd=source,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    reader = (out / "reader.html").read_text()
    assert 'href="clip.html#CLIP_C4"' in reader
    assert 'href="abs.html#ABS_E1"' in reader
    assert 'href="clip.html"' in reader
    assert 'href="sonnx-rules.html"' in reader
    with (out / "objects.inv").open("rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    assert sorted(inventory["sonnx:rule"]) == ["ABS_E1", "CLIP_C4"]
    assert inventory["sonnx:rule"]["CLIP_C4"].uri == "clip.html#CLIP_C4"
    assert list(inventory["sonnx:operator"]) == ["Clip"]
    index = (out / "sonnx-rules.html").read_text()
    assert "Index of rules" in index and "CLIP_C4" in index and "ABS_E1" in index
    from sonnx_spec import rule

    assert "<strong>Clip</strong>" in index and "<strong>Abs</strong>" in index  # by operator
    assert rule("ABS_E1").statement[:60] in index  # with the start of its statement
