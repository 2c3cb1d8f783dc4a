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
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from replay.engine.game import Game, Table
from replay.log.describe import short_move
from replay.log.locate import move_ref
from replay.solver.search import UNKNOWN, UNWINNABLE, WON, Budget, solve

FORMAT = "replay-analysis/1"


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class PositionDoc(_Doc):
    """One position of an analysis file."""

    position: int = Field(ge=0)
    status: Literal["won", "unwinnable", "unknown"]
    how: Literal["solved", "inferred"]
    from_: int | None = Field(None, alias="from", ge=0)
    reason: str | None = None
    nodes: int | None = Field(None, ge=0)
    stopped_by: str | None = None
    line: list[str] = []
    best_home: int | None = Field(None, ge=0, le=104)
    best_line: list[str] = []


class BudgetDoc(_Doc):
    nodes: int | None = Field(None, ge=1)
    seconds: float | None = Field(None, gt=0)


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
    searched: int = Field(ge=0)
    inferred: int = Field(ge=0)
    summary: str


@dataclass
class Position:
    """The verdict on one position."""

    position: int
    status: str | None = None  #: won | unwinnable | unknown (None: not decided yet)
    how: str | None = None  #: solved | inferred
    source: int | None = None  #: inferred: the position the verdict follows from
    reason: str | None = None  #: inferred: why
    nodes: int | None = None  #: solved: positions the search expanded
    stopped_by: str | None = None  #: solved, unknown: the budget that ran out
    line: list[str] = field(default_factory=list)  #: won: a winning line from here, as short moves
    entries: list[dict[str, Any]] = field(default_factory=list)  #: won: the same line as log entries
    best_home: int | None = None  #: searched, not won: the most cards home the search reached from here
    best_line: list[str] = field(default_factory=list)  #: searched, not won: the moves to that position

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"position": self.position, "status": self.status, "how": self.how}
        if self.how == "inferred":
            d.update({"from": self.source, "reason": self.reason})
        if self.nodes is not None:
            d["nodes"] = self.nodes
        if self.stopped_by:
            d["stopped_by"] = self.stopped_by
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


def analyse_positions(g: Positions, budget: Budget, advance: Callable[[int], None] | None = None) -> list[Position]:
    """Decide every position, searching as few as the two facts of the module's docstring allow."""
    from replay.solver.logs import steps_from

    n = len(g.tables)
    pos = [Position(k) for k in range(n)]

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

    def search(k: int) -> None:
        before = sum(p.status is not None for p in pos)
        r = solve(g.game, table=g.tables[k], budget=budget)
        p = pos[k]
        p.status, p.how, p.nodes, p.stopped_by = r.status, "solved", r.nodes, r.stopped_by
        if r.status == WON:
            p.entries = steps_from(g.game, g.tables[k], r.line)
            p.line = [short_move(e) for e in p.entries]
            for j in range(k - 1, -1, -1):
                settle(j, WON, k, f"the log's moves lead to position {k}, which can be won")
        else:  # the best line found: the most cards the search brought home from here, and how
            p.best_home, p.best_line = r.best_home, [short_move(e) for e in steps_from(g.game, g.tables[k],
                                                                                    r.best_line)]
        if r.status == UNWINNABLE:
            for j in range(k + 1, n):
                settle(j, UNWINNABLE, k, f"it is reached from position {k}, which cannot be won")
        after = sum(p.status is not None for p in pos)
        if advance is not None and after > before:
            advance(after - before)

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
    return pos


def turning_points(pos: list[Position]) -> dict[str, int | None]:
    """The last position known winnable, the first known unwinnable, and the move that lost the game."""
    won = [p.position for p in pos if p.status == WON]
    lost = [p.position for p in pos if p.status == UNWINNABLE]
    last_winnable = max(won) if won else None
    first_unwinnable = min(lost) if lost else None
    lost_after = first_unwinnable if (first_unwinnable and last_winnable == first_unwinnable - 1) else None
    return {"last_winnable": last_winnable, "first_unwinnable": first_unwinnable, "lost_after": lost_after}


def summary_sentence(doc: dict[str, Any]) -> str:
    """The analysis in one sentence."""
    n = len(doc.get("positions", []))
    lw, fu, la = doc.get("last_winnable"), doc.get("first_unwinnable"), doc.get("lost_after")
    moves = doc.get("moves_list") or []
    if fu == 0:
        return "The deal could not be won: the table before the first move is already unwinnable."
    if la is not None:
        name = f" ({moves[la - 1]})" if 0 < la <= len(moves) else ""
        return (f"Move {la}{name}, $.moves[{la - 1}] of the log, lost the game: it could be won before that move, "
                "and not after it.")
    if fu is None and lw == n - 1:
        return "The game could be won from every position of the log."
    if fu is not None and lw is not None:
        return (f"The game could be won {_at(lw)} and not {_at(fu)}; the solver could not decide the positions in "
                "between within the budget.")
    if fu is not None:
        return (f"The game could not be won {_at(fu)}; the solver could not decide the earlier positions within the "
                "budget.")
    if lw is not None:
        return f"The game could be won {_at(lw)}; the solver could not decide the later positions within the budget."
    return "The solver could not decide any position within the budget (unknown: it does not guess)."


def _at(k: int) -> str:
    return "at the deal" if k == 0 else f"after move {k}"


def analyse_bytes(raw: bytes, name: str, budget: Budget,
                  advance: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The analysis document of a log (``replay-analysis/1``); see :func:`analysis_of`."""
    return analysis_of(raw, name, budget, advance)[0]


def analysis_of(raw: bytes, name: str, budget: Budget,
                advance: Callable[[int], None] | None = None) -> tuple[dict[str, Any], list[Position]]:
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
    pos = analyse_positions(g, budget, advance)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "file": name,
        "log_sha256": hashlib.sha256(raw).hexdigest(),
        "game": inst.game.id,
        "variants": sorted(inst.game.variants),
        "rulings": dict(sorted(inst.game.rulings.items())),
        "moves": len(moves),
        "analysed": usable,
        "budget": {"nodes": budget.nodes, "seconds": budget.seconds},
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
        if p["how"] == "inferred":
            how = f"inferred from position {p['from']}"
        elif p["status"] == UNKNOWN:
            how = f"searched {p['nodes']} nodes, the {p.get('stopped_by') or 'node'} budget ran out"
        else:
            how = f"searched ({p['nodes']} node{'' if p['nodes'] == 1 else 's'})"
        line = ""
        if p["status"] == WON and p.get("line"):
            ln = p["line"]
            line = f"; line of {len(ln)}: " + " ".join(ln[:line_moves]) + (" …" if len(ln) > line_moves else "")
        elif p.get("best_line"):
            ln = p["best_line"]
            line = (f"; best found: {p['best_home']} cards home after {len(ln)}: " + " ".join(ln[:line_moves])
                    + (" …" if len(ln) > line_moves else ""))
        mark = "  <- the move that lost the game" if k == doc.get("lost_after") else ""
        out.append(f"  {k:>4}  {move:<{width}}  {status:<21}  {how}{line}{mark}")
    out.append(doc["summary"])
    out.append(f"{doc['searched']} position{'s' if doc['searched'] != 1 else ''} searched, {doc['inferred']} inferred.")
    return out
