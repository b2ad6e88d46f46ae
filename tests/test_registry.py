"""Each operator of the registry has its files, named after it, and nothing names an operator that is not.

Adding an operator is adding these files; the test says which one is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sonnx_spec import operators, rules
from sonnx_spec.ids import GENERAL
from sonnx_spec.requirements import SCOPE_PAGES, files

ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "reference": "sonnx_spec/ops/{}.py",
    "rules": "sonnx_spec/requirements/{}.toml",
    "page": "docs/operators/{}.md",
    "tests": "tests/test_{}.py",
    "conformance": "tests/conformance/operator_cases/{}.py",
    "formal specification": "formal/{}.mlw",
}


@pytest.mark.parametrize("op", list(operators()))
@pytest.mark.parametrize("kind", list(FILES))
def test_every_operator_has_its_files(op: str, kind: str) -> None:
    path = ROOT / FILES[kind].format(op)
    assert path.exists(), f"operator {op} has no {kind}: write {path.relative_to(ROOT)}"


@pytest.mark.parametrize("kind", [k for k in FILES if k != "tests"])  # tests/ has general modules too
def test_every_file_named_after_an_operator_is_one(kind: str) -> None:
    pattern = FILES[kind]
    folder, _, name = pattern.rpartition("/")
    prefix, suffix = name.split("{}")
    stems = {
        p.name.removeprefix(prefix).removesuffix(suffix)
        for p in (ROOT / folder).glob(prefix + "*" + suffix)
        if not p.name.startswith("_")
    }
    ignored = {*SCOPE_PAGES, "README", "__init__"}
    assert stems - ignored <= set(operators()), sorted(stems - ignored - set(operators()))


def test_rules_files_are_the_general_one_and_one_per_operator() -> None:
    scopes = {scope for scope, _, _ in files()}
    assert {GENERAL, *operators()} <= scopes <= {*SCOPE_PAGES, *operators()}


def test_every_operator_id_has_its_operator_prefix() -> None:
    for rule in rules().values():
        if rule.operator not in SCOPE_PAGES:
            assert rule.id.startswith(operators()[rule.operator].prefix + "_"), rule.id
