"""The fast core's napoleons-square kernel (replay/fastcore/games/napoleons_square.c) held to the engine.

Random walks from seeded deals under every reading of every ruling (each non-default reading over
the defaults, and the combination the statistics use): at every position the kernel's legal moves
must be the engine's, in the engine's order; the same randomly chosen move is then carried out on
both, and the tables must agree (piles, foundation suits, passes, rounds, vars).  ``safe`` is held to
SEARCH['safe_move'] on every legal move met.  Walks prefer moves to positions not seen yet (moves
between packets can go back and forth for ever) and stop at the end of the game or after STEPS;
every walk plays the pack out and reaches the end game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from replay import fastcore
from replay.engine.game import Game, Move
from replay.engine.layout import FOUNDATION, STOCK, TABLEAU, WASTE
from replay.games import create
from replay.games import napoleons_square as ns
from replay.solver.table import relative_forms
from tests.fastcore_checks import (
    choose,
    statistics_forms,
    compare_legal,
    compare_tables,
    the_comparisons_can_fail,
)

pytestmark = pytest.mark.skipif(fastcore.library() is None,
                                reason="the fast core library is missing and cannot be built (no C compiler?)")

GAME = "napoleons-square"
DEFAULTS = {"marriage-suit": "in-suit", "sequence-moves": "single-card", "space-fill": "talon-or-pack",
            "talon-to-square": "allowed", "take-back": "never"}
#: the statistics' readings: the defaults, each other reading alone, and the modern combination
READINGS = [rulings for _, rulings in statistics_forms(GAME)]
#: PySolFC's NapoleonsSquare as our readings play it (its plays_as in corpus/games/napoleons-square.yaml)
MODERN = next(dict(r.form.rulings) for r in relative_forms() if r.form.game == GAME and r.form.rulings)
WALKS = 24
STEPS = 600
PROGRESS = 0.2  # how often a walk tries a deal or a card home first


def walk(game: Game, k: fastcore.Kernel, seed: int, stats: Counter) -> None:
    rng = random.Random(seed * 7919 + 17)
    t = game.new_table(game.deck_from_seed(seed))
    s = k.state(t)
    assert s is not None
    safe_move = ns.SEARCH["safe_move"]
    seen = {t.key()}
    for step in range(STEPS):
        where = f"(seed {seed}, step {step}, rulings {game.rulings})"
        compare_tables(k, s, t, where)
        legal = compare_legal(game, k, s, t, where)
        for m in legal:
            py = bool(safe_move(t, m))
            assert k.safe(s, m) == py, f"safe({m}) differs {where}"
            stats["safe"] += py
            stats[_kind(game, m)] += 1
            if m.count > 1 and not t.piles[m.dst]:
                stats["run into a space"] += 1
            if m.src >= 0 and game.roles[m.src] == FOUNDATION and not t.piles[m.dst]:
                stats["back into a space"] += 1
        if not legal or t.is_won():
            stats["won" if t.is_won() else "lost"] += 1
            stats["pack out"] += not t.piles[game.stock]
            return
        m = choose(rng, t, legal, seen, PROGRESS)
        stats["played " + _kind(game, m)] += 1
        t.push(m)
        k.apply(s, m)
        seen.add(t.key())
    compare_tables(k, s, t, f"(seed {seed}, at the cap)")
    stats["cap"] += 1
    stats["pack out"] += not t.piles[game.stock]


def _kind(game: Game, m: Move) -> str:
    if m.type != "move":
        return m.type
    a, b = game.roles[m.src], game.roles[m.dst]
    if a == TABLEAU and b == TABLEAU:
        return "square-run" if m.count > 1 else "square"
    return f"{a}->{b}"


@pytest.mark.parametrize("rulings", READINGS, ids=lambda r: ",".join(f"{a}={b}" for a, b in r.items()) or "default")
def test_kernel_matches_the_engine_on_random_walks(rulings: dict[str, str]) -> None:
    game = create(GAME, rulings=rulings)
    k = fastcore.Kernel(game)
    stats: Counter = Counter()
    for seed in range(WALKS):
        walk(game, k, 1000 + seed, stats)
    readings = {**DEFAULTS, **rulings}
    # the walks exercise every rule of this reading
    assert stats["deal"] and stats["tableau->foundation"] and stats["waste->foundation"]
    assert stats["square"] and stats["stock->tableau"] and stats["waste->tableau"]
    assert stats["safe"]
    assert stats["played square"] and stats["played tableau->foundation"] and stats["played stock->tableau"]
    if readings["sequence-moves"] == "whole-sequence":
        assert stats["square-run"] and stats["played square-run"]
    else:
        assert not stats["square-run"]
    assert bool(stats["run into a space"]) == (rulings == MODERN)  # whole runs into spaces: both rulings
    # cards come back from the foundations only under take-back=allowed (and into a space only with any-card)
    if readings["take-back"] == "allowed":
        assert stats["foundation->tableau"] and stats["played foundation->tableau"], stats
        assert bool(stats["back into a space"]) == (readings["space-fill"] == "any-card"), stats
    else:
        assert not stats["foundation->tableau"]
    # every walk plays the pack out; some end with no move left (others wander about the end game: a
    # card can go back and forth between the two copies of the card it marries, for ever)
    assert stats["pack out"] == WALKS and stats["lost"] + stats["won"] >= 1, stats


def test_spaces_and_talon_marriages_follow_their_rulings() -> None:
    """Moves into a space from the square appear only under space-fill=any-card; talon marriages onto
    packets only under talon-to-square=allowed (the walks above meet both kinds)."""
    for rulings, space_any, talon in (({}, False, True), ({"space-fill": "any-card"}, True, True),
                                      ({"talon-to-square": "forbidden"}, False, False)):
        game = create(GAME, rulings=rulings)
        k = fastcore.Kernel(game)
        into_space = onto_packet = 0
        for seed in range(6):
            t = game.new_table(game.deck_from_seed(2000 + seed))
            s = k.state(t)
            rng = random.Random(seed)
            seen = {t.key()}
            for _ in range(STEPS):
                legal = compare_legal(game, k, s, t, f"(seed {seed}, {rulings})")
                if not legal:
                    break
                for m in k.legal(s):
                    if m.type == "move" and game.roles[m.dst] == TABLEAU:
                        if game.roles[m.src] == TABLEAU and not t.piles[m.dst]:
                            into_space += 1
                        if game.roles[m.src] == WASTE and t.piles[m.dst]:
                            onto_packet += 1
                m = choose(rng, t, legal, seen, PROGRESS)
                t.push(m)
                k.apply(s, m)
                seen.add(t.key())
        assert bool(into_space) == space_any, rulings
        assert bool(onto_packet) == talon, rulings


def test_the_comparisons_can_fail() -> None:
    """A move list in another order, or a kernel told another ruling, is caught."""
    game = create(GAME, rulings={"sequence-moves": "whole-sequence", "space-fill": "any-card"})
    t = game.new_table(game.deck_from_seed(5))
    t.push(Move("deal"))
    the_comparisons_can_fail(game, t, walk, 2)


def test_options_and_vars_encode_the_instance() -> None:
    game = create(GAME, rulings={"marriage-suit": "any-suit", "talon-to-square": "forbidden"})
    spec = ns.SEARCH["fast_core"]
    opts = spec.options(game)
    assert opts[:7] == [0, 0, 0, 0, 0, game.options["talon"], 12]
    assert opts[7:] == list(game.options["packets"])
    assert spec.options(create(GAME, rulings={"take-back": "allowed"}))[4] == 1
    t = game.new_table(game.deck_from_seed(1))
    assert spec.vars(t) == b"" and spec.vars_back(b"") == {}
    t.vars["something"] = 1
    assert spec.vars(t) is None  # a state this encoder does not know: the search stays in Python
    assert {game.roles[i] for i in range(len(game.roles))} == {TABLEAU, FOUNDATION, STOCK, WASTE}
