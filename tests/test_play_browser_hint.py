"""The Play page's strong player, keyboard, names and address, in a real browser (issue 31).

Headless Chromium on the built site served on 127.0.0.1 (the fixtures of tests/test_play_browser.py: every
request that would leave 127.0.0.1 is refused and fails the test).  Each test uses the page as a person
does, by clicks, keys and what a screen reader is given (Playwright's ARIA snapshot), and holds what it
reads to the Python engine:

* **Hint and Show a win**, on every game: from a won example game twelve moves from its end (pasted into
  "Continue a log"), Hint answers with the move and "a win in N moves" that the nested search gives in
  CPython for the same log; "Play the hint" plays it, "Show a win" plays the rest move by move to a won
  game; the search runs in a Web Worker: while it searches the page takes a move, and Stop ends it.
* **Names**: every pile is a button named by its name, its top card (the engine's) and its count, and its
  name holds the text drawn in it, as axe's label-content-name-mismatch requires (computed as axe does:
  the visible text nodes, symbols and punctuation left out).
* **Keys**: Ctrl+Z undoes, Ctrl+Y and Ctrl+Shift+Z redo, M reaches the legal moves and ↓ walks them, Enter
  plays one, T reaches the table; Redeal is greyed out while no redeal is allowed (with the clause's
  reason); the seed is written into the address, and the address deals the same table again.
* **Edges**: at 1400 and 390 px every card of the widest table lies inside the drawing and on screen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from replay.draw.svg import card_text
from replay.engine import cards as C
from replay.log.check import replay_to
from replay.log import plain
from replay.web import hint
from tests.test_browser import chromium, server  # noqa: F401 - the shared fixtures
from tests.test_play_browser import loaded, made, play  # noqa: F401
from tests.test_site import built_site  # noqa: F401

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SEARCH = 120_000  # ms: the worker starts its own runtime, then searches (a busy machine)

#: a won example of every game, continued twelve moves from its end
WON = {"zwarta-kolumna": "examples/games/zwarta-kolumna/base/won-constructed-12.json",
       "printex-frame": "examples/games/printex-frame/base/won-constructed-65.json",
       "exiles": "examples/games/exiles/base/won-seed-12.json",
       "napoleons-square": "examples/games/napoleons-square/base/won-347.json"}


def near_the_end(gid: str, left: int = 12) -> str:
    from replay.log.play import dumps

    log = json.loads((ROOT / WON[gid]).read_text(encoding="utf-8"))
    log["moves"] = log["moves"][:-left]
    log.pop("result", None)
    return dumps(log)


def continue_log(page: Any, text: str) -> None:
    page.locator(".rp-choices > summary").click()
    page.locator(".rp-continue > summary").click()
    page.fill("textarea[name=log]", text)
    page.locator(".rp-open").click()
    n = len(json.loads(text)["moves"])
    page.wait_for_function(f"() => document.querySelectorAll('.rp-made li').length === {n}")


def hint_text(page: Any) -> str:
    return page.locator(".rp-hint-text").inner_text()


@pytest.mark.parametrize("gid", list(WON))
def test_the_hint_and_a_win_shown_on_every_game(play: Any, server: str, gid: str) -> None:  # noqa: F811
    text = near_the_end(gid)
    want = json.loads(hint.search(json.dumps({"log": text})))  # the engine's answer, in CPython
    assert want["status"] == "won", want
    play.goto(f"{server}play/{gid}/?seed=1")
    loaded(play)
    continue_log(play, text)
    n = made(play)
    play.locator(".rp-hint-go").click()
    assert play.locator(".rp-stop").is_visible() and play.locator(".rp-hint-go").is_disabled()  # it says it works
    assert re.match(r"The strong player is starting|Searching", hint_text(play)), hint_text(play)
    play.locator(".rp-hint-text").filter(has_text="Hint:").wait_for(timeout=SEARCH)
    said = " ".join(hint_text(play).split())
    first = " ".join(want["short"][0].split())
    assert said.startswith(f"Hint: {first} — from here, {want['text']} (the nested search, "), (said, want)
    assert want["text"] == f"a win in {len(want['steps'])} moves"
    assert play.locator(".rp-stop").is_hidden() and play.locator(".rp-show").is_enabled()
    step = want["steps"][0]
    for name in {step.get("from"), step.get("to")} - {None}:  # the hinted move is outlined on the table
        assert "hinted" in (play.locator(f"g.pile[data-name='{name}']").get_attribute("class") or "")
    play.locator(".rp-hint-play").click()
    assert made(play) == n + 1 and play.locator(".rp-refusal").is_hidden()
    assert " ".join(play.locator(".rp-made li").last.inner_text().split()).startswith(first)
    # a hint for the table as it is now, then the win shown move by move
    play.locator(".rp-hint-go").click()
    play.locator(".rp-hint-text").filter(has_text="Hint:").wait_for(timeout=SEARCH)
    assert "a win in" in hint_text(play), hint_text(play)
    play.locator(".rp-show").click()
    play.locator(".rp-hint-text").filter(has_text="Shown: the win in").wait_for(timeout=SEARCH)
    assert ", won" in play.locator(".rp-header").inner_text()
    assert play.locator(".rp-verdict").get_attribute("class") == "rp-verdict rp-won"
    log = json.loads(play.evaluate("() => JSON.parse(localStorage.getItem('replay-play:' + "
                                   f"{json.dumps(gid)})).log"))
    assert plain.check_bytes(json.dumps(log).encode()).ok and log["result"] == "won"
    assert not play.errors, play.errors
    assert not play.left, play.left


def test_a_search_leaves_the_page_usable_and_stop_ends_it(play: Any, server: str) -> None:  # noqa: F811
    play.goto(f"{server}play/napoleons-square/?seed=2")
    loaded(play)
    play.locator(".rp-hint-go").click()
    play.locator(".rp-hint-text").filter(has_text="positions, ").wait_for(timeout=SEARCH)  # its progress
    assert play.locator(".rp-stop").is_visible()
    before = made(play)
    play.locator(".rp-legal button").first.click()  # the page answers a move while the worker searches
    assert made(play) == before + 1
    play.keyboard.press("Escape")
    play.locator(".rp-hint-text").filter(has_text="Stopped: the search was ended").wait_for()
    assert play.locator(".rp-stop").is_hidden() and play.locator(".rp-hint-go").is_enabled()
    assert play.locator(".rp-show").is_disabled() and play.locator(".rp-hint-play").is_disabled()
    play.locator(".rp-hint-go").click()  # a new worker answers the next request
    play.locator(".rp-hint-text").filter(has_text="positions, ").wait_for(timeout=SEARCH)
    play.locator(".rp-stop").click()
    play.locator(".rp-hint-text").filter(has_text="Stopped").wait_for()
    assert not play.errors, play.errors
    assert not play.left, play.left


# --------------------------------------------------------------------------- what a screen reader is told

#: axe-core's visible text of an element (its text nodes visible on screen, joined as they are) and its
#: curated strings (emoji, symbols and punctuation left out, spaces collapsed, lower case), as its rule
#: label-content-name-mismatch compares them
AXE_LIKE = r"""() => {
  const strip = (s) => s.replace(/[\p{P}\p{S}\p{Extended_Pictographic}\uFE0F]/gu, "").replace(/\s+/g, " ").trim()
                        .toLowerCase();
  return [...document.querySelectorAll(".rp-table g.pile[data-name]")].map((g) => {
    const walker = document.createTreeWalker(g, NodeFilter.SHOW_TEXT);
    let text = "";
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (el && el.getClientRects().length && getComputedStyle(el).visibility !== "hidden") text += walker.currentNode.nodeValue;
    }
    return {name: g.dataset.name, label: g.getAttribute("aria-label"), visible: strip(text),
            curated: strip(g.getAttribute("aria-label") || "")};
  });
}"""


def names_in_snapshot(page: Any) -> dict[str, str]:
    """The buttons of the table in the ARIA snapshot: the pile's name (the first word) -> the whole name."""
    out = {}
    for line in page.locator(".rp-table").aria_snapshot().splitlines():
        m = re.match(r"""\s*- '?button "(.*?)"(?: \[pressed\])?'?:?""", line)
        if m:
            out[re.split(r"[ ,:]", m.group(1))[0]] = m.group(1)
    return out


