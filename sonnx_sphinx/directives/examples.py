"""``{example}``: examples that prove themselves (the language: :mod:`sonnx_spec.pages.example_language`).

The directive runs the reference on the example for every listed type while the
page is read: a result that differs from the stated one bit for bit (NaN aside),
or another refusal than the one stated, is a build error naming the page, the
line and the example. The reader sees the same numbers as math, and as ``>>>``
Python that the doctest builder runs again and the copy button copies. A hidden
marker carries the example's inputs to the live examples (docs/_static/live.js),
which make them editable on pages served by ``nox -s serve``.
"""

from __future__ import annotations

import html
import math
import re
from typing import ClassVar

import numpy as np
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging

from sonnx_spec import SonnxError
from sonnx_spec.pages.example_language import (
    LINE,
    TYPE_NAMES,
    Example,
    ExampleError,
    Value,
    check,
    is_output,
    parse_example,
)

from ..domain import add_directive
from ..i18n import keep_out_of_catalogue, phrase
from ..myst import SiteDirective, need
from .details import TitledBlock

logger = logging.getLogger(__name__)


def _has_negative_zero(value: Value) -> bool:
    if isinstance(value, list):
        return any(_has_negative_zero(v) for v in value)
    return isinstance(value, float) and value == 0 and math.copysign(1, value) < 0


