"""A log replayed step by step, for the viewer and the site's example pages.

:func:`replay_log` validates the log (:func:`replay.log.validate.check_bytes`, the same verdict
as ``replay validate``) and replays its entries through the engine, keeping the table after
every move (:meth:`replay.engine.game.Table.snapshot`), the containers each move changed and
the clauses of the rules consulted for it.  The replay stops at the first move the rules
refuse; that move is kept as a :class:`Refusal`, with the clause it breaks.

Moves are read from the log as written (the JSON object), so a move's free-text ``comment``
is kept when the log has one and is simply absent otherwise.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from replay.engine.game import Game, Move
from replay.log.describe import face_of
from replay.log.report import Problem, Report

_MOVE_PATH = re.compile(r"^\$\.moves\[(\d+)\]")


@dataclass
class Step:
    """The table after a move (``n`` = 0: the table before the first move)."""

    n: int
    move: dict[str, Any] | None  #: the log entry as written (None for the start)
    text: str  #: the move in words
    snapshot: dict[str, Any]
    changed: list[str] = field(default_factory=list)  #: containers whose cards changed
    src: str | None = None
    dst: str | None = None
    clauses: list[str] = field(default_factory=list)  #: clauses of the functions consulted for the move
    legal: list[str] = field(default_factory=list)  #: the moves the rules allow from this table, in short form

    @property
    def comment(self) -> str | None:
        """The move's free-text ``comment``, when the log gives one."""
        return comment_of(self.move)


@dataclass
class Refusal:
    """The first move the log cannot make: where it is and why."""

    n: int  #: its 1-based number (the table shown is the one after move ``n - 1``)
    move: dict[str, Any]
    text: str
    problem: Problem
    src: str | None = None
    dst: str | None = None


@dataclass
class GameView:
    """One log replayed: the verdict, the steps that could be made and the move refused."""

    name: str  #: how the log is named (its path)
    data: Any  #: the parsed JSON (None when it is not JSON)
    report: Report
    game: Game | None = None
    steps: list[Step] = field(default_factory=list)  #: ``steps[0]`` is the start
    refused: Refusal | None = None
    error: str | None = None  #: why the log could not be replayed at all
    text: str | None = None  #: the log as written (UTF-8), to offer it for download

    @property
    def verdict(self) -> str:
        return self.report.verdict

    @property
    def outcome(self) -> str | None:
        return self.report.outcome

    @property
    def problem(self) -> Problem | None:
        return self.report.first

    @property
    def claimed(self) -> str | None:
        c = self.data.get("result") if isinstance(self.data, dict) else None
        return c if isinstance(c, str) else None

    @property
    def moves(self) -> list[Any]:
        m = self.data.get("moves") if isinstance(self.data, dict) else None
        return m if isinstance(m, list) else []

    @property
    def start(self) -> dict[str, Any] | None:
        return self.steps[0].snapshot if self.steps else None


def comment_of(move: dict[str, Any] | None) -> str | None:
    """A log entry's free-text ``comment`` (None when it has none)."""
    c = (move or {}).get("comment")
    return c if isinstance(c, str) and c.strip() else None


def describe_move(move: dict[str, Any]) -> str:
    """A log entry in words: ``Move Q♠ p6 → K2``, ``Deal``."""
    t = move.get("type", "?")
    if t in ("deal", "redeal"):
        return {"deal": "Deal", "redeal": "Redeal: gather the piles and deal again"}[t]
    face = face_of(move)
    count = move.get("count", 1)
    many = f" ({count} cards)" if count != 1 else ""
    verb = {"move": "Move", "fill": "Fill", "tuck": "Tuck"}.get(t, str(t).capitalize())
    return f"{verb}{face}{many} {move.get('from', '?')} → {move.get('to', '?')}"


