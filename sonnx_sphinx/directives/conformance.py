"""The ``conformance-report`` directive: the conformance page, rendered from the tests' report.

The conformance tests (``tests/conformance``) write ``build/conformance.json``;
this directive turns it into MyST Markdown (tables as ``list-table``,
requirement ids as sphinx-needs ``{need}`` links) and parses that in place, so
it is meant for MyST pages. Without options it renders the summary of all
operators; ``:operator: clip`` renders one operator in full; ``:topic: signed
zero`` renders what the engines do on that topic's cases, for an operator's page
to show beside the decision it concerns (``:operator:`` defaults to the page's).
A missing or unreadable report is an error at the directive: the page never
silently shows nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.typing import ExtensionMetadata

from sonnx_spec import operators

from ..domain import add_directive
from ..i18n import english, has_words, operator_text, phrase
from ..myst import SiteDirective, code, details, escape, need, rubric, table


@dataclass(frozen=True)
class Words:
    """The build's words: the site's phrases (``say("…")``), and an operator's own data, its topics and the
    reasons its divergences are expected (``say.of(op, "conformance topic", topic)``, from its
    ``rules/<op>.po``). Without a build (a test, an export) the English as written."""

    env: BuildEnvironment | None = None

    def __call__(self, text: str, **fields: object) -> str:
        return english(text, **fields) if self.env is None else phrase(self.env, text, **fields)

    def of(self, op: str, context: str, text: str) -> str:
        if self.env is None or not has_words(text):
            return text
        return operator_text(self.env, op, context, text)


FORMAT = 3  # the report format this module reads (see tests/conformance/conformance_report.py)
VERDICT_WORDS = {"agrees": "agree", "differs": "differ", "unsupported": "unsupported"}
Json = dict[str, Any]
TOPIC, REASON = "conformance topic", "conformance reason"
"""The contexts of an operator's conformance data in its catalogue (``rules/<op>.po``)."""


def _heading(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- values -----------------------------------------------------------------


def _values(values: Any) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_values(v) for v in values) + "]"
    return str(values)


def _tensor(tensor: Json, say: Words = Words()) -> str:
    if tensor.get("abridged"):  # the first and the last elements of a large tensor, flat
        shape = "×".join(str(n) for n in tensor["shape"])
        ends = ", ".join(tensor["values"]) + ", …, " + ", ".join(tensor["last"])
        text = code(f"[{ends}]") + say(" (shape {shape}, flattened)", shape=shape)
    else:
        text = code(_values(tensor["values"]))
    return f"{text} ({tensor['dtype']})" if "dtype" in tensor else text


def _inputs(inputs: list[Json], attributes: Json, say: Words) -> str:
    given = [
        say("{name} omitted", name=item["name"])
        if item["value"] is None
        else f"{item['name']} = {_tensor(item['value'], say)}"
        for item in inputs
    ]
    return ", ".join(given + [f"{name} = {_tensor(value, say)}" for name, value in attributes.items()])


def _spec(result: Json, say: Words) -> str:
    if result["status"] == "output":
        return _tensor(result["output"], say)
    return say("refuses ({rule})", rule=need(result["rule"]))


def _engine(result: Json, say: Words) -> str:
    if result["status"] == "output":
        text = _tensor(result["output"], say)
    elif result["status"] == "refused":
        text = say("refuses: {message}", message=escape(result["message"]))
    else:
        return say("unsupported")
    return text + say(" (agrees)") if result["verdict"] == "agrees" else text


def _counts(counts: Json, say: Words) -> str:
    total = sum(counts.values())
    if counts["agrees"] == total:
        return say("all {count} agree", count=total)
    if counts["unsupported"] == total:
        return say("unsupported ({count})", count=total)
    parts = [
        say(f"{{count}} {word}", count=counts[verdict])
        for verdict, word in VERDICT_WORDS.items()
        if counts[verdict]
    ]
    return ", ".join(parts)


def _types(names: list[str], report: Json, say: Words) -> str:
    """The types of a case or a divergence, by family where they make one up."""
    ints, floats = report["families"]["int"], report["families"]["float"]
    signed = [t for t in ints if t.startswith("int")]
    families = {
        "all types": ints + floats,
        "integer types": ints,
        "floating-point types": floats,
        "signed integer and floating-point types": signed + floats,
        "signed integer types": signed,
    }
    return next((say(family) for family, members in families.items() if names == members), ", ".join(names))


def _engine_titles(report: Json) -> list[str]:
    return [escape(f"{e['title']} {e['version']}") for e in report["engines"]]


# -- the summary and the sections ---------------------------------------------


