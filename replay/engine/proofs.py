"""Building blocks for the games' proofs of loss (a game's ``SEARCH['dead_ends']``); they name no game.

:func:`a_card_the_last_pass_cannot_free` is the common core of the proofs of the games whose piles
are dealt from a stock, gathered and dealt again a fixed number of times, and whose cards go to
foundations of fixed suits, up from aces or down from kings.  In the last pass nothing comes
back: a game module says where its cards may go (which foundations a pile reaches, where a card
of the stock will land, whether cards build on one another) and the function says whether some
card can never reach a foundation.  Its fixpoint, :func:`what_the_rest_of_the_pass_can_do`, holds in
any pass until the next gathering: which cards can leave their piles before it, the ground of a proof
for an earlier pass.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from replay.engine import cards as C
from replay.engine.game import Table
from replay.engine.layout import TABLEAU

P = TypeVar("P", bound=Callable[..., object])


def proof_of_loss(plain_name: str) -> Callable[[P], P]:
    """Mark a function ``(table) -> reason | None`` as a proof of loss named ``plain_name`` in plain words:
    the name a verdict gives for the proof that settled a deal (``replay solve``: "proved lost: …",
    :attr:`replay.solver.search.Result.proved_by`)."""

    def mark(fn: P) -> P:
        fn.plain_name = plain_name  # type: ignore[attr-defined]
        return fn

    return mark


#: reaches(place, foundation): whether a card lying on pile ``place`` (None: a card of the stock whose
#: landing place is not known) may go to ``foundation``
Reaches = Callable[[int | None, int], bool]


def a_card_the_last_pass_cannot_free(t: Table, reaches: Reaches, lands: Callable[[int], int | None],
                                     builds: Callable[[int, int], bool] | None) -> str | None:
    """In the last pass: the reason some card can never reach a foundation, or None.

    ``lands(j)``: the pile the ``j``-th next card of the stock will be dealt onto (None: unknown).
    ``builds(under, over)``: whether ``over`` may be built on ``under`` at some time of this pass
    (None: no building); a card moved by building may then lie anywhere, so it is taken to reach
    every foundation.

    Soundness.  The least solution of rules every game from here obeys (iterated from "nothing"
    until nothing changes) contains every fact true in a real game, because each fact is derived from
    facts that were true before it; the rules only drop conditions of the real game, which can only
    add facts.  A card left out can never go home, and the game is lost.  Facts of a card instance:

    * ``exposed``: it is ever a top card.  A card of the stock is, when dealt; a card of a pile only
      once every card now above it has *left* (a pile gives cards only from its top).
    * ``home on f``: it goes onto foundation ``f``: it is the next card ``f`` wants, or the card
      before it in ``f``'s direction (another instance) goes home on ``f`` first; it must be exposed
      and lie where ``f`` is reached (or have been moved by building).
    * ``leaves``: it goes home somewhere, or (when building is allowed) it is exposed and built on
      another exposed instance (not one beneath it in its own pile).

    Since a card leaves only once exposed, the card beneath it is exposed exactly when it leaves: the
    facts are propagated with a work list, each set once (linear in the number of cards).

    The proof applies only in the last pass (no gathering brings cards back) and when every
    foundation has its suit (bases laid).
    """
    g = t.game
    if t.passes < g.setup.max_passes:
        return None
    facts = what_the_rest_of_the_pass_can_do(t, reaches, lands, builds)
    if facts is None:
        return None
    for i, (card, _, at) in enumerate(facts.inst):
        if not facts.goes_home(i):
            where = "the stock" if at < 0 else t.name(at)
            return f"{C.code(card)} in {where} can never reach a foundation in the last pass"
    return None


class PassFacts:
    """What the least fixpoint of :func:`what_the_rest_of_the_pass_can_do` holds: every card instance of the
    tableau piles and the stock (``inst``: card, place (None: unknown), pile or -1 for the stock) and, for each,
    whether it may leave its place (``leaves``) or go home (``home`` on some foundation) before the pass ends."""

    def __init__(self, inst: list[tuple[int, int | None, int]], leaves: list[bool], home: dict[int, list[bool]],
                 wanted_by: list[list[int]]) -> None:
        self.inst, self.leaves, self.home, self.wanted_by = inst, leaves, home, wanted_by

    def goes_home(self, i: int) -> bool:
        return any(self.home[f][i] for f in self.wanted_by[i])


def what_the_rest_of_the_pass_can_do(t: Table, reaches: Reaches, lands: Callable[[int], int | None],
                                     builds: Callable[[int, int], bool] | None) -> PassFacts | None:
    """The least fixpoint of :func:`a_card_the_last_pass_cannot_free`'s rules over the rest of the current pass
    (None when some foundation has no suit yet): every fact of a real game played from ``t`` until the piles are
    next gathered is in it, whichever pass this is, since its rules read only what the pass's moves do (cards
    leave a pile from its top, go home where the foundations take them, and nothing is gathered within a pass).
    In the last pass a card it never brings home is lost; in an earlier one a card it never lets *leave* is
    still in its pile when the piles are gathered (a game's proof for the passes before the last may build on that)."""
    g = t.game
    found = g.foundations
    if any(t.fsuit[f] < 0 or not t.piles[f] for f in found):
        return None
    # what each foundation still wants, in order
    want: dict[int, list[int]] = {}
    for f in found:
        step = 4 * g.fdir[f]
        nxt, last = t.piles[f][-1] + step, C.make(C.KING if g.fdir[f] > 0 else C.ACE, t.fsuit[f])
        seq = []
        while (nxt - last) * g.fdir[f] <= 0 and 0 <= nxt < 52:
            seq.append(nxt)
            nxt += step
        want[f] = seq
    first = {f: w[0] for f, w in want.items() if w}
    inst: list[tuple[int, int | None, int]] = []  # (card, place (None: unknown), pile or -1 for the stock)
    beneath: list[int] = []  # the instance directly beneath, -1 for none
    tops: list[int] = []
    for p in g.by_role.get(TABLEAU, ()):
        pile = t.piles[p]
        base = len(inst)
        for h, card in enumerate(pile):
            inst.append((card, p, p))
            beneath.append(base + h - 1 if h else -1)
        if pile:
            tops.append(len(inst) - 1)
    stock = t.piles[g.stock]
    for j, card in enumerate(reversed(stock)):
        tops.append(len(inst))
        inst.append((card, lands(j), -1))
        beneath.append(-1)
    n = len(inst)
    by_card: dict[int, list[int]] = {}
    for i, (card, _, _) in enumerate(inst):
        by_card.setdefault(card, []).append(i)
    wanting: dict[int, list[int]] = {}
    for f in found:
        for c in want[f]:
            wanting.setdefault(c, []).append(f)
    wanted_by: list[list[int]] = [wanting.get(card, []) for card, _, _ in inst]
    build_on: list[list[int]] = [[] for _ in range(n)]  # the instances each may be built on
    built_under: list[list[int]] = [[] for _ in range(n)]  # and the reverse
    if builds is not None:
        near = _neighbours(builds)
        for i, (card, _, at) in enumerate(inst):
            for c in near[card]:
                for j in by_card.get(c, ()):
                    if at < 0 or inst[j][2] != at or j > i:  # not beneath i in its own pile
                        build_on[i].append(j)
                        built_under[j].append(i)
    exposed = [False] * n
    leaves = [False] * n
    moved = [False] * n  # built elsewhere: may lie anywhere
    home = {f: [False] * n for f in found}
    work: list[tuple[int, int, int]] = [(0, i, 0) for i in tops]  # (fact, instance, foundation)
    EXPOSED, LEAVES, MOVED, HOME = 0, 1, 2, 3

    def try_home(i: int, f: int) -> None:
        """Set ``home on f`` for ``i`` if its rules hold now."""
        if home[f][i] or not exposed[i]:
            return
        card, place, _ = inst[i]
        if not (moved[i] or reaches(place, f)):
            return
        if card == first[f] or any(home[f][j] for j in by_card.get(card - 4 * g.fdir[f], ()) if j != i):
            home[f][i] = True
            work.append((HOME, i, f))

    while work:
        fact, i, f = work.pop()
        if fact == EXPOSED:
            if exposed[i]:
                continue
            exposed[i] = True
            for f in wanted_by[i]:
                try_home(i, f)
            if not leaves[i] and any(exposed[j] for j in build_on[i]):
                work.append((MOVED, i, 0))
            for k in built_under[i]:
                if exposed[k] and not leaves[k]:
                    work.append((MOVED, k, 0))
        elif fact == MOVED:
            if moved[i]:
                continue
            moved[i] = True
            work.append((LEAVES, i, 0))
            for f in wanted_by[i]:
                try_home(i, f)
        elif fact == HOME:
            work.append((LEAVES, i, 0))
            step = 4 * g.fdir[f]
            for j in by_card.get(inst[i][0] + step, ()):
                if j != i and f in wanted_by[j]:
                    try_home(j, f)
        elif not leaves[i]:  # LEAVES
            leaves[i] = True
            if beneath[i] >= 0:
                work.append((EXPOSED, beneath[i], 0))
    return PassFacts(inst, leaves, home, wanted_by)


_NEIGHBOURS: dict[Callable[[int, int], bool], list[tuple[int, ...]]] = {}


def _neighbours(builds: Callable[[int, int], bool]) -> list[tuple[int, ...]]:
    """For every card, the cards it may be built on (one rank up or down) under ``builds`` (cached)."""
    out = _NEIGHBOURS.get(builds)
    if out is None:
        out = [tuple(C.make(q, s) for q in (C.rank_of(card) - 1, C.rank_of(card) + 1) if 0 <= q <= C.KING
                     for s in range(4) if builds(C.make(q, s), card)) for card in range(52)]
        _NEIGHBOURS[builds] = out
    return out


__all__ = ["a_card_the_last_pass_cannot_free", "PassFacts", "proof_of_loss", "Reaches", "what_the_rest_of_the_pass_can_do"]
