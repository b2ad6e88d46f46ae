"""Where the reference names rule ids: the lines that make the checks.

A line names an id when a string literal is exactly that id
(``SonnxError("CLIP_C4", …)``, ``rank_rule="CLIP_C4"``) or a comment mentions
it; docstrings do not count.
"""

from __future__ import annotations

import io
import tokenize
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from sonnx_spec.ids import ID, ID_IN_TEXT

CODE_DIR = "sonnx_spec"
NOT_CODE = {"sonnx_spec/ids.py", "sonnx_spec/requirements/__init__.py"}  # they describe ids, check none


@dataclass(frozen=True)
class CodeRef:
    path: str  # relative to the repository root
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def scan_code(root: Path) -> tuple[dict[str, list[CodeRef]], list[tuple[CodeRef, str]]]:
    """(id -> the lines naming it, every (line, id-like token)): the caller reports unknown ids."""
    found: dict[str, list[CodeRef]] = defaultdict(list)
    tokens: list[tuple[CodeRef, str]] = []
    for path in sorted((root / CODE_DIR).rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in NOT_CODE:
            continue
        for token in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
            if token.type == tokenize.STRING:
                text = token.string.strip("'\"")
                names = [text] if ID.fullmatch(text) else []
            elif token.type == tokenize.COMMENT:
                names = ID_IN_TEXT.findall(token.string)
            else:
                continue
            for name in names:
                ref = CodeRef(rel, token.start[0])
                tokens.append((ref, name))
                if ref not in found[name]:
                    found[name].append(ref)
    return dict(found), tokens
