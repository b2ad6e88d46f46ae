"""The one exception the reference raises for input the profile refuses."""

from __future__ import annotations

from .requirements import catalogue, rule


class SonnxError(ValueError):
    """An input violates a restriction, a constraint or an error condition.

    ``req_id`` is the id of the violated rule (e.g. ``GR4``, ``ABS_E1``); the
    message says, on one line, what was wrong with which input, the rule, the
    label the operator's drafts gave it for that input (Clip's R1 for an omitted
    L), and the page of the specification that defines it.
    """

    req_id: str
    """The id of the violated rule."""
    problem: str
    """What was wrong with which input, without the rule."""
    operator: str | None
    """The operator whose call broke the rule, where the raise site says so."""
    tensor: str | None
    """The input or attribute that broke it (its declared name: X for X0), where the raise site says so."""
    draft_labels: tuple[str, ...]
    """What the operator's drafts called the rule for that input (``("R1",)``), from its rules file."""

    def __init__(  # no "-> None": the API page would show a return type
        self, req_id: str, problem: str, *, operator: str | None = None, tensor: str | None = None
    ):
        stated = rule(req_id)  # an unknown id is a bug of the reference: KeyError
        self.req_id = req_id
        self.problem = problem
        self.operator = operator
        self.tensor = tensor
        self.draft_labels = catalogue().labels(operator, req_id, tensor) if operator else ()
        cited = f" ({drafts_say(operator, req_id, tensor)})" if operator and self.draft_labels else ""
        super().__init__(f"{problem} — {req_id}{cited}: {stated.statement} (see {stated.page}.html#{req_id})")


def drafts_say(operator: str, rule_id: str, tensor: str | None) -> str:
    """``Clip's draft: R1``, or ``Clip's drafts: R5, C2`` when the labels come from more than one draft."""
    from .registry import operators  # the registry's checks raise SonnxError: imported when needed

    sources = {d.origin.source for d in catalogue().labels_of(operator, rule_id, tensor)}
    labels = ", ".join(catalogue().labels(operator, rule_id, tensor))
    return f"{operators()[operator].onnx}'s draft{'s' * (len(sources) > 1)}: {labels}"
