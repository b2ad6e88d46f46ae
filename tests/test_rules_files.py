"""The rules files and their loader (sonnx_spec.requirements): what a file means, every mistake it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from sonnx_spec import operators, rule, rules
from sonnx_spec.requirements import DraftLabel, Origin, RulesFileError, catalogue, files, parse

GENERAL = """
[source.reqs]
title = "Requirements"
kind = "requirements"
summary = "The profile's requirements."
path = "upstream/requirements/reqs.md"

[source.decision]
title = "Decision"
kind = "decision"
summary = "Ours."

[[rule]]
id = "GR4"
families = ["int", "float"]
statement = "No default values."
origin = ["reqs#REQ-OP-070"]
static = true
"""

OPERATOR = """
[source.draft-op]
title = "Draft of Op"
kind = "draft"
summary = "The draft."
url = "https://example.org/op"

[general]
GR4 = ["draft-op#R1", "draft-op#R2"]

[retired]
OP_R1 = "GR4"

[[rule]]
id = "OP_C1"
families = ["int"]
tensors = ["X", "Y"]
statement = "Y has the shape of X."
origin = ["draft-op#C1", "GR4", "decision"]
math = 'Y = X'

[[rule]]
id = "OP_S1"
families = ["float", "int"]
statement = "Y is X."
origin = ["draft-op"]
"""


def load(general: str = GENERAL, operator: str = OPERATOR, scope: str = "op"):
    return parse([("general", Path("general.toml"), general), (scope, Path(f"{scope}.toml"), operator)])


def test_a_rules_file_declares_rules_sources_labels_and_retired_ids() -> None:
    found = load()
    assert list(found.rules) == ["GR4", "OP_C1", "OP_S1"]
    gr4, c1, s1 = found.rules.values()
    assert (gr4.operator, gr4.label, gr4.kind, gr4.static, gr4.page) == (
        "general",
        "GR4",
        "restriction",
        True,
        "general-rules",
    )
    assert (c1.operator, c1.label, c1.kind, c1.families, c1.tensors) == (
        "op",
        "C1",
        "constraint",
        ("int",),
        ("X", "Y"),
    )
    assert c1.origin == (
        Origin(source="draft-op", section="C1"),
        Origin(rule="GR4"),
        Origin(source="decision"),
    )
    assert [str(o) for o in c1.origin] == ["draft-op#C1", "GR4", "decision"]
    assert (c1.math, c1.static, c1.page) == ("Y = X", False, "operators/op")
    assert (s1.kind, s1.families, s1.tensors, s1.math) == ("semantics", ("float", "int"), (), None)
    assert (gr4.statement, c1.statement, s1.statement) == (
        "No default values.",
        "Y has the shape of X.",
        "Y is X.",
    )
    assert (
        str(c1.location) == "op.toml:15"
        and str(s1.location) == "op.toml:23"
        and str(gr4.location) == "general.toml:14"
    )
    assert found.sources["draft-op"].url == "https://example.org/op"
    assert found.sources["reqs"].path == "upstream/requirements/reqs.md"
    assert found.sources["draft-op"].kind == "draft" and found.sources["draft-op"].key == "draft-op"
    assert found.draft_labels == {
        "general": {},
        "op": {
            "GR4": (
                DraftLabel(Origin(source="draft-op", section="R1"), (), "R1"),
                DraftLabel(Origin(source="draft-op", section="R2"), (), "R2"),
            )
        },
    }
    retired = found.retired["OP_R1"]
    assert (retired.id, retired.successor, retired.operator) == ("OP_R1", "GR4", "op")
    assert [r.id for r in found.of("op")] == ["OP_C1", "OP_S1"]
    assert [r.id for r in found.of("general")] == ["GR4"]


def test_an_operator_whose_name_has_underscores_has_ids_without_them() -> None:
    found = load(operator=OPERATOR.replace("OP_", "TWOWORDS_"), scope="two_words")
    assert [(r.id, r.operator, r.page) for r in found.of("two_words")] == [
        ("TWOWORDS_C1", "two_words", "operators/two_words"),
        ("TWOWORDS_S1", "two_words", "operators/two_words"),
    ]
    with pytest.raises(RulesFileError, match="TWO_WORDS_S1: 'TWO_WORDS_S1' is not a rule id"):
        load(
            operator=OPERATOR.replace('"OP_S1"', '"TWO_WORDS_S1"').replace("OP_", "TWOWORDS_"),
            scope="two_words",
        )


def test_model_rules_belong_on_the_models_page() -> None:
    found = load(operator=OPERATOR.replace("OP_", "MODEL_"), scope="model")
    assert found.rules["MODEL_C1"].page == "models"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('[[rule]]\nid = "OP_C1"', "[[rule]]\nid = OP_C1"), "op.toml: "),
        (("[general]", "[generals]"), "op.toml: unknown tables ['generals']"),
        (
            ('kind = "draft"', 'kind = "blog"'),
            "op.toml: source draft-op: keys ['kind', 'path', 'summary', 'title', 'url'], kinds",
        ),
        (('url = "https://example.org/op"', 'link = "x"'), "op.toml: source draft-op: keys"),
        (("[source.draft-op]", "[source.reqs]"), "op.toml: source reqs is declared in two files"),
        (('id = "OP_S1"', 'id = "OP_C1"'), "rule ids declared more than once: OP_C1"),
        (('id = "OP_S1"', "static = false"), "op.toml:1: ?: '?' is not a rule id"),
        (
            ('families = ["float", "int"]', ""),
            "op.toml:23: OP_S1: families must be a non-empty subset of int, float",
        ),
        (("math = 'Y = X'", 'maths = "x"'), "op.toml:15: OP_C1: unknown keys ['maths']"),
        (('id = "OP_S1"', 'id = "OP-S1"'), "op.toml:23: OP-S1: 'OP-S1' is not a rule id"),
        (
            ('id = "OP_S1"', 'id = "OTHER_S1"'),
            "op.toml:23: OTHER_S1: an id of other, declared in the file of op",
        ),
        (
            ('families = ["float", "int"]', "families = []"),
            "op.toml:23: OP_S1: families must be a non-empty subset of int, float",
        ),
        (
            ('families = ["float", "int"]', 'families = ["real"]'),
            "op.toml:23: OP_S1: families must be a non-empty",
        ),
        (
            ('origin = ["draft-op"]', 'origin = ["nowhere#x"]'),
            "op.toml:23: OP_S1: origin 'nowhere#x' is neither a rule id nor a source",
        ),
        (("GR4 = [", "OP_C1 = ["), "op.toml: [general] OP_C1 is not a general rule"),
        (("GR4 = [", "GR9 = ["), "op.toml: [general] GR9 is not a general rule"),
        (
            ('GR4 = ["draft-op#R1"', 'GR4 = ["missing#R1"'),
            "op.toml: [general] GR4: origin 'missing#R1' is neither a rule id nor a source",
        ),
        (
            ('GR4 = ["draft-op#R1", "draft-op#R2"]', 'GR4 = { X = "draft-op#R1" }'),
            "op.toml: [general] GR4: give a list of origins, or a table of them per tensor",
        ),
        (
            ('GR4 = ["draft-op#R1", "draft-op#R2"]', 'GR4 = "draft-op#R1"'),
            "op.toml: [general] GR4: give a list of origins, or a table of them per tensor",
        ),
        (('OP_R1 = "GR4"', 'OP_C1 = "GR4"'), "op.toml: retired id OP_C1 is in use or retired twice"),
        (('OP_R1 = "GR4"', 'OP_R1 = "OP_X9"'), "op.toml: retired id OP_R1: successor OP_X9 is not a rule"),
    ],
)
def test_mistakes_are_refused_with_their_place(change: tuple[str, str], message: str) -> None:
    old, new = change
    assert old in OPERATOR
    with pytest.raises(RulesFileError) as info:
        load(operator=OPERATOR.replace(old, new, 1))
    assert str(info.value).startswith(message), str(info.value)


def test_an_id_retired_in_two_files_is_refused() -> None:
    other = '[retired]\nOP_R1 = "GR4"\n'
    with pytest.raises(RulesFileError, match=r"other\.toml: retired id OP_R1 is in use or retired twice"):
        parse(
            [
                ("general", Path("general.toml"), GENERAL),
                ("op", Path("op.toml"), OPERATOR),
                ("other", Path("other.toml"), other),
            ]
        )


def test_the_package_files_are_the_general_one_then_one_per_scope() -> None:
    found = files()
    assert found[0][0] == "general" and found[0][1].name == "general.toml"
    assert [scope for scope, _, _ in found[1:]] == sorted(scope for scope, _, _ in found[1:])
    for scope, path, text in found:
        assert path.name == ("general" if scope == "general" else scope) + ".toml"
        assert text == path.read_text("utf-8")
    assert catalogue() is catalogue() and rules() is catalogue().rules


def test_rule_names_an_unknown_or_retired_id() -> None:
    assert rule("GR4").id == "GR4"
    with pytest.raises(KeyError, match="unknown rule id 'NOPE_C1'"):
        rule("NOPE_C1")
    with pytest.raises(KeyError, match="rule id 'CLIP_R2' is retired: GR4 states it now"):
        rule("CLIP_R2")


def test_every_duplicate_id_is_named() -> None:
    general = (
        GENERAL + '\n[[rule]]\nid = "OP_S1"\nfamilies = ["int"]\nstatement = "x"\norigin = ["decision"]\n'
    )
    doubled = OPERATOR.replace('id = "OP_S1"', 'id = "OP_C1"')
    with pytest.raises(RulesFileError) as info:
        load(
            general=general.replace('id = "OP_S1"', 'id = "OP_S1"'),
            operator=doubled + OPERATOR[OPERATOR.index('[[rule]]\nid = "OP_S1"') :],
        )
    assert str(info.value) == "rule ids declared more than once: OP_C1, OP_S1"


PER_TENSOR = OPERATOR.replace(
    'GR4 = ["draft-op#R1", "draft-op#R2"]',
    'GR4 = { X = ["draft-op#R1", "draft-op#R3 (both)"], Y = ["draft-op#R2", "draft-op#R3 (both)"], '
    '"*" = ["draft-op#Contents", "reqs#REQ-OP-070"] }',
).replace('OP_R1 = "GR4"', 'OP_R1 = "GR4"\nOP_R2 = "GR4"\nOP_C9 = "GR4"')


def test_a_general_rule_takes_the_drafts_labels_per_tensor() -> None:
    found = load(operator=PER_TENSOR)
    assert found.draft_labels["op"]["GR4"] == (
        DraftLabel(Origin(source="draft-op", section="R1"), ("X",), "R1"),
        DraftLabel(Origin(source="draft-op", section="R3 (both)"), ("X", "Y"), "R3"),
        DraftLabel(Origin(source="draft-op", section="R2"), ("Y",), "R2"),
        DraftLabel(Origin(source="draft-op", section="Contents"), (), None),  # a section, not a label
        DraftLabel(Origin(source="reqs", section="REQ-OP-070"), (), None),  # not a draft
    )
    assert found.labels("op", "GR4", "X") == ("R1", "R3")
    assert found.labels("op", "GR4", "Y") == ("R3", "R2")
    assert found.labels("op", "GR4", "Z") == ()
    assert found.labels("op", "GR4") == ("R1", "R3", "R2")  # no tensor in particular: every label
    assert found.labels("other", "GR4", "X") == () and found.labels("op", "OP_C1", "X") == ()
    # a retired id named after a label about other tensors is not this failure's former id
    assert found.formerly("op", "GR4", "X") == ("OP_R1", "OP_C9")
    assert found.formerly("op", "GR4", "Y") == ("OP_R2", "OP_C9")
    assert found.formerly("op", "GR4") == ("OP_R1", "OP_R2", "OP_C9")
    assert [r.id for r in found.retired_into("GR4")] == ["OP_R1", "OP_R2", "OP_C9"]


def test_a_section_gives_a_label_only_when_it_starts_with_one() -> None:
    sections = [
        "C2 Type consistency",
        "E_ADD_INT_CONSTR_A_0020",
        "R1 (real)",
        "Clip-13 inputs",
        "t1.1",
        "Rmk4",
    ]
    operator = OPERATOR.replace(
        'GR4 = ["draft-op#R1", "draft-op#R2"]', f"GR4 = {[f'draft-op#{s}' for s in sections]!r}"
    )
    labels = [d.label for d in load(operator=operator).draft_labels["op"]["GR4"]]
    assert labels == ["C2", "E_ADD_INT_CONSTR_A_0020", "R1", None, None, None]


def test_the_tensors_of_draft_labels_are_the_operators() -> None:
    for op, by_rule in catalogue().draft_labels.items():
        if not by_rule:  # general.toml, model.toml
            continue
        names = {t.name for t in operators()[op].inputs} | {a.name for a in operators()[op].attributes}
        for rule_id, labels in by_rule.items():
            unknown = {t for d in labels for t in d.tensors} - names
            assert not unknown, f"{op}.toml: [general] {rule_id}: {sorted(unknown)} are not {op}'s"


def test_clip_max_and_abs_keep_their_drafts_labels() -> None:
    found = catalogue()
    assert (found.labels("clip", "GR4", "L"), found.labels("clip", "GR4", "M")) == (("R1",), ("R2",))
    assert (found.formerly("clip", "GR4", "L"), found.formerly("clip", "GR4", "M")) == (
        ("CLIP_R1",),
        ("CLIP_R2",),
    )
    assert [found.labels("clip", r, "X") for r in ("GR1", "GR2", "GR3")] == [("R3",), ("R4",), ("R5", "C2")]
    assert [found.labels("max", r, "X") for r in ("GR1", "GR2")] == [("R1",), ("R2",)]
    assert [found.labels("abs", r, "X") for r in ("GEN_C1", "GR1", "GR2")] == [("R1",), ("R2",), ("R3",)]
    assert found.labels("add", "GR3", "B") == ("E_ADD_FLOAT_CONSTR_B_0020", "E_ADD_INT_CONSTR_B_0020")
    assert (
        found.labels("leaky_relu", "GR4", "alpha") == ("R1",) and found.labels("leaky_relu", "GR4", "X") == ()
    )


def test_a_rule_may_hold_for_every_family() -> None:
    every = 'families = ["float", "int", "bool"]'
    found = load(operator=OPERATOR.replace('families = ["float", "int"]', every, 1))
    assert found.rules["OP_S1"].families == ("float", "int", "bool")
