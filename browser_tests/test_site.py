"""The built site in Chromium: every page loads offline, with its math rendered.

Serves docs/_build/html on loopback and visits every page; fails on a failed
request, a request to another host, an HTTP error, a console error, or math
left unrendered. Also opens the operator pages from file:// (an air-gapped lab
may have no web server), checks the copy button copies runnable Python, and
saves a screenshot of each operator page in build/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from conftest import SHOTS, SITE, Visit
from playwright.sync_api import Browser, Page

from sonnx_spec import operators
from sonnx_spec.pages.special_values import tables as special_tables

HAN = re.compile(r"[\u4e00-\u9fff]")

OPERATORS = list(operators())
# permalink.html (sphinx-needs) is no page but a redirect to a rule's page: tested on its own
EVERY_PAGE = sorted(
    p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html") if p.name != "permalink.html"
)
CHINESE_PAGES = ["index", "glossary", "general-rules", "traceability", "operators/clip", "operators/conv"]
CHINESE_PAGES += ["operators/max_pool", "operators/softmax", "operators/cast"]
CHINESE_SAMPLE = {f"zh_CN/{page}.html" for page in CHINESE_PAGES}
"""The Chinese site has the English one's pages and layout, the same math and examples (its build checks
every link and formula): the browser visits a page of each kind, and the longest words and tables."""
PAGES = [p for p in EVERY_PAGE if not p.startswith("zh_CN/") or p in CHINESE_SAMPLE]


def unrendered_math(page: Page) -> list[str]:
    """Math elements without KaTeX output, KaTeX errors, and TeX left in the text."""
    return page.evaluate("""() => {
        const bad = [];
        for (const el of document.querySelectorAll('.math, div.math, span.math')) {
            if (!el.querySelector('.katex')) bad.push('not rendered: ' + el.textContent.slice(0, 60));
        }
        for (const el of document.querySelectorAll('.katex-error')) bad.push('KaTeX error: ' + el.title);
        const text = document.body.innerText;
        for (const tex of ['\\\\begin{', '$$', '\\\\frac', '\\\\mathrm']) {
            if (text.includes(tex)) bad.push('TeX in the page text: ' + tex);
        }
        return bad;
    }""")


def test_the_site_was_built() -> None:
    assert (SITE / "index.html").exists(), "run `nox -s docs` first"
    assert {f"operators/{op}.html" for op in OPERATORS} <= set(PAGES)


def test_a_permalink_leads_to_its_rule(browser: Browser, server: str) -> None:
    page = browser.new_page()
    visit = Visit(page, server)
    page.goto(f"{server}/permalink.html?id=CLIP_S1")
    page.wait_for_url(f"{server}/operators/clip.html#CLIP_S1")  # loaded: waits for its "load" event
    assert page.locator("[id='CLIP_S1']").is_visible()
    # the redirect may abort its own request for needs.json as it leaves; nothing else may fail
    assert [p for p in visit.problems if "needs.json: net::ERR_ABORTED" not in p] == []
    page.close()


@pytest.mark.parametrize("page_path", PAGES)
def test_page_loads_offline_with_math_rendered(browser: Browser, server: str, page_path: str) -> None:
    page = browser.new_page()
    visit = Visit(page, server)
    visit.open(f"{server}/{page_path}")
    assert visit.problems == []
    assert unrendered_math(page) == []
    if not page_path.startswith("_source/"):  # a source listing shows docstrings as they are written
        assert "``" not in page.locator("article").inner_text(), "reStructuredText markup left in the text"
    page.close()


@pytest.mark.parametrize("operator", OPERATORS)
def test_operator_page_from_file_url(browser: Browser, operator: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    visit = Visit(page, "file://")
    visit.open((SITE / "operators" / f"{operator}.html").as_uri())
    assert visit.problems == []
    assert unrendered_math(page) == []
    assert page.locator(".sonnx-example").count() >= 3
    # one table per type family and set of scalar attributes (Cast's to, Mod's fmod), as the package counts
    tables = len(list(special_tables(operator)))
    assert tables >= len(operators()[operator].families)
    assert page.locator("table.sonnx-values").count() == tables
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{operator}.png"), full_page=False)
    page.close()


def test_copy_button_copies_runnable_python(browser: Browser, server: str) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    Visit(page, server).open(f"{server}/operators/clip.html")
    example = page.locator(".sonnx-example", has_text="Values below L and above M (draft, example 1)").first
    block = example.locator(".highlight")
    block.hover()
    block.locator("button.copybtn").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    lines = copied.splitlines()
    assert lines[0] == "import numpy as np, sonnx_spec"
    assert lines[-1] == "sonnx_spec.clip(X, L, M)"
    assert not any(line.startswith((">>>", "...", "array(", "Traceback")) for line in lines)
    exec(compile(copied.replace(lines[-1], "Y = " + lines[-1]), "copied", "exec"), {})  # it runs
    context.close()


def test_requirement_anchor_leads_to_its_definition(browser: Browser, server: str) -> None:
    page = browser.new_page()
    Visit(page, server).open(f"{server}/operators/clip.html#CLIP_C4")
    definition = page.locator("table.need[id='CLIP_C4']")
    assert definition.count() == 1
    assert "L and M are scalars" in definition.inner_text()
    # The browser scrolls to the anchor once the layout settles (fonts, the page's scripts): wait for it.
    page.wait_for_function(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }",
        arg=definition.element_handle(),
        timeout=10_000,
    )
    page.close()


OVERFLOW = """() => {
    /* Elements that stick out of the content column, outside any box that scrolls or clips them. */
    const column = document.querySelector(".content") || document.body;  /* furo's column */
    const limit = column.getBoundingClientRect().right + 1;
    const bad = [];
    const clips = (el) => {
        for (let p = el.parentElement; p && p !== column; p = p.parentElement) {
            const style = getComputedStyle(p);
            if (["auto", "scroll", "hidden", "clip"].includes(style.overflowX)) return true;
        }
        return false;
    };
    for (const el of column.querySelectorAll("*")) {
        const r = el.getBoundingClientRect();
        if (r.width && r.right > limit && !clips(el)) {
            bad.push(el.tagName.toLowerCase() + "." + el.className + " right=" + Math.round(r.right));
            if (bad.length > 5) break;
        }
    }
    const page = document.documentElement;
    if (page.scrollWidth > page.clientWidth + 1) bad.push("the page scrolls sideways: " + page.scrollWidth);
    return bad;
}"""


CUT = """() => {
    /* Headings wider than the text column (furo widens their box past it); formulas cut by a box: a
       part of a formula outside a box that clips or scrolls it, unless that box is the formula's own
       scroller (.katex-html) or a wide table, and shows that it scrolls (a background that moves with what
       it holds). */
    const column = document.querySelector("article");
    const c = column.getBoundingClientRect();
    const bad = [];
    const px = (v) => Math.round(v);
    const name = (e) => e.tagName.toLowerCase() + [...e.classList].map((k) => "." + k).join("");
    for (const h of column.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
        const r = h.getBoundingClientRect();
        if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || h.scrollWidth > h.clientWidth + 1) {
            const spans = `${px(r.left)}..${px(r.right)}, its column ${px(c.left)}..${px(c.right)}`;
            bad.push(`${name(h)} "${h.textContent.slice(0, 30)}" spans ${spans}`);
        }
    }
    for (const formula of column.querySelectorAll(".katex")) {
        const text = formula.textContent.slice(0, 30);
        const glyphs = [formula, ...formula.querySelectorAll(".base, .tag")];
        const parts = glyphs.map((e) => e.getBoundingClientRect());
        let left = Math.min(...parts.map((r) => r.left));
        let right = Math.max(...parts.map((r) => r.right));
        let box = formula.querySelector(".katex-html") || formula;
        for (; box !== document.body; box = box.parentElement) {
            const style = getComputedStyle(box);
            if (style.overflowX === "visible") continue;
            const r = box.getBoundingClientRect();
            if (box.scrollWidth > box.clientWidth) {  /* its own scroller, or a wide table's */
                if (!style.backgroundAttachment.includes("local")) {
                    bad.push(`formula "${text}" scrolls in ${name(box)} without showing it`);
                }
                [left, right] = [r.left, r.right];  /* seen by scrolling: the box itself must be seen */
            } else if (left < r.left - 1 || right > r.right + 1) {
                const box_spans = `${px(r.left)}..${px(r.right)}`;
                bad.push(`formula "${text}" (${px(left)}..${px(right)}) cut by ${name(box)} (${box_spans})`);
                break;
            }
        }
    }
    return bad;
}"""


@pytest.mark.parametrize("width", [1400, 390])
@pytest.mark.parametrize(
    "page_path", [p for p in PAGES if not p.startswith(("_source/", "genindex", "search"))]
)
def test_nothing_sticks_out_of_the_column(browser: Browser, server: str, page_path: str, width: int) -> None:
    """Nothing widens the page or its column; no heading is wider than the column; every formula is
    seen whole, or scrolls in its own box and shows it."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    Visit(page, server).open(f"{server}/{page_path}")
    assert page.evaluate(OVERFLOW) == []
    assert page.evaluate(CUT) == []
    page.close()


