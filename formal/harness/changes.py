"""Which records CI proves again: those a submission changed (``--verify --since REV``).

A record that no commit since ``REV`` touched, and whose key is still its inputs' digest, was checked by
the CI run of the commit that last changed it; it is reused. A record changed since ``REV`` (in a commit
or in the work tree), or one whose key no longer matches, is proved again, cold, and checked. The shared
theories' record counts as changed when it or ``formal/lib`` did; a change there changes every key, so
every operator is proved again as well.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from .sources import ROOT


class ChangesError(Exception):
    """``REV`` is not a commit git knows, or git cannot answer."""


def _git(*args: str, root: Path) -> list[str]:
    try:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        raise ChangesError(f"git {' '.join(args)}: {detail.strip()}") from None
    return [line for line in done.stdout.splitlines() if line]


def changed_records(rev: str, library: str, root: Path = ROOT) -> set[str]:
    """The names of the records (operators, and ``library`` for the shared theories) whose record file
    or Why3 sources changed since ``rev``: committed since, modified in the work tree, or new."""
    _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", root=root)
    paths = _git("diff", "--name-only", rev, "--", "formal", root=root)
    paths += _git("ls-files", "--others", "--exclude-standard", "--", "formal", root=root)
    names: set[str] = set()
    for path in map(Path, paths):
        if path.parts[:2] == ("formal", "lib"):
            names.add(library)
        elif path.parts[:2] == ("formal", "proofs") or len(path.parts) == 2:
            names.add(path.name.split(".")[0])  # formal/proofs/clip.json, formal/clip.mlw, clip.excused.toml
    return names
