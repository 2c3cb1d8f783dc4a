"""A simple greedy player: the baseline the solver is compared with.

At each turn it takes the first legal move (in the engine's order) of the first
of these classes that has one, never making a move that brings back a position
it has already seen:

1. a card to a foundation (not from another foundation);
2. a move the rules impose on the player (``fill``, ``tuck``);
3. another card move that empties its pile onto another card, takes a card off
   the talon, or uncovers a card that can then go to a foundation (asked of
   the engine);
4. ``deal``, then ``redeal``.

It never makes other moves (shifts between foundations, builds that free
nothing), and stops when no class has a move.  It has no randomness: the same
deal always gives the same game.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.engine.game import Game, Move, Table
from replay.engine.layout import FOUNDATION, STOCK
from replay.engine.layout import WASTE
from replay.solver.search import frees_a_card, position_key

MAX_MOVES = 5000


@dataclass
class GreedyResult:
    won: bool
    line: list[Move]
    table: Table
    outcome: str  #: the final table's outcome: won, lost (no legal move) or unfinished (the player stopped)


def _to_foundation(game: Game, m: Move) -> bool:
    return m.dst >= 0 and game.roles[m.dst] == FOUNDATION and game.roles[m.src] != FOUNDATION


def _class(game: Game, t: Table, m: Move) -> int:
    if _to_foundation(game, m):
        return 0
    if m.type in ("fill", "tuck"):
        return 1
    if m.type == "deal":
        return 3
    if m.type == "redeal":
        return 4
    if m.dst >= 0 and game.roles[m.dst] == FOUNDATION:
        return 9  # between foundations: never
    if m.src >= 0 and game.roles[m.src] == WASTE:
        return 2
    if m.src >= 0 and game.roles[m.src] != STOCK and len(t.piles[m.src]) == m.count and t.piles[m.dst]:
        return 2  # empties its pile onto another card (a lone card moved into a space gains nothing)
    return 5  # class 3 if it frees a card for a foundation, else never


def play_greedy(game: Game, deck: list[int] | None = None, table: Table | None = None,
                max_moves: int = MAX_MOVES) -> GreedyResult:
    """Play a deal (or continue from ``table``) greedily to the end."""
    if table is None:
        if deck is None:
            raise ValueError("play_greedy() needs a deck or a table")
        table = game.new_table(deck)
    t = table.copy()
    key = position_key(game)
    seen = {key(t)}
    line: list[Move] = []
    while len(line) < max_moves and not t.is_won():
        legal = t.legal_moves()
        if not legal:
            break
        best: tuple[int, Move, Table] | None = None
        for m in legal:
            c = _class(game, t, m)
            if c == 9 or (best is not None and min(c, 2) >= best[0]):
                continue
            after = t.copy()
            after.push(m)
            if c == 5:
                if not frees_a_card(game, after, m.src):
                    continue
                c = 2
            if key(after) in seen:
                continue
            best = (c, m, after)
            if c == 0:
                break
        if best is None:
            break
        _, m, t = best
        seen.add(key(t))
        line.append(m)
    won = t.is_won()
    return GreedyResult(won, line, t, t.outcome())


__all__ = ["play_greedy", "GreedyResult"]
