"""The score of the mutation runs (mutmut), checked against the explained survivors; written for the site.

    python mutation/report.py --status build/mutation.json

Reads what mutmut found for each module of the reference (its record in ``mutation/records/``, written by
``nox -s mutants``: mutation/modules.py) and ``mutation/equivalent/<module>.toml`` (each mutant of that
module that survives because it computes the same thing, with why; a module, an operator's for instance,
has its own file, so that adding one edits no shared ledger). Exits 1 if a mutant survived that is not
explained, if an explained one was detected (the explanation is stale), or if a file explains another
module's mutant. The status file has no
timestamp: the same sources give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # results.py and mutation/: tooling beside the package, not installed
from mutation.modules import DETECTED, Records  # noqa: E402

EXPLAINED = ROOT / "mutation" / "equivalent"


def module_of(mutant: str) -> str:
    """The module of a mutmut name: ``sonnx_spec.ops.clip`` of ``sonnx_spec.ops.clip.x_clip__mutmut_3``
    (a method's mutant is ``<module>.xǁ<Class>ǁ<method>__mutmut_<n>``)."""
    return mutant.partition(".xǁ")[0] if ".xǁ" in mutant else mutant.partition(".x_")[0]


def explained(folder: Path = EXPLAINED) -> tuple[dict[str, str], list[str]]:
    """mutant name -> why it computes the same thing as the reference; and the names filed under another
    module than their own."""
    reasons, misplaced = {}, []
    for path in sorted(folder.glob("*.toml")):
        for name, entry in tomllib.loads(path.read_text("utf-8")).items():
            reasons[name] = entry["why"]
            if module_of(name) != path.stem:
                misplaced.append(f"{name} is explained in {path.name}, not in {module_of(name)}.toml")
    return reasons, misplaced


def unexplained_and_stale(found: dict[str, str], reasons: dict[str, str]) -> tuple[list[str], list[str]]:
    """The mutants the tests do not detect and no file explains; the explained ones the tests detect (or that
    are gone), whose explanation is stale."""
    unexplained = sorted(n for n, s in found.items() if s not in DETECTED and n not in reasons)
    stale = sorted(n for n in reasons if found.get(n, "killed") in DETECTED)
    return unexplained, stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--status", type=Path, required=True)
    args = parser.parse_args(argv)
    by_module, (reasons, misplaced) = Records(ROOT).results(), explained()
    found = {name: status for mutants in by_module.values() for name, status in mutants.items()}
    counts = Counter(found.values())
    detected = sum(counts[s] for s in DETECTED)
    unexplained, stale = unexplained_and_stale(found, reasons)
    equivalent = len([n for n in reasons if n in found and found[n] not in DETECTED])
    score = detected / max(1, len(found) - equivalent)
    modules = {
        module: Counter("equivalent" if name in reasons else status for name, status in mutants.items())
        for module, mutants in by_module.items()
        if mutants
    }
    status = {
        "tool": "mutmut",
        "mutants": len(found),
        "killed": counts["killed"],
        "timeout": sorted(n for n, s in found.items() if s == "timeout"),
        "crashed": sorted(n for n, s in found.items() if s == "crashed"),
        "equivalent": equivalent,
        "unexplained": unexplained,
        "score": round(score, 4),
        "modules": {m: dict(sorted(c.items())) for m, c in sorted(modules.items())},
        "explained": {n: reasons[n] for n in sorted(reasons) if n in found},
    }
    args.status.parent.mkdir(parents=True, exist_ok=True)
    args.status.write_text(json.dumps(status, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(
        f"mutation: {len(found)} mutants, {counts['killed']} killed, {counts['timeout']} ended by the time "
        f"limit, {counts['crashed']} crashed, {equivalent} equivalent (explained), "
        f"{len(unexplained)} unexplained; score {score:.1%} (detected / non-equivalent)"
    )
    for name in unexplained:
        print(
            f"mutation: error: {name} {found[name]}: kill it with a test, or explain it in "
            f"mutation/equivalent/{module_of(name)}.toml"
        )
    for name in stale:
        print(f"mutation: error: {name} is explained in {module_of(name)}.toml but was detected (or is gone)")
    for problem in misplaced:
        print(f"mutation: error: {problem}")
    return 1 if unexplained or stale or misplaced else 0


if __name__ == "__main__":
    sys.exit(main())