def move_clauses(game: Any, m: Move) -> list[str]:
    """The clauses of every function the rules consult for a move: its checks, how it is made, what follows."""
    if hasattr(game, "consulted"):
        fns = game.consulted(m)
    else:  # the same from the rule book
        book = game.book
        fns = [r for r, exempt in book.first if m.type not in exempt]
        roles = game.roles
        entry = book.entries.get((m.type, roles[m.src] if m.src >= 0 else None, roles[m.dst] if m.dst >= 0 else None))
        if entry is not None:
            fns += list(entry.rules) + ([entry.perform] if entry.perform else []) + list(entry.after)
    out: list[str] = []
    for fn in fns:
        for c in getattr(fn, "clauses", ()):
            if c not in out:
                out.append(c)
    return out


def legal_here(table: Any) -> list[str]:
    """The legal moves of a table in the viewer's short form (``p6→K2 Q♠``), in the engine's order, as
    ``replay play`` and ``replay moves`` list them: a move to interchangeable empty foundations once, the
    first written and the others named (``p5→f1 A♣ (or f2, f3: the same)``)."""
    from replay.log.describe import short_move
    from replay.play.moves import choices

    try:
        return [short_move(c.step) + (f" (or {', '.join(str(s.get('to')) for s in c.alike)}: the same)" if c.alike
                                      else "") for c in choices(table)]
    except Exception:  # noqa: BLE001 - a table the rules cannot read further shows no list, not a traceback
        return []


def refused_index(p: Problem | None) -> int | None:
    """The 0-based index of the move a problem is about (a violation, or a malformed move entry)."""
    if p is None:
        return None
    if p.move is not None:
        return p.move
    m = _MOVE_PATH.match(p.path or "")
    return int(m.group(1)) if m else None


def replay_log(raw: bytes, name: str) -> GameView:
    """Validate and replay one log given as bytes (never raises: problems end up in the result)."""
    from replay.engine import cards as C
    from replay.engine.errors import ReplayError
    from replay.games import create
    from replay.log.validate import check_bytes

    report = check_bytes(raw, name)
    data: Any = None
    if not (report.first is not None and report.first.code == "json-syntax"):  # what the validator cannot read,
        try:  # (a lone surrogate, a duplicate key, NaN: Python's json takes them) is not shown either
            data = json.loads(raw[3:] if raw[:3] == b"\xef\xbb\xbf" else raw)
        except (ValueError, RecursionError):
            data = None
    v = GameView(name, data, report)
    if not isinstance(data, dict):
        v.error = (report.first.message if report.first else None) or "the file is not a JSON object"
        return v
    try:
        game = create(data["game"], data.get("variants", []), data.get("rulings", {}))
        table = game.new_table([C.parse(c) for c in data["deck"]])
    except (ReplayError, KeyError, TypeError, ValueError, AttributeError) as err:
        v.error = f"cannot set up the game: {' '.join(str(err).split())}"
        return v
    v.game = game
    try:
        v.text = raw.decode("utf-8")
    except UnicodeDecodeError:
        v.text = None
    before = table.snapshot()
    v.steps.append(Step(0, None, "the table before the first move", before, legal=legal_here(table)))
    index = game.layout.index
    for n, mv in enumerate(v.moves, start=1):
        try:
            m = Move(mv["type"], index(mv["from"]) if "from" in mv else -1, index(mv["to"]) if "to" in mv else -1,
                     C.parse(mv["card"]) if mv.get("card") else -1, mv.get("count", 1))
            table.apply(m)
        except (ReplayError, KeyError, TypeError, ValueError, AttributeError):
            break  # the validator's report says why
        after = table.snapshot()
        changed = [k for k in after["piles"] if after["piles"][k] != before["piles"][k]]
        v.steps.append(Step(n, mv, describe_move(mv), after, changed, mv.get("from"), mv.get("to"),
                            move_clauses(game, m), legal_here(table)))
        before = after
    i = refused_index(report.first)
    if i is not None and i == len(v.steps) - 1 and i < len(v.moves) and report.first is not None:
        mv = v.moves[i] if isinstance(v.moves[i], dict) else {}
        src, dst = mv.get("from"), mv.get("to")
        v.refused = Refusal(i + 1, mv, describe_move(mv), report.first,
                            src if isinstance(src, str) else None, dst if isinstance(dst, str) else None)
    return v
