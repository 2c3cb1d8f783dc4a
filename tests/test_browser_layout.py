"""The site as a reader sees it (issue #16 §3), in headless Chromium: the log format linked from the home
page, IDs unbroken in tables, wide tables fitting a wide window, the glossary in alphabetical order, the
English beneath the two Russian columns, and only the terms of art underlined.

Screenshots go to ``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

from typing import Any

import pytest

from replay.corpus.loader import default_corpus
from replay.site.register import glossary_order
from tests.test_browser import ARTIFACTS, browser_page, chromium, server  # noqa: F401 - fixtures
from tests.test_site import built_site  # noqa: F401 - the session's build

pytestmark = pytest.mark.browser


def _open(page: Any, server: str, path: str, width: int = 1400) -> None:
    page.set_viewport_size({"width": width, "height": 1000})
    page.goto(server + path)
    page.wait_for_load_state("load")


def test_the_home_page_links_the_log_format(browser_page, server):  # noqa: F811
    _open(browser_page, server, "")
    link = browser_page.locator("article a", has_text="the log format").first
    assert link.is_visible()
    link.click()
    browser_page.wait_for_url("**/log-format/")
    assert "replay-log/1" in browser_page.locator("article h1").inner_text()


@pytest.mark.parametrize("width", [1400, 700])
@pytest.mark.parametrize("game", ["printex-frame", "zwarta-kolumna"])
def test_ids_in_tables_are_never_broken(browser_page, server, game, width):  # noqa: F811
    _open(browser_page, server, f"games/{game}/", width)
    broken = browser_page.evaluate("""() => Array.from(document.querySelectorAll(
            'article table code, article table a[href*="#amb-"]'))
        .filter(e => e.offsetParent !== null && e.textContent.includes('-'))
        .filter(e => e.getClientRects().length > 1
                     || e.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(e).lineHeight || 20))
        .map(e => e.textContent)""")
    checked = browser_page.evaluate("""() => Array.from(document.querySelectorAll('article table code'))
        .filter(e => e.offsetParent !== null && /^[a-z]+(-[a-z0-9]+)+$/.test(e.textContent)).map(e => e.textContent)""")
    browser_page.locator("[id='rulings']").scroll_into_view_if_needed()
    browser_page.screenshot(path=str(ARTIFACTS / f"rulings-{game}-{width}.png"))
    assert broken == [], broken
    assert len(checked) >= 5  # hyphenated IDs are there to be checked
    assert game != "printex-frame" or "foundation-arrangement" in checked  # the one of the issue


def test_wide_tables_fit_a_wide_window(browser_page, server):  # noqa: F811
    _open(browser_page, server, "games/printex-frame/", 1400)
    table = browser_page.locator("[id='rulings'] ~ div table, [id='rulings'] ~ table").first
    table.scroll_into_view_if_needed()
    sizes = table.evaluate("""t => { const w = t.closest('.md-typeset__scrollwrap') || t.parentElement;
                                     return [w.scrollWidth, w.clientWidth]; }""")
    assert sizes[0] <= sizes[1] + 1, sizes  # no sideways scrolling: the cells wrap
    _open(browser_page, server, "games/printex-frame/", 700)
    widths = browser_page.evaluate("""() => [document.documentElement.scrollWidth, window.innerWidth]""")
    assert widths[0] <= widths[1], widths  # a narrow window: the table scrolls in its box, the page does not


def test_the_glossary_is_in_alphabetical_order_by_default(browser_page, server):  # noqa: F811
    _open(browser_page, server, "glossary/")
    shown = browser_page.evaluate("""() => Array.from(document.querySelectorAll('article table tbody tr'))
        .map(r => r.cells[0].textContent.trim())""")
    terms = sorted(default_corpus().terms.values(), key=glossary_order)
    assert shown == [t.gloss for t in terms]
    heads = [glossary_order(t)[0] for t in terms]
    assert heads == sorted(heads) and len(shown) > 50
    browser_page.screenshot(path=str(ARTIFACTS / "glossary-order.png"))


def test_the_english_takes_the_full_width_under_the_two_russian_columns(browser_page, server):  # noqa: F811
    _open(browser_page, server, "games/exiles/")
    browser_page.locator("[id='ex-2']").scroll_into_view_if_needed()
    boxes = browser_page.evaluate("""() => {
        const block = document.querySelector('.clause-text.clause-text--three');
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.bottom]; };
        return [box(block), box(block.querySelector('.clause-diplomatic')), box(block.querySelector('.clause-modern')),
                box(block.querySelector('.clause-translation'))]; }""")
    browser_page.screenshot(path=str(ARTIFACTS / "russian-layers.png"))
    block, old, modern, english = boxes
    assert abs(old[1] - modern[1]) < 2 and old[0] < modern[0]  # side by side
    assert english[1] >= max(old[3], modern[3]) - 1  # beneath them
    assert english[2] >= 0.95 * block[2]  # the whole width
    assert old[2] + modern[2] >= 0.85 * block[2]  # the two Russian columns share the width


def test_only_terms_of_art_are_underlined(browser_page, server):  # noqa: F811
    terms = default_corpus().terms.values()
    art = {t.gloss for t in terms if t.art}
    ordinary = {t.gloss for t in terms if not t.art}
    assert art and ordinary
    seen: set[str] = set()
    for game in ("printex-frame", "zwarta-kolumna", "exiles", "napoleons-square"):
        _open(browser_page, server, f"games/{game}/")
        titles = browser_page.evaluate("""() => Array.from(document.querySelectorAll('article abbr[title]'))
            .map(a => [a.title, getComputedStyle(a).textDecorationLine])""")
        for title, decoration in titles:
            gloss = title.split(": ", 1)[0]
            assert gloss in art, f"{game}: {gloss!r} is underlined but is an ordinary word"
            assert "underline" in decoration
            seen.add(gloss)
        if game == "zwarta-kolumna":
            browser_page.screenshot(path=str(ARTIFACTS / "terms-of-art.png"))
    assert len(seen) > 10 and not seen & ordinary

