"""Property tests (issue #3): random legal play in every form of every game.

A *form* is a game with a set of variants and rulings.  The forms tested are: every game with its
defaults; every allowed combination of its variants; and every non-default reading of every ruling,
varied alone from the defaults (a ruling that applies only to a variant is combined with that
variant).  The list is built from the catalog and the ambiguity register, so a new variant or reading
is tested without editing this file.

For each form, hypothesis draws the deck's seed and the move choices (each move itself, or the seed
of a random.Random that picks them uniformly); after every move:

* all 104 cards are accounted for: the multiset of foundations + piles + stock + waste + exiles is
  exactly two full packs (no card lost, duplicated or invented), and every foundation is a proper run
  (its base rank, one suit, one step at a time in its direction);
* every move of ``legal_moves()`` is allowed by ``violation()``, and the one played, and a few others
  on copies of the table, are accepted by ``apply()``;
* moves *not* in the list are refused: candidate moves are drawn from every (type, source, target,
  count) combination of the game's move types over all containers (nonsense such as
  foundation -> stock, count 0 or a deal with a count included), together with near misses of the
  legal moves (count ± 1, source = target, reversed), every move from a container onto itself, and,
  in a position with no legal move, every combination with count 1; ``violation(m) is None`` must
  hold exactly when ``m`` is in the list.  An illegal move given to ``apply()`` raises and leaves the
  table as it was.

Runs are deterministic (``derandomize=True``, no example database) and capped in moves.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from replay.engine import cards as C
from replay.engine.errors import IllegalMove
from replay.engine.game import Game, Move, Table
from replay.games import catalog, create, rulings_for

TWO_PACKS = Counter(C.full_deck())
MAX_MOVES = 350  #: moves per example (napoleons-square can shuttle a card for ever; see below)
SAMPLED = 24  #: random candidate combinations checked per position
COUNTS = (0, 1, 2, 3)


def forms() -> list[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]]:
    out = []
    for game_id, mod in catalog().items():
        for k in range(len(mod.VARIANTS) + 1):
            for combo in itertools.combinations(mod.VARIANTS, k):
                if mod.combination_problem(frozenset(combo)) is None:
                    out.append((game_id, combo, ()))
        for name, ruling in sorted(rulings_for(game_id).items()):
            for reading in ruling.readings:
                if reading != ruling.default:
                    out.append((game_id, tuple(ruling.variants[:1]), ((name, reading),)))
    return out


FORMS = forms()


def form_id(form) -> str:
    game_id, variants, rulings = form
    return "+".join([game_id, *variants, *(f"{n}={r}" for n, r in rulings)])


@lru_cache(maxsize=None)
def game_of(form) -> Game:
    game_id, variants, rulings = form
    return create(game_id, variants, dict(rulings))


@lru_cache(maxsize=None)
def combinations(form) -> list[Move]:
    g = game_of(form)
    spots = range(-1, len(g.roles))
    return [Move(t, s, d, count=c) for t in g.book.types for s in spots for d in spots for c in COUNTS]


def sig(m: Move) -> tuple[str, int, int, int]:
    return (m.type, m.src, m.dst, m.count)


def check_cards(t: Table) -> None:
    on_table = Counter(c for pile in t.piles for c in pile)
    assert on_table == TWO_PACKS, f"lost {TWO_PACKS - on_table}, invented {on_table - TWO_PACKS}"
    g = t.game
    for f in g.foundations:
        pile = t.piles[f]
        if not pile:
            continue
        assert C.rank_of(pile[0]) == g.fbase[f], f"{t.name(f)} starts with {C.code(pile[0])}"
        assert t.fsuit[f] == C.suit_of(pile[0])
        for a, b in zip(pile, pile[1:]):
            assert C.suit_of(a) == C.suit_of(b) and C.rank_of(b) - C.rank_of(a) == g.fdir[f], \
                f"{t.name(f)}: {C.code(b)} on {C.code(a)}"


@lru_cache(maxsize=None)
def self_moves(form) -> list[Move]:
    """Every move type from each container onto itself (generic candidates never offer these)."""
    g = game_of(form)
    return [Move(t, i, i) for t in g.book.types for i in range(len(g.roles))]


def near_misses(legal: list[Move]) -> list[Move]:
    out = []
    for m in legal:
        out += [Move(m.type, m.src, m.dst, count=m.count + 1), Move(m.type, m.src, m.dst, count=m.count - 1),
                Move(m.type, m.src, m.src, count=m.count), Move(m.type, m.dst, m.src, count=m.count),
                Move(m.type, m.dst, m.dst, count=m.count)]
    return out


def check_position(t: Table, legal: list[Move], rng: random.Random, form) -> None:
    keys = {sig(m) for m in legal}
    assert len(keys) == len(legal), "legal_moves() lists a move twice"
    for m in legal:
        assert t.violation(m) is None, m
    combos = combinations(form)
    sample = [combos[rng.randrange(len(combos))] for _ in range(SAMPLED)] + near_misses(legal) + self_moves(form)
    if not legal:  # a position said to be over: nothing at all may be allowed
        sample += [m for m in combos if m.count == 1]
    for m in sample:
        ok = t.violation(m) is None
        assert ok == (sig(m) in keys), (m, "accepted but not listed" if ok else "listed but refused",
                                        t.violation(m))
    illegal = [m for m in sample if sig(m) not in keys]
    if illegal:
        m = rng.choice(illegal)
        before = t.key()
        with pytest.raises(IllegalMove) as err:
            t.apply(m)
        assert err.value.clause, m
        assert t.key() == before, f"a refused {m} changed the table"
    for m in rng.sample(legal, min(3, len(legal))):  # other legal moves are accepted too
        u = t.copy()
        u.apply(m)
        check_cards(u)


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("form", FORMS, ids=[form_id(f) for f in FORMS])
@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          phases=(Phase.explicit, Phase.generate),  # no shrinking: a failure reports its seeds as drawn
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_legal_play_keeps_every_card_and_agrees_with_the_rules(form, data):
    g = game_of(form)
    seed = data.draw(SEEDS, label="deck seed")
    rng = random.Random(data.draw(SEEDS, label="play seed"))
    # Hypothesis draws each move itself (its draws favour the first and last moves of the list, a
    # useful bias), or has a random.Random seeded by it draw them uniformly (which plays deeper).
    direct = data.draw(st.booleans(), label="hypothesis draws each move")
    t = g.new_table(g.deck_from_seed(seed))
    check_cards(t)
    for _ in range(MAX_MOVES):
        legal = t.legal_moves()
        check_position(t, legal, rng, form)
        if not legal:
            assert t.outcome() in ("won", "lost")
            return
        i = data.draw(st.integers(min_value=0, max_value=len(legal) - 1)) if direct else rng.randrange(len(legal))
        t.apply(legal[i])
        check_cards(t)


@pytest.mark.parametrize("game_id", sorted(catalog()))
def test_every_combination_is_checked_in_the_first_positions(game_id):
    """The full sweep of (type, source, target, count) in the opening positions of each game's defaults."""
    form = (game_id, (), ())
    g = game_of(form)
    rng = random.Random(1)
    t = g.new_table(g.deck_from_seed(1))
    for _ in range(3):
        legal = t.legal_moves()
        keys = {sig(m) for m in legal}
        for m in combinations(form):
            assert (t.violation(m) is None) == (sig(m) in keys), m
        if not legal:
            break
        t.apply(rng.choice(legal))


