"""The legal moves of a table, numbered, as log entries and in a short human form; and what else the rules say.

A :class:`Choice` is one legal move: its number (from 1, in the engine's legal-move order), the
entry a log writes for it (:func:`replay.log.play.step_of`, naming the card) and its short form
(``p6 → K2  QS``), which :mod:`replay.play.shortform` reads back.  Moves that differ only by which
empty foundation of a group the rules treat alike they go to (an ace of Napoleon's Square to any of
the eight, a king of exiles to any of the four kings' places: :meth:`replay.engine.game.Game.foundation_groups`)
are one choice, written with the first of them; the others are its ``alike``.  Where a move that takes no
pile (a deal, a redeal) is not legal, :func:`not_now` gives the clause that forbids it; where moves are
left but none can ever bring another card home, :func:`nothing_more_comes_home` says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from replay.engine.game import Move, Table
from replay.log.play import step_of

#: the most positions :func:`nothing_more_comes_home` looks through before it gives up (no answer)
REACH_LIMIT = 300

#: said under the numbered list in ``replay play``: what several numbers on one line mean
AHEAD = "several numbers, as 2 3, play those moves as numbered now, one after the other"


@dataclass(frozen=True)
class Choice:
    """One legal move, numbered."""

    number: int
    move: Move
    step: dict[str, Any]  #: the log entry, as ``replay-log/1`` writes it
    short: str  #: the short human form, e.g. ``p6 → K2  QS``
    alike: tuple[dict[str, Any], ...] = ()  #: the same move to the other empty foundations of its group


@dataclass(frozen=True)
class NotNow:
    """A move taking no pile that the rules forbid here, and why."""

    type: str
    clause: str
    reason: str


def short_form(step: dict[str, Any], compact: bool = False) -> str:
    """``p6 → K2  QS`` (a ``move``), ``tuck exiles → p5  5H``, ``p3 → p5  7H ×3``, ``deal``; ``compact``: without
    the spaces, ``p6→K2 QS``, ``p3→p5 7H×3`` (a list of several moves a line)."""
    arrow, gap, times = ("→", " ", "×") if compact else (" → ", "  ", " ×")
    words = [] if step["type"] == "move" and "from" in step else [step["type"]]
    if "from" in step:
        words.append(f"{step['from']}{arrow}{step['to']}")
    text = " ".join(words)
    if "card" in step:
        text += gap + step["card"]
    if step.get("count", 1) != 1:
        text += f"{times}{step['count']}"
    return text


def step_json(step: dict[str, Any]) -> str:
    """A log entry as one line of JSON, as ``replay deal`` and the examples write it."""
    return json.dumps(step, ensure_ascii=False, separators=(", ", ": "))


def choices(t: Table) -> list[Choice]:
    """The legal moves of ``t``, numbered from 1 in the engine's order; moves to interchangeable empty
    foundations are one choice (the first foundation), the others its ``alike``."""
    group_of = {f: gi for gi, g in enumerate(t.game.foundation_groups()) for f in g}
    firsts: dict[tuple, int] = {}  #: (group, type, source, count) -> the index in ``out`` of its first move
    out: list[tuple[Move, dict[str, Any], list[dict[str, Any]]]] = []
    for m in t.legal_moves():
        step = step_of(t.game, m, t)
        if m.dst in group_of and not t.piles[m.dst] and m.src >= 0:
            sig = (group_of[m.dst], m.type, m.src, m.count)
            if sig in firsts:
                out[firsts[sig]][2].append(step)
                continue
            firsts[sig] = len(out)
        out.append((m, step, []))
    return [Choice(n, m, step, short_form(step), tuple(alike)) for n, (m, step, alike) in enumerate(out, 1)]


def not_now(t: Table, legal: list[Choice]) -> list[NotNow]:
    """Each move type taking no pile (deal, redeal) that is not legal now, with the clause and reason (none
    once the game is won: nothing more is to be done)."""
    have = {c.move.type for c in legal}
    out: list[NotNow] = []
    if t.is_won():
        return out
    for mtype, src_role, _ in t.game.book.entries:
        if src_role is None and mtype not in have and all(x.type != mtype for x in out):
            why = t.violation(Move(mtype))
            if why is not None:
                out.append(NotNow(mtype, *why))
    return out


def _key(t: Table) -> tuple:
    return t.key(), t.rounds


@dataclass(frozen=True)
class Reach:
    """Every position the legal moves of a table can reach, when none has more cards home than it."""

    positions: int  #: the positions reachable (the table itself among them)
    ends: bool  #: one of them has no legal move (the game can still end, lost)


def nothing_more_comes_home(t: Table, limit: int = REACH_LIMIT) -> Reach | None:
    """The positions the legal moves of ``t`` can reach when none of them has more cards on the
    foundations than ``t`` (the game can never be won: in Napoleon's Square with whole sequences, a
    sequence moved back and forth between two equal cards goes on for ever); None when some sequence of
    moves brings a card home, when no move is left, or when more than ``limit`` positions would have to be
    seen to tell (the common case early in a game, answered as soon as a move home is found).

    Every position reachable is visited (the legal moves, carried out): an answer is a proof, not a guess.
    """
    if t.is_won() or not t.game.any_legal(t):
        return None
    home = t.cards_home()
    seen = {_key(t)}
    todo = [t]
    ends = False
    while todo:
        u = todo.pop()
        moves = u.legal_moves()
        ends = ends or not moves
        for m in moves:
            child = u.copy()
            child.push(m)
            if child.cards_home() > home:
                return None
            k = _key(child)
            if k not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(k)
                todo.append(child)
    return Reach(len(seen), ends)


def verdict(t: Table, legal: list[Choice]) -> str:
    """One line on where the game stands: won, lost, only a deal or a redeal left, moves that bring nothing
    home, or how many moves."""
    if t.is_won():
        return "the game is won: every card is on the foundations"
    if not legal:
        return "the game is lost: no legal move is left"
    if all(c.move.src < 0 for c in legal):
        return f"no card can move; the rules allow: {', '.join(c.step['type'] for c in legal)}"
    n = f"{len(legal)} legal move{'s' if len(legal) != 1 else ''}"
    reach = nothing_more_comes_home(t)
    if reach is None:
        return n
    k = reach.positions
    return (f"{n}, but nothing more can come home: the {k} position{'s' if k != 1 else ''} they can reach hold "
            f"no more than these {t.cards_home()} cards on the foundations, so the game cannot be won"
            + ("" if reach.ends else "; the moves only go back and forth and no rule ends the game, so the log "
               "stays unfinished: quit when you like"))


def alike_note(c: Choice) -> str:
    """``  (or f2, f3: the same)``: the other empty foundations a choice may go to (none: empty)."""
    return f"  (or {', '.join(s['to'] for s in c.alike)}: the same)" if c.alike else ""


def listing(t: Table, legal: list[Choice], with_json: bool = True) -> list[str]:
    """The text of ``replay moves`` after its heading: the numbered moves (each with its JSON entry when
    ``with_json``; ``replay play`` leaves it out), the verdict, the moves not allowed."""
    shorts = [c.short + alike_note(c) for c in legal]
    width = max((len(s) for s in shorts), default=0)
    digits = len(str(len(legal)))
    if with_json:
        out = [f"  {c.number:>{digits}}  {s:<{width}}  {step_json(c.step)}" for c, s in zip(legal, shorts)]
    else:
        out = [f"  {c.number:>{digits}}  {s}" for c, s in zip(legal, shorts)]
    out.append(verdict(t, legal))
    out += [f"  no {x.type}: {x.clause}: {x.reason}" for x in not_now(t, legal)]
    return out


def document(t: Table, legal: list[Choice]) -> dict[str, Any]:
    """The same as :func:`listing`, as data (``replay moves --format json``); a choice's ``alike`` are the
    same move to the other empty foundations of its group."""
    return {
        "outcome": t.outcome(),
        "verdict": verdict(t, legal),
        "legal": [{"number": c.number, "move": c.step, "short": c.short, **({"alike": list(c.alike)} if c.alike
                                                                             else {})} for c in legal],
        "not_now": [{"type": x.type, "clause": x.clause, "reason": x.reason} for x in not_now(t, legal)],
    }
