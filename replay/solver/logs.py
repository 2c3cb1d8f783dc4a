"""Logs in and out of the solver: engine moves as ``replay-log/1`` entries, and logs read back as a position.

The format is the one ``replay validate`` checks (``replay/log/``): a JSON object with
``format``, ``game``, ``variants``, ``rulings``, ``deck``, ``moves``, ``result`` and ``meta``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from replay.engine import cards as C
from replay.engine.errors import MalformedLog, ReplayError
from replay.engine.game import Game, Move, Table

FORMAT = "replay-log/1"
MOVE_TYPES = ("deal", "redeal", "move", "fill", "tuck")


def step_of(game: Game, m: Move, table: Table | None = None) -> dict[str, Any]:
    """The log entry of engine move ``m``; with ``table`` (the table before the move) it names the card moved."""
    names = game.layout.names
    d: dict[str, Any] = {"type": m.type}
    if m.src >= 0:
        d["from"] = names[m.src]
    if m.dst >= 0:
        d["to"] = names[m.dst]
    if table is not None and m.src >= 0:
        pile = table.piles[m.src]
        if len(pile) >= m.count:
            d["card"] = C.code(pile[-m.count])
    if m.count != 1:
        d["count"] = m.count
    return d


def steps_of(game: Game, deck: list[int], moves: Iterable[Move]) -> list[dict[str, Any]]:
    """Log entries of ``moves`` played from a fresh table of ``deck`` (each names its card)."""
    t = game.new_table(deck)
    out = []
    for m in moves:
        out.append(step_of(game, m, t))
        t.push(m)
    return out


def make_log(game: Game, deck: list[int], moves: Iterable[Move], result: str | None = None,
             meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A complete log as a dict; only rulings read otherwise than by default are written."""
    from replay.games.catalog import rulings_for

    defs = rulings_for(game.id)
    rulings = {k: v for k, v in sorted(game.rulings.items()) if k in defs and v != defs[k].default}
    log: dict[str, Any] = {
        "format": FORMAT,
        "game": game.id,
        "variants": sorted(game.variants),
        "rulings": rulings,
        "deck": [C.code(c) for c in deck],
        "moves": steps_of(game, deck, moves),
    }
    if result is not None:
        log["result"] = result
    if meta:
        log["meta"] = meta
    return log


def dumps(log: dict[str, Any]) -> str:
    """A log as JSON text: one header key per line, the deck on one line, one move per line."""

    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    lines = ["{"]
    keys = list(log)
    for k, key in enumerate(keys):
        value = log[key]
        comma = "," if k < len(keys) - 1 else ""
        if key == "moves" and value:
            lines.append('  "moves": [')
            for i, step in enumerate(value):
                lines.append("    " + one(step) + ("," if i < len(value) - 1 else ""))
            lines.append("  ]" + comma)
        elif key == "meta" and isinstance(value, dict) and value:
            lines.append('  "meta": ' + json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ") + comma)
        else:
            lines.append(f"  {one(key)}: {one(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- reading


@dataclass
class Loaded:
    """A log read back: its game instance, deck, the moves made and the table they lead to."""

    game: Game
    deck: list[int]
    moves: list[Move]
    table: Table
    data: dict[str, Any]


def _field(data: dict[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in data:
        raise MalformedLog(f"missing field {name!r}", where)
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MalformedLog(f"field {name!r} must be {kind.__name__}", where)
    return value


def load_log(text: str, where: str = "log") -> Loaded:
    """Read a log and replay its moves through the checked path.  Raises a :class:`ReplayError` on any fault."""
    from replay.games.catalog import create

    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise MalformedLog(f"not valid JSON ({e.msg if hasattr(e, 'msg') else e})", where) from None
    if not isinstance(data, dict):
        raise MalformedLog("a log is a JSON object", where)
    if data.get("format") != FORMAT:
        raise MalformedLog(f"field 'format' must be {FORMAT!r}", where)
    game_id = _field(data, "game", str, where)
    variants = data.get("variants", [])
    rulings = data.get("rulings", {})
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise MalformedLog("field 'variants' must be a list of names", where)
    if not isinstance(rulings, dict) or not all(isinstance(v, str) for v in rulings.values()):
        raise MalformedLog("field 'rulings' must map ruling names to readings", where)
    game = create(game_id, variants, rulings)
    codes = _field(data, "deck", list, where)
    deck = []
    for code in codes:
        if not isinstance(code, str):
            raise MalformedLog("the deck holds card codes", where)
        deck.append(C.parse(code))
    table = game.new_table(deck)
    moves = []
    for i, step in enumerate(data.get("moves", []) or []):
        at = f"{where}: move {i + 1}"
        if not isinstance(step, dict) or step.get("type") not in MOVE_TYPES:
            raise MalformedLog(f"a move needs a type ({', '.join(MOVE_TYPES)})", at)
        lay = game.layout
        count = step.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool):
            raise MalformedLog("count must be an integer", at)
        try:
            src = lay.index(step["from"]) if "from" in step else -1
            dst = lay.index(step["to"]) if "to" in step else -1
            card = C.parse(step["card"]) if "card" in step else -1
            m = Move(step["type"], src, dst, card, count)
            table.apply(m)
        except ReplayError as e:
            raise MalformedLog(e.one_line(), at) from None
        moves.append(Move(m.type, m.src, m.dst, count=m.count))
    return Loaded(game, deck, moves, table, data)


def read_log(path: str | Path) -> Loaded:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MalformedLog(f"cannot read {p}: {e.__class__.__name__}") from None
    return load_log(text, str(p))


__all__ = ["step_of", "steps_of", "make_log", "dumps", "load_log", "read_log", "Loaded", "FORMAT"]