# ----------------------------------------------------------------------------- plays to the end

#: Which forms random play does not finish within the cap, and why (measured with uniform random play,
#: seeds 0-9, cap 1500 moves): printex-frame, zwarta-kolumna and exiles, in every form, end ("lost";
#: "won" in 4 of 10 deals of exiles with two redeals) within 950 moves for every seed.
#: napoleons-square does not: 3 to 8 deals in 10, depending on the form, run to the cap.  In every one
#: the pack is played out and the last hundreds of moves are square-to-square marriages of one card,
#: or a short run, back and forth (with two packs an 8S may be married onto either of two 9S, and
#: back): the engine calls a position "lost" only when no legal move is left, and such a shuttle is
#: always legal.  The test below requires that every capped game is a napoleons-square game whose pack
#: is played out and whose foundations have stopped growing, i.e. such a cycle.
END_CAP = 1500
END_SEEDS = (0, 1, 2)
CYCLING = {"napoleons-square"}


@pytest.mark.parametrize("form", FORMS, ids=[form_id(f) for f in FORMS])
def test_random_play_reaches_the_end_or_else_cycles_only_in_napoleons_square(form):
    g = game_of(form)
    for seed in END_SEEDS:
        rng = random.Random(seed)
        t = g.new_table(g.deck_from_seed(seed))
        home = []
        for _ in range(END_CAP):
            legal = t.legal_moves()
            if not legal:
                break
            t.push(rng.choice(legal))
            home.append(sum(len(t.piles[f]) for f in g.foundations))
        if not t.legal_moves():
            assert t.outcome() in ("won", "lost"), (seed, t.outcome())
            continue
        assert form[0] in CYCLING, f"{form_id(form)}: seed {seed} hit the cap of {END_CAP} moves"
        assert not t.piles[g.stock], f"seed {seed}: the cap came before the pack was played out"
        assert home[-1] == home[-END_CAP // 3], f"seed {seed}: cards were still going home at the cap"
