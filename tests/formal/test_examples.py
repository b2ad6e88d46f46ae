"""The pages' examples as Why3 goals (formal/harness/examples.py): the text generated, and one run of Why3
showing that a wrong expected value is refuted, not merely left unproved."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sonnx_spec import operators
from sonnx_spec.pages.example_language import TYPE_NAMES, ExampleError, check, parse_example
from sonnx_spec.registry import Attribute, Tensor, registered

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # formal/ is tooling beside the package, not installed
examples = importlib.import_module("formal.harness.examples")

IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
ALL_INSTANCES = {"Int", *examples.TYPE_NAMES.values()}  # a stub formal file with every instance


def cases(op: str, types: list[str], *lines: str, number: int = 1):
    example = parse_example("hand-written", op, types, list(lines), "page.md:7")
    return examples.example_cases(example, number)


def modules(op: str, types: list[str], *lines: str, instances=("Int", "Float32"), number: int = 1):
    names = {examples.camel(op) + suffix for suffix in instances}
    return examples.modules_for(op, cases(op, types, *lines, number=number), names)


def goal_body(text: str, goal: str) -> str:
    """The formula of goal ``goal`` in a module's text, on one line."""
    match = re.search(rf"goal {goal}:(.*?)(?=\n\n|\nend)", text, re.DOTALL)
    assert match, f"no goal {goal} in\n{text}"
    return " ".join(match[1].split())


def test_an_integer_example_gives_one_module_with_both_goals():
    [module] = modules("clip", ["int8"], "X = [-6, 9, 35]", "L = 0", "M = 10", "Y = [0, 9, 10]", number=4)
    assert module.name == "ClipEx4Int8"
    assert module.text == (
        "module ClipEx4Int8\n"
        "  (* hand-written: page.md:7, int8 *)\n"
        "  use int.Int\n"
        "  use clip.ClipInt\n"
        "\n"
        "  goal clip_ex4_int8_holds:\n"
        "    (clip_element (-6) 0 10) = 0 /\\\n"
        "    (clip_element 9 0 10) = 9 /\\\n"
        "    (clip_element 35 0 10) = 10\n"
        "\n"
        "  goal clip_ex4_int8_refuted: not (\n"
        "    (clip_element (-6) 0 10) = 0 /\\\n"
        "    (clip_element 9 0 10) = 9 /\\\n"
        "    (clip_element 35 0 10) = 10)\n"
        "end\n"
    )
    [check] = module.checks
    assert check == examples.ExampleCheck(
        "clip_ex4_int8_holds", "clip_ex4_int8_refuted", "hand-written", "int8", "page.md:7"
    )


def test_ieee_values_are_exact_literals_of_the_format():
    [module] = modules(
        "clip", ["float32"], "X = [nan, -0.0, 0.1, -inf]", "L = -1.5", "M = inf", "Y = [nan, 0.0, 0.1, -1.5]"
    )
    nan, inf, zero = "(F.div F.RNE (0.0:F.t) (0.0:F.t))", "(F.div F.RNE (1.0:F.t) (0.0:F.t))", "(0.0:F.t)"
    tenth = "(0x1.99999ap-4:F.t)"  # 0.1 rounded to nearest float32: 13421773 / 2^27
    assert "  use ieee_float.Float32 as F\n  use clip.ClipFloat32\n" in module.text
    assert goal_body(module.text, "clip_ex1_float32_holds") == (
        f"F.is_nan (clip_element {nan} (-0x1.8p0:F.t) {inf}) /\\ "
        f"(clip_element (F.neg {zero}) (-0x1.8p0:F.t) {inf}) = {zero} /\\ "
        f"(clip_element {tenth} (-0x1.8p0:F.t) {inf}) = {tenth} /\\ "
        f"(clip_element (F.neg {inf}) (-0x1.8p0:F.t) {inf}) = (-0x1.8p0:F.t)"
    )


