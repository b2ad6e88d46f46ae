"""Which provers a goal needs: the one rule, read by the runs (which prover to try where) and by the
evaluation (when a goal counts as proved).

A goal of an IEEE instance (a module named ``…Float16``, ``…BFloat16``, ``…Float32``, ``…Float64``) is
proved when Z3 and cvc5 both prove it: two independent decision procedures for floating point. Any
other goal is proved when one of them proves it.
"""

from __future__ import annotations

import re

IEEE_INSTANCE = re.compile(r"(?:Float16|Float32|Float64)$")
"""The modules whose goals are about the IEEE formats bit-exact: BFloat16 included."""


def needs_every_prover(theory: str) -> bool:
    return bool(IEEE_INSTANCE.search(theory))
