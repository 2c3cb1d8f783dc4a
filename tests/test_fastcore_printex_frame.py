"""The fast core's printex-frame kernel (replay/fastcore/games/printex_frame.c) held to the engine.

Random walks from seeded deals under every form the statistics build (the base game, each variant
alone, each non-default reading of each ruling over the defaults, with cztery-katy for the two
rulings that apply only with it) and both variants together: at every position the kernel's legal
moves must be the engine's, in the engine's order, and its ``frees`` must answer as the scan of the
legal moves does; the same randomly chosen move is then carried out on both, and the tables must agree
(piles, foundation suits, passes, rounds, vars); the kernel's ``lost`` must answer as the proofs of loss
asked at every position (SEARCH['dead_ends']: the side cards' and the kept cards'), each of which must fire
in the walks of every form that asks it.  The game has no safe_move.  Walks prefer moves to positions not seen yet
(cards can go back and forth between piles in cztery-katy) and end with the game (three layouts of
the deck are all it allows) or after STEPS.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from replay import fastcore
from replay.engine.game import Game, Move
from replay.engine.layout import FOUNDATION, TABLEAU
from replay.games import create
from replay.games import printex_frame as pf
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

GAME = "printex-frame"
#: (variants, rulings): the statistics' forms, and both variants at once (not a statistics form)
FORMS = statistics_forms(GAME) + [(("any-pile-after-third-deal", "cztery-katy"), {}),
                                  ((), {"corner-refill": "every-card", "frame": "rect-16"})]
WALKS = 24
STEPS = 2000
PROGRESS = 0.3  # how often a walk tries a deal, a redeal or a card home first


def _kind(game: Game, m: Move) -> str:
    if m.type != "move":
        return m.type
    return f"{game.roles[m.src]}->{game.roles[m.dst]}"


def walk(game: Game, k: fastcore.Kernel, seed: int, stats: Counter) -> None:
    rng = random.Random(seed * 7919 + 17)
    t = game.new_table(game.deck_from_seed(seed))
    s = k.state(t)
    assert s is not None
    reach, corners = game.options["reach"], game.options["corners"]
    seen = {t.key()}
    for step in range(STEPS):
        where = f"(seed {seed}, step {step}, variants {sorted(game.variants)}, rulings {game.rulings})"
        compare_tables(k, s, t, where)
        legal = compare_legal(game, k, s, t, where)
        side = bool(pf.a_side_card_of_the_third_layout_reaches_no_foundation(t))
        kept = bool(pf.a_card_kept_to_the_third_layout_lands_on_a_side_that_cannot_take_it(t))
        ends = bool(pf.every_end_of_the_second_layout_strands_a_card(t))
        assert k.lost(s) == (side or kept or ends), f"lost() differs {where}"
        stats["proved lost"] += side or kept or ends
        stats["proved lost by a kept card"] += kept
        stats["proved lost by the second laying-out's ends"] += ends
        stats["by those ends alone"] += ends and not (side or kept)
        for m in legal:
            stats[_kind(game, m)] += 1
            if m.type == "move" and game.roles[m.dst] == FOUNDATION and not reach[m.src][m.dst]:
                stats["off its lines"] += 1
        if not legal or t.is_won():
            stats["won" if t.is_won() else "lost"] += 1
            stats[f"ended in pass {t.passes}"] += 1
            return
        m = choose(rng, t, legal, seen, PROGRESS)
        stats["played " + _kind(game, m)] += 1
        before = len(t.piles[m.src]) if m.type == "move" else 0
        if m.type in ("deal", "redeal") and any(x.type == "move" for x in legal):
            stats["dealt with moves left"] += 1
        t.push(m)
        k.apply(s, m)
        if m.type == "move" and m.src in corners and len(t.piles[m.src]) == before:  # a card came from the deck
            stats["refilled" if before == 1 else "refilled over cards"] += 1
        seen.add(t.key())
    compare_tables(k, s, t, f"(seed {seed}, at the cap)")
    stats["cap"] += 1


@pytest.mark.parametrize("variants,rulings", FORMS,
                         ids=lambda x: ",".join(x) if isinstance(x, tuple) else
                         ",".join(f"{a}={b}" for a, b in x.items()) or "default")
def test_kernel_matches_the_engine_on_random_walks(variants: tuple[str, ...], rulings: dict[str, str]) -> None:
    game = create(GAME, variants, rulings)
    k = fastcore.Kernel(game)
    stats: Counter = Counter()
    for seed in range(WALKS):
        walk(game, k, 1000 + seed, stats)
    # the walks exercise every rule of this form
    assert stats["deal"] and stats["redeal"] and stats["tableau->foundation"], stats
    assert stats["played redeal"] and stats["played tableau->foundation"] and stats["refilled"], stats
    assert stats["ended in pass 3"], stats  # the third layout is reached
    assert bool(stats["tableau->tableau"]) == ("cztery-katy" in variants), stats
    if "cztery-katy" in variants:
        assert stats["played tableau->tableau"], stats
    assert bool(stats["off its lines"]) == ("any-pile-after-third-deal" in variants), stats
    if rulings.get("corner-refill") != "every-card":
        assert not stats["refilled over cards"], stats
    elif game.rulings["frame"] in ("rect-16", "square-16"):  # under twenty piles a corner holds one card (moot)
        assert stats["refilled over cards"], stats
    assert bool(stats["dealt with moves left"]) == (rulings.get("deal-timing") != "when-stuck"), stats
    assert stats["cap"] < WALKS, stats
    # the proof of loss answers where its argument holds, and is disabled where it does not
    assert bool(stats["proved lost"]) == (not set(variants) & {"any-pile-after-third-deal", "cztery-katy"}), stats
    assert bool(stats["proved lost by a kept card"]) == bool(stats["proved lost"]), stats
    # the proof of the second laying-out's ends, off where a corner takes later deals (the frames of sixteen) and
    # where the piles are taken up top first
    ends = (bool(stats["proved lost"]) and game.rulings["frame"] not in ("rect-16", "square-16")
            and game.options["bottom_first"])
    assert bool(stats["by those ends alone"]) == ends, stats


def test_the_comparisons_can_fail() -> None:
    """A move list in another order, or a kernel told another ruling, is caught."""
    game = create(GAME, ("cztery-katy",), {"corner-refill": "every-card", "frame": "rect-16"})
    t = game.new_table(game.deck_from_seed(5))
    t.push(Move("deal"))
    the_comparisons_can_fail(game, t, walk, 0)


def test_options_and_vars_encode_the_instance() -> None:
    game = create(GAME, ("cztery-katy",), {"frame": "square-20", "deal-timing": "when-stuck",
                                          "gather-order": "piles-top-first", "build-suit": "any-suit"})
    spec = pf.SEARCH["fast_core"]
    opts = spec.options(game)
    assert opts[:8] == [0, 0, 0, 0, 1, 1, 0, 3]
    o = game.options
    at = 8
    for which in ("first_deal", "later_deal", "gather"):
        assert opts[at] == len(o[which]) and tuple(opts[at + 1:at + 1 + opts[at]]) == o[which]
        at += 1 + opts[at]
    assert len(opts) == at + len(game.roles) + 1 and opts[-1] == pf.ENDS_DEALS_LEFT <= 8  # the C kernel's most
    assert o["later_deal"] != o["first_deal"]  # this frame deals its corners only once a pass
    for i, bits in enumerate(opts[at:at + len(game.roles)]):
        assert bits & 1 == (i in o["corners"])
        assert [f for k, f in enumerate(game.foundations) if bits >> (1 + k) & 1] == \
            [f for f in game.foundations if o["reach"][i][f]]
    assert spec.options(create(GAME))[:8] == [0, 0, 1, 0, 0, 0, 1, 3]
    t = game.new_table(game.deck_from_seed(1))
    assert spec.vars(t) == b"" and spec.vars_back(b"") == {}
    t.vars["something"] = 1
    assert spec.vars(t) is None  # a state this encoder does not know: the search stays in Python
    assert {game.roles[i] for i in range(len(game.roles))} >= {TABLEAU, FOUNDATION}


@pytest.mark.clause("pf-20")
def test_a_won_table_has_no_move_in_the_kernel_either() -> None:
    assert won_examples_have_no_move("printex-frame")

