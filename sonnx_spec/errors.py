"""The one exception the reference raises for input the profile refuses."""

from __future__ import annotations

from .requirements import rule


class SonnxError(ValueError):
    """An input violates a restriction, a constraint or an error condition.

    ``req_id`` is the id of the violated rule (e.g. ``GR4``, ``ABS_E1``); the
    message says, on one line, what was wrong with which input, the rule, and
    the page of the specification that defines it.
    """

    req_id: str
    """The id of the violated rule."""
    problem: str
    """What was wrong with which input, without the rule."""

    def __init__(self, req_id: str, problem: str):  # no "-> None": the API page would show a return type
        stated = rule(req_id)  # an unknown id is a bug of the reference: KeyError
        self.req_id = req_id
        self.problem = problem
        super().__init__(f"{problem} — {req_id}: {stated.statement} (see {stated.page}.html#{req_id})")