@pytest.mark.parametrize(
    ("value", "dtype", "literal"),
    [
        (2.0**-24, "float16", "(0x1p-24:F.t)"),  # the least subnormal
        (65504.0, "float16", "(0x1.ffcp15:F.t)"),
        (-(2.0**-133), "bfloat16", "(-0x1p-133:F.t)"),
        (3.3895313892515355e38, "bfloat16", "(0x1.fep127:F.t)"),
        (5e-324, "float64", "(0x1p-1074:F.t)"),
        (1 / 3, "float64", "(0x1.5555555555555p-2:F.t)"),
        (-0.0, "float64", "(F.neg (0.0:F.t))"),
    ],
)
def test_float_literals(value, dtype, literal):
    dtype = TYPE_NAMES[dtype]
    assert examples._literal(np.array(value, dtype)[()], dtype) == literal


def test_integer_literals_are_exact_at_the_extremes():
    uint64, int64 = np.dtype("uint64"), np.dtype("int64")
    assert examples._literal(np.uint64(2**64 - 1), uint64) == "18446744073709551615"
    assert examples._literal(np.int64(-(2**63)), int64) == "(-9223372036854775808)"


def test_the_instance_of_a_type_or_the_integers():
    available = {"AbsInt8", "AbsInt", "AbsFloat16", "ClipInt"}
    assert examples.instance_for("abs", np.dtype("int8"), available) == "AbsInt8"
    assert examples.instance_for("abs", np.dtype("uint8"), available) == "AbsInt"
    assert examples.instance_for("clip", np.dtype("int64"), available) == "ClipInt"
    with pytest.raises(LookupError, match="ClipFloat16"):
        examples.instance_for("clip", TYPE_NAMES["float16"], available)


def test_a_variadic_input_is_folded_over_broadcast_elements():
    [module] = modules(
        "max", ["int16"], "X0 = [[1], [2]]", "X1 = [10, 0]", "X2 = 5", "Y = [[10, 5], [10, 5]]"
    )
    assert goal_body(module.text, "max_ex1_int16_holds") == (
        "(max_element (max_element 1 10) 5) = 10 /\\ (max_element (max_element 1 0) 5) = 5 /\\ "
        "(max_element (max_element 2 10) 5) = 10 /\\ (max_element (max_element 2 0) 5) = 5"
    )


def test_a_comparison_states_its_bool_result_as_a_formula():
    [module] = modules("less", ["int32"], "A = [1, 3]", "B = [2, 2]", "C = [True, False]")
    assert goal_body(module.text, "less_ex1_int32_holds") == "(less_element 1 2) /\\ not (less_element 3 2)"


def test_a_bool_condition_is_a_bool_literal():
    [module] = modules(
        "where", ["float32"], "C = [True, False]", "X = [1.0, 2.0]", "Y = [3.0, 4.0]", "Z = [1.0, 4.0]"
    )
    assert goal_body(module.text, "where_ex1_float32_holds") == (
        "(where_element True (0x1p0:F.t) (0x1.8p1:F.t)) = (0x1p0:F.t) /\\ "
        "(where_element False (0x1p1:F.t) (0x1p2:F.t)) = (0x1p2:F.t)"
    )


def test_a_tensor_attribute_without_inputs():
    [module] = modules("constant", ["uint8"], "value = [[1, 2]]", "C = [[1, 2]]")
    assert "  use constant_spec.ConstantInt\n" in module.text  # `constant` is a Why3 keyword: a copy
    assert goal_body(module.text, "constant_ex1_uint8_holds") == (
        "(constant_element 1) = 1 /\\ (constant_element 2) = 2"
    )


def test_a_float_attribute_follows_the_inputs_in_the_instance_type():
    [module] = modules(
        "leaky_relu",
        ["float16"],
        "X = [-2.0, 3.0]",
        "alpha = 0.125",
        "Y = [-0.25, 3.0]",
        instances=("Float16",),
    )
    alpha = "(0x1p-3:F.t)"  # 0.125: a float32 that float16 holds
    assert "  use ieee.Float16 as F\n  use leaky_relu.LeakyReluFloat16\n" in module.text
    assert goal_body(module.text, "leaky_relu_ex1_float16_holds") == (
        f"(leaky_relu_element (-0x1p1:F.t) {alpha}) = (-0x1p-2:F.t) /\\ "
        f"(leaky_relu_element (0x1.8p1:F.t) {alpha}) = (0x1.8p1:F.t)"
    )


