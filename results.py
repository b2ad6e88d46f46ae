"""The results of the project's runs and what each depends on, as ``results.toml`` declares them.

A result is current when the digest of its inputs is the one recorded beside it (``<path>.digest``) by
the run that wrote it. Standard library only: nox, the harness, the site and the tests all read it.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DECLARATION = "results.toml"


@dataclass(frozen=True)
class Result:
    name: str
    root: Path
    path: Path
    inputs: tuple[str, ...]
    exclude: tuple[str, ...] = ()
    uses: tuple[Result, ...] = ()

    def files(self) -> list[Path]:
        """Every input file, sorted; a result it uses counts with its file and its inputs."""
        found = set(matching(self.root, self.inputs)) - set(matching(self.root, self.exclude))
        for used in self.uses:
            found |= {*used.files(), *([used.path] if used.path.is_file() else [])}
        return sorted(found)

    def digest(self, extra: Iterable[Path] = ()) -> str:
        return digest_of(self.root, [*self.files(), *extra])

    @property
    def digest_file(self) -> Path:
        return self.path.with_name(self.path.name + ".digest")

    def current(self) -> bool:
        """True if the result exists and was written by a complete run on the current inputs."""
        recorded = self.digest_file
        return self.path.exists() and recorded.exists() and recorded.read_text() == self.digest()

    def record(self, digest: str | None) -> None:
        """Remember the digest of the inputs the result was made from (taken when its run started);
        ``None`` (a partial or failed run) makes it not current."""
        if digest is None:
            self.digest_file.unlink(missing_ok=True)
        else:
            self.digest_file.parent.mkdir(parents=True, exist_ok=True)
            self.digest_file.write_text(digest)


def matching(root: Path, patterns: Iterable[str]) -> list[Path]:
    """The files the globs match under ``root``, Python's caches left out."""
    return [
        path
        for pattern in patterns
        for path in root.glob(pattern)
        if path.is_file() and "__pycache__" not in path.relative_to(root).parts
    ]


def digest_of(root: Path, files: Iterable[Path]) -> str:
    """A digest of the files' paths (relative to ``root``) and contents; a missing file counts as such."""
    sha = hashlib.sha256()
    for path in sorted(set(files)):
        content = path.read_bytes() if path.is_file() else b"(missing)"
        sha.update(path.relative_to(root).as_posix().encode() + b"\0" + content + b"\0")
    return sha.hexdigest()


def declared(root: Path = ROOT) -> dict[str, Result]:
    """The results ``root/results.toml`` declares, by name."""
    table = tomllib.loads((root / DECLARATION).read_text("utf-8"))
    made: dict[str, Result] = {}

    def make(name: str) -> Result:
        if name not in made:
            entry = table[name]
            made[name] = Result(
                name,
                root,
                root / entry["path"],
                tuple(entry["inputs"]),
                tuple(entry.get("exclude", ())),
                tuple(make(used) for used in entry.get("uses", ())),
            )
        return made[name]

    return {name: make(name) for name in table}
