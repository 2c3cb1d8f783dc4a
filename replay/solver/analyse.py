"""``replay analyse``: position by position, could the game still be won?

Position ``k`` is the table after the log's first ``k`` moves (0: the deal).  Each position is
*won* (the solver found a winning line from it), *unwinnable* (its search was exhaustive) or
*unknown* (the budget ran out: the solver cannot tell, and this says so rather than guess);
:func:`replay.solver.search.solve` decides, with the budget given per position.

Not every position is searched.  Two facts hold for positions reached by legal moves:

* if position ``k`` can be won, so can every earlier position ``j``: the log's own moves lead
  from ``j`` to ``k``, and the winning line goes on from there;
* if position ``k`` cannot be won, no later position can: every later position is reached from
  ``k``, so a win from one of them would be a win from ``k``.

So the last position is searched first (a finished game settles everything), then the positions
are bisected: a won position settles the half before it, an unwinnable one the half after it,
an unknown one neither (both halves are searched).  Verdicts obtained this way are marked
*inferred*, with the position they follow from.  With a node budget (``--nodes``) the output is
the same on every machine; a time budget (``--seconds``) depends on the machine and its load.

What each verdict rests on (:func:`evidence`): a won position is *proved* by its line; an unwinnable
one by an exhaustive search or by the game's proof of loss, which is named (``proof``); an unknown one
was searched until its budget ran out.  ``how`` is ``solved`` (searched here), ``inferred``, ``played``
(a verdict found by a strong player's play, not a proof: shown as "found by play", beside "proved") or
``not-searched`` (the analysis was interrupted before it came to the position).  Every searched position
that is not won keeps the best line its search found (the most cards home, ``best_home``), an
unwinnable one too: where a proof of loss settled it without search, the position is searched again
without the proof, within the same budget, for that line.  The document's ``best`` is the line the summary
offers, beside the cards the game as played brought home (``played_home``): where a position could be won, the
winning line of the last such position (no line brings more home); else the best of the lines
kept, which is what a search within the budget found, not a bound on what the position allows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from replay.engine.game import Game, Table
from replay.log.describe import short_move
from replay.log.locate import move_ref
from replay.solver.nested import DEFAULT_METHOD, play
from replay.solver.search import UNKNOWN, UNWINNABLE, WON, Budget, solve

FORMAT = "replay-analysis/1"


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class PositionDoc(_Doc):
    """One position of an analysis file."""

    position: int = Field(ge=0)
    status: Literal["won", "unwinnable", "unknown"]
    how: Literal["solved", "inferred", "played", "not-searched"]
    from_: int | None = Field(None, alias="from", ge=0)
    reason: str | None = None
    proof: str | None = None
    nodes: int | None = Field(None, ge=0)
    stopped_by: str | None = None
    home: int | None = Field(None, ge=0, le=104)
    line: list[str] = []
    best_home: int | None = Field(None, ge=0, le=104)
    best_line: list[str] = []


class BestDoc(_Doc):
    position: int = Field(ge=0)
    home: int = Field(ge=0, le=104)
    line: list[str]
    played_home: int = Field(ge=0, le=104)


class BudgetDoc(_Doc):
    nodes: int | None = Field(None, ge=1)
    seconds: float | None = Field(None, gt=0)
    method: str | None = None  #: replay.solver.nested.METHODS (absent in files made before it: depth-first)


class StoppedDoc(_Doc):
    move: int = Field(ge=1)
    code: str
    clause: str | None = None
    message: str


class AnalysisDoc(_Doc):
    """An analysis file (``replay analyse --format json`` or ``-o``), as ``replay view --analysis`` checks it."""

    format: Literal["replay-analysis/1"]
    file: str
    log_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    game: str
    variants: list[str]
    rulings: dict[str, str]
    moves: int = Field(ge=0)
    analysed: int = Field(ge=0)
    budget: BudgetDoc
    deterministic: bool
    verdict: str
    stopped: StoppedDoc | None = None
    moves_list: list[str]
    positions: list[PositionDoc]
    last_winnable: int | None = None
    first_unwinnable: int | None = None
    lost_after: int | None = None
    lost_by_play: int | None = Field(None, ge=1)
    searched: int = Field(ge=0)
    inferred: int = Field(ge=0)
    best: BestDoc | None = None
    interrupted: bool = False
    decided: int | None = Field(None, ge=0)
    summary: str


@dataclass
class Position:
    """The verdict on one position."""

    position: int
    status: str | None = None  #: won | unwinnable | unknown (None: not decided yet)
    how: str | None = None  #: solved | inferred | played | not-searched
    source: int | None = None  #: inferred: the position the verdict follows from
    reason: str | None = None  #: inferred, played: why
    nodes: int | None = None  #: solved: positions the search expanded
    stopped_by: str | None = None  #: solved, unknown: the budget that ran out
    proof: str | None = None  #: solved, unwinnable: the proof of loss that settled it without search
    home: int | None = None  #: the cards on the foundations in this position
    line: list[str] = field(default_factory=list)  #: won: a winning line from here, as short moves
    entries: list[dict[str, Any]] = field(default_factory=list)  #: won: the same line as log entries
    best_home: int | None = None  #: searched, not won: the most cards home the search reached from here
    best_line: list[str] = field(default_factory=list)  #: searched, not won: the moves to that position

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"position": self.position, "status": self.status, "how": self.how}
        if self.how == "inferred":
            d.update({"from": self.source, "reason": self.reason})
        elif self.how == "played":
            d["reason"] = self.reason
        if self.proof:
            d["proof"] = self.proof
        if self.nodes is not None:
            d["nodes"] = self.nodes
        if self.stopped_by:
            d["stopped_by"] = self.stopped_by
        if self.home is not None:
            d["home"] = self.home
        if self.status == WON and self.how == "solved":  # an inferred win: the log's moves to "from", then its line
            d["line"] = self.line
        elif self.best_home is not None:
            d["best_home"], d["best_line"] = self.best_home, self.best_line
        return d


@dataclass
class Positions:
    """The positions to analyse: the game, each table and the log entries between them."""

    game: Game
    tables: list[Table]  #: ``tables[k]``: after ``k`` moves
    entries: list[dict[str, Any]]  #: the log's entries (as written) that lead from one table to the next


def positions_of(game: Game, start: Table, moves: list[Any], entries: list[dict[str, Any]]) -> Positions:
    """Every position of the log: the start, then the table after each (legal) move."""
    tables = [start.copy()]
    t = start.copy()
    for m in moves:
        t.apply(m)
        tables.append(t.copy())
    return Positions(game, tables, entries[: len(moves)])


class Interrupted(Exception):
    """The analysis was asked to stop (Ctrl-C): the positions decided so far are kept."""


def analyse_positions(g: Positions, budget: Budget, advance: Callable[[int], None] | None = None,
                      should_stop: Callable[[], bool] | None = None,
                      searched: Callable[[str, float], None] | None = None,
                      method: str = DEFAULT_METHOD) -> list[Position]:
    """Decide every position with ``method`` (:func:`replay.solver.nested.play`), searching as few as the two
    facts of the module's docstring allow.

    ``advance(n)`` is told how many positions each search decided; ``searched(status, seconds)`` what each
    search found and how long it took (for an estimate of the time left, :class:`Estimate`).  When
    ``should_stop()`` turns true the search under way ends, and the positions not decided yet are
    ``not-searched`` (unknown); the caller learns it from :func:`was_interrupted`.
    """
    import dataclasses
    import time

    from replay.solver.logs import steps_from
    from replay.solver.search import profile_for

    n = len(g.tables)
    pos = [Position(k, home=g.tables[k].cards_home()) for k in range(n)]
    without_proofs = None

    def settle(k: int, status: str, source: int, reason: str) -> None:
        p = pos[k]
        if p.status in (WON, UNWINNABLE):
            return
        p.status, p.how, p.source, p.reason = status, "inferred", source, reason
        p.nodes = p.stopped_by = p.best_home = None
        p.best_line = []
        if status == WON:
            p.entries = list(g.entries[k:source]) + pos[source].entries
            p.line = [short_move(e) for e in p.entries]

    def best_of(k: int, r: Any) -> None:
        """The best line found from position ``k``: the most cards the search brought home, and how."""
        nonlocal without_proofs
        if r.proof and not r.best_line:  # settled without search: search again, without the proof, for a line
            if without_proofs is None:
                without_proofs = dataclasses.replace(profile_for(g.game), dead_ends=(), root_dead_ends=())
            r2 = solve(g.game, table=g.tables[k], budget=budget, profile=without_proofs, should_stop=should_stop)
            r.best_home, r.best_line = max(r.best_home, r2.best_home), r2.best_line
        p = pos[k]
        p.best_home, p.best_line = r.best_home, [short_move(e) for e in steps_from(g.game, g.tables[k], r.best_line)]

    def search(k: int) -> None:
        before = sum(p.status is not None for p in pos)
        t0 = time.perf_counter()
        r = play(g.game, table=g.tables[k], method=method, budget=budget, should_stop=should_stop)
        if r.stopped_by == "interrupted":
            raise Interrupted
        p = pos[k]
        p.status, p.how, p.nodes, p.stopped_by, p.proof = r.status, "solved", r.nodes, r.stopped_by, r.proof
        if r.status == WON:
            p.entries = steps_from(g.game, g.tables[k], r.line)
            p.line = [short_move(e) for e in p.entries]
            for j in range(k - 1, -1, -1):
                settle(j, WON, k, f"the log's moves lead to position {k}, which can be won")
        else:
            best_of(k, r)
        if r.status == UNWINNABLE:
            for j in range(k + 1, n):
                settle(j, UNWINNABLE, k, f"it is reached from position {k}, which cannot be won")
        if searched is not None:
            searched(r.status, time.perf_counter() - t0)
        after = sum(p.status is not None for p in pos)
        if advance is not None and after > before:
            advance(after - before)

    try:
        _bisect(pos, search)
    except Interrupted:
        for p in pos:
            if p.status is None:
                p.status, p.how = UNKNOWN, "not-searched"
                p.best_home, p.best_line = None, []
    if method != "depth-first":
        lost_by_play(pos)
    return pos


def lost_by_play(pos: list[Position]) -> int | None:
    """Mark the move a strong player says lost the game: the position after the last one won, when no proof
    says the game was lost there and the strong player, searching it, found no win.  Its verdict stays
    unknown (play proves nothing), its ``how`` becomes ``played`` with the reason; returns the position, or
    None (a proof names the move, the game was won, or the position was not searched)."""
    won = [p.position for p in pos if p.status == WON]
    if not won or max(won) + 1 >= len(pos):
        return None
    p = pos[max(won) + 1]
    if p.status != UNKNOWN or p.how != "solved":
        return None
    p.how = "played"
    p.reason = (f"the game is won from position {p.position - 1}; a strong player found no win from here "
                f"in {p.nodes:,} positions (not a proof)")
    return p.position


def was_interrupted(pos: list[Position]) -> bool:
    """Whether :func:`analyse_positions` stopped before it had decided every position."""
    return any(p.how == "not-searched" for p in pos)


def _bisect(pos: list[Position], search: Callable[[int], None]) -> None:
    n = len(pos)
    search(n - 1)  # a finished game (won, or no move left) settles at once
    pending = [(0, n - 1)]
    while pending:
        lo, hi = pending.pop()
        while lo < hi and pos[lo].status is not None:
            lo += 1
        while hi > lo and pos[hi - 1].status is not None:
            hi -= 1
        if lo >= hi:
            continue
        mid = (lo + hi) // 2
        if pos[mid].status is not None:
            pending += [(lo, mid), (mid + 1, hi)]
            continue
        search(mid)
        status = pos[mid].status
        if status == WON:
            pending.append((mid + 1, hi))
        elif status == UNWINNABLE:
            pending.append((lo, mid))
        else:  # unknown: both halves; the later one first, since a win there settles the earlier one
            pending += [(lo, mid), (mid + 1, hi)]


class Estimate:
    """The time an analysis has left, counting the slow positions.

    Positions are decided unevenly: a won or unwinnable search settles many at once and fast, an unknown
    one (its budget ran out) settles only itself and takes the longest.  Counting positions per second
    (as a progress bar does) promises too little time: ``left`` reckons every position not yet decided at
    the mean time of the searches that ran out of budget (of all searches, until one has), an upper
    bound while the budget is what stops the slow searches.
    """

    def __init__(self, total: int) -> None:
        self.total, self.decided = total, 0
        self.slow: list[float] = []
        self.all: list[float] = []

    def searched(self, status: str, seconds: float) -> None:
        self.all.append(seconds)
        if status == UNKNOWN:
            self.slow.append(seconds)

    def advance(self, n: int) -> None:
        self.decided += n

    def left(self) -> float | None:
        """Seconds left at most (None before the first search has ended)."""
        times = self.slow or self.all
        if not times:
            return None
        return (self.total - self.decided) * sum(times) / len(times)


def turning_points(pos: list[Position]) -> dict[str, int | None]:
    """The last position known winnable, the first known unwinnable, and the move that lost the game."""
    won = [p.position for p in pos if p.status == WON]
    lost = [p.position for p in pos if p.status == UNWINNABLE]
    last_winnable = max(won) if won else None
    first_unwinnable = min(lost) if lost else None
    lost_after = first_unwinnable if (first_unwinnable and last_winnable == first_unwinnable - 1) else None
    played = [p.position for p in pos if p.how == "played"]
    return {"last_winnable": last_winnable, "first_unwinnable": first_unwinnable, "lost_after": lost_after,
            "lost_by_play": played[0] if played and lost_after is None else None}


def summary_sentence(doc: dict[str, Any]) -> str:
    """The analysis in a sentence (where the game was lost), then the best line found, when there is one, and
    how far an interrupted analysis came."""
    text = _turning_sentence(doc)
    best = best_sentence(doc)
    if best:
        text += " " + best
    if doc.get("interrupted"):
        text = f"Interrupted after {doc.get('decided', 0)} of {len(doc.get('positions', []))} positions: " + text
    return text


def best_sentence(doc: dict[str, Any], line_moves: int = 12) -> str | None:
    """The line the summary offers (None: none, or the game was won as played).  Where a position could be won, it
    is that position's winning line: ``A winning line from position 44 (after move 44), the last that could be won,
    brings every card home, against 52 in the game as played: p4→p11 J♦ … (89 moves).``  Else the line whose search
    brought the most cards home, said to be a search result, not a bound: ``The best line the solver found, from
    position 103 (after move 103), brings 60 cards home, against 52 in the game as played: … (40 moves); a search
    within the budget, not a bound: a longer one may bring more home.``"""
    b = doc.get("best")
    if not b:
        return None
    ln = b["line"]
    shown = " ".join(ln[:line_moves]) + (" …" if len(ln) > line_moves else "")
    where = "at the deal" if b["position"] == 0 else f"from position {b['position']} (after move {b['position']})"
    line = f": {shown} ({_moves(len(ln))})" if ln else ""
    if _won_at(doc, b["position"]):
        last = ", the last that could be won," if b["position"] == doc.get("last_winnable") else ""
        return (f"A winning line {where}{last} brings every card home, against {b['played_home']} in the game as "
                f"played{line}.")
    return (f"The best line the solver found, {where}, brings {b['home']} cards home, against {b['played_home']} in "
            f"the game as played{line}; a search within the budget, not a bound: a longer one may bring more home.")


def _moves(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


def _won_at(doc: dict[str, Any], k: int) -> bool:
    positions = doc.get("positions") or []
    return k < len(positions) and positions[k].get("status") == WON


def best_found(positions: list[dict[str, Any]], played_home: int, every_card: int = 104) -> dict[str, Any] | None:
    """The line the analysis offers, with the cards the game as played brought home: where a position could be
    won, the winning line of the last such position (``every_card`` home: no other line can bring more); else that
    of the position whose search brought the most cards home (the latest of equals); None when neither is kept."""
    won = [p for p in positions if p.get("status") == WON and p.get("line")]
    if won:
        p = max(won, key=lambda p: p["position"])
        return {"position": p["position"], "home": every_card, "line": list(p["line"]), "played_home": played_home}
    kept = [p for p in positions if p.get("best_home") is not None and p.get("status") != WON]
    if not kept:
        return None
    p = max(kept, key=lambda p: (p["best_home"], p["position"]))
    return {"position": p["position"], "home": p["best_home"], "line": list(p.get("best_line") or []),
            "played_home": played_home}


def evidence(p: dict[str, Any]) -> str:
    """What a position's verdict rests on, in words: ``proved: a winning line``, ``proved: <the proof of loss>``,
    ``proved: the search was exhaustive``, ``searched …, the budget ran out``, ``inferred from position k``,
    ``found by play`` (a strong player's verdict, not a proof) or ``not searched (interrupted)``."""
    how, status, nodes = p.get("how"), p.get("status"), p.get("nodes")
    counted = f" ({nodes} node{'' if nodes == 1 else 's'})" if nodes is not None else ""
    if how == "inferred":
        return f"inferred from position {p.get('from')}"
    if how == "played":
        return "found by play" + (f": {p['reason']}" if p.get("reason") else "")
    if how == "not-searched":
        return "not searched (the analysis was interrupted)"
    if status == WON:
        return f"proved: a winning line{counted}"
    if status == UNWINNABLE:
        if p.get("proof"):
            return f"proved without search: {p['proof']}"
        return f"proved: the search was exhaustive{counted}"
    return f"searched {nodes} nodes, the {p.get('stopped_by') or 'node'} budget ran out"


def _turning_sentence(doc: dict[str, Any]) -> str:
    why = "before the analysis was interrupted" if doc.get("interrupted") else "within the budget"
    n = len(doc.get("positions", []))
    lw, fu, la = doc.get("last_winnable"), doc.get("first_unwinnable"), doc.get("lost_after")
    moves = doc.get("moves_list") or []
    if fu == 0:
        return "The deal could not be won: the table before the first move is already unwinnable."
    if la is not None:
        name = f" ({moves[la - 1]})" if 0 < la <= len(moves) else ""
        return (f"Move {la}{name}, $.moves[{la - 1}] of the log, lost the game: it could be won before that move, "
                "and not after it.")
    lp = doc.get("lost_by_play")
    if lp is not None:
        name = f" ({moves[lp - 1]})" if 0 < lp <= len(moves) else ""
        return (f"Move {lp}{name}, $.moves[{lp - 1}] of the log, lost the game as far as a strong player finds (found "
                "by play, not proved): the game could be won before that move, and the strong player found no win "
                "after it.")
    if fu is None and lw == n - 1:
        return "The game could be won from every position of the log."
    if fu is not None and lw is not None:
        return (f"The game could be won {_at(lw)} and not {_at(fu)}; the solver could not decide the positions in "
                f"between {why}.")
    if fu is not None:
        return f"The game could not be won {_at(fu)}; the solver could not decide the earlier positions {why}."
    if lw is not None:
        return f"The game could be won {_at(lw)}; the solver could not decide the later positions {why}."
    return f"The solver could not decide any position {why} (unknown: it does not guess)."


def _at(k: int) -> str:
    return "at the deal" if k == 0 else f"after move {k}"


def analyse_bytes(raw: bytes, name: str, budget: Budget, advance: Callable[[int], None] | None = None,
                  should_stop: Callable[[], bool] | None = None,
                  searched: Callable[[str, float], None] | None = None,
                  method: str = DEFAULT_METHOD) -> dict[str, Any]:
    """The analysis document of a log (``replay-analysis/1``); see :func:`analysis_of`."""
    return analysis_of(raw, name, budget, advance, should_stop, searched, method)[0]


def analysis_of(raw: bytes, name: str, budget: Budget, advance: Callable[[int], None] | None = None,
                should_stop: Callable[[], bool] | None = None,
                searched: Callable[[str, float], None] | None = None,
                method: str = DEFAULT_METHOD) -> tuple[dict[str, Any], list[Position]]:
    """The analysis document of a log (``replay-analysis/1``) and its positions (winning lines as log entries).

    Raises :class:`replay.engine.errors.MalformedLog` (one line) when the log cannot be replayed at all;
    a log that breaks a rule is analysed up to the move the rules refuse.
    """
    import json

    from replay.engine import cards as C
    from replay.engine.errors import MalformedLog
    from replay.log.validate import Bad, check_bytes, engine_moves, instance, parse

    report = check_bytes(raw, name)
    if report.verdict in ("malformed", "error"):
        from replay.log.report import report_lines

        raise MalformedLog(report_lines(report)[0])
    try:
        log = parse(raw)
        inst = instance(log.game, log.variants, log.rulings)
        moves = engine_moves(inst, log)
        start = inst.game.new_table([C.parse(c) for c in log.deck])
    except Bad as bad:  # pragma: no cover - the validator has said so above
        raise MalformedLog(bad.message, name) from None
    body = json.loads(raw[3:] if raw[:3] == b"\xef\xbb\xbf" else raw)
    entries = list(body.get("moves", []))
    usable = report.replayed if report.verdict == "illegal" and report.first and report.first.move is not None \
        else len(moves)
    g = positions_of(inst.game, start, moves[:usable], entries)
    pos = analyse_positions(g, budget, advance, should_stop, searched, method)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "file": name,
        "log_sha256": hashlib.sha256(raw).hexdigest(),
        "game": inst.game.id,
        "variants": sorted(inst.game.variants),
        "rulings": dict(sorted(inst.game.rulings.items())),
        "moves": len(moves),
        "analysed": usable,
        "budget": {"nodes": budget.nodes, "seconds": budget.seconds, "method": method},
        "deterministic": budget.seconds is None,
        "verdict": report.verdict,
    }
    if usable < len(moves) and report.first is not None:
        p = report.first
        doc["stopped"] = {"move": (p.move or 0) + 1, "code": p.code, "clause": p.clause, "message": p.message}
    doc["moves_list"] = [short_move(e) for e in g.entries]
    doc["positions"] = [p.as_dict() for p in pos]
    doc.update(turning_points(pos))
    doc["searched"] = sum(p.how == "solved" for p in pos)
    doc["inferred"] = sum(p.how == "inferred" for p in pos)
    won = pos[-1].status == WON and pos[-1].home == C.DECK_SIZE
    doc["best"] = None if won else best_found(doc["positions"], g.tables[-1].cards_home(), C.DECK_SIZE)
    if was_interrupted(pos):
        doc["interrupted"] = True
        doc["decided"] = sum(p.how != "not-searched" for p in pos)
    doc["summary"] = summary_sentence(doc)
    return doc, pos


