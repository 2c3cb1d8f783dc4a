"""Each reader's path through the site (issue 24), in headless Chromium at 1400 px (a desktop) and 390 px
(a phone: touch, a mobile viewport): the historian who cites, the player, the contributor.

The measurements are the test's: the page never wider than the window, text sizes, 44 px touch targets,
contrast (WCAG's ratio, computed from the colours the browser applies), focusability.  Screenshots go to
``tests/artifacts/readers-*.png`` (ignored by git) to be looked at.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from urllib.parse import urljoin
from pathlib import Path
from typing import Any, Iterator

import pytest

from replay.corpus.loader import default_corpus
from tests.test_browser import ARTIFACTS, TIMEOUT, browser, chromium, server  # noqa: F401 - fixtures
from tests.test_site import built_site  # noqa: F401 - the session's build

pytestmark = pytest.mark.browser

WIDTHS = [1400, 390]

#: the relative luminance and contrast ratio of WCAG 2, computed in the page from computed colours
CONTRAST_JS = """
(() => {
  function rgb(s) { const m = s.match(/[\\d.]+/g).map(Number); return m.length > 3 && m[3] === 0 ? null : m.slice(0, 3); }
  function lum(c) { const v = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
                    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; }
  function background(el) { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
                            if (c) return c; } return [255, 255, 255]; }
  window.contrastOf = function (el) { const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
                                      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
})()
"""




@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    width = request.param
    phone = width < 600
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=phone, has_touch=phone,
                                  device_scale_factor=1)
    context.set_default_timeout(TIMEOUT)
    pg = context.new_page()
    pg.width = width  # type: ignore[attr-defined]
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors  # type: ignore[attr-defined]
    try:
        yield pg
        assert not errors, errors
    finally:
        context.close()


def _open(pg: Any, url: str) -> None:
    pg.goto(url)
    pg.wait_for_load_state("load")
    pg.evaluate(CONTRAST_JS)


def _fits(pg: Any) -> None:
    """The page is never wider than the window (what does not fit scrolls inside its own box)."""
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= pg.width, f"the page is {width} px wide in a {pg.width} px window"


def _shot(pg: Any, name: str) -> None:
    pg.screenshot(path=str(ARTIFACTS / f"readers-{name}-{pg.width}.png"))


def _font_px(pg: Any, selector: str) -> float:
    return pg.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)")


# --------------------------------------------------------------------------- the historian


def test_the_historian_finds_the_licences_the_version_and_how_to_cite(page: Any, server: str) -> None:  # noqa: F811
    _open(page, server)
    footer = page.locator(".md-copyright").inner_text()
    assert re.search(r"version \d+\.\d+\.\d+ \(\d{4}-\d\d-\d\d", footer), footer
    _open(page, server + "licence/")
    text = page.locator("article").inner_text()
    assert "MIT License" in text and "Creative Commons Attribution 4.0" in text
    assert "cff-version: 1.2.0" in text
    for tid in default_corpus().texts:
        assert f"Text {tid}" in text
    assert "No public address yet" in text  # mkdocs.yml sets no site_url: said, not invented
    _fits(page)
    _shot(page, "licence")
    _open(page, server + "games/zwarta-kolumna/#zk-8")
    cite = page.locator("[id='zk-8'] ~ .clause-cite").first
    cite.scroll_into_view_if_needed()
    words = cite.inner_text()
    assert "clause zk-8" in words and re.search(r"version \d+\.\d+\.\d+", words)
    assert "no public address" in words
    assert _font_px(page, ".clause-cite") >= 12
    _fits(page)
    _shot(page, "cite")


def test_the_historian_reads_a_text_whole_and_downloads_its_tei(page: Any, server: str) -> None:  # noqa: F811
    corpus = default_corpus()
    _open(page, server + "texts/001/")
    first = corpus.diplomatic("zk-2")
    assert first[:30] in page.locator(".tabbed-block").first.inner_text()
    tei = page.locator("article a[href$='001.tei.xml']").first
    href = tei.get_attribute("href")
    response = page.request.get(urljoin(page.url, href))
    assert response.ok
    root = ET.fromstring(response.body())
    assert root.tag.endswith("TEI")
    verbatim = page.locator("article a[href*='sources/001_']").first
    assert verbatim.is_visible()
    page.locator(".tabbed-labels label", has_text="Translation").first.click()
    assert corpus.clauses["zk-2"].translation[:30] in page.locator(".tabbed-block").nth(1).inner_text()
    _fits(page)
    _shot(page, "text-001")
    _open(page, server + "sources/")
    numbering = page.locator("[id='numbering']")
    numbering.scroll_into_view_if_needed()
    assert "There is no text 002" in page.locator("article").inner_text()
    _fits(page)


def test_the_historian_filters_the_register(page: Any, server: str) -> None:  # noqa: F811
    corpus = default_corpus()
    _open(page, server + "ambiguities/")
    form = page.locator("form.amb-filter")
    assert form.is_visible()
    total = len(corpus.ambiguities)
    assert page.locator(".amb-count").inner_text() == f"{total} entries"
    page.select_option("form.amb-filter select[name=game]", "exiles")
    page.select_option("form.amb-filter select[name=status]", "ruling")
    want = [a.id for a in corpus.ambiguities.values() if a.status == "ruling"
            and any(corpus.clauses[c].game == "exiles" for c in a.clauses if c in corpus.clauses)]
    shown = page.eval_on_selector_all(".amb-entry:not([hidden])", "es => es.map(e => e.dataset.id)")
    assert shown == want and want
    rows = page.eval_on_selector_all(".amb-table tbody tr:not([hidden]) td:first-child", "es => es.map(e => e.textContent.trim())")
    assert rows == want
    page.fill("form.amb-filter input[name=q]", "descending")
    words = [a for a in want if "descending" in " ".join([corpus.ambiguities[a].problem, corpus.ambiguities[a].title,
                                                           *(r.summary for r in corpus.ambiguities[a].readings)]).lower()]
    shown = page.eval_on_selector_all(".amb-entry:not([hidden])", "es => es.map(e => e.dataset.id)")
    assert set(words) <= set(shown) and len(shown) < len(want)
    assert page.locator(".amb-count").inner_text() == f"{len(shown)} of {total} entries"
    page.select_option("form.amb-filter select[name=category]", "vague")
    page.locator("form.amb-filter button[type=reset]").click()
    page.wait_for_function(f"() => document.querySelector('.amb-count').textContent === '{total} entries'")
    _fits(page)
    _shot(page, "register")


# --------------------------------------------------------------------------- the player


def test_the_player_starts_from_the_home_page(page: Any, server: str) -> None:  # noqa: F811
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    install = re.search(r"```sh\n(.*?)```", readme, re.S).group(1).strip()  # type: ignore[union-attr]
    _open(page, server)
    assert "served, not from disk" in page.locator("article").inner_text()
    page.locator("article a", has_text="Start here").first.click()
    page.wait_for_url("**/start/")
    text = page.locator("article").inner_text()
    assert install in text  # the README's install, word for word
    for step in ("replay deal", "replay play", "replay view"):
        assert step in text
    assert "Play page" in text and "being built" not in text  # the browser Play pages, linked
    assert _font_px(page, "article p") >= 14
    _fits(page)
    _shot(page, "start")
    page.locator("article a", has_text="the Play page").first.click()
    page.wait_for_url("**/play/")
    assert re.search(r"version \d+\.\d+\.\d+", page.locator(".md-copyright").inner_text())
    _fits(page)


def _example(server: str) -> str:
    return server + "examples/zwarta-kolumna/base/lost-seed-1/"


def test_the_player_reads_the_viewer_on_a_phone_and_a_desktop(page: Any, server: str) -> None:  # noqa: F811
    _open(page, _example(server))
    viewer = page.locator(".replay-viewer").first
    viewer.scroll_into_view_if_needed()
    page.locator(".stepper [data-go=next]").click()
    _fits(page)
    sizes = page.evaluate("""() => {
        const px = sel => Array.from(document.querySelectorAll(sel)).map(e => e.getBoundingClientRect().height);
        return {card: Math.min(...px('.rv-table svg text.card')), under: Math.min(...px('.rv-table svg text.under')),
                name: Math.min(...px('.rv-table svg text.name')),
                buttons: Array.from(document.querySelectorAll('.stepper button, .stepper .rv-download'))
                               .map(e => [e.getBoundingClientRect().height, e.getBoundingClientRect().width]),
                wrap: getComputedStyle(document.querySelector('.rv-timeline')).flexWrap}; }""")
    # rendered heights of the drawing's text (the SVG is scaled): ranks, the cards beneath, the pile names
    assert sizes["card"] >= 14, sizes
    assert sizes["under"] >= 8 and sizes["name"] >= 9, sizes
    assert sizes["wrap"] == "wrap"
    if page.width < 600:
        assert all(h >= 44 and w >= 44 for h, w in sizes["buttons"]), sizes["buttons"]
    assert page.locator(".rv-download").get_attribute("href") == "../lost-seed-1.json"
    pile = page.locator(".rv-table svg g.pile").first.get_attribute("aria-label")
    assert re.search(r"\d+ cards?", pile or ""), pile
    _shot(page, "viewer")


def test_the_player_steps_by_swipe_and_by_the_viewers_own_keys(page: Any, server: str) -> None:  # noqa: F811
    _open(page, _example(server))
    status = page.locator(".stepper output")
    assert status.inner_text() == "start"
    page.locator("article h1").click()  # the focus on the page, not the viewer: its keys are the page's
    page.keyboard.press("ArrowRight")
    assert status.inner_text() == "start"
    page.locator(".stepper [data-go=next]").focus()
    page.keyboard.press("ArrowRight")
    assert status.inner_text().startswith("move 1 of")
    swipe = """dx => { const box = document.querySelector('.replay-viewer .game-steps');
        const r = box.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + 10;
        const t = (cx) => new Touch({identifier: 1, target: box, clientX: cx, clientY: y});
        box.dispatchEvent(new TouchEvent('touchstart', {touches: [t(x)], changedTouches: [t(x)], bubbles: true}));
        box.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [t(x + dx)], bubbles: true})); }"""
    page.evaluate(swipe, -120)  # to the left: the next move
    assert status.inner_text().startswith("move 2 of")
    page.evaluate(swipe, 120)
    assert status.inner_text().startswith("move 1 of")


def test_the_colours_hold_their_contrast_and_say_more_than_colour(page: Any, server: str) -> None:  # noqa: F811
    _open(page, server + "games/printex-frame/")
    page.add_style_tag(content="* { transition: none !important; }")  # the colours at once, not easing in
    for scheme in ("default", "slate"):
        page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        page.wait_for_timeout(600)  # Material's links ease into their new colour
        links = page.evaluate("""() => Array.from(document.querySelectorAll('article a[href]'))
            .filter(a => a.offsetParent !== null && a.textContent.trim() && !a.querySelector('img, svg')
                    && !a.closest('pre, .headerlink, code, .tabbed-labels'))
            .map(a => contrastOf(a))""")
        assert links and min(links) >= 4.5, (scheme, min(links))
        reds = page.evaluate("""() => Array.from(document.querySelectorAll('article .suit-H, article .suit-D'))
            .map(e => contrastOf(e))""")
        assert reds and min(reds) >= 4.5, (scheme, min(reds))
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'default')")
    _open(page, server + "games/zwarta-kolumna/")
    abbrs = page.evaluate("() => Array.from(document.querySelectorAll('article abbr[title]')).map(a => a.tabIndex)")
    assert len(abbrs) > 10 and all(i >= 0 for i in abbrs)  # every glossary word takes the keyboard's focus
    if page.width >= 600:
        page.locator("article abbr[title]").first.focus()
        page.wait_for_selector(".md-tooltip--active, .md-tooltip2--active, [role=tooltip]", state="attached")
        _shot(page, "tooltip")


def test_the_viewer_file_on_a_phone_shows_the_touch_hint(page: Any, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from tests.test_view_browser import ROOT, ZK_LOST, view

    analysis = tmp_path / "a.json"
    r = subprocess.run([sys.executable, "-m", "replay", "analyse", str(ZK_LOST), "--nodes", "100", "-o", str(analysis)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr
    out = view(ZK_LOST, tmp_path / "zk.html", "--analysis", str(analysis))
    _open(page, out.resolve().as_uri())
    touch = page.width < 600
    assert page.locator(".rv-keys").is_visible() is not touch
    assert page.locator(".rv-touch").is_visible() is touch
    _fits(page)
    marks = page.evaluate("""() => Array.from(document.querySelectorAll('.rv-moves li[class*=an-] > a'))
        .map(a => getComputedStyle(a, '::before').content)""")
    doc = json.loads(analysis.read_text(encoding="utf-8"))
    assert len(marks) == len(doc["positions"]) and all(m.strip('"').strip() in "✓✗?" and m != "none" for m in marks)
    legend = page.locator(".rv-legend").inner_text()
    assert "✓" in legend and "✗" in legend
    # the best line found (issue 26): a bar under its cell, said in the legend, and a link to its position
    best = doc["best"]
    assert best, "the analysis found no best line"
    cell = page.locator(f".rv-timeline .rv-cell[data-step='{best['position']}']")
    assert "an-best" in (cell.get_attribute("class") or "")
    assert "inset" in cell.evaluate("e => getComputedStyle(e).boxShadow")  # the bar: a shape besides its colour
    assert "underlined: the best line found starts here" in legend
    link = page.locator(".rv-best a")
    box = link.bounding_box()
    assert box and (not touch or box["height"] >= 44), box
    assert page.evaluate("contrastOf(document.querySelector('.rv-best'))") >= 4.5
    link.click()
    assert page.locator(".stepper output").inner_text().startswith(f"move {best['position']} of")
    _fits(page)
    page.locator(".rv-timeline").scroll_into_view_if_needed()
    _shot(page, "viewer-file")


# --------------------------------------------------------------------------- the contributor


def test_the_contributor_finds_the_guide_and_the_schemas(page: Any, server: str) -> None:  # noqa: F811
    _open(page, server)
    _open(page, server + "contributing/")
    text = page.locator("article").inner_text()
    for step in ("The source file", "Clauses and spans", "Ambiguities", "Glossary", "The game module",
                 "Tests tagged by clause", "Check and regenerate"):
        assert step in text
    href = page.locator("article a[href*='schema/corpus/clauses.schema.json']").first.get_attribute("href")
    response = page.request.get(urljoin(page.url, href))
    assert response.ok and response.json()["title"]
    _fits(page)
    _shot(page, "contributing")


def test_a_site_opened_from_disk_says_it_must_be_served(page: Any, built_site: Path) -> None:  # noqa: F811
    _open(page, (built_site / "index.html").as_uri())
    note = page.locator(".replay-offline")
    assert note.is_visible() and "server" in note.inner_text()
    _shot(page, "offline")
    page.errors[:] = [e for e in page.errors if "search" not in e]  # what the note is about: search cannot load