@pytest.mark.parametrize(("page_path", "header"), [("index.html", "ONNX basis"), ("onnx.html", "Based on")])
def test_operator_tables_are_one_card_per_operator_on_a_phone(
    browser: Browser, server: str, page_path: str, header: str
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 900})
    Visit(page, server).open(f"{server}/{page_path}")
    column = page.locator("article").bounding_box()
    last = page.locator("table.sonnx-cards tbody td:last-child")
    assert last.count() == len(OPERATORS)
    for i in range(last.count()):  # as wide as the text column, not squeezed into a quarter of it
        assert last.nth(i).bounding_box()["width"] >= 0.9 * column["width"]
    # the header row is hidden: each cell is labelled with its column's header
    assert page.locator("table.sonnx-cards tbody td:nth-child(2)").first.get_attribute("data-label") == header
    page.close()


def test_operator_pages_lead_with_rules_and_fold_the_evidence(browser: Browser, server: str) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    Visit(page, server).open(f"{server}/operators/clip.html")
    meta = page.locator("table.need[id='CLIP_S1'] tr.meta")
    assert not meta.is_visible()
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 14000, height  # half the height of the page before the evidence was folded
    page.get_by_role("button", name="Show traceability").click()
    assert meta.is_visible() and "Enforced at" in meta.inner_text()
    page.reload()  # the choice is remembered
    assert page.locator("table.need[id='CLIP_S1'] tr.meta").is_visible()
    page.get_by_role("button", name="Hide traceability").click()
    page.close()