# --------------------------------------------------------------------------- text


def text_lines(doc: dict[str, Any], line_moves: int = 8) -> list[str]:
    """The analysis for people: one line per position, then the summary."""
    form = doc["game"] + (f" ({'+'.join(doc['variants'])})" if doc["variants"] else "")
    b = doc["budget"]
    budget = Budget(nodes=b["nodes"], seconds=b["seconds"]).describe()
    out = [f"{doc['file']}: {form}, {doc['moves']} moves; budget per position: {budget}"
           + (" (deterministic)" if doc["deterministic"] else "")]
    if "stopped" in doc:
        s = doc["stopped"]
        out.append(f"  the log breaks the rules at {move_ref(s['move'] - 1)}"
                   + (f" ({s['clause']})" if s.get("clause") else "") + f": {s['message']}; "
                   f"positions after move {doc['analysed']} are not analysed")
    moves = doc["moves_list"]
    width = max([len(m) for m in moves] + [9])
    for p in doc["positions"]:
        k = p["position"]
        move = "(the deal)" if k == 0 else moves[k - 1]
        status = {WON: "won", UNWINNABLE: "unwinnable", UNKNOWN: "unknown within budget"}[p["status"]]
        if p["how"] == "not-searched":
            status = "not searched"
        how = evidence(p)
        line = ""
        if p["status"] == WON and p.get("line"):
            ln = p["line"]
            line = (f"; a winning line of {_moves(len(ln))}: " + " ".join(ln[:line_moves])
                    + (" …" if len(ln) > line_moves else ""))
        elif p.get("best_line"):
            ln = p["best_line"]
            line = (f"; best found: {p['best_home']} cards home by a line of {_moves(len(ln))}: "
                    + " ".join(ln[:line_moves]) + (" …" if len(ln) > line_moves else ""))
        mark = ("  <- the move that lost the game" if k == doc.get("lost_after") else
                "  <- the move that lost the game, found by play" if k == doc.get("lost_by_play") else "")
        out.append(f"  {k:>4}  {move:<{width}}  {status:<21}  {how}{line}{mark}")
    out.append(doc["summary"])
    out.append(f"{doc['searched']} position{'s' if doc['searched'] != 1 else ''} searched, {doc['inferred']} inferred.")
    return out
