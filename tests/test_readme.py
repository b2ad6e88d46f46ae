"""The README's example of the reference package runs as written."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def test_readme_example_runs_as_shown() -> None:
    # A closing ``` would read as expected output: fences become the blank lines doctest wants.
    lines = ["" if line.startswith("```") else line for line in README.read_text("utf-8").splitlines()]
    test = doctest.DocTestParser().get_doctest("\n".join(lines), {}, "README.md", str(README), 0)
    assert test.examples, "the README shows no >>> example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test)
    assert result.failed == 0