def summary(report: Json, say: Words) -> list[str]:
    versions = report["versions"]
    engines = "; ".join(escape(f"{e['title']} {e['version']}") for e in report["engines"])
    specification = (
        f"sonnx_spec {versions['sonnx_spec']} (numpy {versions['numpy']}, ml_dtypes {versions['ml_dtypes']})"
    )
    lines = [
        say(
            "Specification: {specification}. Engines: {engines}. The ONNX engines run models of one node "
            "whose opset is the version of the ONNX operator the profile is based on.",
            specification=escape(specification),
            engines=engines,
        ),
        "",
    ]
    rows = [
        [
            f"{section['onnx']['op_type']}-{section['onnx']['version']}",
            *(_counts(section["totals"][e["name"]], say) for e in report["engines"]),
            _backend_totals(section["backend_totals"], say),
        ]
        for op, section in _sections(report)
    ]
    header = [say("Operator"), *_engine_titles(report), say("ONNX backend node tests")]
    return lines + table(header, rows)


def _sections(report: Json) -> list[tuple[str, Json]]:
    """The operators in the order of the site, whatever the order of the report's keys."""
    return sorted(report["operators"].items())


def _backend_totals(totals: Json, say: Words) -> str:
    diverging = totals["expected divergence"]
    text = say(
        "{passed} pass, {diverging} expected divergence"
        if diverging == 1
        else "{passed} pass, {diverging} expected divergences",
        passed=totals["pass"],
        diverging=diverging,
    )
    unexpected = totals["unexpected divergence"]
    return text + (say(", **{count} unexpected**", count=unexpected) if unexpected else "")


def all_sections(report: Json, say: Words) -> list[str]:
    """A section per operator, headed by its name."""
    lines = []
    for op, section in _sections(report):
        title = section["onnx"]["op_type"]
        lines += [
            f"## {title}",
            "",
            say("The rules are on the [{title}](operators/{op}.md) page.", title=title, op=op),
            "",
        ]
        lines += operator_section(report, op, say)
    return lines


def operator_section(report: Json, op: str, say: Words) -> list[str]:
    section = report["operators"][op]
    return [
        *_matrix(report, section, say),
        *_divergences(report, op, section, say),
        *_unsupported(report, section, say),
        *_backend(section, op, say),
        *_cases(report, op, section, say),
    ]


def _matrix(report: Json, section: Json, say: Words) -> list[str]:
    rows = []
    for t in section["types"]:
        cells = section["matrix"][t]
        total = sum(cells[report["engines"][0]["name"]].values())
        rows.append([t, str(total), *(_counts(cells[e["name"]], say) for e in report["engines"])])
    header = [say("Type"), say("Cases"), *_engine_titles(report)]
    return rubric(say("Types × engines")) + table(header, rows)


def _divergences(report: Json, op: str, section: Json, say: Words) -> list[str]:
    lines = rubric(say("Divergences"))
    if not section["divergences"]:
        return [*lines, say("No engine differs from the specification on these cases."), ""]
    return lines + _divergence_tables(report, op, section["divergences"], say)


def topic_section(report: Json, op: str, topic: str, say: Words, root: str = "") -> list[str]:
    """What the engines do on one topic's cases: shown on an operator page beside the decision, folded
    with the page's other evidence."""
    return details(
        say("What the engines return: {topic}", topic=say.of(op, TOPIC, topic)),
        _topic_tables(report, op, topic, say, root),
        classes="sonnx-trace sonnx-conformance-topic",
    )


def _topic_tables(report: Json, op: str, topic: str, say: Words, root: str) -> list[str]:
    entries = [e for e in report["operators"][op]["divergences"] if e["topic"] == topic]
    engines = ", ".join(escape(f"{e['title']} {e['version']}") for e in report["engines"])
    if not entries:
        return [
            say(
                "On these cases ({topic}), {engines} all agree with the specification.",
                topic=escape(say.of(op, TOPIC, topic)),
                engines=engines,
            ),
            "",
        ]
    return [
        say(
            "What {engines} return on these cases, from the [conformance run]({root}conformance.md):",
            engines=engines,
            root=root,
        ),
        "",
        *_divergence_tables(report, op, entries, say),
    ]


def _divergence_tables(report: Json, op: str, divergences: list[Json], say: Words) -> list[str]:
    lines: list[str] = []
    by_topic: dict[str, list[Json]] = {}
    for entry in divergences:
        by_topic.setdefault(entry["topic"], []).append(entry)
    header = [say(h) for h in ("Case", "Types", "Input", "Specification")] + _engine_titles(report)
    for topic, entries in by_topic.items():
        first = entries[0]
        if all(e["explained"] for e in entries):
            why = f"{need(first['rule'])}: {escape(say.of(op, REASON, first['reason']))}"
        else:
            why = say("**Unexplained**: the conformance tests fail on this divergence.")
        lines += [f"**{escape(_heading(say.of(op, TOPIC, topic)))}**. {why}", ""]
        rows = [
            [
                escape(e["case"]),
                escape(_types(e["types"], report, say)),
                _inputs(e["inputs"], e.get("attributes", {}), say),
                _spec(e["spec"], say),
                *(_engine(e["engines"][engine["name"]], say) for engine in report["engines"]),
            ]
            for e in entries
        ]
        lines += table(header, rows)
    return lines