def test_a_float32_attribute_that_the_type_cannot_hold_is_outside_the_model():
    case = cases("leaky_relu", ["float16"], "X = [-2.0]", "alpha = 0.1", "Y = [-0.2]")
    assert examples.modules_for("leaky_relu", case, ("LeakyReluFloat16",)) == []


def test_the_special_values_table_is_checked_with_the_values_its_rows_state():
    mlw = examples.instance_modules("clip")
    checks = {
        (c.title, c.dtype): m
        for m in examples.modules_for("clip", examples.page_cases("clip")[0], mlw)
        for c in m.checks
    }
    module = checks[("special values, float family: NaN, −1, +1", "bfloat16")]  # CLIP_S3: NaN stays NaN
    assert "  use ieee.BFloat16 as F\n  use clip.ClipBFloat16\n" in module.text
    assert "F.is_nan (clip_element (F.div F.RNE (0.0:F.t) (0.0:F.t)) (-0x1p0:F.t) (0x1p0:F.t))" in module.text
    module = checks[("special values, int family: max, −1, 0", "int64")]  # CLIP_S1: above M gives M
    assert "(clip_element 9223372036854775807 (-1) 0) = 0" in module.text
    assert ("special values, int family: max, −1, 0", "uint8") not in checks  # −1 is no uint8: no call
    assert "sonnx_spec/requirements/clip.toml:" in module.text  # the row's line, where the table is written


@pytest.mark.parametrize("op", list(operators()))
def test_every_page_gives_valid_unique_names_and_the_same_text_twice(op):
    found, refused = examples.page_cases(op)
    fresh, fresh_refused = examples.page_cases.__wrapped__(op)  # read again, not from the cache
    instances = {examples.camel(op) + suffix for suffix in ALL_INSTANCES}
    first, again = (examples.modules_for(op, c, instances) for c in (found, fresh))
    assert [m.text for m in first] == [m.text for m in again] and refused == fresh_refused
    names = [m.name for m in first]
    goals = [goal for m in first for c in m.checks for goal in (c.holds, c.refuted)]
    # none where its .mlw declares every type's examples outside the model (Conv's: floats only)
    every_type_outside = {t.name for t in operators()[op].numeric_types} <= set(examples.declared_outside(op))
    assert (first or every_type_outside) and all(IDENTIFIER.match(n) for n in names + goals)
    assert len(set(names)) == len(names) and len(set(goals)) == len(goals)
    page = ROOT / "docs" / "operators" / f"{op}.md"
    assert refused >= sum(len(e.types) for e in examples.examples_in(page, op) if e.error)
    assert examples.skipped_refusals(op) == refused


# -- one run of Why3 -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def why3_config(why3_tools) -> Path:
    """The harness's Why3 configuration (a private copy): Z3 and cvc5, with the IEEE mapping."""
    return why3_tools.config


