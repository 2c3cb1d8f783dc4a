"""The constructor of won deals keeps working, and what it makes is an ordinary valid, won log."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

import construct_won  # noqa: E402

from replay.games import create  # noqa: E402
from replay.log.play import dumps, new_log  # noqa: E402
from replay.log.validate import check_bytes  # noqa: E402


def test_a_constructed_deal_is_won_by_its_recorded_moves_from_a_plain_table():
    game = create("printex-frame", rulings=construct_won.RULINGS.get("printex-frame", {}))
    found = construct_won.construct(game, tries=80)  # the first won seed of the default frame is 65
    assert found is not None
    _, b = found
    assert sorted(b.drawn) == sorted(game.deck_from_seed(0))  # the deck is two packs less the bases
    report = check_bytes(dumps(new_log(game, b.drawn, b.moves, result="won")).encode(), "constructed")
    assert report.ok and report.outcome == "won"


def test_every_form_of_the_polish_games_has_a_won_example():
    for gid, variants in construct_won.FORMS:
        form = "+".join(variants) or "base"
        assert list((ROOT / "examples" / "games" / gid / form).glob("won-*.json")), (gid, form)
