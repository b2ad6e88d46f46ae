"""The one exception the reference raises for input the profile refuses."""

from __future__ import annotations

from .requirements import requirement


class SonnxError(ValueError):
    """An input violates a restriction, a constraint or an error condition.

    ``req_id`` is the id of the violated requirement (e.g. ``CLIP_R1``); the
    message says, on one line, what was wrong with which input, the rule, and
    the page of the specification that defines it.
    """

    def __init__(self, req_id: str, problem: str) -> None:
        rule = requirement(req_id)  # an unknown id is a bug of the reference: KeyError
        self.req_id = req_id
        self.problem = problem
        super().__init__(f"{problem} — {req_id}: {rule.statement} (see {rule.page}.html#{req_id})")
