"""The fast core's zwarta-kolumna kernel (replay/fastcore/games/zwarta_kolumna.c) held to the engine.

Random walks from seeded deals for every form the statistics use (the game alone, each variant alone,
each ruling's non-default reading over the defaults, with the first variant it applies to) and a few
combinations of variants: at every position the kernel's legal moves must be the engine's, in the
engine's order; the same randomly chosen move is then carried out on both, and the tables must agree
(piles, foundation suits, passes, rounds, vars).  ``frees`` is held to the scan of the engine's legal
moves at every position.  Walks prefer moves to positions not seen yet (cards can be built back and
forth for ever once the deck is out) and stop at the end of the game or after STEPS.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from replay import fastcore
from replay.engine.game import Game, Move
from replay.engine.layout import FOUNDATION, TABLEAU
from replay.games import create
from replay.games import zwarta_kolumna as zk
from tests.fastcore_checks import (
    won_examples_have_no_move,
    choose,
    statistics_forms,
    compare_legal,
    compare_tables,
    the_comparisons_can_fail,
)

pytestmark = pytest.mark.skipif(fastcore.library() is None,
                                reason="the fast core library is missing and cannot be built (no C compiler?)")

GAME = "zwarta-kolumna"
#: (variants, rulings): the statistics' forms (replay.solver.table forms() and ruling_forms())
FORMS = statistics_forms(GAME)
#: combinations beyond the statistics (the kernel mirrors them too)
MORE = [
    (("gotycki-zamek", "chaldejski"), {}),
    (("cztery-katy", "chaldejski", "fill-from-any-pile"), {}),
    (("cztery-katy",), {"deal-timing": "when-stuck", "building-from": "last-pass", "replacement": "if-empty"}),
    (("cztery-katy",), {"base-timing": "as-playable", "after-deal": "unrestricted", "gather-order": "piles-top-first"}),
    (("gotycki-zamek",), {"deal-timing": "when-stuck", "base-timing": "as-playable"}),
    (("gotycki-zamek", "fill-from-any-pile"), {"base-placement": "anywhere", "side-reach": "adjacent",
                                               "deal-order": "snake"}),
    (("fill-from-any-pile",), {"deal-timing": "when-stuck"}),  # never stuck: a card can always move to a space
]
WALKS = 60
STEPS = 1500
STEPS_WANDERING = 300  # the walks of a form that never gets stuck
PROGRESS = 0.5  # how often a walk tries a deal, a gathering or a card home first


def _kind(game: Game, m: Move) -> str:
    if m.type != "move":
        return m.type
    a, b = game.roles[m.src], game.roles[m.dst]
    return f"{a}->{b}"


def walk(game: Game, k: fastcore.Kernel, seed: int, stats: Counter) -> None:
    steps = STEPS_WANDERING if "fill-from-any-pile" in game.variants and game.rulings.get("deal-timing") == "when-stuck" \
        else STEPS
    rng = random.Random(seed * 7919 + 17)
    t = game.new_table(game.deck_from_seed(seed))
    s = k.state(t)
    assert s is not None
    seen = {t.key()}
    tab = game.by_role[TABLEAU]
    for step in range(steps):
        where = f"(seed {seed}, step {step}, {sorted(game.variants)} {game.rulings})"
        compare_tables(k, s, t, where)
        legal = compare_legal(game, k, s, t, where)
        for src in tab:
            py = any(m.type == "move" and m.src == src and game.roles[m.dst] == FOUNDATION for m in legal)
            assert k.frees(s, src) == py, f"frees({src}) differs {where}"
        for m in legal:
            stats[_kind(game, m)] += 1
            if m.type == "move" and not t.piles[m.dst]:
                stats["into a space" if game.roles[m.dst] == TABLEAU else "base placed"] += 1
        if t.vars.get("replace"):
            stats["replacement owed"] += 1
        if zk.a_dealt_base_is_placed_at_once in {r for r, _ in game.book.first} and \
                zk.a_dealt_base_is_placed_at_once(t, Move("deal")):
            stats["base waits"] += 1  # a dealt base card holds up everything but its placing
        if not legal or t.is_won():
            stats["won" if t.is_won() else "lost"] += 1
            return
        m = choose(rng, t, legal, seen, PROGRESS)
        stats["played " + _kind(game, m)] += 1
        t.push(m)
        k.apply(s, m)
        seen.add(t.key())
    compare_tables(k, s, t, f"(seed {seed}, at the cap)")
    stats["cap"] += 1


def _id(form: tuple) -> str:
    v, r = form
    return "+".join(v) + ("," if v and r else "") + ",".join(f"{a}={b}" for a, b in r.items()) or "default"


@pytest.mark.parametrize("form", FORMS + MORE, ids=_id)
def test_kernel_matches_the_engine_on_random_walks(form: tuple) -> None:
    variants, rulings = form
    game = create(GAME, variants, rulings)
    k = fastcore.Kernel(game)
    assert fastcore.spec_of(game) is not None
    stats: Counter = Counter()
    wandering = "fill-from-any-pile" in variants and rulings.get("deal-timing") == "when-stuck"
    for seed in range(WALKS // 10 if wandering else WALKS):
        walk(game, k, 1000 + seed, stats)
    # the walks exercise every rule of the form
    assert stats["deal"] and stats["redeal"] and stats["tableau->foundation"], stats
    if not wandering:
        # the walks reach the later layings-out and the end (when every space may be filled from any
        # pile, a when-stuck deal waits for ever: there is always a card to move into a space)
        assert stats["played redeal"] >= WALKS, stats
        assert stats["lost"] + stats["won"] >= WALKS // 2, stats
    if "fill-from-any-pile" in variants:
        assert stats["into a space"], stats
    else:
        assert not stats["into a space"], stats
    assert stats["tableau->tableau"] > stats["into a space"], stats  # building on the table
    if set(variants) & zk.DEFERRED_BASES:
        assert stats["base placed"], stats
        assert bool(stats["base waits"]) == (rulings.get("base-timing") != "as-playable"), stats
    if "cztery-katy" in variants:
        assert stats["fill"] and stats["played fill"] and stats["replacement owed"], stats
    else:
        assert not stats["fill"]


def test_the_kernel_takes_every_form() -> None:
    """The kernel takes every form of this game the statistics build, and the combinations beyond them."""
    assert len(FORMS) == 15  # 5 forms, 9 other readings, Cadogan's Four Corners (its relative's plays_as)
    for v, r in FORMS + MORE:
        assert fastcore.spec_of(create(GAME, v, r)) is not None


def test_forms_it_does_not_mirror_are_refused() -> None:
    """The options encoder refuses (NotImplementedError) what the kernel does not mirror: here a game
    whose variants cannot be combined, built past the module's own refusal."""
    game = create(GAME, ("cztery-katy",), {})
    spec = zk.SEARCH["fast_core"]
    object.__setattr__(game, "variants", frozenset(zk.DEFERRED_BASES))
    with pytest.raises(NotImplementedError):
        spec.options(game)
    assert fastcore.spec_of(game) is None