def test_a_screen_reader_hears_each_pile_and_its_top_card(play: Any, server: str) -> None:  # noqa: F811
    play.goto(f"{server}play/exiles/?seed=3")
    loaded(play)
    for _ in range(3):
        play.locator(".rp-legal button").first.click()
    log = play.evaluate("() => JSON.parse(localStorage.getItem('replay-play:exiles')).log")
    _, table, _, _ = replay_to(plain.parse(log.encode()), None)
    lay = table.game.layout
    names = names_in_snapshot(play)
    assert set(names) == set(lay.names)
    for i, name in enumerate(lay.names):
        pile = table.piles[i]
        heard = names[name]
        if lay.roles[i] == "stock" or not pile:
            assert heard.startswith(name + (f", {len(pile)} card" if pile else ":")), heard
        else:
            top = card_text(C.code(pile[-1]))[0]
            count = f"{len(pile)} card" + ("s" if len(pile) != 1 else "")
            assert heard.startswith(f"{name}, {top}, {count}"), heard  # the pile, its top card, how many
    for pile in play.evaluate(AXE_LIKE):  # axe's label-content-name-mismatch: the text drawn is in the name
        assert pile["visible"] and pile["visible"] in pile["curated"], pile


# --------------------------------------------------------------------------- keys, the address, the buttons


def focused(page: Any) -> str:
    return page.evaluate("() => { const e = document.activeElement; return (e.dataset && e.dataset.name) || "
                         "e.textContent.trim(); }")


