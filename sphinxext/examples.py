"""Examples that prove themselves.

An example's numbers are written once, in the page::

    :::{example} Values above M are replaced by M
    :types: float16 float32 float64 bfloat16
    X = [-6.3, 9.2, 35.5]
    L = 0.5
    M = 10.1
    Y = [0.5, 9.2, 10.1]
    :::

The directive runs the reference operator on them for every listed type while
the page is read: a result that differs from ``Y`` bit for bit (NaN aside), or
an error other than the one named by ``error = CLIP_E1``, is a build error
naming the page, the line and the example. The reader sees the same numbers as
math, and as ``>>>`` Python that the doctest builder runs again and the copy
button copies without prompts.

Values: numbers, ``nan``, ``inf``, ``-inf``, ``-0.0``, nested lists, ``None``
(an omitted input). Inputs are named after the operator's signature: clip X, L,
M; abs X; max X0, X1, …
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

import numpy as np
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import sonnx_spec
from sonnx_spec import TYPES, SonnxError
from sonnx_spec.compare import same_result
from sonnx_spec.ops import OPERATORS, input_names

logger = logging.getLogger(__name__)

Value = float | int | list | None
TYPE_NAMES = {t.name: t for t in TYPES}
LINE = re.compile(r"^(?P<name>[A-Za-z]\w*)\s*=\s*(?P<value>.+)$")


class ExampleError(ValueError):
    """The example is malformed (not a wrong result: that is a mismatch)."""


@dataclass
class Example:
    title: str
    operator: str
    types: list[np.dtype]
    inputs: list[tuple[str, Value]]
    expected: Value = None
    error: str | None = None

    def arguments(self, dtype: np.dtype) -> list[np.ndarray | np.generic | None]:
        return [to_numpy(value, dtype) for _, value in self.inputs]


def parse_value(text: str) -> Value:
    """A literal of the example language (see the module docstring)."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ExampleError(f"cannot read {text!r}: {exc.msg}") from None
    return _literal(tree, text)


def _literal(node: ast.expr, text: str) -> Value:
    if isinstance(node, ast.List):
        return [_literal(e, text) for e in node.elts]
    if isinstance(node, ast.Constant) and (node.value is None or type(node.value) in (int, float)):
        return node.value
    if isinstance(node, ast.Name) and node.id in ("nan", "inf"):
        return math.nan if node.id == "nan" else math.inf
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand, text)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner
    raise ExampleError(f"{text!r}: only numbers, nan, inf, lists and None are allowed")


def parse_example(title: str, operator: str, types: list[str], body: list[str]) -> Example:
    unknown = [t for t in types if t not in TYPE_NAMES]
    if unknown or not types:
        raise ExampleError(f":types: must list SONNX types, got {' '.join(types) or 'nothing'}")
    example = Example(title, operator, [TYPE_NAMES[t] for t in types], [])
    for line in filter(None, (raw.strip() for raw in body)):
        match = LINE.match(line)
        if not match:
            raise ExampleError(f"expected `NAME = value`, got {line!r}")
        name, text = match["name"], match["value"]
        if name == "Y":
            example.expected = parse_value(text)
        elif name == "error":
            if text not in sonnx_spec.requirements():
                raise ExampleError(f"error = {text}: not a requirement id")
            example.error = text
        else:
            example.inputs.append((name, parse_value(text)))
    names = [name for name, _ in example.inputs]
    wanted = input_names(operator, len(names))
    if names != wanted:
        raise ExampleError(
            f"{operator} takes inputs {', '.join(wanted)}; the example gives {', '.join(names)}"
        )
    if (example.error is None) == (example.expected is None):
        raise ExampleError("give either `Y = …` or `error = <requirement id>`")
    return example


def to_numpy(value: Value, dtype: np.dtype) -> np.ndarray | np.generic | None:
    """The example value as a numpy array (list) or scalar of ``dtype``; exact for integers."""
    if value is None:
        return None
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        for v in np.ravel(np.array(value, dtype=object)):
            if not isinstance(v, int) or not info.min <= v <= info.max:
                raise ExampleError(f"{v!r} is not a value of {dtype.name}")
    array = np.array(value, dtype=dtype)
    return array if isinstance(value, list) else array[()]


def check(example: Example) -> list[str]:
    """Run the example for each of its types; the mismatches, described."""
    operator = OPERATORS[example.operator]
    problems = []
    for dtype in example.types:
        args = example.arguments(dtype)
        try:
            result = operator(*args)
        except SonnxError as error:
            if error.req_id != example.error:
                problems.append(
                    f"{dtype.name}: refused with {error.req_id} ({error.problem}), "
                    f"the example says {'error = ' + example.error if example.error else 'Y'}"
                )
            continue
        if example.error:
            problems.append(f"{dtype.name}: gave {result!r}, the example says error = {example.error}")
        elif not same_result(result, np.asarray(to_numpy(example.expected, dtype))):
            problems.append(f"{dtype.name}: gave {result!r}, the example says Y = {example.expected!r}")
    return problems


