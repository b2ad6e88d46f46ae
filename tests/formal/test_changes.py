"""Which records CI proves again (formal/harness/changes.py), on a small git repository of its own."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from formal.harness.changes import ChangesError, changed_records


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q")
    git(tmp_path, "config", "user.email", "ci@example.org")
    git(tmp_path, "config", "user.name", "CI")
    for name in ["formal/proofs/clip.json", "formal/proofs/abs.json", "formal/proofs/lib.json"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}\n")
    (tmp_path / "formal/lib").mkdir()
    (tmp_path / "formal/lib/ieee.mlw").write_text("theory T end\n")
    (tmp_path / "formal/clip.mlw").write_text("module Clip end\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "landed")
    return tmp_path


def commit(repo: Path, path: str, text: str) -> None:
    (repo / path).write_text(text)
    git(repo, "add", path)
    git(repo, "commit", "-qm", f"edit {path}")


def test_a_record_edited_in_the_submission_is_proved_again(repo: Path):
    base = git(repo, "rev-parse", "HEAD")
    assert changed_records(base, "lib", repo) == set()
    commit(repo, "formal/proofs/clip.json", '{"edited": true}\n')
    assert changed_records(base, "lib", repo) == {"clip"}
    assert changed_records(git(repo, "rev-parse", "HEAD"), "lib", repo) == set()  # landed: checked then


def test_the_work_tree_the_sources_and_new_records_count(repo: Path):
    base = git(repo, "rev-parse", "HEAD")
    (repo / "formal/proofs/abs.json").write_text('{"edited": true}\n')  # not committed
    (repo / "formal/proofs/where.json").write_text("{}\n")  # new, untracked
    (repo / "formal/clip.mlw").write_text("module Clip goal g: true end\n")
    assert changed_records(base, "lib", repo) == {"abs", "where", "clip"}


def test_the_shared_theories_count_as_the_library(repo: Path):
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, "formal/lib/ieee.mlw", "theory T goal g: true end\n")
    assert changed_records(base, "lib", repo) == {"lib"}


def test_an_unknown_base_is_an_error(repo: Path):
    with pytest.raises(ChangesError, match="git rev-parse"):
        changed_records("no-such-commit", "lib", repo)
