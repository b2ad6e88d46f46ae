"""The tools the proofs need, their versions, and the project-local Why3 configuration.

The configuration is generated under build/why3/ (the user's ~/.why3.conf is never read): Z3 and
cvc5, each with a driver that imports Why3's own for that prover and formal/lib/ieee.drv, which
maps the project's float16 and bfloat16 to SMT-LIB. cvc5 runs with ``--fp-exp`` (floating-point
formats other than binary32 and binary64).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .sources import BUILD, LIB

WHY3_DIR = BUILD / "why3"
HINT = "apt-get install why3 z3 cvc5"


class ToolError(Exception):
    """A tool is missing or unusable: the proofs cannot run at all (exit status 2)."""


@dataclass(frozen=True)
class Prover:
    name: str  # as the site shows it, and Why3's name for it: Z3, cvc5
    executable: str
    version: str
    command: str  # Why3's command line for it (%t: time limit, %f: the task file)
    why3_driver: str  # the driver of Why3's that this one imports

    def __str__(self) -> str:
        return f"{self.name} {self.version}"


@dataclass(frozen=True)
class Tools:
    why3: str  # its version
    provers: tuple[Prover, ...]
    config: Path  # the generated why3.conf

    @property
    def versions(self) -> dict[str, str]:
        return {"why3": self.why3, **{p.name: p.version for p in self.provers}}


def _output(*args: str) -> str:
    if shutil.which(args[0]) is None:
        raise ToolError(f"{args[0]} is not installed ({HINT})")
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    return done.stdout + done.stderr


def version_of(text: str) -> str:
    """The first version number in a tool's --version output."""
    match = re.search(r"version\s+(\d+(?:\.\d+)+)", text)
    if match is None:
        raise ToolError(f"no version in {text.strip()[:80]!r}")
    return match[1]


def detect() -> Tools:
    """why3, Z3 and cvc5 with their versions, and a configuration for them; ToolError if one is missing."""
    why3 = version_of(_output("why3", "--version"))
    provers = (
        Prover(
            "Z3",
            "z3",
            version_of(_output("z3", "--version")),
            "z3 -smt2 -T:%t sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 -st %f",
            "z3_471.drv",
        ),
        Prover(
            "cvc5",
            "cvc5",
            version_of(_output("cvc5", "--version")),
            "cvc5 --stats --tlimit-per=%t000 --lang=smt2 --fp-exp %f",
            "cvc4_16.drv",
        ),
    )
    datadir = _output("why3", "--print-datadir").strip()
    libdir = _output("why3", "--print-libdir").strip()
    return Tools(why3, provers, write_config(provers, datadir, libdir))


def write_config(provers: tuple[Prover, ...], datadir: str, libdir: str) -> Path:
    WHY3_DIR.mkdir(parents=True, exist_ok=True)
    sections = [
        "[main]",
        f'datadir = "{datadir}"',
        f'libdir = "{libdir}"',
        "magic = 14",
        "memlimit = 1000",
        "running_provers_max = 1",
        "timelimit = 5",
    ]
    for prover in provers:
        driver = WHY3_DIR / f"{prover.executable}.drv"
        driver.write_text(f'import "{datadir}/drivers/{prover.why3_driver}"\nimport "{LIB / "ieee.drv"}"\n')
        sections += [
            "",
            "[prover]",
            f'command = "{prover.command}"',
            f'driver = "{driver}"',
            f'name = "{prover.name}"',
            f'shortcut = "{prover.executable}"',
            f'version = "{prover.version}"',
        ]
    config = WHY3_DIR / "why3.conf"
    config.write_text("\n".join(sections) + "\n")
    return config
