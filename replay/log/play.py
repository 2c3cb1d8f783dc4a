"""Writing logs: engine moves as log entries, new logs, and a seeded random-greedy player.

The player makes the example games (``examples/make_examples.py``), the benchmark's
logs and the tests' logs.  It is deterministic for a given seed: it draws from its
own :class:`random.Random` and walks the engine's legal-move list in its order.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from replay.engine import cards as C
from replay.engine.game import Game, Move, Table
from replay.engine.layout import FOUNDATION
from replay.log.format import FORMAT


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


#: the keys of a move in the order a log writes them (the comment last)
STEP_ORDER = ("type", "from", "to", "card", "count", "comment")


def in_order(step: dict[str, Any]) -> dict[str, Any]:
    """A move's keys in the order the log format writes them (the comment last)."""
    return {k: step[k] for k in STEP_ORDER if k in step}


def new_log(game: Game, deck: list[int], moves: Iterable[dict[str, Any]] = (), result: str | None = None,
            meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A log as a dict, keys in the documented order; every ruling that applies is written out."""
    log: dict[str, Any] = {
        "format": FORMAT,
        "game": game.id,
        "variants": sorted(game.variants),
        "rulings": dict(sorted(game.rulings.items())),
        "deck": [C.code(c) for c in deck],
        "moves": list(moves),
    }
    if result is not None:
        log["result"] = result
    if meta:
        log["meta"] = meta
    return log


def _progress(game: Game, m: Move) -> bool:
    """Moves that can never bring back an earlier position (a card onto a foundation, a deal, a redeal)."""
    return m.type in ("deal", "redeal") or (m.dst >= 0 and game.roles[m.dst] == FOUNDATION
                                            and (m.src < 0 or game.roles[m.src] != FOUNDATION))


def play(game: Game, deck: list[int], seed: int, max_moves: int = 2000, eager: float = 0.9,
         patience: float = 0.7) -> tuple[list[Move], Table]:
    """Play ``deck`` with a seeded random-greedy player until no legal move is left (or ``max_moves``).

    It plays a card to a foundation when it can (with probability ``eager``), otherwise another
    card move (with probability ``patience``), and deals or gathers only when it chooses not to
    move; it never makes a move that brings back a position already seen, so it cannot loop.  When
    every legal move would repeat a position it stops: the game is then ``unfinished``.

    Returns the moves made and the final table.
    """
    rng = random.Random(seed)
    t = game.new_table(deck)
    seen = {t.key()}
    made: list[Move] = []
    while len(made) < max_moves:
        legal = t.legal_moves()
        if not legal:
            break
        found = [m for m in legal if m.type == "move" and _progress(game, m)]
        dealing = [m for m in legal if m.type in ("deal", "redeal")]
        other = [m for m in legal if m not in found and m not in dealing]
        for moves in (found, other, dealing):
            rng.shuffle(moves)
        if found and rng.random() < eager:
            order = found + other + dealing
        elif other and rng.random() < patience:
            order = other + found + dealing
        else:
            order = dealing + found + other
        chosen = None
        for m in order:
            if _progress(game, m):
                chosen = m
                break
            after = t.copy()
            after.push(m)
            if after.key() not in seen:
                chosen = m
                break
        if chosen is None:
            break
        t.push(chosen)
        seen.add(t.key())
        made.append(chosen)
    return made, t


def played_log(game: Game, seed: int, max_moves: int = 2000, meta: dict[str, Any] | None = None,
               **kw: Any) -> dict[str, Any]:
    """A complete log: the deck of ``seed`` played by :func:`play`, its result claimed."""
    deck = game.deck_from_seed(seed)
    moves, _ = play(game, deck, seed, max_moves, **kw)
    t = game.new_table(deck)
    steps = []
    for m in moves:
        steps.append(step_of(game, m, t))
        t.push(m)
    return new_log(game, deck, steps, t.outcome(), meta)


def dumps(log: dict[str, Any]) -> str:
    """A log as JSON text: one header key per line, the deck on one line, one move per line."""
    import json

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
            lines.append('  "meta": ' + json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
                         + comma)
        else:
            lines.append(f"  {one(key)}: {one(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
