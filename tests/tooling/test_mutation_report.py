"""The explained survivors of the mutation score: one file per module, each explaining its own mutants."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # mutation/: tooling beside the package, not installed
from mutation.modules import status_of  # noqa: E402
from mutation.report import EXPLAINED, explained, module_of, unexplained_and_stale  # noqa: E402


def test_the_module_of_a_function_and_of_a_method_mutant() -> None:
    assert module_of("sonnx_spec.ops.slice_.x_effective__mutmut_12") == "sonnx_spec.ops.slice_"
    assert module_of("sonnx_spec.errors.xǁSonnxErrorǁ__init____mutmut_9") == "sonnx_spec.errors"
    assert module_of("sonnx_spec.x_helper__mutmut_1") == "sonnx_spec"


def test_every_committed_file_explains_only_its_own_modules_mutants() -> None:
    reasons, misplaced = explained()
    assert misplaced == []
    assert reasons, "no explained mutant at all: the folder was not read"
    assert all(path.stem.startswith("sonnx_spec") for path in EXPLAINED.glob("*.toml"))


def test_a_mutant_filed_under_another_module_is_reported(tmp_path: Path) -> None:
    (tmp_path / "sonnx_spec.ops.abs.toml").write_text(
        '["sonnx_spec.ops.neg.x_neg__mutmut_1"]\nwhy = "filed under the wrong operator"\n', "utf-8"
    )
    (tmp_path / "sonnx_spec.ops.neg.toml").write_text(
        '["sonnx_spec.ops.neg.x_neg__mutmut_2"]\nwhy = "where it belongs"\n', "utf-8"
    )
    reasons, misplaced = explained(tmp_path)
    assert reasons == {
        "sonnx_spec.ops.neg.x_neg__mutmut_1": "filed under the wrong operator",
        "sonnx_spec.ops.neg.x_neg__mutmut_2": "where it belongs",
    }
    assert misplaced == [
        "sonnx_spec.ops.neg.x_neg__mutmut_1 is explained in sonnx_spec.ops.abs.toml, "
        "not in sonnx_spec.ops.neg.toml"
    ]


def test_mutmuts_exit_codes_for_the_time_limit_and_a_crash() -> None:
    # mutmut sends SIGXCPU at the CPU limit and SIGKILL a second later (a process inside C code acts on
    # neither signal's handler before then); a segmentation fault or an abort (MPFR asked for a precision
    # beyond its maximum) is a crash; an unknown code is suspicious.
    assert [status_of(code) for code in (1, 0, 24, -24, -9, -11, -6, 99, None)] == [
        "killed",
        "survived",
        "timeout",
        "timeout",
        "timeout",
        "crashed",
        "crashed",
        "suspicious",
        "not checked",
    ]


def test_a_timeout_or_a_crash_is_detected_a_survivor_or_a_suspicious_run_is_not() -> None:
    found = {"m.x_f__mutmut_1": "killed", "m.x_f__mutmut_2": "timeout", "m.x_f__mutmut_3": "crashed"}
    found |= {"m.x_f__mutmut_4": "survived", "m.x_f__mutmut_5": "suspicious", "m.x_f__mutmut_6": "survived"}
    reasons = {"m.x_f__mutmut_2": "slower only", "m.x_f__mutmut_6": "equivalent", "m.x_f__mutmut_7": "gone"}
    unexplained, stale = unexplained_and_stale(found, reasons)
    assert unexplained == ["m.x_f__mutmut_4", "m.x_f__mutmut_5"]
    assert stale == ["m.x_f__mutmut_2", "m.x_f__mutmut_7"]
