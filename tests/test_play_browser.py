"""The Play pages in a real browser: every game played by clicks, on the built site served on 127.0.0.1.

Headless Chromium (Debian's ``chromium``, driven by Playwright, as in tests/test_browser.py) opens each
game's Play page, waits for the engine (Pyodide and the archive's Python, from the site itself), and
plays a game scripted from the engine's own legal moves: card moves by a click on the container and
another on where it goes, a deal by its button, a move by its number in the list, a comment; then a
move the rules refuse, which must name the clause the validator names, linked to the clause; an undo;
the log downloaded and checked with ``replay validate``.  Every request is routed: one that would leave
127.0.0.1 is refused and fails the test.  At 390 px the page is measured (no text under 12 px, every
control at least 44 px, nothing wider than the screen); screenshots at 1400 and 390 px go to
``tests/artifacts/``.  Without WebAssembly the page says so and gives the terminal's command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from replay.engine.game import Move
from replay.games.catalog import create
from replay.log.play import dumps, new_log, step_of
from replay.log.validate import check_bytes
from tests.test_browser import ARGS, ARTIFACTS, TIMEOUT, chromium, server  # noqa: F401 - the shared fixtures
from tests.test_site import built_site  # noqa: F401

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
LOAD = 240_000  # ms: the runtime's first start on a busy machine

#: (game, variants, rulings, seed): every game, a variant, readings other than the default
CASES = [
    ("zwarta-kolumna", (), {}, 7),
    ("printex-frame", ("cztery-katy",), {"frame": "square-20"}, 5),
    ("exiles", (), {"foundations": "eight-aces"}, 3),
    ("napoleons-square", (), {"sequence-moves": "whole-sequence"}, 2),
]


@pytest.fixture(scope="module")
def play(chromium: str, server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:  # noqa: F811
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    profile = tmp_path_factory.mktemp("chromium-profile-play")
    origin = server.rstrip("/")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, headless=True, args=ARGS, accept_downloads=True,
            viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(TIMEOUT)
        left: list[str] = []
        requests: list[str] = []

        def route(r: Any) -> None:
            url = r.request.url
            if url.startswith(origin + "/") or url.startswith(("blob:", "data:")):
                r.continue_()
            else:
                left.append(url)
                r.abort()

        context.route("**/*", route)
        context.on("request", lambda r: requests.append(r.url))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors, page.left, page.requests, page.origin = errors, left, requests, origin  # type: ignore[attr-defined]
        page.pw = p  # type: ignore[attr-defined]
        try:
            yield page
        finally:
            context.close()


def loaded(page: Any) -> None:
    page.locator(".rp-legal li").first.wait_for(timeout=LOAD)
    assert page.locator(".rp-error").is_hidden(), page.locator(".rp-error").inner_text()


def plan(gid: str, variants: tuple[str, ...], rulings: dict[str, str], seed: int, n: int = 12) -> dict[str, Any]:
    """A game to play by the page's means, from the engine's legal moves; then a move the rules refuse."""
    game = create(gid, variants, rulings)
    deck = game.deck_from_seed(seed)
    t = game.new_table(deck)
    steps: list[tuple[str, Any, dict[str, Any]]] = []
    for k in range(n):
        legal = t.legal_moves()
        if not legal:
            break
        pairs = [m for m in legal if m.src >= 0 and m.dst >= 0
                 and sum((x.src, x.dst) == (m.src, m.dst) for x in legal) == 1]
        bare = [m for m in legal if m.src < 0]
        if pairs and k % 3 != 2:
            m = pairs[k % len(pairs)]
            how: Any = ("click", (game.layout.names[m.src], game.layout.names[m.dst]))
        elif bare:
            m = bare[0]
            how = ("button", m.type)
        else:
            m = legal[-1]
            how = ("number", legal.index(m) + 1)
        steps.append((how[0], how[1], step_of(game, m, t)))
        t.push(m)
    names = game.layout.names
    made = [s[2] for s in steps]
    refused = None
    legal_pairs = {(m.src, m.dst) for m in t.legal_moves()}
    for src in range(len(names)):
        if not t.piles[src] or src == game.stock:
            continue
        for dst in range(len(names)):
            if dst == src or (src, dst) in legal_pairs or t.violation(Move("move", src, dst)) is None:
                continue
            trial = new_log(game, deck, [*made, {"type": "move", "from": names[src], "to": names[dst]}])
            p = check_bytes(dumps(trial).encode()).first
            if p is not None and p.code == "illegal-move" and p.clause:
                refused = (names[src], names[dst], p)
                break
        if refused:
            break
    assert refused is not None, (gid, "no refusable move found")
    return {"steps": steps, "refused": refused, "game": game}


def click_pile(page: Any, name: str) -> None:
    page.locator(f".rp-table svg g.pile[data-name='{name}']").click()


def made(page: Any) -> int:
    return page.locator(".rp-made li").count()


def play_and_check(page: Any, case: tuple[Any, ...], tmp_path: Path, built: Path, shots: str | None = None) -> str:
    """Play ``case``'s scripted game on the open page; return the log downloaded."""
    gid, variants, rulings, seed = case
    p = plan(gid, variants, rulings, seed)
    header = page.locator(".rp-header").inner_text()
    assert f"seed {seed}" in header and all(f"{k}={v}" in header for k, v in rulings.items()), header
    assert all(v in header for v in variants), header
    for k, (how, what, entry) in enumerate(p["steps"]):
        if k == 1:
            page.fill(".rp-comment input", "played on the Play page")
        before = made(page)
        if how == "click":
            click_pile(page, what[0])
            assert "selected" in (page.locator(f"g.pile[data-name='{what[0]}']").get_attribute("class") or "")
            click_pile(page, what[1])
        elif how == "button":
            page.locator(f".rp-actions .rp-{what}").click()
        else:
            page.locator(f".rp-legal button[data-n='{what}']").click()
        assert made(page) == before + 1, (gid, k, how, what, page.locator(".rp-refusal").inner_text())
        assert page.locator(".rp-refusal").is_hidden()
    src, dst, problem = p["refused"]
    before = made(page)
    click_pile(page, src)
    click_pile(page, dst)
    box = page.locator(".rp-refusal")
    box.wait_for()
    link = box.locator("a.rp-clause").first
    assert link.inner_text() == problem.clause
    game_of = problem.clause.split("-")[0]
    href = link.get_attribute("href") or ""
    page_of = {"zk": "zwarta-kolumna", "pf": "printex-frame", "ex": "exiles", "ns": "napoleons-square"}[game_of]
    assert href.endswith(f"games/{page_of}/#{problem.clause}"), href
    assert f'id="{problem.clause}"' in (built / "games" / page_of / "index.html").read_text(encoding="utf-8")
    text = " ".join(box.inner_text().split())
    assert " ".join(problem.message.split()) in text and " ".join((problem.translation or "").split())[:50] in text
    assert made(page) == before
    if shots:
        page.screenshot(path=str(ARTIFACTS / f"{shots}-1400-refused.png"), full_page=True)
    page.locator(".rp-actions .rp-undo").click()
    assert made(page) == before - 1
    with page.expect_download() as d:
        page.locator(".rp-actions .rp-download").click()
    path = tmp_path / f"{gid}.json"
    d.value.save_as(str(path))
    log = json.loads(path.read_text(encoding="utf-8"))
    want = [dict(e) for _, _, e in p["steps"]][:-1]
    want[1]["comment"] = "played on the Play page"
    assert log["moves"] == want
    assert log["variants"] == sorted(variants) and log["rulings"] == dict(sorted(p["game"].rulings.items()))
    done = subprocess.run([sys.executable, "-m", "replay", "validate", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not page.errors, page.errors
    assert not page.left, page.left
    return path.read_text(encoding="utf-8")


MEASURE = """() => {
  const out = {width: document.documentElement.scrollWidth, view: window.innerWidth, small: [], targets: [],
               texts: 0, smallest: 1e9};
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (!el || !el.getClientRects().length) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    const st = getComputedStyle(el);
    if (st.visibility === "hidden" || st.display === "none") continue;
    let size = parseFloat(st.fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) size *= el.getScreenCTM().a;
    out.texts += 1;
    out.smallest = Math.min(out.smallest, size);
    if (size < 12) out.small.push([el.tagName, n.textContent.trim().slice(0, 30), size]);
  }
  const controls = ".replay-play button, .replay-play select, .replay-play input:not([type=checkbox])," +
                   " .replay-play summary, .replay-play .rp-variants label, .replay-play g.pile";
  for (const el of document.querySelectorAll(controls)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !el.getClientRects().length) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    if (r.height < 44 || r.width < 44) out.targets.push([el.tagName, el.className.baseVal ?? el.className,
                                                         r.width, r.height]);
  }
  return out;
}"""


#: the table is drawn for its box (not scaled down): after the page's width changes, the script redraws it
DRAWN = ("() => { const s = document.querySelector('.rp-table svg'); const w = Number(s && s.getAttribute('width'));"
         " return s && w <= s.parentElement.clientWidth && Math.abs(s.clientWidth - w) < 0.5; }")


def measured_at_390(page: Any, name: str) -> dict[str, Any]:
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(400)
    page.wait_for_function(DRAWN)
    page.screenshot(path=str(ARTIFACTS / f"{name}-390.png"), full_page=True)
    page.evaluate("document.querySelector('.rp-choices').open = true")  # the choices measured too
    page.wait_for_timeout(400)
    page.wait_for_function(DRAWN)
    m = page.evaluate(MEASURE)
    page.screenshot(path=str(ARTIFACTS / f"{name}-390-choices.png"), full_page=True)
    page.evaluate("document.querySelector('.rp-choices').open = false")
    page.set_viewport_size({"width": 1400, "height": 1000})
    (ARTIFACTS / f"{name}-390.json").write_text(json.dumps(m, indent=2) + "\n", encoding="utf-8")
    assert m["width"] <= 390, m  # no horizontal scroll
    assert not m["small"], m["small"][:10]  # no text under 12 px
    assert not m["targets"], m["targets"][:10]  # 44 px touch targets
    return m


def test_zwarta_kolumna_by_clicks_with_a_refusal_an_undo_and_the_log(play: Any, server: str, built_site: Path,  # noqa: F811
                                                                     tmp_path: Path) -> None:
    case = CASES[0]
    play.goto(f"{server}play/{case[0]}/?seed={case[3]}")
    loaded(play)
    play.screenshot(path=str(ARTIFACTS / "play-zwarta-kolumna-1400.png"), full_page=True)
    play_and_check(play, case, tmp_path, built_site, shots="play-zwarta-kolumna")
    m = measured_at_390(play, "play-zwarta-kolumna")
    assert m["texts"] > 50 and m["smallest"] >= 12


def test_printex_frame_with_a_variant_and_another_frame(play: Any, server: str, built_site: Path,  # noqa: F811
                                                        tmp_path: Path) -> None:
    gid, variants, rulings, seed = CASES[1]
    q = "&".join([*(f"variant={v}" for v in variants), *(f"ruling={k}%3D{v}" for k, v in rulings.items())])
    play.goto(f"{server}play/{gid}/?{q}&seed={seed}")
    loaded(play)
    assert play.locator("input[name=variant][value='cztery-katy']").is_checked()
    play_and_check(play, CASES[1], tmp_path, built_site, shots="play-printex-frame")


def test_exiles_from_a_play_under_this_reading_link(play: Any, server: str, built_site: Path,  # noqa: F811
                                                    tmp_path: Path) -> None:
    gid, _, rulings, seed = CASES[2]
    play.goto(f"{server}games/{gid}/")
    link = play.locator("a[href*='ruling=foundations%3Deight-aces']").first
    link.scroll_into_view_if_needed()
    link.click()
    play.wait_for_url(f"**/play/{gid}/?ruling=foundations%3Deight-aces")
    loaded(play)
    assert play.locator("select[data-ruling='foundations']").input_value() == "eight-aces"
    assert "foundations=eight-aces" in play.locator(".rp-header").inner_text()
    play.locator(".rp-choices > summary").click()
    play.fill("input[name=seed]", str(seed))
    play.locator(".rp-submit").click()
    play.locator(".rp-header").filter(has_text=f"seed {seed}").wait_for()
    play_and_check(play, CASES[2], tmp_path, built_site)
    measured_at_390(play, "play-exiles")  # its row of thirteen packets, wrapped


def test_napoleons_square_and_a_log_continued(play: Any, server: str, built_site: Path,  # noqa: F811
                                              tmp_path: Path) -> None:
    gid, _, rulings, seed = CASES[3]
    play.goto(f"{server}play/{gid}/?ruling=sequence-moves%3Dwhole-sequence&seed={seed}")
    loaded(play)
    text = play_and_check(play, CASES[3], tmp_path, built_site)
    n = made(play)
    play.locator(".rp-actions .rp-new").click()
    play.locator(".rp-random").click()
    assert play.locator(".rp-made li").count() == 0
    assert not play.locator(".rp-choices").get_attribute("open") is not None  # closed once a game is dealt
    play.locator(".rp-choices > summary").click()
    play.locator(".rp-continue > summary").click()
    play.fill("textarea[name=log]", text)
    play.locator(".rp-open").click()
    play.wait_for_function(f"() => document.querySelectorAll('.rp-made li').length === {n}")
    assert f"seed {seed}" in play.locator(".rp-header").inner_text()
    play.fill(".rp-line input", "undo")
    play.locator(".rp-line button").click()
    assert made(play) == n - 1
    assert not play.errors, play.errors
    assert not play.left, play.left


def test_the_search_index_is_fetched_when_the_search_is_opened_and_the_search_then_finds(play: Any,
                                                                                          server: str) -> None:  # noqa: F811
    """The Play page holds the theme's request for the site search's index (replay/web/static/search-later.js)
    until the search is opened; then the search works as on any page."""
    before = len(play.requests)
    play.goto(f"{server}play/zwarta-kolumna/?seed=3")
    loaded(play)
    fetched = lambda: [u for u in play.requests[before:] if u.split("?")[0].endswith("/search/search_index.json")]  # noqa: E731
    assert not fetched(), "the Play page fetched the search index before the search was opened"
    box = play.locator("input.md-search__input")
    box.click()
    play.wait_for_function("() => { const m = document.querySelector('.md-search-result__meta');"
                           " return m && m.textContent.trim() && !/initializ/i.test(m.textContent); }",
                           timeout=LOAD)
    assert len(fetched()) == 1
    box.fill("koszulką")
    box.press("End")
    play.locator(".md-search-result__item").first.wait_for()
    hrefs = play.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
    assert any("/games/zwarta-kolumna/" in h for h in hrefs), hrefs[:10]
    play.keyboard.press("Escape")
    # on a page that is not a Play page, the theme fetches it at load as it always does
    before = len(play.requests)
    play.goto(f"{server}games/exiles/")
    play.wait_for_function("() => { const m = document.querySelector('.md-search-result__meta');"
                           " return m && m.textContent.trim() && !/initializ/i.test(m.textContent); }")
    assert len(fetched()) == 1
    assert not play.errors, play.errors


def test_no_request_left_127_0_0_1_and_the_runtime_came_from_the_site(play: Any) -> None:
    runtime = [u for u in play.requests if "/assets/pyodide/" in u]
    assert {u.rsplit("/", 1)[-1] for u in runtime} >= {"pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                                                       "python_stdlib.zip", "pyodide-lock.json"}
    assert all(u.startswith(play.origin + "/") or u.startswith(("blob:", "data:")) for u in play.requests)
    assert not play.left


def test_without_webassembly_the_page_says_so_and_gives_the_command(play: Any, chromium: str,  # noqa: F811
                                                                    server: str) -> None:  # noqa: F811
    browser = play.pw.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.add_init_script("delete globalThis.WebAssembly")  # a browser without it (or with it switched off)
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"{server}play/exiles/")
        note = page.locator(".rp-nowasm")
        note.wait_for()
        assert "no WebAssembly" in note.inner_text() and "replay play exiles -s SEED -o FILE" in note.inner_text()
        assert page.locator(".rp-loading").is_hidden() and page.locator(".rp-game").is_hidden()
        assert not [u for u in requests if "pyodide" in u or "/assets/play/replay-" in u]
        page.screenshot(path=str(ARTIFACTS / "play-no-webassembly-390.png"))
    finally:
        browser.close()
