"""The progress line of long runs (``sonnx-spec run``, ``compare --by-node``, ``suite run``): only on a
terminal, only after a second, redrawn at most ten times a second, ended before the report is printed."""

from __future__ import annotations

import io

import numpy as np
from graphs import make_model, value_info
from onnx import helper

from sonnx_spec.models.by_node import compare_nodes
from sonnx_spec.models.progress import AFTER, EVERY, ProgressLine, progress_line
from sonnx_spec.models.run import run_model

F32 = np.dtype(np.float32)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def line_on(terminal: Terminal, clock: Clock) -> ProgressLine:
    return ProgressLine("nodes", terminal, clock=clock)


def test_a_short_run_shows_nothing() -> None:
    terminal, clock = Terminal(), Clock()
    line = line_on(terminal, clock)
    for done in range(1, 11):
        clock.now += (AFTER - 0.01) / 10
        line(done, 10)
    assert terminal.getvalue() == ""


def test_a_long_run_shows_its_count_in_place_then_ends_the_line() -> None:
    terminal, clock = Terminal(), Clock()
    line = line_on(terminal, clock)
    clock.now += AFTER
    line(3, 10)
    clock.now += EVERY / 2
    line(4, 10)  # too soon to draw again
    clock.now += EVERY
    line(5, 10)
    line(10, 10)
    assert terminal.getvalue() == "\r3/10 nodes\r5/10 nodes\r10/10 nodes\n"
    line.close()  # ended already: nothing more
    assert terminal.getvalue().endswith("nodes\n")


def test_a_run_stopped_early_ends_the_line_it_drew() -> None:
    terminal, clock = Terminal(), Clock()
    with progress_line("cases", terminal) as line:
        assert line is not None
        line.clock, line.start = clock, clock.now
        clock.now += AFTER
        line(2, 9)
    assert terminal.getvalue() == "\r2/9 cases\n"


def test_no_line_where_standard_error_is_no_terminal() -> None:
    with progress_line("nodes", io.StringIO()) as line:
        assert line is None


def chain_of(count: int) -> tuple:
    nodes = [helper.make_node("Neg", [f"t{i}"], [f"t{i + 1}"], name=f"neg{i}") for i in range(count)]
    model = make_model(nodes, [value_info("t0", F32, [2])], [value_info(f"t{count}", F32, [2])])
    return model, {"t0": np.array([1.5, -0.0], np.float32)}


def test_run_counts_every_node_in_order() -> None:
    model, inputs = chain_of(4)
    seen: list[tuple[int, int]] = []
    [y] = run_model(model, inputs, lambda done, total: seen.append((done, total))).values()
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert y.tolist() == [1.5, -0.0]


def test_by_node_counts_the_reference_then_the_engine() -> None:
    model, inputs = chain_of(3)
    seen: list[tuple[int, int]] = []
    comparison = compare_nodes(
        model, inputs, runner=lambda m, feeds: {}, progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(done, 6) for done in range(1, 7)]
    assert len(comparison.nodes) == 3