def _unsupported(report: Json, section: Json, say: Words) -> list[str]:
    lines = rubric(say("Unsupported"))
    if not section["unsupported"]:
        return [*lines, say("Every engine runs every case on every type."), ""]
    titles = {e["name"]: f"{e['title']} {e['version']}" for e in report["engines"]}
    for entry in section["unsupported"]:
        types = ", ".join(
            say(
                "{type} ({cases} of {all} cases)",
                type=t,
                cases=entry["cases"][t],
                all=sum(section["matrix"][t][entry["engine"]].values()),
            )
            for t in entry["types"]
        )
        lines.append(
            say(
                "- {engine} on {types}: {message}",
                engine=escape(titles[entry["engine"]]),
                types=escape(types),
                message=escape(entry["message"]),
            )
        )
    return [*lines, ""]


def _backend(section: Json, op: str, say: Words) -> list[str]:
    rows = []
    for case in section["backend"]:
        reason = escape(say.of(op, REASON, case.get("reason") or ""))
        if case["outcome"] == "pass":
            outcome, why = say("passes"), ""
        elif case["outcome"] == "expected divergence" and case["spec"]["status"] == "output":
            # ONNX rounded otherwise (Divergence.ulps, Divergence.within): the spec's outputs differ from
            # ONNX's, which meet the bound the case's rule states
            outcome, why = say("expected divergence: another rounding"), reason
        elif case["outcome"] == "expected divergence":
            outcome = say("expected divergence: {spec}", spec=_spec(case["spec"], say))
            why = reason
        else:
            outcome, why = say("**unexpected divergence**"), escape(case["detail"])
        rows.append([code(case["name"]), outcome, need(case["rule"]), why])
    header = [say(h) for h in ("Case", "Outcome", "Rule", "Reason")]
    return rubric(say("ONNX backend node tests")) + table(header, rows)


def _cases(report: Json, op: str, section: Json, say: Words) -> list[str]:
    by_topic: dict[str, list[str]] = {}
    for case in section["cases"]:
        types = _types(case["types"], report, say)
        by_topic.setdefault(case["topic"], []).append(escape(f"{case['name']} ({types})"))
    rows = [
        [escape(_heading(say.of(op, TOPIC, topic))), "; ".join(names)] for topic, names in by_topic.items()
    ]
    return rubric(say("Cases run")) + table([say("Topic"), say("Cases (types)")], rows)


# -- the directive ------------------------------------------------------------


class ConformanceReport(SiteDirective):
    """Renders the conformance report: the summary, or one operator with ``:operator:``."""

    option_spec: ClassVar = {
        "operator": lambda argument: directives.choice(argument, list(operators())),
        "topic": directives.unchanged_required,
        "sections": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        if not type(self.state).__module__.startswith("myst_parser"):
            raise self.error("conformance-report renders MyST Markdown: use it in a .md page")
        report, path = self._load()
        topic = self.options.get("topic")
        on_operator_page = self.env.docname.startswith("operators/")
        op = self.operator_name() if topic or "operator" in self.options or on_operator_page else None
        if topic and topic not in report["topics"]:
            raise self.error(f"unknown topic {topic!r}; the report's topics: {', '.join(report['topics'])}")
        say = Words(self.env)
        try:
            if topic:
                lines = topic_section(report, op, topic, say, "../" * self.env.docname.count("/"))
            elif "sections" in self.options:
                lines = all_sections(report, say)
            else:
                lines = summary(report, say) if op is None else operator_section(report, op, say)
        except (KeyError, IndexError, TypeError, AttributeError) as error:
            raise self.error(f"conformance report {path} breaks format {FORMAT}: {error!r}") from None
        return self.render(lines, match_titles="sections" in self.options)

    def _load(self) -> tuple[Json, Path]:
        data = self.build_data()  # a new report (or its digest) reads the page again
        path = data.results["conformance"].path
        if path.exists() and not data.current["conformance"]:
            raise self.error(data.missing("conformance", "run the conformance tests again (nox -s tests)"))
        try:
            report = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            raise self.error(
                f"conformance report {path} not found: run the conformance tests first (nox -s tests)"
            ) from None
        except (OSError, ValueError) as error:
            raise self.error(f"conformance report {path} is unreadable: {error}") from None
        if not isinstance(report, dict) or report.get("format") != FORMAT:
            found = report.get("format") if isinstance(report, dict) else type(report).__name__
            raise self.error(f"conformance report {path} has format {found!r}; this page reads {FORMAT}")
        return report, path


def setup(app: Sphinx) -> ExtensionMetadata:
    add_directive(app, "conformance-report", ConformanceReport)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
