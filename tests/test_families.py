"""The registry of operator families (sonnx_spec.families): who belongs to which, declared once."""

from __future__ import annotations

import pytest

from sonnx_spec import families, operators
from sonnx_spec.families import FAMILIES, UNARY, VARIADIC, member, members


def test_an_unknown_family_is_refused() -> None:
    with pytest.raises(ValueError) as info:
        member("element-wise", operators()["add"].function)
    assert str(info.value) == (
        "unknown operator family 'element-wise' (known: element-wise unary, element-wise binary arithmetic, "
        "comparison, variadic, data movement)"
    )


def test_an_operator_belongs_to_one_family_at_most() -> None:
    listed = [op.name for family in FAMILIES for op in members(family)]
    assert len(listed) == len(set(listed))
    assert "max" in [op.name for op in members(VARIADIC)]  # a list of members would need an edit per operator
    assert all(len(op.inputs) == 1 and op.inputs[0].variadic for op in members(VARIADIC))
    assert {"clip", "constant", "where"}.isdisjoint(listed)  # each a family of its own, for now


def test_declaring_a_member_lists_it_in_its_family(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(families, "_FAMILY_OF", dict(families._FAMILY_OF))  # the project's left as it is
    before = [op.name for op in members(UNARY)]
    member(UNARY, operators()["clip"].function)
    assert "clip" not in before
    assert [op.name for op in members(UNARY)] == sorted([*before, "clip"])
