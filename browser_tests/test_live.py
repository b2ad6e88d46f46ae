"""Live examples in Chromium: the site served by the live server, and the same pages without it.

On the Clip page served by ``sonnx_live``, a reader edits an example's inputs, runs it, changes
its type, runs it again (with the shortcut), resets, edits a ``>>>`` snippet and runs it, runs
the scratch box; the output must be what the reference says. Every operator page carries the
call of its scratch box. From file:// or a plain file server, a page shows one line saying how
to make examples live, and no editor. Screenshots of the live Clip page at 1400 and 390 px go
to build/screenshots/.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from conftest import SHOTS, SITE, Visit
from playwright.sync_api import Browser, Locator, Page, expect

import sonnx_spec
from sonnx_live.server import LiveServer
from sonnx_spec import SonnxError, operators


@pytest.fixture(scope="module")
def live() -> Iterator[str]:
    server = LiveServer(SITE, 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    yield server.origin
    server.shutdown()
    thread.join()
    server.server_close()


def the_reference(X: list[float], L: float, M: float, dtype: type) -> tuple[str, str]:
    """(status, what the page must show): the reference's own answer, computed here."""
    try:
        return "ok", repr(sonnx_spec.clip(np.array(X, dtype=dtype), dtype(L), dtype(M)))
    except SonnxError as error:
        return "refused", error.req_id


def run(editor: Locator, *, shortcut: bool = False) -> Locator:
    """Run the editor (its button or the keyboard shortcut); its output once the answer is in."""
    output = editor.locator(".sonnx-live-output")
    if shortcut:
        editor.locator("textarea").press("Control+Enter")
    else:
        editor.locator(".sonnx-live-run").click()
    expect(output).to_have_attribute("data-status", re.compile("^(?!running$|original$)"), timeout=20_000)
    return output


def check_answer(output: Locator, expected: tuple[str, str]) -> None:
    status, shown = expected
    assert output.get_attribute("data-status") == status
    if status == "ok":
        assert output.locator("pre").inner_text() == shown
    else:  # the rule's id, linked to the rule's definition
        link = output.locator("a.sonnx-live-rule")
        assert link.inner_text() == shown
        assert link.get_attribute("href").endswith(f"/{sonnx_spec.rule(shown).page}.html#{shown}")


def open_page(browser: Browser, origin: str, url: str, width: int = 1400) -> tuple[Page, Visit]:
    page = browser.new_page(viewport={"width": width, "height": 1000})
    visit = Visit(page, origin)
    page.goto(url, wait_until="load")
    return page, visit


def test_examples_edited_and_run_give_the_specifications_answer(browser: Browser, live: str) -> None:
    page, visit = open_page(browser, live, f"{live}/operators/clip.html")
    example = page.locator(".sonnx-example").first
    inputs = example.locator(".sonnx-live-inputs")
    original, original_type = inputs.locator("textarea").input_value(), inputs.locator("select").input_value()
    assert original.startswith("X = ")  # the example's own inputs, in the language of the page

    # "And if L is NaN?"
    inputs.locator("textarea").fill("X = [-6.3, 9.2, 35.5]\nL = nan\nM = 10.1")
    inputs.locator("select").select_option("float32")
    output = run(inputs)
    check_answer(output, the_reference([-6.3, 9.2, 35.5], math.nan, 10.1, np.float32))
    rule_link = (
        output.locator("a.sonnx-live-rule").get_attribute("href") if output.locator("a").count() else None
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1400, 390):
        page.set_viewport_size({"width": width, "height": 1000})
        inputs.evaluate("element => element.scrollIntoView({behavior: 'instant', block: 'center'})")
        page.screenshot(path=str(SHOTS / f"live-clip-{width}.png"))

    # "And for uint64?"
    inputs.locator("select").select_option("uint64")
    output = run(inputs, shortcut=True)
    assert output.get_attribute("data-status") == "invalid"  # uint64 has no -6.3 and no NaN
    assert "is not a value of uint64" in output.inner_text()
    inputs.locator("textarea").fill("X = [6, 9, 18446744073709551615]\nL = 20\nM = 10")
    check_answer(run(inputs), the_reference([6, 9, 18446744073709551615], 20, 10, np.uint64))

    inputs.locator(".sonnx-live-reset").click()
    assert inputs.locator("textarea").input_value() == original
    assert inputs.locator("select").input_value() == original_type
    assert inputs.locator(".sonnx-live-output").get_attribute("data-status") == "original"

    # The >>> snippet: its code without prompts, the output the page was built with under it.
    snippet = example.locator(".sonnx-live:not(.sonnx-live-inputs)")
    built = example.locator("div.doctest pre").inner_text().splitlines()[-1]
    assert snippet.locator(".sonnx-live-output pre").inner_text() == built
    assert not snippet.locator("textarea").input_value().startswith(">>>")
    snippet.locator("textarea").fill(
        "import numpy as np, sonnx_spec\nprint('abs:')\nsonnx_spec.abs(np.array([-3, 2], dtype=np.int8))"
    )
    output = run(snippet)
    assert output.get_attribute("data-status") == "ok"
    assert output.locator("pre").inner_text() == "abs:\narray([3, 2], dtype=int8)"
    assert visit.problems == []

    # The scratch box, preloaded with a call of the operator.
    scratch = page.locator(".sonnx-live-scratch-box")
    assert "sonnx_spec.clip(" in scratch.locator("textarea").input_value()
    assert run(scratch).get_attribute("data-status") in ("ok", "refused")
    assert visit.problems == []

    if rule_link:  # a refusal links to the rule's definition
        page.goto(rule_link, wait_until="load")
        assert page.locator(f"[id='{rule_link.rsplit('#', 1)[1]}']").count() == 1
    page.close()


@pytest.mark.parametrize("operator", list(operators()))
def test_each_operator_page_carries_a_call_for_its_scratch_box(operator: str) -> None:
    """Read from the built page (the box itself is run on the Clip page above)."""
    page = (SITE / "operators" / f"{operator}.html").read_text("utf-8")
    markers = re.findall(r'<div class="sonnx-live-scratch" hidden[^>]*data-python="([^"]*)"', page)
    assert len(markers) == 1
    assert f"&gt;&gt;&gt; sonnx_spec.{operator}(" in markers[0]


@pytest.mark.parametrize("where", ["file", "plain server"])
def test_without_the_live_server_a_page_says_how_and_shows_no_editor(
    browser: Browser, server: str, where: str
) -> None:
    if where == "file":
        page, visit = open_page(browser, "file://", (SITE / "operators" / "clip.html").as_uri())
    else:  # a page with >>> snippets only
        page, visit = open_page(browser, server, f"{server}/api.html")
    hint = page.locator(".sonnx-live-hint")
    assert hint.count() == 1 and "nox -s serve" in hint.inner_text()
    assert page.locator("textarea, .sonnx-live, .sonnx-live-scratch-box").count() == 0
    assert page.locator("div.doctest").first.is_visible()  # the examples as built
    assert visit.problems == []
    page.close()