def prove(config: Path, folder: Path, text: str, prover: str, goals: list[str]) -> dict[str, bool]:
    """Each goal: proved (every subgoal of split_vc valid) or not."""
    source = folder / "examples.mlw"  # a folder per test: the tests run in parallel
    source.write_text(text)
    selection = [arg for goal in goals for arg in ("-G", goal)]
    library = ["-L", str(ROOT / "formal/lib"), "-L", str(ROOT / "formal")]
    # 10 s per call: a proof returns as soon as it is found; 3 s failed cvc5's float16 one on a busy machine
    command = ["why3", "-C", str(config), "prove", "-a", "split_vc", "-P", prover, "-t", "10", *library]
    run = subprocess.run(
        [*command, str(source), "-T", "Example", *selection],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    results = re.findall(r"Goal (\w+)\.\nProver result is: (\w+)", run.stdout)
    assert results, run.stderr
    return {goal: all(status == "Valid" for g, status in results if g == goal) for goal in goals}


@pytest.mark.parametrize("prover", ["z3", "cvc5"])
@pytest.mark.parametrize("dtype", ["int8", "float16"])
def test_why3_proves_the_page_value_and_refutes_a_wrong_one(why3_config, tmp_path, prover, dtype):
    instances = examples.instance_modules("clip")
    right, wrong = (
        examples.modules_for(
            "clip", cases("clip", [dtype], "X = [-6, 9]", "L = 0", "M = 5", f"Y = [0, {y}]"), instances
        )[0]
        for y in (5, 4)
    )
    rename = lambda module: module.text.replace(module.name, "Example", 1)  # noqa: E731
    holds, refuted = right.checks[0].holds, right.checks[0].refuted
    assert prove(why3_config, tmp_path, rename(right), prover, [holds]) == {holds: True}
    # The negation of a true example is not tried: it fails only by the prover's giving up (see examples.py)
    assert prove(why3_config, tmp_path, rename(wrong), prover, [holds, refuted]) == {
        holds: False,
        refuted: True,
    }


def test_a_data_movement_example_states_the_dims_and_where_each_element_comes_from():
    """Reshape's spec says where an element comes from (reshape_source): each fact reads the data input's
    element list at the row-major position of that index; the shape and int attributes are integer lists."""
    assert examples.tensor_level("reshape") and not examples.tensor_level("clip")
    [module] = modules(
        "reshape", ["int8"], "X = [[1, 2], [3, -4]]", "S = [4]", "allowzero = 0", "Y = [1, 2, 3, -4]"
    )
    assert "  use tensor.Shape\n  use tensor.RowMajor\n" in module.text
    assert 'meta "compute_max_steps"' in module.text
    body = goal_body(module.text, "reshape_ex1_int8_holds")
    given = "(Cons 2 (Cons 2 Nil)) (Cons 4 Nil) 0"
    elements = "(ECons 1 (ECons 2 (ECons 3 (ECons (-4) ENil))))"
    facts = body.split(" /\\ ")
    assert facts[0] == f"reshape_dims {given} = (Cons 4 Nil)"
    assert facts[4] == (
        f"(nth (offset (reshape_source {given} (Cons 3 Nil)) (Cons 2 (Cons 2 Nil))) {elements}) = (-4)"
    )
    assert len(facts) == 5


def test_a_float_attribute_of_an_operator_stated_on_indices_is_an_exact_real_literal():
    """Gemm's alpha and beta follow the inputs' dimensions as reals (their float32 values, exactly), then its
    int attributes; a negative or non-finite float is outside the model."""
    lines = ["A = [[2, 3]]", "B = [[4], [5]]", "C = [[7]]", "trans_a = 0", "trans_b = 0", "Y = [[30]]"]
    [module] = modules("gemm", ["int32"], *lines[:3], "alpha_ab = 1.0", "beta_c = 1.0", *lines[3:])
    body = goal_body(module.text, "gemm_ex1_int32_holds")
    given = "(Cons 1 (Cons 2 Nil)) (Cons 2 (Cons 1 Nil)) (Cons 1 (Cons 1 Nil)) 1.0 1.0 0 0"
    assert body.split(" /\\ ")[0] == f"gemm_dims {given} = (Cons 1 (Cons 1 Nil))"
    assert examples._real(0.1) == "0.1000000000000000055511151231257827021181583404541015625"
    assert examples._real(np.float32(0.1).item()) == "0.100000001490116119384765625"
    assert examples._real(2.0) == "2.0" and examples._real(0.0) == "0.0"
    for outside in (-1.0, -0.0, float("inf"), float("nan")):
        with pytest.raises(examples.OutsideModel):
            examples._real(outside)


def test_a_data_movement_operator_whose_data_is_a_tensor_attribute():
    """ConstantOfShape has no data input: its value attribute is the data, given by its dimensions in its
    place among the arguments, and its elements are the list each fact reads."""
    assert examples.tensor_level("constant_of_shape")
    [module] = modules("constant_of_shape", ["int16"], "S = [2]", "value = [-3]", "Y = [-3, -3]")
    facts = goal_body(module.text, "constant_of_shape_ex1_int16_holds").split(" /\\ ")
    given = "(Cons 2 Nil) (Cons 1 Nil)"
    assert facts[0] == f"constant_of_shape_dims {given} = (Cons 2 Nil)"
    assert facts[2] == (
        f"(nth (offset (constant_of_shape_source {given} (Cons 1 Nil)) (Cons 1 Nil)) (ECons (-3) ENil))"
        " = (-3)"
    )
    assert len(facts) == 3


def test_a_goal_computed_to_true_leaves_no_task_and_counts_as_proved():
    run = importlib.import_module("formal.harness.example_run")
    [module] = modules("reshape", ["int8"], "X = [1, 2]", "S = [2, 1]", "allowzero = 0", "Y = [[1], [2]]")
    computed = run.transformations("reshape")
    assert computed == ("compute_in_goal", "split_vc") and run.transformations("clip") == ("split_vc",)
    holds = module.checks[0].holds
    assert run.with_computed([module], [], {}, "holds", computed) == {holds: "proved"}
    assert run.with_computed([module], [], {holds: "timeout"}, "holds", computed) == {holds: "timeout"}
    failed = object()  # a run that did not load: no task for another reason
    assert run.with_computed([module], failed, {}, "holds", computed) == {}
    assert run.with_computed([module], [], {}, "holds", ("split_vc",)) == {}


@pytest.mark.parametrize("expected, proved", [("[[1], [2]]", True), ("[[2], [1]]", False)])
def test_why3_computes_a_data_movement_example(why3_config, tmp_path, expected, proved):
    [module] = examples.modules_for(
        "reshape",
        cases("reshape", ["int8"], "X = [1, 2]", "S = [2, 1]", "allowzero = 0", f"Y = {expected}"),
        examples.instance_modules("reshape"),
    )
    text = module.text.replace(module.name, "Example", 1)
    (tmp_path / "example.mlw").write_text(text)
    library = ["-L", str(ROOT / "formal" / "lib"), "-L", str(ROOT / "formal")]
    computed = ["-a", "compute_in_goal", "-a", "split_vc"]
    goal = [str(tmp_path / "example.mlw"), "-T", "Example", "-G", module.checks[0].holds]
    command = ["why3", "prove", "-C", str(why3_config), *library, "-P", "z3", "-t", "5", *computed]
    run = subprocess.run(
        [*command, *goal],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 or "Prover result" in run.stdout, run.stderr
    left = re.findall(r"Prover result is: (\w+)", run.stdout)
    assert (not left or all(s == "Valid" for s in left)) == proved, (run.stdout, run.stderr)


def test_an_example_of_several_outputs_is_a_case_per_output_whose_number_the_functions_take():
    """Split's outputs Y0, Y1: a module each, split_dims and split_source given the output's number last."""
    found = modules(
        "split", ["int8"], "X = [1, 2, 3]", "axis = 0", "num_outputs = 2", "Y0 = [1, 2]", "Y1 = [3]"
    )
    assert [m.name for m in found] == ["SplitEx1Y0Int8", "SplitEx1Y1Int8"]
    facts = goal_body(found[1].text, "split_ex1y1_int8_holds").split(" /\\ ")
    assert facts[0] == "split_dims (Cons 3 Nil) 0 2 1 = (Cons 1 Nil)"
    assert facts[1].startswith("(nth (offset (split_source (Cons 3 Nil) 0 2 1 (Cons 0 Nil)) (Cons 3 Nil))")
    assert len(facts) == 2


def test_an_output_computed_from_shapes_is_stated_as_a_list_of_integers():
    """Shape's spec gives its int64 output as a list (shape_values), from X's dimensions and attributes."""
    assert examples.values_level("shape") and not examples.tensor_level("shape")
    assert not examples.values_level("reshape") and examples.index_level("reshape")
    [module] = modules("shape", ["float32"], "X = [[1.0, 2.0, 3.0]]", "start = -1", "end = 9", "Y = [3]")
    facts = goal_body(module.text, "shape_ex1_float32_holds").split(" /\\ ")
    given = "(Cons 1 (Cons 3 Nil)) (-1) 9"
    assert facts == [f"shape_dims {given} = (Cons 1 Nil)", f"shape_values {given} = (Cons 3 Nil)"]


def test_the_example_language_reads_several_outputs_in_order():
    """A variadic output's lines are Y0, Y1, …: each checked against the reference, in order."""
    example = parse_example(
        "two parts",
        "split",
        ["int16"],
        ["X = [1, 2, 3]", "axis = 0", "num_outputs = 2", "Y0 = [1, 2]", "Y1 = [3]"],
    )
    assert example.output_names == ["Y0", "Y1"] and example.expected == [[1, 2], [3]]
    assert [a.tolist() for a in example.expected_arrays(np.dtype("int16"))] == [[1, 2], [3]]
    assert check(example) == []
    wrong = parse_example(
        "two parts",
        "split",
        ["int16"],
        ["X = [1, 2, 3]", "axis = 0", "num_outputs = 2", "Y0 = [1, 2]", "Y1 = [4]"],
    )
    assert check(wrong) and check(wrong)[0].startswith("int16: gave (array([1, 2], dtype=int16)")
    with pytest.raises(ExampleError, match="split gives outputs Y0, in order"):
        parse_example(
            "out of order", "split", ["int16"], ["X = [1]", "axis = 0", "num_outputs = 1", "Y1 = [1]"]
        )


# -- several data inputs, and an int64 input whose shape matters (formal/README.md, data movement) --------


def stack(*X):
    """The 1-d tensors X0, X1, … one after the other (a test's own Concat along axis 0)."""
    return np.concatenate(X)


def take(X, N, *, axis):
    """X's elements at the indices N along axis (a test's own Gather)."""
    return np.take(X, N, axis=axis)


def padded(X, C):
    """X followed by the one element of C (a test's own Pad by one element)."""
    return np.concatenate([X, C.reshape(1)])


Y = (Tensor("Y", "output", "T"),)
TYPES = {"T": ("int", "float", "bool")}


def case_of(*inputs, expected, dtype="int8", **attributes):
    values = tuple(np.asarray(v, np.int64 if i else dtype) for i, v in inputs)
    return examples.Case("Ex1", "hand-written", "page.md:7", np.dtype(dtype), values, attributes, expected)


def test_several_data_inputs_give_the_source_as_an_input_and_an_index_in_it():
    """A variadic data input is one argument, the shapes of its tensors (broadcast.Broadcast's shapes); the
    source is Cons k i and each fact reads index i of the k-th tensor given, from its own elements."""
    X = (Tensor("X", "inputs", "T", variadic=True),)
    with registered(stack, onnx="Concat", version=13, inputs=X, outputs=Y, types=TYPES):
        case = case_of((0, [1, 2]), (0, [-3]), expected=np.array([1, 2, -3], np.int8))
        facts = examples.tensor_facts("stack", case)
    given = "(SCons (Cons 2 Nil) (SCons (Cons 1 Nil) SNil))"
    assert facts[0] == f"stack_dims {given} = (Cons 3 Nil)"
    choice = (
        "if k = 0 then nth (offset i (Cons 2 Nil)) (ECons 1 (ECons 2 ENil)) "
        "else if k = 1 then nth (offset i (Cons 1 Nil)) (ECons (-3) ENil) else nth 0 ENil"
    )
    fallback = "| Nil -> nth 0 ENil end"
    assert (
        facts[3] == f"(match stack_source {given} (Cons 2 Nil) with Cons k i -> {choice} {fallback}) = (-3)"
    )
    assert len(facts) == 4


def test_two_data_inputs_declared_apart_are_numbered_in_the_registry_order():
    inputs = (Tensor("X", "data", "T"), Tensor("C", "constant_value", "T"))
    with registered(padded, onnx="Pad", version=25, inputs=inputs, outputs=Y, types=TYPES):
        case = case_of((0, [1.5]), (0, 2.0), expected=np.array([1.5, 2.0], np.float32), dtype="float32")
        facts = examples.tensor_facts("padded", case)
    assert facts[0] == "padded_dims (Cons 1 Nil) Nil = (Cons 2 Nil)"  # C's dimensions: a scalar's
    assert facts[2].startswith(
        "(match padded_source (Cons 1 Nil) Nil (Cons 1 Nil) with Cons k i -> if k = 0 "
    )
    assert "else if k = 1 then nth (offset i Nil) (ECons (0x1p1:F.t) ENil) else nth 0 ENil | Nil" in facts[2]


def test_an_int64_input_that_sets_no_shape_gives_its_dimensions_then_its_values():
    """Gather's indices: the output's shape depends on theirs, not only on their values."""
    inputs = (Tensor("X", "data", "T"), Tensor("N", "indices", "int64"))
    axis = (Attribute("axis", "axis", "int"),)
    declaration = dict(onnx="Gather", version=13, inputs=inputs, outputs=Y, types=TYPES, attributes=axis)
    with registered(take, **declaration):
        case = case_of((0, [5, 6, 7]), (1, [[2], [0]]), expected=np.array([[7], [5]], np.int8), axis=0)
        facts = examples.tensor_facts("take", case)
    given = "(Cons 3 Nil) (Cons 2 (Cons 1 Nil)) (Cons 2 (Cons 0 Nil)) 0"
    assert facts[0] == f"take_dims {given} = (Cons 2 (Cons 1 Nil))"
    elements = "(ECons 5 (ECons 6 (ECons 7 ENil)))"
    source = f"take_source {given} (Cons 1 (Cons 0 Nil))"
    assert facts[2] == f"(nth (offset ({source}) (Cons 3 Nil)) {elements}) = 5"


STACK_SPEC = """
module Stack
  use int.Int
  use tensor.Shape
  use broadcast.Broadcast
  clone export tensor.Tensor with type elt = int

  let rec function total (s: shapes) : int
    variant { s }
  = match s with SNil -> 0 | SCons d r -> hd d + total r end

  function stack_dims (s: shapes) : shape = Cons (total s) Nil

  let rec function from (k: int) (s: shapes) (p: int) : index
    variant { s }
  = match s with
    | SNil -> Cons k (Cons p Nil)
    | SCons d r -> if p < hd d then Cons k (Cons p Nil) else from (k + 1) r (p - hd d)
    end

  function stack_source (s: shapes) (i: index) : index = from 0 s (hd i)
end
"""


@pytest.mark.parametrize("expected, proved", [("[1, 2, -3]", True), ("[1, -3, 2]", False)])
def test_why3_computes_an_example_of_several_data_inputs(why3_config, tmp_path, expected, proved):
    X = (Tensor("X", "inputs", "T", variadic=True),)
    with registered(stack, onnx="Concat", version=13, inputs=X, outputs=Y, types=TYPES):
        wanted = np.array(parse_value_list(expected), np.int8)
        facts = examples.tensor_facts("stack", case_of((0, [1, 2]), (0, [-3]), expected=wanted))
    (tmp_path / "stacking.mlw").write_text(STACK_SPEC)
    text = "\n".join(
        [
            "module Example",
            "  use int.Int",
            "  use tensor.Shape",
            "  use tensor.RowMajor",
            "  use broadcast.Broadcast",
            "  use stacking.Stack",
            '  meta "compute_max_steps" 1000000',
            "  goal holds: " + " /\\ ".join(facts),
            "end",
        ]
    )
    (tmp_path / "example.mlw").write_text(text)
    library = ["-L", str(ROOT / "formal" / "lib"), "-L", str(tmp_path)]
    command = ["why3", "prove", "-C", str(why3_config), *library, "-P", "z3", "-t", "5"]
    goal = [str(tmp_path / "example.mlw"), "-T", "Example", "-G", "holds"]
    run = subprocess.run(
        [*command, "-a", "compute_in_goal", "-a", "split_vc", *goal],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 or "Prover result" in run.stdout, run.stderr
    left = re.findall(r"Goal holds\.\nProver result is: (\w+)", run.stdout)
    assert (not left or all(s == "Valid" for s in left)) == proved, (run.stdout, run.stderr)


def parse_value_list(text: str) -> list[int]:
    return [int(v) for v in text.strip("[]").split(",")]


def test_a_bool_element_of_several_data_inputs_is_compared_with_its_value():
    """A bool term chosen by the match is compared with True or False: as a bare formula, split_vc would
    split its if-then-else before compute_in_goal reduces it."""
    X = (Tensor("X", "inputs", "T", variadic=True),)
    with registered(stack, onnx="Concat", version=13, inputs=X, outputs=Y, types=TYPES):
        case = case_of((0, [True]), (0, [False]), expected=np.array([True, False]), dtype="bool")
        facts = examples.tensor_facts("stack", case)
    assert facts[1].endswith("| Nil -> nth 0 ENil end) = True")
    assert facts[2].endswith("| Nil -> nth 0 ENil end) = False")