def latex_value(value: Value, signed_zero: bool) -> str:
    if isinstance(value, list):
        if value and isinstance(value[0], list) and value[0] and isinstance(value[0][0], list):
            # rank 3 or more: the list of its sub-tensors along the first axis, each a matrix (or more)
            return r"\left[ " + r",\; ".join(latex_value(v, signed_zero) for v in value) + r" \right]"
        rows = value if value and isinstance(value[0], list) else [value]
        if any(isinstance(v, list) for row in rows for v in row):
            raise ExampleError("a tensor's rows must all have one rank")
        body = r" \\ ".join(" & ".join(latex_value(v, signed_zero) for v in row) for row in rows)
        return rf"\begin{{bmatrix}} {body} \end{{bmatrix}}"
    if value is None:
        return r"\text{(not given)}"
    if isinstance(value, bool):
        return r"\mathrm{true}" if value else r"\mathrm{false}"
    if isinstance(value, float):
        if math.isnan(value):
            return r"\mathrm{NaN}"
        if math.isinf(value):
            return r"+\infty" if value > 0 else r"-\infty"
        if value == 0:
            return ("-0" if math.copysign(1, value) < 0 else "+0") if signed_zero else "0"
    if isinstance(value, str):  # a string attribute (ScatterND's reduction, Pad's mode), in type
        escaped = re.sub(r"([_#$%&{}])", r"\\\1", value)
        return rf"\texttt{{{escaped}}}"
    mantissa, _, exponent = repr(value).partition("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}" if exponent else mantissa


def latex(example: Example) -> str:
    stated = example.stated_outputs() if example.error is None else []
    values = [v for _, v in example.inputs] + list(example.attributes.values()) + [v for _, v in stated]
    signed_zero = any(_has_negative_zero(v) for v in values)
    numbered = [name for name, _ in example.inputs] + [name for name, _ in stated]
    subscript = {n: f"{n.rstrip('0123456789')}_{{{n[len(n.rstrip('0123456789')) :]}}}" for n in numbered}
    subscript = {n: s for n, s in subscript.items() if not s.endswith("_{}")}
    rows = [rf"{subscript.get(n, n)} &= {latex_value(v, signed_zero)}" for n, v in example.inputs]
    rows += [rf"\mathit{{{n}}} &= {latex_value(v, signed_zero)}" for n, v in example.attributes.items()]
    rows += [rf"{subscript.get(n, n)} &= {latex_value(v, signed_zero)}" for n, v in stated]
    return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"


def python_value(value: Value, dtype: np.dtype | None) -> str:
    if value is None:
        return "None"
    text = repr(value).replace("nan", "np.nan").replace("inf", "np.inf")
    if dtype is None:  # a float attribute
        return text
    type_name = "ml_dtypes.bfloat16" if dtype.name == "bfloat16" else f"np.{dtype.name}"
    return f"np.array({text}, dtype={type_name})" if isinstance(value, list) else f"{type_name}({text})"


def shown_type(example: Example) -> np.dtype:
    """The type the Python shows: float32 or int32 when checked, as readers use most."""
    names = [t.name for t in example.types]
    preferred = next((n for n in ("float32", "int32") if n in names), names[0])
    return TYPE_NAMES[preferred]


def doctest_text(example: Example) -> str:
    dtype = shown_type(example)
    args, kwargs = example.arguments(dtype)
    uses_bfloat16 = any(getattr(a, "dtype", None) == np.dtype("bfloat16") for a in [*args, *kwargs.values()])
    lines = [f">>> import numpy as np, {'ml_dtypes, ' if uses_bfloat16 else ''}sonnx_spec"]
    for (name, value), arg in zip(example.inputs, args, strict=True):
        lines.append(f">>> {name} = {python_value(value, None if arg is None else arg.dtype)}")
    keywords = []
    for name, value in example.attributes.items():
        arg = kwargs[name]
        lines.append(f">>> {name} = {python_value(value, getattr(arg, 'dtype', None))}")
        keywords.append(f"{name}={name}")
    call = ", ".join([n for n, _ in example.inputs] + keywords)
    lines.append(f">>> sonnx_spec.{example.operator}({call})")
    if example.error:
        try:
            example.spec.function(*args, **kwargs)
        except SonnxError as error:
            lines += ["Traceback (most recent call last):", "  ...", f"sonnx_spec.errors.SonnxError: {error}"]
    else:
        expected = example.expected_arrays(dtype)
        shown = repr(expected if example.spec.returns_tuple else expected[0])  # several: a tuple of arrays
        # (rank 3 or more: blank lines between its matrices)
        lines += [line or "<BLANKLINE>" for line in shown.splitlines()]
    return "\n".join(lines)


def live_marker(kind: str, **data: str) -> nodes.raw:
    """A hidden ``div.sonnx-live-<kind>``; only the live examples read its data attributes."""
    attributes = "".join(f' data-{name}="{html.escape(value)}"' for name, value in data.items())
    return nodes.raw("", f'<div class="sonnx-live-{kind}" hidden{attributes}></div>', format="html")


def live_inputs(example: Example, body: list[str]) -> nodes.raw:
    """The example's input and attribute lines as the page writes them, and the types it may be run for."""
    op = example.spec
    lines = [
        line.strip()
        for line in body
        if (m := LINE.match(line.strip())) and m["name"] != "error" and not is_output(op, m["name"])
    ]
    return live_marker(
        "example",
        operator=example.operator,
        types=" ".join(t.name for t in op.dtypes(op.main_type)),
        type=shown_type(example).name,
        inputs="\n".join(lines),
    )


class ExampleDirective(SiteDirective, TitledBlock):
    option_spec: ClassVar = {"types": directives.unchanged_required, "operator": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        operator = self.operator_name()
        try:
            example = parse_example(
                self.arguments[0],
                operator,
                self.options.get("types", "").split(),
                list(self.content),
                f"{self.env.docname}:{self.lineno}",
            )
            problems = check(example)
            math_text, code = latex(example), doctest_text(example)
        except ExampleError as exc:
            raise self.error(f"example {self.arguments[0]!r}: {exc}") from None
        for problem in problems:
            logger.warning(
                "example %r does not hold: %s",
                example.title,
                problem,
                location=(self.env.docname, self.lineno),
                type="sonnx",
                subtype="example",
            )
        return [self._render(example, math_text, code)]

    def _render(self, example: Example, math_text: str, code: str) -> nodes.Node:
        # The numbers as math beside the same call as Python (one under the other on a narrow screen).
        box = nodes.container(classes=["sonnx-example"])
        # The title is the page's words: Sphinx's catalogue of the page translates it (the source and line
        # make it a message; the Markdown is what a translation is parsed as).
        title = f"Example: {example.title}"
        heading = nodes.paragraph(f"**{title}**", "", nodes.strong(text=title))
        heading.source, heading.line = self.env.doc2path(self.env.docname), self.lineno
        box += heading
        body = nodes.container(classes=["sonnx-example-body"])
        numbers = nodes.container(classes=["sonnx-example-math"])
        numbers += nodes.math_block(
            math_text, math_text, docname=self.env.docname, number=None, label=None, nowrap=False
        )
        numbers += live_inputs(example, list(self.content))
        if example.error:
            refused = phrase(self.env, "The input is refused: {rule}.", rule=need(example.error))
            numbers += self.parse_text_to_nodes(refused)
            keep_out_of_catalogue(numbers.children[-1:], None)
        python = nodes.container(classes=["sonnx-example-code"])
        types = ", ".join(t.name for t in example.types)
        python += nodes.paragraph(
            "",
            phrase(
                self.env,
                "Checked during the build for {types}; as Python ({type}):",
                types=types,
                type=shown_type(example).name,
            ),
            classes=["sonnx-example-types"],
        )
        python += nodes.doctest_block(code, code)
        body += [numbers, python]
        box += body
        return box


def setup(app: Sphinx) -> dict:
    add_directive(app, "example", ExampleDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