def test_the_comparisons_can_fail() -> None:
    """A move list in another order, or a kernel told another ruling, is caught."""
    game = create(GAME, (), {"after-deal": "unrestricted"})
    t = game.new_table(game.deck_from_seed(5))
    while len(game.legal_moves(t)) < 2:
        t.push(Move("deal"))
    the_comparisons_can_fail(game, t, walk, 8)


def test_options_and_vars_encode_the_instance() -> None:
    spec = zk.SEARCH["fast_core"]
    for order in ("columns-down", "snake"):
        game = create(GAME, ("cztery-katy",), {"deal-order": order})
        assert [game.layout.names[i] for i in game.by_role[TABLEAU]] == [zk._pile_name(i) for i in range(12)]
        t = game.new_table(game.deck_from_seed(1))
        assert spec.vars(t) == b"\xff" and spec.vars_back(b"\xff") == {"replace": None}
        t.vars["replace"] = "p7"
        assert spec.vars(t) == b"\x06" and spec.vars_back(b"\x06") == {"replace": "p7"}
        t.vars["something"] = 1
        assert spec.vars(t) is None  # a state this encoder does not know: the search stays in Python
    game = create(GAME)
    t = game.new_table(game.deck_from_seed(1))
    assert spec.vars(t) == b"" and spec.vars_back(b"") == {}
    assert len(spec.options(game)) < fastcore.MAXOPT


@pytest.mark.clause("zk-16")
def test_a_won_table_has_no_move_in_the_kernel_either() -> None:
    assert won_examples_have_no_move("zwarta-kolumna")