def test_keys_undo_redo_the_move_list_and_the_table(play: Any, server: str) -> None:  # noqa: F811
    play.goto(f"{server}play/zwarta-kolumna/?seed=7")
    loaded(play)
    redeal = play.locator(".rp-actions .rp-redeal")
    assert redeal.is_disabled() and "zk-15" in (redeal.get_attribute("title") or "")  # no redeal allowed yet
    play.locator(".rp-header").click()  # the focus on the page, in no text field
    play.keyboard.press("m")
    assert focused(play) == "1.  deal"
    play.keyboard.press("Enter")
    assert made(play) == 1
    play.keyboard.press("m")
    play.keyboard.press("ArrowDown")
    second = focused(play)
    assert second.startswith("2.  "), second
    play.keyboard.press("Enter")
    assert made(play) == 2
    play.keyboard.press("Control+z")
    assert made(play) == 1 and play.locator(".rp-actions .rp-redo").is_enabled()
    play.keyboard.press("Control+z")
    assert made(play) == 0
    play.keyboard.press("Control+y")
    assert made(play) == 1
    play.keyboard.press("Control+Shift+Z")
    assert made(play) == 2 and play.locator(".rp-made li").last.inner_text().split() == second[4:].split()
    assert play.locator(".rp-actions .rp-redo").is_disabled()
    play.keyboard.press("t")
    assert focused(play) == "p1"
    play.keyboard.press("Control+z")  # from the table too
    assert made(play) == 1
    # the moves made can be reached and scrolled by keys
    assert play.locator(".rp-made").get_attribute("tabindex") == "0"
    play.fill(".rp-comment input", "typing z here is no undo")
    play.locator(".rp-comment input").press("Control+z")
    assert made(play) == 1
    # Redeal is offered exactly when the rules allow one: deal until they do
    for _ in range(20):
        allowed = any(t.endswith("redeal") for t in play.locator(".rp-legal button").all_inner_texts())
        assert redeal.is_enabled() == allowed
        if allowed:
            break
        play.locator(".rp-actions .rp-deal").click()
    assert redeal.is_enabled()
    assert not play.errors, play.errors


def test_the_seed_is_written_into_the_address_to_share_the_deal(play: Any, server: str) -> None:  # noqa: F811
    play.goto(f"{server}play/printex-frame/?variant=cztery-katy")
    loaded(play)
    seed = re.search(r"seed (\d+)", play.locator(".rp-header").inner_text()).group(1)  # type: ignore[union-attr]
    assert f"seed={seed}" in play.url and "variant=cztery-katy" in play.url  # drawn at random, then written
    play.locator(".rp-actions .rp-new").click()
    play.locator("select[data-ruling='frame']").select_option("square-20")
    play.locator(".rp-random").click()
    play.locator(".rp-header").filter(has_text="frame=square-20").wait_for()
    seed = re.search(r"seed (\d+)", play.locator(".rp-header").inner_text()).group(1)  # type: ignore[union-attr]
    shared = play.url
    assert f"seed={seed}" in shared and "ruling=frame%3Dsquare-20" in shared, shared
    table = play.locator(".rp-table").aria_snapshot()
    play.goto("about:blank")
    play.goto(shared)  # the address shared deals the same table
    loaded(play)
    assert f"seed {seed}" in play.locator(".rp-header").inner_text()
    assert play.locator(".rp-table").aria_snapshot() == table
    assert not play.errors, play.errors


# --------------------------------------------------------------------------- nothing cut off

INSIDE = """() => {
  const svg = document.querySelector('.rp-table svg');
  const s = svg.getBoundingClientRect();
  const out = [];
  for (const r of svg.querySelectorAll('g.pile > rect:not(.hit)')) {
    const b = r.getBoundingClientRect();
    const pad = parseFloat(r.getAttribute('stroke-width') || '1') / 2;
    if (b.left - pad < s.left - 0.01 || b.right + pad > s.right + 0.01 || b.right + pad > window.innerWidth ||
        b.bottom + pad > s.bottom + 0.01) out.push([r.parentElement.dataset.name, b.right + pad, s.right]);
  }
  return {cut: out, piles: svg.querySelectorAll('g.pile').length, scroll: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("width", [1400, 390])
def test_no_pile_is_cut_off_at_1400_and_390_px(play: Any, server: str, width: int) -> None:  # noqa: F811
    play.set_viewport_size({"width": width, "height": 900})
    try:
        for gid in ("exiles", "printex-frame"):
            play.goto(f"{server}play/{gid}/?seed=3")
            loaded(play)
            play.locator(f".rp-table g.pile[data-name='{'p13' if gid == 'exiles' else 'stock'}']").click()
            m = play.evaluate(INSIDE)  # a pile chosen: its outline is the thickest
            assert not m["cut"] and m["piles"] > 10 and m["scroll"] <= width, (gid, m)
    finally:
        play.set_viewport_size({"width": 1400, "height": 1000})
