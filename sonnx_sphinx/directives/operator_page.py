"""The skeleton of an operator's page, produced from the registry and the rules files.

A page holds prose, math and examples; these directives write the rest:

``{operator}``
    under the title: what the operator computes, its ONNX basis, its signature
    (inputs, attributes and outputs with ONNX's names and their types), the
    general rules with the drafts' labels for them, the contents by family, and
    the scratch box of the live examples (a call of the operator: the page's first
    example, shown only on pages served by ``nox -s serve``);
``{family} int`` (with the page's text for that family as its content)
    the section of one type family: its heading and anchor (``clip-int``), its
    types, the rules that apply to it, then the content;
``{operator-traceability}``
    every rule of the page to its origin, code, tests and result, folded; and
    the ids the operator no longer uses, each with its successor;
``{relation-to-onnx}`` (with the page's prose as content)
    ONNX's operator, version and names, then the content.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from sonnx_spec import FAMILIES, Operator
from sonnx_spec.ids import GENERAL
from sonnx_spec.pages.example_language import ExampleError, examples_in
from sonnx_spec.registry import ATTRIBUTE_KINDS, Tensor

from ..data import BuildData
from ..domain import add_directive, sonnx_domain
from ..i18n import operator_text, phrase, statement
from ..myst import SiteDirective, details, escape, from_docstring, need, table
from .examples import doctest_text, live_marker, python_value

FAMILY_TITLES = {"int": "integer", "float": "floating-point", "bool": "bool"}
TYPE_SET_TITLES = {
    "int": "integer",
    "signed": "signed integer",
    "unsigned": "unsigned integer",
    "float": "floating-point",
    "bool": "bool",
}


def family_types(op: Operator, family: str) -> str:
    return ", ".join(t.name for t in FAMILIES[family] if t in op.numeric_types)


def onnx_url(op: Operator) -> str:
    return f"https://onnx.ai/onnx/operators/onnx__{op.onnx}.html"


def _math_name(name: str) -> str:
    """An attribute's name in LaTeX: num_outputs's underscore is not a subscript."""
    return name.replace("_", r"\_")


def _math_names(tensors: tuple[Tensor, ...]) -> str:
    """X, L, M; or X_0, …, X_{n-1} for a variadic tensor (Max's inputs, Split's outputs)."""
    return ", ".join(rf"{t.name}_0, \dots, {t.name}_{{n-1}}" if t.variadic else t.name for t in tensors)


def signature_math(op: Operator) -> str:
    attributes = ", ".join(rf"\mathit{{{_math_name(a.name)}}}" for a in op.attributes)
    arguments = r";\ ".join(
        part for part in (_math_names(op.inputs), attributes) if part
    )  # either may be empty
    name = op.name.replace("_", r"\_")
    outputs = _math_names(op.outputs)
    return rf"{f'({outputs})' if op.returns_tuple else outputs} = \mathrm{{{name}}}({arguments})"


def _shape(env: BuildEnvironment, rank: int | None, rule: str | None) -> str:
    shape = phrase(env, "a scalar") if rank == 0 else phrase(env, "of rank {rank}", rank=rank)
    return shape + (f" ({need(rule)})" if rule else "")


def type_line(op: Operator, env: BuildEnvironment) -> list[str]:
    lines = []
    for var, sets in op.types.items():
        names = ", ".join(t.name for t in op.dtypes(var))
        # a set of one type (int16) is named by it
        titles = [phrase(env, TYPE_SET_TITLES[s]) if s in TYPE_SET_TITLES else s for s in sets]
        kinds = phrase(env, " and ").join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)
        lines.append(
            phrase(env, "- ${var}$: one of the {kinds} types ({names}).", var=var, kinds=kinds, names=names)
        )
    return [*lines, ""]


TENSOR_LINES = {
    "input": "- {name} (input {onnx}, of type {type}{shape}): {doc}.",
    "output": "- {name} (output {onnx}, of type {type}{shape}): {doc}.",
}


def signature_list(op: Operator, env: BuildEnvironment) -> list[str]:
    """Each input, attribute and output: its name here and in ONNX, its type, its shape, what it is."""
    lines = []
    for kind, tensors in (("input", op.inputs), ("output", op.outputs)):
        for t in tensors:
            name = rf"${t.name}_0, {t.name}_1, \dots$" if t.variadic else f"${t.name}$"
            onnx = f"`{t.onnx}`"
            if t.variadic:  # ONNX numbers Max's data_0, data_1, …; Split's outputs are one name, repeated
                onnx = (
                    f"`{t.onnx}`, `{t.onnx[:-1]}1`, …" if t.onnx.endswith("0") else f"`{t.onnx}`, one or more"
                )
            type_name = f"${t.type}$" if t.type in op.types else t.type
            shape = "" if t.rank is None else f", {_shape(env, t.rank, t.rank_rule)}"
            shape += phrase(env, ", whose values set the shape of the result") if t.sets_shape else ""
            shape += phrase(env, ", of which only the shape is read") if t.shape_only else ""
            doc = escape(operator_text(env, op.name, f"{kind} {t.name}", t.doc))
            lines.append(
                phrase(
                    env,
                    TENSOR_LINES[kind],
                    name=name,
                    onnx=onnx,
                    type=type_name,
                    shape=shape,
                    doc=doc,
                )
            )
    for a in op.attributes:
        type_name = (
            phrase(env, "a tensor of type ${type}$", type=a.type)
            if a.kind == "tensor"
            else phrase(env, ATTRIBUTE_KINDS[a.kind])
        )
        doc = escape(operator_text(env, op.name, f"attribute {a.name}", a.doc))
        lines.append(
            phrase(
                env,
                "- {name} (attribute {onnx}, {type}): {doc}.",
                name=f"$\\mathit{{{_math_name(a.name)}}}$",
                onnx=f"`{a.onnx}`",
                type=type_name,
                doc=doc,
            )
        )
    return [*lines, ""]


def general_rules(op: Operator, data: BuildData, env: BuildEnvironment) -> list[str]:
    """The general rules, each with what this operator's drafts call it (per tensor where they say) and the
    ids this page used for it: the data the reference's errors, the model tools and the exports cite."""
    labels = data.catalogue.draft_labels.get(op.name, {})
    rows = []
    for rule in data.catalogue.of(GENERAL):
        cited = ", ".join(
            f"[{d.origin.source} § {escape(d.origin.section or '')}](../sources.md#{d.origin.source})"
            + (f" ({', '.join(f'${t}$' for t in d.tensors)})" if d.tensors else "")
            for d in labels.get(rule.id, ())
        )
        former = ", ".join(f"`{old}`" for old in data.catalogue.formerly(op.name, rule.id))
        text = statement(env, rule.id, rule.operator, rule.statement)
        rows.append([need(rule.id), escape(text), cited or "—", former or "—"])
    return [
        phrase(
            env,
            "The [general rules](../general-rules.md) apply to every operator and are checked before its "
            "own; where the drafts gave them a label of this operator, it is shown, with the tensor it is "
            "about, and the reference's errors and the model checker name it for a failure on that tensor.",
        ),
        "",
        *table(
            [phrase(env, h) for h in ("Rule", "Statement", "The drafts' label for it", "Formerly")],
            rows,
            widths="1 5 3 1",
            classes="sonnx-general",
        ),
    ]


