"""The Play page's hint: the strong player's search from the position on the table, run in the page.

The page's Web Worker (``replay/web/static/play-worker.js``) runs this module on its own Pyodide, so that
the page stays responsive while it searches and can be stopped (the worker is ended).  :func:`search`
takes the log on the table (``replay-log/1`` text, as the page's :func:`replay.web.bridge.state` gives
it), judges it with the plain reader as ``replay validate`` would, replays it, and runs the nested search
of :mod:`replay.solver.nested` from the position reached, in Python (``fast=False``: the C core is not in
the browser), on a small position budget.  The answer is the line it found, as log entries the page
plays through the bridge (:func:`replay.web.bridge.follow`), which judges every one as it judges a click:

* ``won``: a winning line (replayed through the engine before it is reported), ``"a win in 87 moves"``;
* ``unknown``: the line to the most cards home it found, ``"at best 71 cards home"`` (a search result
  within the budget, not a bound), or no line when nothing it tried brings more cards home.

For a given log, budget and seed the answer is the same on every run (the search counts positions, not
seconds).
"""

from __future__ import annotations

import json
from typing import Any, Callable

from replay.engine import cards as C
from replay.log import plain
from replay.log.check import Bad, replay_to
from replay.log.play import step_of
from replay.play.moves import short_form
from replay.web.calls import answers, json_object, text as as_text

#: the positions a hint may make (about ten seconds of Pyodide on a phone; the page may ask for fewer)
BUDGET = 20_000
#: the most a request may ask for
MOST = 2_000_000


@answers
def search(request: str, progress: Callable[[int, int, float], Any] | None = None) -> str:
    """The hint for ``{"log": text, "nodes": N, "seed": K}`` (``nodes`` defaults to :data:`BUDGET`, ``seed``
    to 0), as JSON text: ``{"ok", "status", "steps", "short", "home", "home_now", "cards", "positions",
    "made", "text"}``.  ``progress(positions, best_home, seconds)`` is called about twice a second."""
    from replay.solver.nested import Params, nested
    from replay.solver.search import WON, Budget

    r = json_object(request, "hint's request")
    nodes = r.get("nodes", BUDGET)
    seed = r.get("seed", 0)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MOST:
        return _error(f"the hint's budget must be a whole number of positions from 1 to {MOST:,}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        return _error("the hint's seed must be a whole number from 0 to 2^64 - 1")
    data = as_text(r.get("log"), "log on the table").encode("utf-8")
    report = plain.check_bytes(data, "log.json")
    if not report.ok:
        return _error("the log on the table is not a legal log: no hint")
    try:
        inst, table, made, _ = replay_to(plain.parse(data), None)
    except Bad as bad:  # pragma: no cover - check_bytes has judged it
        return _error(bad.message)
    game = inst.game
    cards = C.DECK_SIZE  # every card home: the game is won
    now = table.cards_home()
    if table.is_won():
        return _answer("won", [], now, now, cards, 0, made, "the game is won: nothing is left to play")
    if not table.legal_moves():
        return _answer("lost", [], now, now, cards, 0, made, "no legal move is left: the game is lost")
    tell = None if progress is None else (lambda n, best, secs: progress(n, best, secs))
    res = nested(game, table, Params("nmcs", level=1), Budget(nodes=nodes), seed=seed, progress=tell, fast=False)
    line = res.line if res.status == WON else res.best_line
    steps: list[dict[str, Any]] = []
    t = table.copy()
    for m in line:
        steps.append(step_of(game, m, t))
        t.push(m)
    n = len(steps)
    if res.status == WON:
        text = f"a win in {n} move{'s' if n != 1 else ''}"
    elif steps:
        text = f"at best {res.best_home} cards home (of {cards}), in {n} move{'s' if n != 1 else ''}"
    else:
        text = f"no line found that brings more than the {now} cards home now"
    return _answer(res.status, steps, res.best_home, now, cards, res.positions, made, text)


def _answer(status: str, steps: list[dict[str, Any]], home: int, now: int, cards: int, positions: int, made: int,
            text: str) -> str:
    return json.dumps({"ok": True, "status": status, "steps": steps, "short": [short_form(s) for s in steps],
                       "home": home, "home_now": now, "cards": cards, "positions": positions, "made": made,
                       "text": text}, ensure_ascii=False)


def _error(line: str) -> str:
    return json.dumps({"ok": False, "error": [line]}, ensure_ascii=False)


__all__ = ["BUDGET", "search"]
