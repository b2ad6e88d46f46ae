"""The CI check (``--verify``) with why3: a hand-edited record fails, naming the goal; the unedited passes.

A copy of constant's files in a temporary formal tree, one goal added that no prover can prove
(``false``); its record marks that goal proved. constant is proved again (about 25 s of both cores).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from formal.harness import __main__ as cli
from formal.harness import cache, sources, tools, verify
from formal.harness.sources import BUILD, FORMAL

EDITED = "ConstantFloat64.constant_S1_edited"


@pytest.fixture
def tree(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A formal tree under build/ (a key names its files relative to the repository) with constant's
    files, the last module given a goal that cannot be proved."""
    (BUILD / "formal").mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="tree-", dir=BUILD / "formal")) / "formal"
    (folder / "proofs").mkdir(parents=True)
    text = (FORMAL / "constant.mlw").read_text("utf-8").rstrip()
    assert text.endswith("\nend") and text.rsplit("\nmodule ", 1)[1].startswith("ConstantFloat64\n")
    (folder / "constant.mlw").write_text(text[: -len("end")] + "  goal constant_S1_edited: false\nend\n")
    shutil.copy(FORMAL / "constant.mutants.toml", folder)
    monkeypatch.setattr(sources, "FORMAL", folder)
    monkeypatch.setattr(cache, "PROOFS", folder / "proofs")
    monkeypatch.setattr(cli, "FRESH", folder.parent / "fresh")
    yield folder
    shutil.rmtree(folder.parent)


def test_a_hand_edited_record_fails_the_ci_check(tree: Path, why3_tools: tools.Tools):
    record = cache.read_record(FORMAL / "proofs" / "constant.json")
    assert record is not None
    edited = {"theory": "ConstantFloat64", "goal": "constant_S1_edited", "line": 203, "kind": "property"}
    edited |= {"ids": ["CONSTANT_S1"], "answers": {"Z3": "proved", "cvc5": "proved"}, "time": {}, "tasks": 1}
    record["goals"].append(edited)
    record["key"] = cache.key("constant", why3_tools.versions, record["timelimit"])  # as a run here writes it
    cache.save("constant", record)
    problems: list[str] = []
    fresh = cli.verified("constant", why3_tools, record["timelimit"], problems)
    assert len(problems) == 1, problems
    assert problems[0].startswith(
        f"formal/proofs/constant.json: {EDITED} is recorded proved; proved again: Z3 "
    )
    unedited = cache.read_record(cli.FRESH / "constant.json")  # the record the fresh proof writes
    assert unedited is not None and verify.claims_beyond("constant", unedited, fresh, []) == []
    assert (tree / "proofs" / "constant.json").read_text("utf-8") == cache.text_of(record)  # left as it was
