"""The records of formal/proofs/: one line per entry, read back as written; the excuses, per operator;
what the CI check (``--verify``) finds in a record that claims more than a fresh proof."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from formal.harness import allowed, cache, sources, status, verify
from formal.harness.allowed import Allowance, ExcuseError
from formal.harness.sources import ROOT


@pytest.mark.parametrize("op", ["constant", "lib"])
def test_a_record_is_a_line_per_entry_and_reads_back_as_written(op: str, tmp_path: Path):
    record = cache.read_record(cache.path_of(op))
    assert record is not None and record["goals"]
    cache.save(op, record, tmp_path)
    text = (tmp_path / f"{op}.json").read_text("utf-8")
    assert cache.read_record(tmp_path / f"{op}.json") == record
    lines = text.splitlines()
    rows = [json.loads(line.strip().rstrip(",")) for line in lines if line.startswith("  {")]
    assert len(rows) == sum(len(record.get(name) or []) for name in cache.ROWS)  # one line each
    goal = next(r for r in rows if "answers" in r and "goal" in r)
    assert list(goal)[:4] == ["theory", "goal", "line", "kind"]  # where it is and what first
    assert len(lines) < 3 * len(rows)  # the committed records were 3,000 lines an operator


def test_the_committed_records_are_a_quarter_of_what_they_were():
    lines = sum(len(p.read_text("utf-8").splitlines()) for p in cache.PROOFS.glob("*.json"))
    assert lines <= 47057 // 4  # 47,057 lines in the indented format they replace


def excuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> None:
    monkeypatch.setattr(sources, "FORMAL", tmp_path)
    (tmp_path / f"{name}.excused.toml").write_text(text, "utf-8")


def test_excuses_are_read_from_the_operators_own_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    excuses(
        tmp_path,
        monkeypatch,
        "add",
        '[[excused]]\ntheory = "AddFloat16"\ngoal = "add_P1_commutative"\nprover = "Z3"\nreason = "slow"\n',
    )
    assert allowed.allowances(["lib", "add", "clip"]) == [
        Allowance("add", "AddFloat16", "add_P1_commutative", "Z3", "slow")
    ]
    assert allowed.allowances(["clip"]) == []


def test_an_excuse_without_its_keys_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    excuses(tmp_path, monkeypatch, "add", '[[excused]]\ntheory = "AddFloat16"\ngoal = "g"\nprover = "Z3"\n')
    with pytest.raises(ExcuseError, match=r"add.excused.toml: excuse 1: keys must be exactly goal, prover"):
        allowed.allowances(["add"])


def library_record(answers: dict[str, str]) -> dict:
    goal = {"file": "formal/lib/ieee.mlw", "theory": "Float16", "goal": "g", "line": 3, "ids": []}
    goal |= {"kind": "library", "answers": answers, "time": {}, "tasks": 1, "termination": False}
    return {"operator": "lib", "files": ["formal/lib/ieee.mlw"], "theories": ["Float16"], "goals": [goal]}


def test_an_excuse_for_no_goal_fails():
    stale = Allowance("lib", "Float16", "gone", "cvc5", "slow")
    records = {cache.LIBRARY: library_record({"Z3": "proved", "cvc5": "proved"})}
    failures = status.evaluate(records, {}, None, [stale]).failures  # type: ignore[arg-type]
    assert failures == ["formal/lib.excused.toml excuses Float16.gone, which is not a goal of lib"]


def test_a_record_claiming_more_than_the_fresh_proof_is_named():
    fresh = {**library_record({"Z3": "proved", "cvc5": "timeout"}), "key": "k"}
    assert verify.claims_beyond("lib", fresh, fresh, []) == []
    claimed = {**library_record({"Z3": "proved", "cvc5": "proved"}), "key": "k"}
    assert verify.claims_beyond("lib", claimed, fresh, []) == [
        "formal/proofs/lib.json: Float16.g is recorded proved; proved again: Z3 proved, cvc5 timeout"
    ]
    assert verify.claims_beyond("lib", {**fresh, "key": "other"}, fresh, []) == [
        "formal/proofs/lib.json: its key is not its inputs' digest: not a record of these sources"
    ]
    assert verify.claims_beyond("lib", {**fresh, "goals": []}, fresh, []) == [
        "formal/proofs/lib.json: goal Float16 g is missing from the record"
    ]
    assert verify.claims_beyond("lib", None, fresh, []) == [
        "formal/proofs/lib.json is missing: `nox -s formal` writes it; commit it"
    ]
    # claiming less is not a claim beyond: an IEEE goal excused for cvc5, or proved now and not then
    assert verify.claims_beyond("lib", fresh, claimed, []) == []


def test_which_prover_proved_a_goal_needing_one_is_no_claim():
    # outside the IEEE instances one prover suffices: Z3 timing out in CI where cvc5 proves is no failure
    def tensor_record(answers: dict[str, str]) -> dict:
        record = {**library_record(answers), "key": "k"}
        record["goals"][0]["theory"] = record["theories"][0] = "Tensor"
        return record

    recorded, fresh = tensor_record({"Z3": "proved"}), tensor_record({"Z3": "timeout", "cvc5": "proved"})
    assert verify.claims_beyond("lib", recorded, fresh, []) == []
    assert verify.claims_beyond("lib", recorded, tensor_record({"Z3": "timeout", "cvc5": "timeout"}), []) == [
        "formal/proofs/lib.json: Tensor.g is recorded proved; proved again: Z3 timeout, cvc5 timeout"
    ]


def test_the_site_reads_a_prover_not_tried_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # the site's reader, standard library only, loaded by path: the tests' environment has no Sphinx
    spec = importlib.util.spec_from_file_location("proof_status", ROOT / "sonnx_sphinx/data/proof_status.py")
    assert spec is not None and spec.loader is not None
    reader = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "proof_status", reader)  # its dataclasses look their module up
    spec.loader.exec_module(reader)
    record = library_record({"Z3": "proved"})  # outside the IEEE instances cvc5 tries what Z3 did not prove
    record["goals"][0]["theory"] = record["theories"][0] = "Tensor"
    evaluation = status.evaluate({cache.LIBRARY: record}, {}, None, [])  # type: ignore[arg-type]
    data = status.status_json(evaluation, {"why3": "1.5.1", "Z3": "4.8.12", "cvc5": "1.0.3"}, 5.0, [])
    status.write(tmp_path / "status.json", data)
    [goal] = reader.read_formal(tmp_path / "status.json")[1]
    assert (goal.status, goal.provers) == ("proved", {"Z3": "proved", "cvc5": reader.NOT_TRIED})
