"""The documents requirements come from, listed from ``requirements.toml``.

Each source gets an anchor named after its key (``sources.html#draft-clip``),
which the "Origin" links of the requirement tables point to, and the list of
requirements that cite it, with the section they cite.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from .site_data import SiteData, SiteDirective

KIND_TITLES = {
    "draft": "SONNX drafts",
    "onnx": "ONNX documentation",
    "decision": "Decisions of this specification",
}


def sources_markdown(data: SiteData) -> list[str]:
    lines: list[str] = []
    for kind, heading in KIND_TITLES.items():
        lines += [f"## {heading}", ""]
        for source in (s for s in data.sources.values() if s.kind == kind):
            citing = [
                (rule.id, origin.section)
                for rule in data.requirements.values()
                for origin in rule.origin
                if origin.source == source.key
            ]
            lines += [f"({source.key})=", f"### {source.title}", "", source.summary, ""]
            if source.url:
                lines += [f"Published at <{source.url}>.", ""]
            cited = "; ".join(f"{{need}}`{rid}`" + (f" (§ {sec})" if sec else "") for rid, sec in citing)
            lines += [f"Cited by: {cited}." if cited else "Cited by no requirement.", ""]
    return lines


class SourcesDirective(SiteDirective):
    def run(self) -> list[nodes.Node]:
        return self.render(sources_markdown(self.site_data()), match_titles=True)


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinxext.site_data")
    app.add_directive("sources", SourcesDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
