"""The reference against every row of every operator's special-values table (``[[special]]`` in its
rules file): the rows are the oracle, written from the drafts and IEEE 754; and the rules of the data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sonnx_spec.pages.special_values import SpecialValuesError, check_complete, rows_in, special_rows

CELLS = [
    pytest.param(
        row,
        dtype,
        id=f"{row.operator}-{'-'.join(row.inputs) or 'value'}-{dtype.name}",
        marks=pytest.mark.req(row.rule),
    )
    for rows in special_rows().values()
    for row in rows
    for dtype in row.types
]


@pytest.mark.parametrize(("row", "dtype"), CELLS)
def test_the_reference_gives_each_row(row, dtype: np.dtype) -> None:
    assert row.check(dtype) is None, row.source


def test_every_operator_with_inputs_or_a_tensor_attribute_has_a_table() -> None:
    from sonnx_spec import operators

    assert set(special_rows()) == set(operators())
    assert all(special_rows().values())


def rows(text: str, operator: str = "abs") -> list:
    return rows_in(operator, Path(f"{operator}.toml"), text)


def test_a_wrong_row_is_reported_with_what_the_reference_gives() -> None:
    [row] = rows('[[special]]\ninputs = ["−0"]\ntypes = ["float32"]\noutput = "−0"\nrule = "ABS_S2"\n')
    assert row.check(np.dtype("float32")) == "float32: the reference gives +0, the row says −0"


def test_a_refusal_the_reference_does_not_make_is_reported() -> None:
    [row] = rows('[[special]]\ninputs = ["max"]\ntypes = ["int8"]\noutput = "refused"\nrule = "ABS_E1"\n')
    assert row.check(np.dtype("int8")) == "int8: the reference gives 127, the row says refused (ABS_E1)"


def test_a_row_holds_for_the_types_that_have_its_values() -> None:
    [row] = rows('[[special]]\ninputs = ["−1"]\ntypes = "int"\noutput = "1"\nrule = "ABS_S1"\n')
    assert [t.name for t in row.types] == ["int8", "int16", "int32", "int64"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'inputs = ["−0"]\ntypes = "float"\noutput = "+0"\nrule = "ABS_E1"',
            "a refused row cites an error rule",
        ),
        (
            'inputs = ["−0"]\ntypes = "float"\noutput = "refused"\nrule = "ABS_S2"',
            "a refused row cites an error rule",
        ),
        (
            'inputs = ["minus zero"]\ntypes = "float"\noutput = "+0"\nrule = "ABS_S2"',
            "names no special value",
        ),
        ('inputs = ["−0"]\ntypes = "floats"\noutput = "+0"\nrule = "ABS_S2"', "types = 'floats'"),
        ('inputs = ["−0"]\ntypes = "float"\noutput = "+0"\nrule = "ABS_S9"', "not a rule id"),
        ('inputs = ["−0", "+0"]\ntypes = "float"\noutput = "+0"\nrule = "ABS_S2"', "takes inputs X"),
        ('inputs = ["−0"]\ntypes = "float"\noutput = "+0"', "missing ['rule']"),
        ('inputs = ["+1"]\ntypes = "float"\noutput = "one"\nrule = "ABS_S1"', "output 'one'"),
    ],
)
def test_a_malformed_row_is_refused_at_its_line(body: str, message: str) -> None:
    text = "# a comment\n\n[[special]]\n" + body + "\n"
    with pytest.raises(SpecialValuesError, match=r"^abs\.toml:3: ") as error:
        rows(text)
    assert message in str(error.value)


ZERO = '[[special]]\ninputs = ["−0"]\ntypes = {types}\noutput = "+0"\nrule = "ABS_S2"\n'


def test_a_cell_stated_twice_is_refused() -> None:
    text = ZERO.format(types='"float"') + "\n" + ZERO.format(types='["float32"]')
    with pytest.raises(SpecialValuesError, match=r"^abs\.toml:7: float32 is given by abs\.toml:1 already"):
        check_complete(tuple(rows(text)))


def test_a_hole_in_a_table_is_refused() -> None:
    text = ZERO.format(types='["float16", "float32", "float64"]')
    with pytest.raises(SpecialValuesError, match=r"^abs\.toml:1: no row gives −0 for bfloat16"):
        check_complete(tuple(rows(text)))


RESHAPED = '[[special]]\ninputs = ["NaN", "{shape}"]\nattributes = {{ allowzero = 0 }}\ntypes = ["float32"]\n'
RESHAPED += 'output = "NaN"\nrule = "RESHAPE_S2"\n'


def test_an_input_that_places_elements_is_written_as_a_tensor() -> None:
    """Reshape's shape is no special value: a row gives it in the examples' notation, as an int64 tensor."""
    [row] = rows(RESHAPED.format(shape="[]"), "reshape")
    args, kwargs = row.call(np.dtype("float32"))
    assert args[1].dtype == np.int64 and args[1].shape == (0,) and kwargs == {"allowzero": 0}
    assert np.isnan(args[0]) and args[0].shape == ()
    assert row.check(np.dtype("float32")) is None
    [row] = rows(RESHAPED.format(shape="[1, 1]"), "reshape")
    assert row.call(np.dtype("float32"))[0][1].tolist() == [1, 1]
    assert row.check(np.dtype("float32")) == "float32: the reference gives [[NaN]], the row says NaN"


def test_a_tensor_its_type_cannot_hold_leaves_the_row_no_type() -> None:
    with pytest.raises(SpecialValuesError, match="no type of reshape has all these values"):
        rows(RESHAPED.format(shape="[0.5]"), "reshape")
    with pytest.raises(SpecialValuesError, match="no type of reshape has all these values"):
        rows(RESHAPED.format(shape="[1"), "reshape")


def test_a_value_in_brackets_is_a_tensor_of_that_one_element() -> None:
    """An input that must have rank 1 or more (Concat's, Gather's data) is a named value in brackets."""
    [row] = rows(RESHAPED.format(shape="[]").replace('["NaN", "[]"]', '["[[−0]]", "[]"]'), "reshape")
    zero = row.call(np.dtype("float32"))[0][0]
    assert zero.shape == (1, 1) and zero.dtype == np.float32 and np.signbit(zero).all() and zero == 0
    assert row.check(np.dtype("float32")) == "float32: the reference gives −0, the row says NaN"
    [row] = rows(RESHAPED.format(shape="[max]"), "reshape")  # a name: int64's greatest, no notation's
    assert row.call(np.dtype("float32"))[0][1].tolist() == [np.iinfo(np.int64).max]
