"""What the model tools report: findings, the report of a check, and the errors they raise.

Nothing here needs onnx, so that ``import sonnx_spec`` does not either.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from ..errors import SonnxError
from ..requirements import rule

Level = Literal["error", "undecided"]


@dataclass(frozen=True)
class NodeRef:
    """A node of a graph: its position, its operator and its name (ONNX names are optional)."""

    index: int
    op_type: str
    name: str = ""
    domain: str = ""

    def __str__(self) -> str:
        named = f' "{self.name}"' if self.name else ""
        return f"node {self.index} ({self.op_type}{named})"


@dataclass(frozen=True)
class Finding:
    """A rule a model breaks, where, and why.

    ``level`` is "error" for a violation, "undecided" for a rule the checker could
    not decide (the model is then not shown to be in the profile).
    """

    rule: str
    message: str
    node: NodeRef | None = None  # None: the model or the graph as a whole
    level: Level = "error"
    formerly: tuple[str, ...] = ()  # retired ids of the node's operator that this rule now states
    draft_labels: tuple[str, ...] = ()  # what the drafts of the node's operator call it, for that tensor

    @property
    def statement(self) -> str:
        return rule(self.rule).statement

    def link(self, site: str = "") -> str:
        """Where the rule is defined on the site: ``<site>/<page>.html#<ID>``."""
        target = f"{rule(self.rule).page}.html#{self.rule}"
        return f"{site.rstrip('/')}/{target}" if site else target

    @property
    def where(self) -> str:
        return str(self.node) if self.node else "model"


@dataclass
class Report:
    """The findings of a check, in the order of the model's nodes, and the operators it lacks."""

    source: str  # the file, or "<model>" for a model given as an object
    findings: list[Finding] = field(default_factory=list)
    unspecified: Counter[str] = field(default_factory=Counter)  # op_type -> nodes outside the profile
    nodes: int = 0

    @property
    def in_profile(self) -> bool:
        return not self.findings

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.level == "error"]

    @property
    def undecided(self) -> list[Finding]:
        return [f for f in self.findings if f.level == "undecided"]


class ModelUnreadable(Exception):
    """The file is not a model the tools can read: missing, truncated, not ONNX, too large."""


class ModelRefused(Exception):
    """The model is not in the profile; ``report`` says which node breaks which rule."""

    def __init__(self, report: Report) -> None:
        self.report = report
        first = report.findings[0]
        more = f" (and {len(report.findings) - 1} more)" if len(report.findings) > 1 else ""
        super().__init__(f"{report.source}: {first.where} — {first.rule} — {first.message}{more}")


class NodeError(SonnxError):
    """A node's operator refused the values it was given while the model ran."""

    def __init__(self, node: NodeRef, error: SonnxError) -> None:
        self.node = node
        super().__init__(
            error.req_id, f"{node}: {error.problem}", operator=error.operator, tensor=error.tensor
        )
