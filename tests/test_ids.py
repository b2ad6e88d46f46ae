"""The grammar of rule ids (sonnx_spec.ids), which every reader of ids imports."""

from __future__ import annotations

import pytest

from sonnx_spec import ids


@pytest.mark.parametrize(
    ("text", "scope", "kind", "label"),
    [
        ("GR1", "general", "restriction", "GR1"),
        ("GR12", "general", "restriction", "GR12"),
        ("GEN_C1", "general", "constraint", "C1"),
        ("GEN_P2", "general", "postcondition", "P2"),
        ("CLIP_C4", "clip", "constraint", "C4"),
        ("MAX_E1", "max", "error", "E1"),
        ("ABS_S2", "abs", "semantics", "S2"),
        ("LEAKYRELU_R10", "leakyrelu", "restriction", "R10"),
        ("MODEL_C1", "model", "constraint", "C1"),
    ],
)
def test_an_id_is_taken_apart(text: str, scope: str, kind: str, label: str) -> None:
    parsed = ids.parse(text)
    assert (parsed.text, parsed.scope, parsed.kind, parsed.label) == (text, scope, kind, label)
    assert str(parsed) == text
    assert ids.ID.match(text)


@pytest.mark.parametrize(
    "text", ["GR", "gr1", "CLIP_X1", "CLIP_C", "clip_C1", "CLIP-C1", "_C1", "CLIP_C1a", "1X_C1"]
)
def test_anything_else_is_not_an_id(text: str) -> None:
    with pytest.raises(ValueError, match=f"{text!r} is not a rule id") as info:
        ids.parse(text)
    assert "GR<n>, GEN_<K><n> or <OPERATOR>_<K><n>, K in RCESP" in str(info.value)
    assert not ids.ID.match(text)


def test_ids_are_found_in_text_as_whole_words() -> None:
    text = "# CLIP_C4 and GR2, not xCLIP_C1 nor CLIP_C1x nor MAX_E1_ (but GEN_P1)"
    assert ids.ID_IN_TEXT.findall(text) == ["CLIP_C4", "GR2", "GEN_P1"]


def test_scope_prefix_drops_underscores() -> None:
    assert ids.scope_prefix("leaky_relu") == "LEAKYRELU"
    assert ids.scope_prefix("clip") == "CLIP"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("clip_s1_s3_nan_stays", ["CLIP_S1", "CLIP_S3"]),
        ("clip_S4_zeros", ["CLIP_S4"]),
        ("CLIP_C4 L is a scalar", ["CLIP_C4"]),
        ("  max_p2_shape", ["MAX_P2"]),
        ("gr4_no_default", ["GR4"]),
        ("gen_p1_unchanged", ["GEN_P1"]),
        ("lt_max_s1", []),  # the id must start the name
        ("clip_helper", []),
        ("clip_s12x", []),
        ("abs_c1_post_shape", []),  # abs is not a scope given
    ],
)
def test_goal_names_cite_the_ids_they_start_with(name: str, expected: list[str]) -> None:
    assert ids.in_goal_name(name, ["CLIP", "MAX", "GEN", "LEAKY"]) == expected


def test_longer_scopes_win_over_their_prefixes() -> None:
    assert ids.in_goal_name("leakyrelu_s1_x", ["LEAKY", "LEAKYRELU"]) == ["LEAKYRELU_S1"]