# -- what the reader sees -------------------------------------------------------


def _has_negative_zero(value: Value) -> bool:
    if isinstance(value, list):
        return any(_has_negative_zero(v) for v in value)
    return isinstance(value, float) and value == 0 and math.copysign(1, value) < 0


def latex_value(value: Value, signed_zero: bool) -> str:
    if isinstance(value, list):
        rows = value if value and isinstance(value[0], list) else [value]
        if any(isinstance(v, list) for row in rows for v in row):
            raise ExampleError("examples show tensors of rank 2 at most")
        body = r" \\ ".join(" & ".join(latex_value(v, signed_zero) for v in row) for row in rows)
        return rf"\begin{{bmatrix}} {body} \end{{bmatrix}}"
    if value is None:
        return r"\text{(not given)}"
    if isinstance(value, float):
        if math.isnan(value):
            return r"\mathrm{NaN}"
        if math.isinf(value):
            return r"+\infty" if value > 0 else r"-\infty"
        if value == 0:
            return ("-0" if math.copysign(1, value) < 0 else "+0") if signed_zero else "0"
    mantissa, _, exponent = repr(value).partition("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}" if exponent else mantissa


def latex(example: Example) -> str:
    signed_zero = any(_has_negative_zero(v) for _, v in example.inputs) or _has_negative_zero(
        example.expected
    )
    name = {f"X{m}": f"X_{{{m}}}" for m in range(len(example.inputs))}
    rows = [rf"{name.get(n, n)} &= {latex_value(v, signed_zero)}" for n, v in example.inputs]
    if example.error is None:
        rows.append(rf"Y &= {latex_value(example.expected, signed_zero)}")
    return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"


def python_value(value: Value, dtype: np.dtype) -> str:
    if value is None:
        return "None"
    type_name = "ml_dtypes.bfloat16" if dtype.name == "bfloat16" else f"np.{dtype.name}"
    text = repr(value).replace("nan", "np.nan").replace("inf", "np.inf")
    return f"np.array({text}, dtype={type_name})" if isinstance(value, list) else f"{type_name}({text})"


def shown_type(example: Example) -> np.dtype:
    """The type the Python shows: float32 or int32 when checked, as readers use most."""
    names = [t.name for t in example.types]
    preferred = next((n for n in ("float32", "int32") if n in names), names[0])
    return TYPE_NAMES[preferred]


def doctest_text(example: Example) -> str:
    dtype = shown_type(example)
    modules = "np, ml_dtypes, sonnx_spec" if dtype.name == "bfloat16" else "np, sonnx_spec"
    lines = [f">>> import numpy as {modules}"]
    for name, value in example.inputs:
        lines.append(f">>> {name} = {python_value(value, dtype)}")
    lines.append(f">>> sonnx_spec.{example.operator}({', '.join(n for n, _ in example.inputs)})")
    if example.error:
        try:
            OPERATORS[example.operator](*example.arguments(dtype))
        except SonnxError as error:
            lines += ["Traceback (most recent call last):", "  ...", f"sonnx_spec.errors.SonnxError: {error}"]
    else:
        lines.append(repr(np.asarray(to_numpy(example.expected, dtype))))
    return "\n".join(lines)


class ExampleDirective(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {"types": directives.unchanged_required, "operator": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        operator = self.options.get("operator", self.env.docname)
        if operator not in OPERATORS:
            raise self.error("give :operator: (clip, max or abs) outside the operator pages")
        try:
            example = parse_example(
                self.arguments[0], operator, self.options.get("types", "").split(), self.content
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
        box = nodes.container(classes=["sonnx-example"])
        box += nodes.paragraph("", "", nodes.strong(text=f"Example: {example.title}"))
        box += nodes.math_block(
            math_text, math_text, docname=self.env.docname, number=None, label=None, nowrap=False
        )
        if example.error:
            box += self.parse_text_to_nodes(f"The input is refused: {{need}}`{example.error}`.")
        types = ", ".join(t.name for t in example.types)
        box += nodes.paragraph(
            "",
            f"Checked during the build for {types}; as Python ({shown_type(example).name}):",
            classes=["sonnx-example-types"],
        )
        box += nodes.doctest_block(code, code)
        return box


def setup(app: Sphinx) -> dict:
    app.add_directive("example", ExampleDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
