"""`replay view` in a real browser: opened from disk, stepped by keyboard, the right table, the violation marked.

Headless Chromium (Debian's ``chromium``, driven by Playwright, as in tests/test_browser.py)
opens the written file as ``file://``; every request the page makes is recorded and must stay
on that file.  At 390 px every pile of the widest table is on screen (the phone's drawing); opened at
``#move-N`` the file shows its header, and the site's viewer its table below the site's header.
Screenshots go to ``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from replay.draw.svg import card_text
from replay.engine import cards as C
from replay.log.validate import check_bytes, parse, replay_to
from tests.test_browser import ARGS, ARTIFACTS, TIMEOUT, chromium, server  # noqa: F401 - the shared fixtures
from tests.test_site import built_site  # noqa: F401 - the site the server serves (one test)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ZK_LOST = ROOT / "examples" / "games" / "zwarta-kolumna" / "base" / "lost-seed-1.json"
BROKEN = ROOT / "examples" / "broken" / "zk-illegal-zk-8.json"
RULES = "https://rules.example/replay/"


def view(log: Path, out: Path, *extra: str) -> Path:
    r = subprocess.run([sys.executable, "-m", "replay", "view", str(log), "-o", str(out), *extra],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def viewer_page(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator:  # noqa: F811
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    profile = tmp_path_factory.mktemp("chromium-profile-view")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, headless=True, args=ARGS, viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(TIMEOUT)
        pg = context.new_page()
        errors: list[str] = []
        requests: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("request", lambda r: requests.append(r.url))
        pg.errors = errors  # type: ignore[attr-defined]
        pg.requests = requests  # type: ignore[attr-defined]
        try:
            yield pg
        finally:
            context.close()


def _open(pg: Any, path: Path) -> None:
    pg.requests.clear()
    pg.goto(path.resolve().as_uri())
    pg.locator(".replay-viewer .stepper output").wait_for()


def _offsite(pg: Any, path: Path) -> list[str]:
    return [u for u in pg.requests if u.split("#")[0] != path.resolve().as_uri() and not u.startswith("data:")]


def _known_step(log: Path) -> int:
    """The first move of the log that puts a named card on a pile (its table is checked pile by pile)."""
    moves = parse(log.read_bytes()).moves
    return next(i + 1 for i, m in enumerate(moves) if getattr(m, "card", None) and getattr(m, "to", None))


def test_the_viewer_steps_by_keyboard_and_draws_the_table(viewer_page: Any, tmp_path: Path) -> None:
    page = viewer_page
    out = view(ZK_LOST, tmp_path / "zk.html")
    log = parse(ZK_LOST.read_bytes())
    n = len(log.moves)
    _open(page, out)
    status = page.locator(".stepper output")
    assert status.inner_text() == "start"
    k = _known_step(ZK_LOST)
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    assert status.inner_text() == f"move {k} of {n}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert status.inner_text() == f"move {k} of {n}"
    assert page.locator(".rv-table svg").get_attribute("aria-label") == f"the table after move {k}"
    assert page.locator(".rv-moves li.current").inner_text().startswith(f"{k}. ")
    assert page.locator(".step.current summary").is_visible()
    # the table at step k, pile by pile, against the engine's own replay
    inst, table, made, _ = replay_to(log, k)
    assert made == k
    snap = table.snapshot()
    move = log.moves[k - 1]
    dst = page.locator(f".rv-table svg g[data-name='{move.to}']")  # type: ignore[union-attr]
    assert "dst" in (dst.get_attribute("class") or "")
    assert dst.locator("text.card").text_content() == card_text(move.card)[0]  # type: ignore[union-attr]
    game = inst.game
    for name, role in zip(game.layout.names, game.layout.roles):
        cards = snap["piles"][name]
        g = page.locator(f".rv-table svg g[data-name='{name}']")
        assert g.locator("text").last.text_content() == f"{name} · {len(cards)}"
        if role != "stock" and cards:
            assert g.locator("text.card").text_content() == card_text(cards[-1])[0], name
    page.screenshot(path=str(ARTIFACTS / "view-known-step.png"))
    page.keyboard.press("End")
    assert status.inner_text() == f"move {n} of {n}"
    page.keyboard.press("Home")
    assert status.inner_text() == "start"
    page.locator(f".rv-moves li[data-step='{k}'] a").click()
    assert status.inner_text() == f"move {k} of {n}"
    page.locator(".stepper button[data-go=next]").click()
    assert status.inner_text() == f"move {k + 1} of {n}"
    assert not page.errors, page.errors
    assert _offsite(page, out) == []


def test_what_the_viewer_shows_at_every_move_is_what_replay_draw_renders(viewer_page: Any, tmp_path: Path) -> None:
    """The script builds each step's drawing from lines and groups stored once (issue 33): at every step, the
    wide drawing and the phone's, the table on screen is :func:`replay.draw.svg.table_svg` of that step, as the
    browser parses both."""
    from replay.draw.svg import fitted, fold, table_svg
    from replay.view.model import replay_log
    from replay.view.render import NARROW

    page = viewer_page
    out = view(EX_WON, tmp_path / "exiles-every.html")
    v = replay_log(EX_WON.read_bytes(), str(EX_WON))
    lay = v.game.layout
    metrics, across = fitted(NARROW, lay.cols)
    rows, cols = fold(lay.rows, lay.cols, across)
    parsed = "(svg) => { const t = document.createElement('div'); t.innerHTML = svg; return t.innerHTML; }"
    shown = "() => document.querySelector('.rv-table').innerHTML"
    try:
        for width, phone in ((1400, False), (390, True)):
            page.set_viewport_size({"width": width, "height": 1000})
            _open(page, out)
            for s in v.steps:
                if s.n:
                    page.keyboard.press("ArrowRight")
                label = f"the table after move {s.n}" if s.n else "the table before the first move"
                page.wait_for_function("(label) => document.querySelector('.rv-table svg')"
                                       ".getAttribute('aria-label') === label", arg=label)
                snap = s.snapshot
                want = table_svg(lay.names, lay.roles, rows if phone else lay.rows, cols if phone else lay.cols,
                                 snap["piles"], foundation_suits=snap.get("foundation_suits"), src=s.src, dst=s.dst,
                                 label=label, **({"metrics": metrics} if phone else {}))
                assert page.evaluate(shown) == page.evaluate(parsed, want.rstrip("\n")), (width, s.n)
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})
    assert not page.errors, page.errors


def test_every_clause_link_has_its_tooltip_written_once(viewer_page: Any, tmp_path: Path) -> None:
    """A clause's tooltip (its translation) is in the file at its first link only (issue 33); once the viewer
    runs, every link of that clause carries it."""
    import re

    from replay.view.render import _clause_link

    page = viewer_page
    out = view(ZK_LOST, tmp_path / "zk-tips.html")
    text = out.read_text(encoding="utf-8")
    links = re.findall(r'class="rv-clause"[^>]*>([^<]+)<', text)
    written = re.findall(r'class="rv-clause"[^>]*title="[^"]*">([^<]+)<', text)
    assert len(written) == len(set(written)) < len(links)
    _open(page, out)
    shown = page.evaluate("() => Array.from(document.querySelectorAll('.rv-clause'), a => [a.textContent, a.title])")
    assert len(shown) == len(links)
    for cid, title in shown:
        want = re.search(r'title="([^"]*)"', _clause_link(None, cid))
        assert want and title == html.unescape(want.group(1)), (cid, title)
    assert not page.errors, page.errors


def test_the_viewer_marks_the_refused_move(viewer_page: Any, tmp_path: Path) -> None:
    page = viewer_page
    out = view(BROKEN, tmp_path / "broken.html", "--rules-url", RULES)
    p = check_bytes(BROKEN.read_bytes(), str(BROKEN)).first
    assert p is not None and p.move is not None and p.clause
    _open(page, out)
    status = page.locator(".stepper output")
    page.keyboard.press("End")
    assert status.inner_text() == f"move {p.move + 1} refused"
    marker = page.locator(".step.current .rv-violation")
    assert marker.is_visible()
    assert p.clause in marker.inner_text() and (p.translation or "")[:40] in marker.inner_text()
    link = marker.locator("a.rv-clause")
    assert link.get_attribute("href") == f"{RULES}games/zwarta-kolumna/#{p.clause}"
    assert page.locator(f".rv-timeline .rv-cell.refused[data-step='{p.move + 1}']").is_visible()
    assert page.locator(".rv-moves li.refused.current").is_visible()
    page.screenshot(path=str(ARTIFACTS / "view-refused-move.png"))
    page.keyboard.press("ArrowLeft")
    assert status.inner_text() == f"move {p.move} of {len(parse(BROKEN.read_bytes()).moves)}"
    assert not page.locator(".rv-violation").is_visible()
    assert not page.errors, page.errors
    assert _offsite(page, out) == []


def _analysed(tmp_path: Path, nodes: int) -> tuple[Path, dict[str, Any]]:
    """``replay analyse`` of ZK_LOST with ``nodes`` a position: the document's file and its content."""
    analysis = tmp_path / "analysis.json"
    r = subprocess.run([sys.executable, "-m", "replay", "analyse", str(ZK_LOST), "--nodes", str(nodes), "-o",
                        str(analysis)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr
    return analysis, json.loads(analysis.read_text(encoding="utf-8"))


def test_the_viewer_shows_the_analysis_on_its_timeline(viewer_page: Any, tmp_path: Path) -> None:
    page = viewer_page
    analysis, doc = _analysed(tmp_path, 100)
    out = view(ZK_LOST, tmp_path / "analysed.html", "--analysis", str(analysis))
    _open(page, out)
    last = doc["positions"][-1]
    cell = page.locator(f".rv-timeline .rv-cell[data-step='{last['position']}']")
    assert f"an-{last['status']}" in (cell.get_attribute("class") or "")
    cell.click()
    assert page.locator(".stepper output").inner_text() == f"move {last['position']} of {doc['moves']}"
    shown = page.locator(".step.current .rv-analysis").inner_text()
    assert {"won": "winnable", "unwinnable": "unwinnable", "unknown": "unknown within the budget"}[last["status"]] \
        in shown
    page.screenshot(path=str(ARTIFACTS / "view-analysis.png"))
    assert not page.errors, page.errors
    assert _offsite(page, out) == []


def test_only_the_viewers_own_script_runs(viewer_page: Any, tmp_path: Path) -> None:
    page = viewer_page
    out = view(ZK_LOST, tmp_path / "zk.html")
    html = out.read_text(encoding="utf-8")
    # markup that escaping might one day let through: an inline script and a handler, before the viewer's
    injected = html.replace("<main", '<script>document.title = "pwned"</script><img src="data:," '
                                     'onerror="document.title=\'pwned\'"><main', 1)
    out.write_text(injected, encoding="utf-8")
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    _open(page, out)
    assert page.title() != "pwned"
    page.keyboard.press("ArrowRight")
    assert page.locator(".stepper output").inner_text().startswith("move 1 of")  # the viewer's own script runs
    assert violations, "the browser reported no refused script"
    assert not page.errors, page.errors


def test_the_viewer_offers_its_log_and_plays_itself(viewer_page: Any, tmp_path: Path) -> None:
    page = viewer_page
    out = view(ZK_LOST, tmp_path / "zk.html")
    _open(page, out)
    with page.expect_download() as info:
        page.locator(".stepper .rv-download").click()
    saved = tmp_path / "saved.json"
    info.value.save_as(saved)
    assert info.value.suggested_filename == ZK_LOST.name
    assert saved.read_bytes() == ZK_LOST.read_bytes()
    status = page.locator(".stepper output")
    page.locator(".stepper [data-go=play]").click()
    page.wait_for_function("() => /^move [2-9]/.test(document.querySelector('.stepper output').textContent)",
                           timeout=10_000)
    page.locator(".stepper [data-go=play]").click()  # pause
    held = status.inner_text()
    page.wait_for_timeout(1500)
    assert status.inner_text() == held
    assert page.locator(".step.current .rv-legal").is_visible()
    assert page.title().startswith("Compact Column")
    assert not page.errors, page.errors
    assert _offsite(page, out) == []


def test_the_timeline_shows_the_best_line_its_cards_home_and_what_each_verdict_rests_on(viewer_page: Any,
                                                                                         tmp_path: Path) -> None:
    page = viewer_page
    analysis, doc = _analysed(tmp_path, 300)
    best = doc["best"]
    assert best and best["home"] > best["played_home"] and best["line"]
    # a verdict found by a strong player's play, as the solver may come to give: shown as such, beside "proved"
    played = next(p for p in doc["positions"] if p["how"] == "inferred")
    played.update(how="played", reason="a strong player wins from here")
    played.pop("from", None)
    analysis.write_text(json.dumps(doc), encoding="utf-8")
    out = view(ZK_LOST, tmp_path / "best.html", "--analysis", str(analysis))
    _open(page, out)
    shown = page.locator(".rv-best").inner_text()
    assert f"brings {best['home']} cards home, against {best['played_home']} in the game as played" in shown
    assert best["line"][0] in shown
    facts = page.locator(".rv-facts").inner_text()
    assert f"brings {best['home']} cards home" in facts  # the summary says it too
    cell = page.locator(f".rv-timeline .rv-cell[data-step='{best['position']}']")
    assert "an-best" in (cell.get_attribute("class") or "")
    assert f"best found: {best['home']} cards home" in (cell.get_attribute("title") or "")
    page.locator(".rv-best a").click()
    assert page.locator(".stepper output").inner_text() == f"move {best['position']} of {doc['moves']}"
    here = page.locator(".step.current .rv-analysis").inner_text()
    assert f"the best line found brings {best['home']} cards home" in here
    proved = next(p for p in doc["positions"] if p["how"] == "solved" and p["status"] == "unwinnable")
    page.locator(f".rv-timeline .rv-cell[data-step='{proved['position']}']").click()
    assert "proved" in page.locator(".step.current .rv-analysis").inner_text()
    page.locator(f".rv-timeline .rv-cell[data-step='{played['position']}']").click()
    assert "found by play: a strong player wins from here" in page.locator(".step.current .rv-analysis").inner_text()
    page.locator(f".rv-timeline .rv-cell[data-step='{best['position']}']").click()
    page.screenshot(path=str(ARTIFACTS / "view-best-line.png"))
    assert not page.errors, page.errors
    assert _offsite(page, out) == []


# --------------------------------------------------------------------------- a phone, and a move in the address

EX_WON = ROOT / "examples" / "games" / "exiles" / "base" / "won-seed-12.json"

#: where each pile of the table is on screen, the figure's box, its sideways scroll, the smallest text drawn
PILES = """() => {
  const fig = document.querySelector('.rv-table');
  const f = fig.getBoundingClientRect();
  const piles = [...fig.querySelectorAll('g.pile[data-name]')].map((g) => {
    const r = g.querySelector('rect:not(.hit)').getBoundingClientRect();
    return {name: g.dataset.name, left: r.left, right: r.right, label: g.getAttribute('aria-label')};
  });
  let smallest = 1e9;
  for (const t of fig.querySelectorAll('text')) smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return {piles, fig: [f.left, f.right], scroll: fig.scrollWidth - fig.clientWidth, page: document.documentElement.scrollWidth,
          fitted: fig.classList.contains('rv-fitted'), smallest};
}"""


def test_the_viewer_on_a_phone_shows_every_pile(viewer_page: Any, tmp_path: Path) -> None:
    """At 390 px the thirteen packets of the exiles and every other pile are on screen (the table drawn as the Play
    page draws it for a phone, text 12 px and more), step after step; at 1400 px the usual drawing."""
    page = viewer_page
    out = view(EX_WON, tmp_path / "exiles.html")
    log = parse(EX_WON.read_bytes())
    names = replay_to(log, 0)[0].game.layout.names
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        _open(page, out)
        for k in (0, 1, 40):
            if k:
                page.locator(f".rv-moves li[data-step='{k}'] a").click()
            m = page.evaluate(PILES)
            assert m["fitted"] and m["scroll"] <= 1 and m["page"] <= 390, m
            assert [p["name"] for p in m["piles"]] == list(names)
            off = [p["name"] for p in m["piles"] if p["left"] < max(0, m["fig"][0]) - 0.5 or p["right"] > min(390, m["fig"][1]) + 0.5]
            assert not off, (k, off, m["fig"])
            assert m["smallest"] >= 12, m["smallest"]
            _, table, _, _ = replay_to(log, k)
            for p, pile in zip(m["piles"], table.piles):  # the drawing is the engine's table at that step
                if pile and p["name"] != "stock":
                    assert f"{card_text(C.code(pile[-1]))[0]} on top" in p["label"], (k, p)
        page.screenshot(path=str(ARTIFACTS / "view-exiles-390.png"), full_page=True)
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.locator(".stepper button[data-go=next]").click()
        assert not page.evaluate(PILES)["fitted"]  # room enough: the site's own drawing
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})
    assert not page.errors, page.errors
    assert _offsite(page, out) == []


