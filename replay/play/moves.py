"""The legal moves of a table, numbered, as log entries and in a short human form; and what else the rules say.

A :class:`Choice` is one legal move: its number (from 1, in the engine's legal-move order), the
entry a log writes for it (:func:`replay.log.play.step_of`, naming the card) and its short form
(``p6 → K2  QS``), which :mod:`replay.play.shortform` reads back.  Where a move that takes no
pile (a deal, a redeal) is not legal, :func:`not_now` gives the clause that forbids it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from replay.engine.game import Move, Table
from replay.log.play import step_of


@dataclass(frozen=True)
class Choice:
    """One legal move, numbered."""

    number: int
    move: Move
    step: dict[str, Any]  #: the log entry, as ``replay-log/1`` writes it
    short: str  #: the short human form, e.g. ``p6 → K2  QS``


@dataclass(frozen=True)
class NotNow:
    """A move taking no pile that the rules forbid here, and why."""

    type: str
    clause: str
    reason: str


def short_form(step: dict[str, Any]) -> str:
    """``p6 → K2  QS`` (a ``move``), ``tuck exiles → p5  5H``, ``p3 → p5  7H ×3``, ``deal``."""
    words = [] if step["type"] == "move" and "from" in step else [step["type"]]
    if "from" in step:
        words.append(f"{step['from']} → {step['to']}")
    text = " ".join(words)
    if "card" in step:
        text += "  " + step["card"]
    if step.get("count", 1) != 1:
        text += f" ×{step['count']}"
    return text


def step_json(step: dict[str, Any]) -> str:
    """A log entry as one line of JSON, as ``replay deal`` and the examples write it."""
    return json.dumps(step, ensure_ascii=False, separators=(", ", ": "))


def choices(t: Table) -> list[Choice]:
    """The legal moves of ``t``, numbered from 1 in the engine's order."""
    out = []
    for n, m in enumerate(t.legal_moves(), 1):
        step = step_of(t.game, m, t)
        out.append(Choice(n, m, step, short_form(step)))
    return out


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


def verdict(t: Table, legal: list[Choice]) -> str:
    """One line on where the game stands: won, lost, only a deal or a redeal left, or how many moves."""
    if t.is_won():
        return "the game is won: every card is on the foundations"
    if not legal:
        return "the game is lost: no legal move is left"
    if all(c.move.src < 0 for c in legal):
        return f"no card can move; the rules allow: {', '.join(c.step['type'] for c in legal)}"
    return f"{len(legal)} legal move{'s' if len(legal) != 1 else ''}"


def listing(t: Table, legal: list[Choice]) -> list[str]:
    """The text of ``replay moves`` after its heading: the numbered moves, the verdict, the moves not allowed."""
    width = max((len(c.short) for c in legal), default=0)
    digits = len(str(len(legal)))
    out = [f"  {c.number:>{digits}}  {c.short:<{width}}  {step_json(c.step)}" for c in legal]
    out.append(verdict(t, legal))
    out += [f"  no {x.type}: {x.clause}: {x.reason}" for x in not_now(t, legal)]
    return out


def document(t: Table, legal: list[Choice]) -> dict[str, Any]:
    """The same as :func:`listing`, as data (``replay moves --format json``)."""
    return {
        "outcome": t.outcome(),
        "verdict": verdict(t, legal),
        "legal": [{"number": c.number, "move": c.step, "short": c.short} for c in legal],
        "not_now": [{"type": x.type, "clause": x.clause, "reason": x.reason} for x in not_now(t, legal)],
    }
