"""The formal specifications on the site: each operator's proof status, and the summary of the run.

``{formal-status}`` (on an operator's page) links the operator's Why3 file, shown highlighted on a
page of its own, counts its goals per kind, states its refinement (the concrete level's contract and
its status), lists the theories wholly proved and gives each goal's answer per prover, from the last
``nox -s formal`` run (``build/formal-status.json``, written by formal/harness). ``{formal-summary}``
gives the goals per operator and kind, the deliberate errors and the vacuity checks. Unproved goals,
unrefuted mutants and disagreeing examples fail the build (see lints.traceability).
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ..domain import add_directive
from ..i18n import phrase
from ..myst import SiteDirective, code, details, escape, need, table

KINDS = ("property", "instance", "refinement", "example", "mutant", "vacuity")
WHOLE_THEORIES = (
    "A rule counts as proved only if every goal of the theories it relies on is proved (its operator's "
    "modules and the shared theories of `formal/lib/`): a lemma left unproved would be assumed by the "
    "goals after it. A goal of an IEEE instance (float16, bfloat16, float32, float64) is proved when Z3 "
    "and cvc5 both prove it, unless one of them is excused for it in `formal/<op>.excused.toml` (shown with "
    "its reason); any other goal when one of them proves it."
)


def not_run(env: BuildEnvironment) -> str:
    return phrase(
        env,
        "Proof status: not available in this build (Why3 was not installed); `nox -s formal` proves the "
        "goals.",
    )


def kind_counts(entry: dict[str, Any], env: BuildEnvironment) -> str:
    counts = entry.get("counts", {})
    return ", ".join(
        phrase(env, "{kind} {proved} of {goals}", kind=phrase(env, kind), proved=p, goals=n)
        for kind in KINDS
        if kind in counts
        for p, n in [counts[kind]]
    )


def refinement_sentence(entry: dict[str, Any], env: BuildEnvironment) -> str:
    ref = entry.get("refinement")
    if not ref:
        return phrase(env, "No concrete level is stated for it yet.")
    verdict = (
        phrase(env, "proved, with every refinement goal of its instances")
        if ref.get("proved")
        else phrase(env, "**not proved**")
    )
    return phrase(
        env,
        "The concrete level {function} (module {module}: flat row-major arrays, a loop) refines the "
        "specification: it ensures {contract} ({label}): {verdict}.",
        function=code(ref["function"]),
        module=code(ref["module"]),
        contract=code(ref["contract"]),
        label=code(ref["label"]),
        verdict=verdict,
    )


class FormalStatusDirective(SiteDirective):
    option_spec: ClassVar = {"operator": directives.unchanged}

    def source_link(self, rel: str, line: int | None = None, text: str | None = None) -> str:
        anchor = f"#L-{line}" if line else ""
        return self.site_link(f"_source/{rel}.html{anchor}", f"<code>{text or rel}</code>")

    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        op = data.operators[self.operator_name()]
        rel = f"formal/{op.name}.mlw"
        path = data.root / rel
        if not path.exists():
            raise self.error(f"no formal specification {rel}")
        self.env.note_dependency(str(path))
        env = self.env
        lines = [
            f"({op.name}-formal)=",
            "## " + phrase(env, "Formal specification"),
            "",
            phrase(
                env,
                "The Why3 specification of {onnx} is {file}: the rules of this page at two levels, a "
                "specification (definitions, a contract, lemmas named after the ids they prove) and a "
                "concrete level proved to refine it, with an instance per type.",
                onnx=op.onnx,
                file=self.source_link(rel),
            ),
            "",
        ]
        header = data.formal_header
        entry = (header or {}).get("operators", {}).get(op.name)
        if header is None or entry is None:
            return self.render([*lines, not_run(env), ""], match_titles=True)
        goals = [g for g in data.formal_goals if g.file == rel]
        provers = header.get("prover_names", [])
        proved = sum(g.status == "proved" for g in goals)
        wholly = [t["name"] for t in entry.get("theories", []) if t["wholly"]]
        lines += [
            phrase(
                env,
                "Proof status from the last `nox -s formal` run: **{proved} of {goals} goals proved** by "
                "Why3 {why3} with {provers} ({counts}).",
                proved=proved,
                goals=len(goals),
                why3=header.get("why3"),
                provers=phrase(env, " and ").join(header.get("provers", [])),
                counts=kind_counts(entry, env),
            ),
            "",
            refinement_sentence(entry, env),
            "",
            phrase(
                env,
                "Theories wholly proved: {theories}.",
                theories=", ".join(code(t) for t in wholly) or phrase(env, "none"),
            )
            + " "
            + phrase(env, WHOLE_THEORIES),
            "",
        ]
        outside = entry.get("outside_model", [])
        if outside:
            lines += details(
                phrase(
                    env,
                    "{count} example cases outside the formal model (the file's header says why)",
                    count=len(outside),
                ),
                [f"- {escape(case)}" for case in outside],
                classes="sonnx-trace",
            )
        rows = [
            [
                self.source_link(g.file, g.line, g.goal),
                escape(g.theory),
                g.kind,
                " ".join(need(i) for i in g.ids),
                *[
                    escape(g.provers.get(p, "")) + (phrase(env, " (allowed)") if p in g.allowed else "")
                    for p in provers
                ],
                g.status,
            ]
            for g in goals
        ]
        headings = [phrase(env, h) for h in ("Goal", "Theory", "Kind", "Proves")]
        lines += details(
            phrase(env, "Each goal and its answer per prover"),
            table([*headings, *provers, phrase(env, "Status")], rows, classes="sonnx-wide"),
            classes="sonnx-trace",
        )
        return self.render(lines, match_titles=True)


class FormalSummaryDirective(SiteDirective):
    """Goals per operator and kind, the deliberate errors and vacuity, from the last run."""

    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        env = self.env
        header = data.formal_header
        if header is None:
            return self.render([not_run(env)])
        rows = []
        for op in data.operators.values():
            entry = header.get("operators", {}).get(op.name)
            if entry is None:
                continue
            if entry.get("missing"):
                rows.append([op.onnx, phrase(env, "{file} missing", file=code(entry["file"])), "", ""])
                continue
            goals = [g for g in data.formal_goals if g.file == f"formal/{op.name}.mlw"]
            proved = sum(g.status == "proved" for g in goals)
            link = f"[{op.onnx}](operators/{op.name}.md#{op.name}-formal)"
            rows.append(
                [
                    link,
                    phrase(env, "{proved} of {goals}", proved=proved, goals=len(goals)),
                    escape(kind_counts(entry, env)),
                    f"{entry['time']:.0f} s",
                ]
            )
        lines = [
            phrase(
                env,
                "Why3 {why3}, {provers}, {seconds} s per task and prover.",
                why3=header.get("why3"),
                provers=phrase(env, " and ").join(header.get("provers", [])),
                seconds=f"{header.get('timelimit', 5):g}",
            ),
            "",
            *table(
                [
                    phrase(env, h)
                    for h in ("Operator", "Goals proved", "Per kind (proved of all)", "Proof time")
                ],
                rows,
            ),
            phrase(env, WHOLE_THEORIES),
            "",
        ]
        mutants = header.get("mutants", [])
        if mutants:
            lines += [
                phrase(
                    env,
                    "The harness checks itself: each deliberate error changes a definition, and a ground "
                    "fact true of the real definition (the witness) must be proved on the real file and its "
                    "negation on the mutated one: the error is refuted by a proof, not by a time-out.",
                ),
                "",
                *table(
                    [phrase(env, h) for h in ("Operator", "Deliberate error", "Witness", "Outcome")],
                    [
                        [m["operator"], escape(m["change"]), code(m["witness"]), escape(m["status"])]
                        for m in mutants
                    ],
                ),
            ]
        vacuity = header.get("vacuity", [])
        if vacuity:
            vacuous = [v for v in vacuity if v["status"] != "not proved"]
            lines += [
                phrase(
                    env,
                    "Vacuity: `false` was submitted in each of the {count} modules to both provers; "
                    "{outcome}",
                    count=len(vacuity),
                    outcome=phrase(env, "neither proved it in any.")
                    if not vacuous
                    else phrase(env, "it was proved in {count}.", count=len(vacuous)),
                ),
                "",
            ]
        allowed = header.get("allowed", [])
        if allowed:
            lines += [
                phrase(env, "Goals one prover is excused from (each in `formal/<op>.excused.toml`):"),
                "",
                *table(
                    [phrase(env, h) for h in ("Operator", "Goal", "Prover", "Why")],
                    [
                        [a["operator"], code(f"{a['theory']}.{a['goal']}"), a["prover"], escape(a["reason"])]
                        for a in allowed
                    ],
                ),
            ]
        return self.render(lines)


def setup(app: Sphinx) -> dict:
    add_directive(app, "formal-status", FormalStatusDirective)
    add_directive(app, "formal-summary", FormalSummaryDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