@pytest.mark.parametrize("width", [1400, 390])
def test_the_viewer_opened_at_a_move_shows_its_header(viewer_page: Any, tmp_path: Path, width: int) -> None:
    """A `replay view` file opened at #move-20 shows move 20 and its header (the title, the facts), not the
    step's section with the header scrolled away."""
    page = viewer_page
    out = view(EX_WON, tmp_path / "exiles.html")
    page.set_viewport_size({"width": width, "height": 844})
    try:
        page.goto(out.resolve().as_uri() + "#move-20")
        page.locator(".stepper output").filter(has_text="move 20 of").wait_for()
        page.wait_for_load_state("load")
        page.wait_for_function("() => document.readyState === 'complete'")
        top = page.evaluate("() => [document.querySelector('h1').getBoundingClientRect().top, "
                            "document.querySelector('.stepper').getBoundingClientRect().top, innerHeight, scrollY]")
        assert 0 <= top[0] and top[1] < top[2], top
        assert page.locator(".step.current summary").inner_text().startswith("20/170")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_the_sites_viewer_opened_at_a_move_shows_the_table_below_the_sites_header(viewer_page: Any,
                                                                                    server: str) -> None:  # noqa: F811
    page = viewer_page
    page.goto(f"{server}examples/exiles/base/won-seed-12/#move-20")
    page.locator(".stepper output").filter(has_text="move 20 of").wait_for()
    page.wait_for_function("() => document.readyState === 'complete'")
    m = page.evaluate("() => ({header: document.querySelector('.md-header').getBoundingClientRect().bottom, "
                      "bar: document.querySelector('.replay-viewer .stepper').getBoundingClientRect().top, "
                      "table: document.querySelector('.replay-viewer .rv-table').getBoundingClientRect().top, "
                      "h: innerHeight})")
    assert m["header"] <= m["bar"] < m["table"] < m["h"], m
