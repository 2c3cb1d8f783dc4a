"""Logs in and out of the solver, in the ``replay-log/1`` format of :mod:`replay.log`.

Writing uses the log package's own converter (:func:`replay.log.play.step_of`, ``new_log``,
``dumps``); reading uses its validator, so ``replay solve`` refuses exactly the logs
``replay validate`` refuses, with the same one-line message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from replay.engine import cards as C
from replay.engine.errors import MalformedLog
from replay.engine.game import Game, Move, Table
from replay.log.play import dumps, new_log, step_of

FORMAT = "replay-log/1"


def steps_from(game: Game, table: Table, moves: Iterable[Move]) -> list[dict[str, Any]]:
    """Log entries of ``moves`` played on (a copy of) ``table``, each naming the card it moves."""
    t = table.copy()
    out = []
    for m in moves:
        out.append(step_of(game, m, t))
        t.push(m)
    return out


def make_log(game: Game, deck: list[int], moves: Iterable[Move], result: str | None = None,
             meta: dict[str, Any] | None = None, before: list[dict[str, Any]] | None = None,
             table: Table | None = None) -> dict[str, Any]:
    """A complete log: the entries ``before`` (already made, leading to ``table``), then ``moves``."""
    start = table if table is not None else game.new_table(deck)
    steps = list(before or []) + steps_from(game, start, moves)
    return new_log(game, deck, steps, result, meta)


@dataclass
class Loaded:
    """A log read back: its game instance, deck, entries and the table they lead to."""

    game: Game
    deck: list[int]
    steps: list[dict[str, Any]]
    table: Table
    data: dict[str, Any]


def load_bytes(data: bytes, name: str = "<log>") -> Loaded:
    """Check a log with the validator and replay it.  Raises :class:`MalformedLog` (one line) when it is not valid."""
    from replay.log.validate import check_bytes, parse, replay_to

    report = check_bytes(data, name)
    if not report.ok:
        p = report.first
        detail = f"{p.verdict}: {p.message}" if p else report.verdict
        if p is not None and p.clause:
            detail += f" [{p.clause}]"
        if p is not None and p.move is not None:
            from replay.log.locate import move_ref

            detail = f"{move_ref(p.move)}: {detail}"
        raise MalformedLog(detail, name)
    log = parse(data)
    inst, table, _, _ = replay_to(log, None)
    raw = json.loads(data[3:] if data[:3] == b"\xef\xbb\xbf" else data)
    return Loaded(inst.game, [C.parse(c) for c in log.deck], list(raw.get("moves", [])), table, raw)


def read_log(path: str | Path) -> Loaded:
    """:func:`load_bytes` of a file, read no further than the log format's size limit."""
    from replay.log.models import MAX_BYTES

    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as e:
        raise MalformedLog(f"cannot read: {e.strerror or e}", str(p)) from None
    return load_bytes(data, str(p))


__all__ = ["step_of", "steps_from", "make_log", "dumps", "load_bytes", "read_log", "Loaded", "FORMAT"]
