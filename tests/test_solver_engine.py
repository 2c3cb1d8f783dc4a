"""The engine's fast legal-move list (used by the solver) equals its reference definition.

``Game.legal_moves`` reuses precomputed candidate moves and checks a kind's own rules before
the every-move rules; it must return exactly ``[m for m in candidates if violation(m) is None]``.
"""

from __future__ import annotations

import random

import pytest

from replay.games import create, rulings_for

FORMS = [
    ("printex-frame", []), ("printex-frame", ["cztery-katy"]), ("zwarta-kolumna", []),
    ("zwarta-kolumna", ["cztery-katy"]), ("zwarta-kolumna", ["gotycki-zamek", "chaldejski"]),
    ("exiles", []), ("napoleons-square", []),
]


def _configs(game_id, variants):
    yield {}
    for name, r in rulings_for(game_id).items():
        if r.applies(frozenset(variants)):
            for reading in r.readings:
                if reading != r.default:
                    try:
                        create(game_id, variants, {name: reading})
                    except Exception:  # noqa: BLE001 - a reading recorded but not selectable
                        continue
                    yield {name: reading}


@pytest.mark.parametrize("game_id, variants", FORMS)
def test_legal_moves_equal_the_reference(game_id, variants):
    for rulings in _configs(game_id, variants):
        g = create(game_id, variants, rulings)
        rng = random.Random(11)
        t = g.new_table(g.deck_from_seed(4))
        for _ in range(60):
            ref = [m for m in g.candidates(t) if g.violation(t, m) is None]
            got = t.legal_moves()
            assert got == ref, (game_id, variants, rulings)
            for ex in (frozenset(), frozenset({"deal", "redeal"})):
                assert g.any_legal(t, ex) == any(m.type not in ex for m in ref)
            if not got:
                break
            # prefer card moves, so that play goes past the deal
            cards = [m for m in got if m.type not in ("deal", "redeal")]
            t.push(rng.choice(cards if cards and rng.random() < 0.8 else got))