def test_the_matrix_filters_and_searches(browser: Browser, server: str) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    Visit(page, server).open(f"{server}/traceability.html")
    table = page.locator("table.sonnx-matrix")
    page.select_option(".sonnx-matrix-filters select[data-column='Operator']", "clip")
    page.select_option("label.needstable-page-size select", "0")  # all rows on one page
    ids = table.locator("tbody tr td:first-child").all_inner_texts()
    assert ids and all(i.startswith("CLIP_") for i in ids), ids
    page.select_option(".sonnx-matrix-filters select[data-column='Operator']", "")
    page.locator("label.needstable-search input").fill("GEN_")
    page.wait_for_function(  # the widget filters once the typing pauses
        "() => document.querySelector('table.sonnx-matrix tbody tr td').textContent.trim().startsWith('GEN_')"
    )
    rows = table.locator("tbody tr").all_inner_texts()  # the general rules, and the rules that cite them
    assert rows and all("GEN_" in row for row in rows), rows
    ids = table.locator("tbody tr td:first-child").all_inner_texts()
    assert {"GEN_C1", "GEN_C2", "GEN_E1"} <= set(ids), ids
    page.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_the_language_switch_leads_to_the_same_page_in_chinese_and_back(
    browser: Browser, server: str, width: int
) -> None:
    """Every page offers its translation; on a phone the switch is in the navigation drawer."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    visit = Visit(page, server)
    visit.open(f"{server}/operators/clip.html")
    if width < 1000:
        page.click("label.nav-overlay-icon")
    page.click(".sonnx-language a[hreflang='zh-CN']")
    page.wait_for_url(f"{server}/zh_CN/operators/clip.html")
    page.evaluate("document.fonts.ready.then(() => true)")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    article = page.locator("article").inner_text()
    assert "规范" in article and "CLIP_S1" in article  # the headings translated, the ids as they are
    # the words of the scripts and of sphinx-needs' layout are the Chinese site's too
    switch = page.locator("button.sonnx-trace-switch").inner_text()
    assert HAN.search(switch) and "traceability" not in switch, switch
    folded = page.locator("article").text_content()  # the rules' traceability, shown or not
    assert "来源" in folded and "Origin:" not in folded and "Type families:" not in folded
    assert unrendered_math(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"zh_CN-clip-{width}.png"), full_page=False)
    if width < 1000:
        page.click("label.nav-overlay-icon")
    page.click(".sonnx-language a[hreflang='en']")
    page.wait_for_url(f"{server}/operators/clip.html")
    assert visit.problems == []
    page.close()
