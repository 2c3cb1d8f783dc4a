#!/usr/bin/env python3
"""Construct won games of the frame and column games (printex-frame, zwarta-kolumna), every variant.

Random deals of these games almost never come out under our reconstruction (see docs/stats.md):
the solver finds no win within its budget.  A won game is still a real game: it is the deal that is
lucky.  This script builds such deals while it plays.  Before each deal it chooses, position by
position in dealing order, a card that can go to a foundation from that position once the deal is
down (trying each remaining card on a scratch copy of the table, so the engine's own rules decide);
it then plays greedily.  The deck of the log is the order in which the cards left the stock, so the
log is an ordinary, complete log that `replay validate` replays from the start.  Several seeds are
tried; the first win is kept.

    .venv/bin/python examples/construct_won.py            # writes examples/games/<game>/<form>/won-constructed-*.json
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from replay.engine.game import Game, Move, Table  # noqa: E402
from replay.engine.layout import FOUNDATION  # noqa: E402
from replay.fsio import atomic_write  # noqa: E402
from replay.games.catalog import catalog, create  # noqa: E402
from replay.log.play import dumps, new_log, step_of  # noqa: E402
from replay.log.validate import check_bytes  # noqa: E402

FORMS = [("printex-frame", v) for v in ((), ("any-pile-after-third-deal",), ("cztery-katy",))] + [
    ("zwarta-kolumna", v) for v in ((), ("fill-from-any-pile",), ("chaldejski",), ("gotycki-zamek",), ("cztery-katy",))]
TRIES = 1000
#: the readings the constructor plays a game under beyond its defaults (none: in the default frame of twenty,
#: square-20-ring, every pile reaches a foundation and the constructor finds won deals; under square-20's block
#: four side piles empty only at a redeal, which it does not plan for)
RULINGS: dict[str, dict[str, str]] = {}


class Builder:
    """Plays one game on a live table whose stock it orders just before each draw."""

    def __init__(self, game: Game, seed: int) -> None:
        self.g = game
        self.rng = random.Random(seed)
        self.t = game.new_table(game.deck_from_seed(seed))
        self.drawn: list[int] = []
        self.moves: list[dict] = []

    # ------------------------------------------------------------------ the stock

    @property
    def stock(self) -> list[int]:
        return self.t.piles[self.g.stock]

    def act(self, m: Move) -> None:
        before = list(self.stock)
        self.moves.append(step_of(self.g, m, self.t))
        self.t.apply(m)
        n = len(before) - len(self.stock)
        if n:
            self.drawn.extend(reversed(before[len(before) - n:]))

    def put_on_top(self, cards: list[int]) -> None:
        """Make ``cards`` the next cards drawn, in this order (the rest keep their order beneath)."""
        rest = list(self.stock)
        for c in cards:
            rest.remove(c)
        self.stock[:] = rest + list(reversed(cards))

    def need(self, card: int, table: Table | None = None) -> int:
        """How soon the foundations of ``table`` (default: the live one) want ``card`` (0: next; large: much later)."""
        t = self.t if table is None else table
        best = 99
        for f in self.g.foundations:
            pile = t.piles[f]
            if pile:
                if (pile[-1] & 3) != (card & 3):
                    continue
                steps = ((card >> 2) - (pile[-1] >> 2)) * self.g.fdir[f]
            else:
                if t.fsuit[f] >= 0 and t.fsuit[f] != (card & 3):
                    continue
                steps = ((card >> 2) - self.g.fbase[f]) * self.g.fdir[f] + 1
            if steps >= 1:
                best = min(best, steps - 1)
        return best

    def order_by_need(self) -> None:
        """Put the cards the foundations want soonest at the top of the stock (they refill the corners)."""
        self.stock.sort(key=lambda c: (-self.need(c), self.rng.random()))

    # ------------------------------------------------------------------ playing

    def foundation_moves(self) -> list[Move]:
        g = self.g
        return [m for m in self.t.legal_moves() if m.type == "fill"
                or (m.type == "move" and g.roles[m.dst] == FOUNDATION and g.roles[m.src] != FOUNDATION)]

    def play_out(self) -> None:
        """Play to the foundations (and make owed replacements) until nothing more goes."""
        while True:
            moves = self.foundation_moves()
            if not moves:
                return
            fills = [m for m in moves if m.type == "fill"]
            if fills:  # replace from the corner whose top card is wanted least
                m = max(fills, key=lambda m: self.need(self.t.piles[m.src][-1]))
            else:  # the card the foundations want, onto the pile that wanted it soonest
                m = min(moves, key=lambda m: (self.need(self.t.piles[m.src][-1]), m.src, m.dst))
            self.act(m)

    def plan_round(self) -> list[int]:
        """The cards of the next deal, position by position, each playable there if any can be."""
        g, t = self.g, self.t
        order = g.layout.order("deal" if t.rounds == 0 else "later_deal")
        scratch = t.copy()
        scratch.piles[g.stock] = []  # nothing is drawn while planning
        scratch.vars.pop("replace", None)
        left = Counter(self.stock)
        chosen: list[int] = []
        for p in order[: len(self.stock)]:
            cards = list(left.elements())
            self.rng.shuffle(cards)
            pick = None
            for c in sorted(set(cards), key=lambda c: (self.need(c, scratch), self.rng.random())):
                scratch.piles[p].append(c)
                fs = [f for f in g.foundations if scratch.allows(Move("move", p, f))]
                if fs:
                    scratch.push(Move("move", p, fs[0]))
                    if scratch.vars.get("replace"):
                        scratch.vars["replace"] = None
                    pick = c
                    break
                scratch.piles[p].pop()
            if pick is None:  # nothing fits here: lay a card wanted late, that this place can reach later
                pick = max(set(cards), key=lambda c: (self.reachable(p, c), self.need(c, scratch),
                                                      self.rng.random()))
                scratch.piles[p].append(pick)
            left[pick] -= 1
            chosen.append(pick)
        return chosen

    def reachable(self, p: int, card: int) -> bool:
        """Whether some foundation of ``card``'s suit lies within reach of place ``p`` (the game's geometry)."""
        reach = self.g.options.get("reach")
        if reach is None or p in self.g.options.get("corners", ()):
            return True
        return any(reach[p][f] for f in self.g.foundations if self.t.fsuit[f] == card & 3)

    def run(self) -> bool:
        while True:
            self.play_out()
            if self.t.is_won():
                return True
            if not self.stock:
                return False  # a constructed game comes out in its first pass or not at all
            self.put_on_top(self.plan_round())
            self.act(Move("deal"))
            self.order_by_need()


def construct(game: Game, tries: int = TRIES) -> tuple[int, Builder] | None:
    for seed in range(1, tries + 1):
        b = Builder(game, seed)
        if b.run():
            return seed, b
    return None


def main() -> int:
    catalog()
    out = ROOT / "games"
    failed = []
    for gid, variants in FORMS:
        game = create(gid, variants, RULINGS.get(gid, {}))
        form = "+".join(variants) or "base"
        found = construct(game)
        if found is None:
            failed.append(f"{gid} {form}")
            continue
        seed, b = found
        log = new_log(game, b.drawn, b.moves, result="won", meta={
            "source": f"examples/construct_won.py, construction seed {seed}",
            "player": "constructor: the deal chosen while playing so that the game comes out",
            "notes": "a constructed deal: random deals of this game almost never come out (docs/stats.md)",
        })
        report = check_bytes(dumps(log).encode(), "constructed")  # it replays from the start on a plain table
        assert report.ok, report
        path = out / gid / form / f"won-constructed-{seed}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, dumps(log).encode("utf-8"))  # regenerating the examples is the purpose
        print(f"{path.relative_to(ROOT.parent)}: {len(b.moves)} moves")
    for f in failed:
        print(f"no win constructed for {f} in {TRIES} tries", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
