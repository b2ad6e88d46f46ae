"""Mutation results per module of the reference, committed and reused while the module's inputs are unchanged.

``mutation/records/<module>.json`` holds what mutmut found for one module, the files that result depends
on, and the digest of those files: the module, the test files that run its code (mutmut's coverage,
``mutants/mutmut-stats.json``) and what every module shares (``mutation-module`` in results.toml), as they
were when it was recorded. ``nox -s mutants`` asks mutmut for the modules whose files changed only. A file
added later (a new operator's rules, its page) changes no record: tests only gain cases, and the
mutants they killed stay killed; an edited or deleted one does. When the landing system names the commit a
submission starts after (``SONNX_CI_BASE``), the records the submission changed are made again as well
(``changed_since``).
"""

from __future__ import annotations

import ast
import fnmatch
import hashlib
import json
import subprocess
import tomllib
from collections.abc import Iterable
from pathlib import Path

from results import Result, declared

STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    36: "timeout",
    24: "timeout",
    -24: "timeout",  # SIGXCPU: the tests' CPU time limit reached
    152: "timeout",
    255: "timeout",
    -9: "timeout",  # SIGKILL, a second after SIGXCPU: the limit reached inside numpy's or MPFR's C code
    -11: "crashed",  # SIGSEGV: the mutant crashed the tests' process
    -6: "crashed",  # SIGABRT: a library aborted (MPFR, asked for a precision beyond its maximum)
}
"""mutmut's exit codes (``mutmut.stats.status_by_exit_code``); any other one is suspicious."""

DETECTED = frozenset({"killed", "timeout", "crashed"})
"""What the tests notice: a failure, or a run the time limit or a crash ends (a mutant that makes a copy loop
over a wrapped index for ever is as visible as one that gives a wrong value, as in PIT and Stryker)."""


def status_of(code: int | None) -> str:
    return "not checked" if code is None else STATUS.get(code, "suspicious")


def module_name(root: Path, path: Path) -> str:
    """mutmut's name of a source file: ``sonnx_spec/ops/clip.py`` -> ``sonnx_spec.ops.clip``."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def patterns(module: str) -> list[str]:
    """The names of the module's mutants (``<module>.x_<function>__mutmut_<n>``, ``<module>.xǁ<class>ǁ…``),
    and of nothing in a module inside it (``sonnx_spec.ops.xor`` is not one of ``sonnx_spec.ops``'s)."""
    return [f"{module}.x_*", f"{module}.xǁ*"]


def mutated(root: Path) -> dict[str, Path]:
    """module -> source file, for every file mutmut mutates (``[tool.mutmut]`` in pyproject.toml)."""
    config = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]
    found = {}
    for source in config["source_paths"]:
        for path in sorted((root / source).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if not any(fnmatch.fnmatch(rel, skip) for skip in config.get("do_not_mutate", [])):
                found[module_name(root, path)] = path
    return found


def has_functions(path: Path) -> bool:
    """mutmut mutates functions only: a module without any has no mutants (and no name to ask for)."""
    tree = ast.parse(path.read_text("utf-8"))
    return any(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) for node in ast.walk(tree))


def covering_tests(stats: dict, module: str) -> list[str]:
    """The test files that ran the module's functions in mutmut's clean run: the tests that can kill it."""
    by_function = stats.get("tests_by_mangled_function_name", {})
    names = [f.removesuffix("*") for f in patterns(module)]
    return sorted(
        {
            test.split("::")[0]
            for fn, tests in by_function.items()
            if fn.startswith(tuple(names))
            for test in tests
        }
    )


class Records:
    """The per-module records of one tree (``root``), keyed on file digests taken once, at the start."""

    def __init__(self, root: Path, shared: Result | None = None) -> None:
        self.root = root
        self.shared = shared or declared(root)["mutation-module"]
        self.folder = self.shared.path
        self.modules = mutated(root)
        self.shared_files = self.shared.files()
        self._digests: dict[Path, str] = {}
        for path in [*self.shared_files, *self.modules.values(), *root.glob("tests/**/test_*.py")]:
            self.file_digest(path)  # every input as it is now, when the run starts

    def file_digest(self, path: Path) -> str:
        if path not in self._digests:
            self._digests[path] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "-"
        return self._digests[path]

    def inputs(self, module: str, tests: Iterable[str]) -> list[str]:
        """The files a module's record depends on, relative to the root: shared, the module, its tests."""
        files = {*self.shared_files, self.modules[module], *(self.root / t for t in tests)}
        return sorted(path.relative_to(self.root).as_posix() for path in files)

    def key(self, files: Iterable[str]) -> str:
        sha = hashlib.sha256()
        for name in sorted(files):
            sha.update(f"{name}\0{self.file_digest(self.root / name)}\0".encode())
        return sha.hexdigest()

    def path(self, module: str) -> Path:
        return self.folder / f"{module}.json"

    def load(self, module: str) -> dict | None:
        path = self.path(module)
        return json.loads(path.read_text("utf-8")) if path.exists() else None

    def stale(self) -> list[str]:
        """The modules whose record is missing or whose files changed since; digests are taken now."""
        found = []
        for module, source in self.modules.items():
            record = self.load(module)
            own = source.relative_to(self.root).as_posix()
            if record is None or own not in record["files"] or record["key"] != self.key(record["files"]):
                found.append(module)
        return found

    def changed_since(self, rev: str) -> list[str]:
        """The modules whose record a commit since ``rev`` (or the work tree) changed: CI makes them again."""
        folder = self.folder.relative_to(self.root).as_posix()
        names = _git(self.root, "diff", "--name-only", rev, "--", folder)
        names += _git(self.root, "ls-files", "--others", "--exclude-standard", "--", folder)
        return sorted({Path(n).stem for n in names} & set(self.modules))

    def save(self, module: str, mutants: dict[str, str], stats: dict) -> None:
        tests = covering_tests(stats, module)
        files = self.inputs(module, tests)
        record = {
            "key": self.key(files),
            "tests": tests,
            "files": files,
            "mutants": dict(sorted(mutants.items())),
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path(module).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", "utf-8")

    def update(self, modules: Iterable[str], mutants_dir: Path) -> None:
        """Record what mutmut found in ``mutants_dir`` for ``modules``; forget the modules that are gone."""
        stats_file = mutants_dir / "mutmut-stats.json"
        stats = json.loads(stats_file.read_text("utf-8")) if stats_file.exists() else {}
        for module in modules:
            meta = mutants_dir / (self.modules[module].relative_to(self.root).as_posix() + ".meta")
            codes = json.loads(meta.read_text("utf-8"))["exit_code_by_key"] if meta.exists() else {}
            self.save(module, {name: status_of(code) for name, code in codes.items()}, stats)
        for record in self.folder.glob("*.json"):
            if record.stem not in self.modules:
                record.unlink()

    def results(self) -> dict[str, dict[str, str]]:
        """module -> {mutant name -> status}, from every module's record (none: no mutants known)."""
        return {module: (self.load(module) or {"mutants": {}})["mutants"] for module in self.modules}

    def to_run(self, stale: Iterable[str]) -> list[str]:
        """mutmut's name patterns for the stale modules that have mutants."""
        return [p for m in stale if has_functions(self.modules[m]) for p in patterns(m)]


def _git(root: Path, *args: str) -> list[str]:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line]
