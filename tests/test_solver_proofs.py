"""Proofs of loss without search (a game's ``SEARCH['dead_ends']``) against exhaustive search.

Each proof is run on many small random positions, end games that the plain search (no reduction
at all) can explore to the end.  Whenever a proof says "lost", the plain search must find no win;
the test also demands that the proofs do fire on lost positions and that some positions are won,
so that it could fail.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from replay.engine import cards as C
from replay.games import create
from replay.solver.search import UNKNOWN, UNWINNABLE, WON, Budget, Profile, position_key, profile_for, solve
from tests.proof_checks import end_game


def _exhaustively_won(game, table, limit=60_000):
    """Whether any sequence of legal moves from ``table`` wins (plain depth-first search, no reduction)."""
    key = position_key(game, Profile())
    seen = {key(table)}
    stack = [table]
    while stack:
        t = stack.pop()
        for m in t.legal_moves():
            c = t.copy()
            c.push(m)
            if c.is_won():
                return True
            k = key(c)
            if k not in seen:
                seen.add(k)
                stack.append(c)
        if len(seen) > limit:
            return None  # too big to settle: not counted
    return False


def _napoleon_end_game(game, rng: random.Random, spread: int = 3):
    """A Napoleon's Square position near the end: both foundations of each suit built to random heights,
    the remaining cards (about eight) shuffled into ``spread`` packets (the others empty), the talon and
    the pack."""
    t = game.new_table(game.deck_from_seed(0))
    for i in range(len(t.piles)):
        t.piles[i] = []
    rest = []
    for s, f in zip(range(4), range(0, 8, 2)):
        for k in (0, 1):
            height = rng.choice((11, 12, 12, 13, 13, 13))
            fi = game.foundations[f + k]
            t.piles[fi] = [C.make(r, s) for r in range(height)]
            t.fsuit[fi] = s
            rest += [C.make(r, s) for r in range(height, 13)]
    rng.shuffle(rest)
    packets = game.options["packets"]
    places = [packets[i] for i in rng.sample(range(12), spread)] + [game.options["talon"], game.stock]
    for card in rest:
        t.piles[rng.choice(places)].append(card)
    t.rounds = 1
    return t


def _won_by_search_without_proofs(game, table, limit=20_000):
    """The solver's verdict with every reduction but the proofs of loss (the symmetry reductions are held
    to the plain search in test_solver.py): True, False, or None when the budget runs out."""
    r = solve(game, table, budget=Budget(nodes=limit), profile=replace(profile_for(game), dead_ends=()))
    return None if r.status == UNKNOWN else r.status == WON


def _proof_against_search(lost, position, truth, n):
    """Ask the proof ``lost`` and exhaustive search (``truth``: True won, False lost, None undecided) about ``n``
    positions; a position the proof calls lost must be lost. Returns (won, lost, fired)."""
    fired = won = lost_n = 0
    for _ in range(n):
        t = position()
        why = lost(t)
        verdict = truth(t)
        if verdict is None:
            continue
        won += verdict
        lost_n += not verdict
        if why:
            fired += 1
            assert verdict is False, f"the proof says {why!r} but the position can be won"
    return won, lost_n, fired


@pytest.mark.parametrize("rulings, positions, reference, must_fire", [
    ({}, 120, _exhaustively_won, True),
    ({"marriage-suit": "any-suit", "talon-to-square": "forbidden"}, 120, _exhaustively_won, True),
    # spaces that take any card make the plain search explode (the symmetric search is the reference),
    # and these readings almost never lose an end game: only soundness is asked
    ({"sequence-moves": "whole-sequence", "space-fill": "any-card"}, 40, _won_by_search_without_proofs, False),
    # cards come back from the foundations (PySolFC's game: its relative's plays_as); its exhaustive search
    # costs some five times the others' a position; the first 60 hold two lost end games, both proved
    ({"take-back": "allowed"}, 60, _exhaustively_won, True),
    ({"sequence-moves": "whole-sequence", "space-fill": "any-card", "take-back": "allowed"}, 40,
     _won_by_search_without_proofs, False),
])
def test_napoleons_square_proof_agrees_with_exhaustive_search(rulings, positions, reference, must_fire):
    game = create("napoleons-square", (), rulings)
    proofs = profile_for(game).dead_ends
    assert proofs, "Napoleon's Square declares a proof of loss"
    rng = random.Random(15)
    spread = 4 if rulings.get("space-fill") == "any-card" else 3
    won, lost, fired = _proof_against_search(profile_for(game).lost, (lambda: _napoleon_end_game(game, rng, spread)),
                                             lambda t: reference(game, t), positions)
    assert won >= 10, (won, lost, fired)
    if must_fire:
        assert fired >= 2 and lost >= 2, (won, lost, fired)


def test_a_proof_at_the_root_answers_without_search():
    """A card of hearts lies on the only two cards it could go home after: the search is not needed."""
    game = create("napoleons-square")
    t = game.new_table(game.deck_from_seed(0))
    for i in range(len(t.piles)):
        t.piles[i] = []
    for f, s in zip(game.foundations, (0, 0, 1, 1, 2, 2, 3, 3)):
        top = 11 if s == 1 else 13
        t.piles[f] = [C.make(r, s) for r in range(top)]
        t.fsuit[f] = s
    p = game.options["packets"]
    t.piles[p[0]] = [C.make(11, 1), C.make(12, 1), C.make(11, 1), C.make(12, 1)]  # QH KH QH KH
    t.rounds = 1
    r = solve(game, t, budget=Budget(nodes=10))
    assert r.status == UNWINNABLE and r.nodes == 0 and r.proof and "QH" in r.proof
    assert _exhaustively_won(game, t) is False


def _last_pass_end_game(game, rng: random.Random, piles: int = 3):
    """A position of the last pass near the end: each suit's ace foundation built up and its king foundation
    built down to random heights, the cards left (a few) spread over ``piles`` random piles and the stock."""
    return end_game(game, 0, rng, (10, 11, 12, 13, 13, 13, 13, 13), piles)


@pytest.mark.parametrize("game_id, variants, rulings", [
    ("zwarta-kolumna", (), {}),
    ("zwarta-kolumna", ("chaldejski",), {"side-reach": "adjacent"}),
    ("printex-frame", (), {}),
    ("printex-frame", ("cztery-katy",), {}),
])
def test_last_pass_proofs_agree_with_exhaustive_search(game_id, variants, rulings):
    game = create(game_id, variants, rulings)
    profile = profile_for(game)
    assert profile.dead_ends or profile.root_dead_ends, f"{game_id} declares a proof of loss"
    rng = random.Random(12)
    won, lost, fired = _proof_against_search(lambda t: (profile.lost_by(t) or (None, None))[1],
                                             lambda: _last_pass_end_game(game, rng),
                                             lambda t: _exhaustively_won(game, t), 300)
    assert won >= 5 and lost >= 5 and fired >= 3, (won, lost, fired)


def test_last_pass_proofs_wait_for_the_last_pass():
    game = create("zwarta-kolumna")
    t = _last_pass_end_game(game, random.Random(3))
    t.passes = 2
    assert profile_for(game).lost_by(t) is None