SAMPLE_ATTRIBUTES = {"float": "1.0", "int": "1", "string": "''", "ints": "(1,)", "floats": "(1.0,)"}
"""An attribute of each kind in a call shown on a page without examples (a tensor's is built by type)."""


def registry_call(op: Operator) -> str:
    """A call of ``op`` in its first type on the values 1, 2, 3 (a scalar: 1), for a page without examples."""
    names = op.input_names(len(op.inputs))
    lines = [">>> import numpy as np, ml_dtypes, sonnx_spec"]
    for name, tensor in zip(names, op.inputs, strict=True):
        value = 1 if tensor.rank == 0 else [1, 2, 3]
        lines.append(f">>> {name} = {python_value(value, op.dtypes(tensor.type)[0])}")
    for a in op.attributes:
        value = SAMPLE_ATTRIBUTES.get(a.kind) or python_value(1, op.dtypes(a.type or "")[0])
        lines.append(f">>> {a.name} = {value}")
    call = ", ".join(names + [f"{a.name}={a.name}" for a in op.attributes])
    lines.append(f">>> sonnx_spec.{op.name}({call})")
    return "\n".join(lines)


class OperatorDirective(SiteDirective):
    """What the operator is, under its page's title."""

    option_spec: ClassVar = {"operator": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        op = data.operators[self.operator_name()]
        sonnx_domain(self.env).note_operator(op.onnx, self.env.docname)
        env = self.env
        families = ", ".join(
            f"[{phrase(env, FAMILY_TITLES[f])}](#{op.name}-{f}) ({family_types(op, f)})" for f in op.families
        )
        summary = from_docstring(operator_text(env, op.name, "summary", op.summary))
        lines = [
            f"**{summary}**",
            "",
            phrase(
                env,
                "Based on ONNX [{onnx}]({url}); see [Relation to ONNX](#{name}-relation-to-onnx). "
                "Specified per type family: {families}.",
                onnx=f"{op.onnx}-{op.version}",
                url=onnx_url(op),
                name=op.name,
                families=families,
            ),
            "",
            "$$",
            signature_math(op),
            "$$",
            "",
            *signature_list(op, env),
            *type_line(op, env),
            *details(phrase(env, "General rules"), general_rules(op, data, env)),
        ]
        return [*self.render(lines), live_marker("scratch", name=op.onnx, python=self.scratch_python(op))]

    def scratch_python(self, op: Operator) -> str:
        """The ``>>>`` Python of the page's first example of ``op``, else a call built from the registry."""
        try:
            pages = examples_in(Path(self.env.doc2path(self.env.docname)), op.name)
            first = next((e for e in pages if e.operator == op.name), None)
        except ExampleError:
            first = None  # the {example} directive reports it, at its line
        return doctest_text(first) if first else registry_call(op)


class FamilyDirective(SiteDirective):
    """The section of one type family, around the page's text for it."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar = {"operator": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        op = data.operators[self.operator_name()]
        family = self.arguments[0]
        if family not in op.families:
            raise self.error(
                f"{op.name} is not specified for the {family!r} family ({', '.join(op.families)})"
            )
        types = family_types(op, family)
        own = [r for r in data.catalogue.of(op.name) if family in r.families and r.kind != "semantics"]
        applying = ", ".join(need(r.id) for r in own)
        env = self.env
        title = phrase(
            env, "{onnx} for the {family} family", onnx=op.onnx, family=phrase(env, FAMILY_TITLES[family])
        )
        lines = [
            f"({op.name}-{family})=",
            f"## {title}",
            "",
            phrase(env, "Types: {types}.", types=types)
            + " "
            + (
                phrase(
                    env,
                    "Rules of {onnx} that apply to them: {applying}, with the general rules.",
                    onnx=op.onnx,
                    applying=applying,
                )
                if own
                else phrase(env, "The general rules apply.")
            ),
            "",
        ]
        return self.render(lines, match_titles=True, then=self.content)


class OperatorTraceabilityDirective(SiteDirective):
    """Every rule of the page to its origin, code, tests and result; and the retired ids."""

    option_spec: ClassVar = {"operator": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        data = self.build_data()
        op = data.operators[self.operator_name()]
        rules = data.catalogue.of(op.name)
        passed = sum(data.tests_of(r.id).result == "pass" for r in rules)
        coded = [r for r in rules if r.kind in ("constraint", "error")]
        named = sum(bool(data.code.get(r.id)) for r in coded)
        env = self.env
        columns = ";".join(
            f'{field} as "{phrase(env, title)}"'
            for field, title in (
                ("id", "Id"),
                ("type_name", "Kind"),
                ("sources", "Origin"),
                ("code", "Code"),
                ("tests", "Tests"),
                ("result", "Result"),
            )
        )
        lines = [
            f"({op.name}-traceability)=",
            "## " + phrase(env, "Traceability"),
            "",
            phrase(
                env,
                "{rules} rules of {onnx}: {passed} proved by passing tests in the run this site was built "
                "from; {named} of the {coded} constraints and error conditions named where the reference "
                "checks them. "
                "The [traceability](../traceability.md) page has every rule.",
                rules=len(rules),
                onnx=op.onnx,
                passed=passed,
                named=named,
                coded=len(coded),
            ),
            "",
            *details(
                phrase(env, "Each rule to its origin, code, tests and result"),
                [
                    "```{needtable}",
                    f":filter: id in {[r.id for r in rules]!r}",
                    f":columns: {columns}",
                    ":style: table",
                    ":class: sonnx-wide",
                    ":sort: order",
                    "```",
                    "",
                ],
                classes="sonnx-trace",
            ),
        ]
        retired = [r for r in data.catalogue.retired.values() if r.operator == op.name]
        if retired:
            rows = [[f'<span id="{r.id}"></span>`{r.id}`', need(r.successor)] for r in retired]
            lines += [
                phrase(
                    env, "Ids this page used before, and the rules that state them now (old links land here):"
                ),
                "",
                *table(
                    [phrase(env, "Former id"), phrase(env, "Now")],
                    rows,
                    widths="1 1",
                    classes="sonnx-retired",
                ),
            ]
        return self.render(lines, match_titles=True)


class RelationToOnnxDirective(SiteDirective):
    """ONNX's operator, its version and its names, then the page's prose about what the profile changes."""

    has_content = True
    option_spec: ClassVar = {"operator": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        op = self.build_data().operators[self.operator_name()]
        env = self.env
        renamed = [
            phrase(env, "`{onnx}` is ${name}$", onnx=t.onnx, name=t.name)
            for t in [*op.inputs, *op.outputs]
            if t.onnx != t.name
        ]
        names = (
            phrase(env, "ONNX's names differ: {names}.", names=", ".join(renamed))
            if renamed
            else phrase(env, "The tensors keep ONNX's names.")
        )
        lines = [
            f"({op.name}-relation-to-onnx)=",
            "## " + phrase(env, "Relation to ONNX"),
            "",
            phrase(
                env,
                "{onnx} is based on ONNX [{version}]({url}).",
                onnx=op.onnx,
                version=f"{op.onnx}-{op.version}",
                url=onnx_url(op),
            )
            + " "
            + names,
            "",
        ]
        return self.render(lines, match_titles=True, then=self.content)


def setup(app: Sphinx) -> dict:
    add_directive(app, "operator", OperatorDirective)
    add_directive(app, "family", FamilyDirective)
    add_directive(app, "operator-traceability", OperatorTraceabilityDirective)
    add_directive(app, "relation-to-onnx", RelationToOnnxDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
