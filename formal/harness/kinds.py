"""The kind of each goal, decided by the module it is proved in.

In formal/<op>.mlw (module names in CamelCase of the operator, here Clip):

``property``    a lemma, or a VC of a let function, of the specification: the module ``Clip`` and the
                generic modules it clones from the same file (Max's ``MaxElement``); and a lemma of an
                instance module stated on the specification's symbols only (``clip_S4_...`` in
                ``ClipXReal``).
``instance``    an axiom of the specification proved for one type (the cloned axioms an instance
                module turns into goals).
``refinement``  every goal of ``ClipConcrete`` (the loop over flat arrays and its contract ``view y =
                clip (view x) ...``, the reference's own algorithm); the concrete level's axioms an
                instance proves for its type (``clip_S1_S3_numpy_clip``); and the lemmas of an
                instance on the symbols it gives the concrete level (the bit-vector facts of
                ``AbsInt8``, on the machine form ``BV8``).
``library``     a goal of the shared theories of formal/lib/, on which every operator relies.

The harness adds the kinds of its own checks: ``example`` (a page's example as a ground goal),
``mutant`` (a deliberate error refuted) and ``vacuity`` (``false`` not provable in a module).
"""

from __future__ import annotations

import re

from .sources import Module, WhyFile

KINDS = ("property", "instance", "refinement", "library", "example", "mutant", "vacuity")


def module_name(op: str) -> str:
    """``leaky_relu`` -> ``LeakyRelu``."""
    return "".join(part.capitalize() for part in op.split("_"))


def spec_modules(file: WhyFile, spec: str) -> set[str]:
    """The specification module and the modules of the same file it clones, transitively."""
    found, todo = set(), [spec]
    while todo:
        name = todo.pop()
        if name in found or name not in file.by_name:
            continue
        found.add(name)
        todo += [c.source for c in file.by_name[name].clones]
    return found


def machine_symbols(file: WhyFile, module: Module, concrete: str) -> set[str]:
    """The symbols ``module`` gives the concrete level: what it substitutes for its declarations."""
    concrete_module = file.by_name.get(concrete)
    if concrete_module is None:
        return set()
    inherited = set().union(*(m.symbols for m in map(file.by_name.get, _clones_of(file, concrete)) if m))
    own = concrete_module.symbols - inherited
    pairs = [pair for clone in module.clones for pair in clone.substitutions.items()]
    # a symbol that also stands for one of the specification's (F.abs for a float's abs_elt) is not
    # the machine's own: only what the concrete level alone uses (a bit vector, its decoding) is
    return {target for source, target in pairs if source in own} - {t for s, t in pairs if s not in own}


def _clones_of(file: WhyFile, name: str) -> list[str]:
    module = file.by_name.get(name)
    return [c.source for c in module.clones if c.source in file.by_name] if module else []


def classify(file: WhyFile, op: str | None, module: str, goal: str) -> str:
    """The kind of ``goal`` (a lemma, a cloned axiom or a function's VC) proved in ``module``."""
    if op is None:
        return "library"
    spec = module_name(op)
    concrete = f"{spec}Concrete"
    if module == concrete:
        return "refinement"
    if module in spec_modules(file, spec):
        return "property"
    name = goal.removesuffix("'vc")
    own = file.by_name[module]
    if name not in own.goals and name not in own.functions:  # an axiom cloned from a generic module
        declaring = file.declaring(name)
        return "refinement" if declaring is not None and declaring.name == concrete else "instance"
    statement = _statement(own, name)
    machine = machine_symbols(file, own, concrete)
    uses_machine = any(re.search(rf"(?<![\w.']){re.escape(s)}(?![\w'])", statement) for s in machine)
    return "refinement" if uses_machine else "property"


def _statement(module: Module, name: str) -> str:
    """The text of a declaration, up to the next one."""
    declaration = rf"^ {{0,2}}(?:let\s+(?:rec\s+)?)?(?:lemma|goal|function|predicate)\s+{name}\b"
    match = re.search(declaration, module.text, re.MULTILINE)
    if match is None:
        return ""
    rest = module.text[match.end() :]
    first_line = rest.find("\n") + 1 if "\n" in rest else len(rest)
    stop = re.compile(r"^\s*$|^ {0,2}\S", re.MULTILINE).search(rest, first_line)
    return rest[: stop.start() if stop else len(rest)]
