"""A progress line for long runs of the tools: drawn in place on standard error, only on a terminal (a
pipe or a file gets the report alone), only once a run has lasted ``AFTER`` seconds (a short run shows
nothing), and ended with a newline when the run ends."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

Progress = Callable[[int, int], None]
"""Called with (done, total) after each step of a run; done == total ends it."""

AFTER = 1.0
"""Seconds a run lasts before its progress shows."""
EVERY = 0.1
"""Seconds between two drawings of the line."""


@dataclass
class ProgressLine:
    unit: str  # what is counted: "nodes", "cases"
    stream: Any
    after: float = AFTER
    clock: Callable[[], float] = time.monotonic
    start: float = field(init=False)
    last: float | None = field(init=False, default=None)  # when the line was last drawn; None: not shown

    def __post_init__(self) -> None:
        self.start = self.clock()

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if done >= total:
            self.close(f"{done}/{total} {self.unit}")
        elif now - self.start >= self.after and (self.last is None or now - self.last >= EVERY):
            print(f"\r{done}/{total} {self.unit}", end="", file=self.stream, flush=True)
            self.last = now

    def close(self, last: str = "") -> None:
        """End the line if it is shown (with ``last`` in place of the count), so that what is printed next
        starts a line of its own; a run that stops early (a refusal) ends it too."""
        if self.last is not None:
            print(f"\r{last}" if last else "", file=self.stream, flush=True)
            self.last = None


@contextmanager
def progress_line(unit: str, stream: Any = None) -> Iterator[ProgressLine | None]:
    """A progress line counting ``unit`` on ``stream`` (standard error), ended however the run ends; None
    when the stream is no terminal."""
    stream = sys.stderr if stream is None else stream
    line = ProgressLine(unit, stream) if stream.isatty() else None
    try:
        yield line
    finally:
        if line:
            line.close()
