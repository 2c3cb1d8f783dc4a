"""The short form of a move as a person types it (``p6 K2``, ``p6 → K2  QS``, ``deal``), read into a log entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.engine.game import Move
from replay.games import create
from replay.log.validate import parse, replay_to
from replay.play.moves import Choice, choices, short_form
from replay.play.shortform import ShortFormError, parse_short

ROOT = Path(__file__).resolve().parents[1]
ZK = create("zwarta-kolumna")


def choice(n: int, **step) -> Choice:
    return Choice(n, Move(step["type"]), step, short_form(step))


LEGAL = [choice(1, type="deal"), choice(2, type="move", **{"from": "p6"}, to="K2", card="QS"),
         choice(3, type="move", **{"from": "p1"}, to="A3", card="2C")]


@pytest.mark.parametrize("typed", ["p6 K2", "P6 k2", "p6 → K2", "p6 -> K2", "p6->K2", "p6 K2 QS", "p6 k2 qs",
                                   "p6 → K2  QS", "move p6 K2", "MOVE p6 K2 Q♠", "  p6   K2  "])
def test_the_ways_of_typing_one_move(typed):
    assert parse_short(typed, ZK, LEGAL) == {"type": "move", "from": "p6", "to": "K2", "card": "QS"}


def test_what_is_not_typed_is_taken_from_the_one_legal_move_that_fits_and_only_then():
    # no legal move fits: the entry is what was typed, for the validator to judge
    assert parse_short("p8 A2", ZK, LEGAL) == {"type": "move", "from": "p8", "to": "A2"}
    # a card that is not the legal move's: kept, so that the validator names the mismatch
    assert parse_short("p6 K2 JS", ZK, LEGAL) == {"type": "move", "from": "p6", "to": "K2", "card": "JS"}
    two = LEGAL + [choice(4, type="fill", **{"from": "p6"}, to="K2", card="QS")]
    assert parse_short("p6 K2", ZK, two) == {"type": "move", "from": "p6", "to": "K2"}  # ambiguous: not guessed
    # zk (base) has no fill: still the type typed, for the validator to say "zwarta-kolumna has no 'fill' move"
    assert parse_short("fill p6 K2", ZK) == {"type": "fill", "from": "p6", "to": "K2"}


def test_cards_as_people_write_them():
    assert parse_short("p8 A2 10h", ZK)["card"] == "TH"
    assert parse_short("p8 A2 q♥", ZK)["card"] == "QH"
    assert parse_short("p8 A2 zz", ZK)["card"] == "ZZ"  # not a card: the validator says so


def test_count_comment_and_moves_that_take_no_pile():
    assert parse_short("p3 p5 7H ×3", ZK) == {"type": "move", "from": "p3", "to": "p5", "card": "7H", "count": 3}
    assert parse_short("p3 p5 x2", ZK)["count"] == 2
    assert parse_short("p6 K2 # the queen first, #2", ZK, LEGAL)["comment"] == "the queen first, #2"
    assert parse_short("deal", ZK) == {"type": "deal"}
    assert parse_short("Redeal # again", ZK) == {"type": "redeal", "comment": "again"}
    assert "comment" not in parse_short("deal #   ", ZK)


def test_unknown_piles_are_kept_as_typed():
    assert parse_short("p13 A2", ZK) == {"type": "move", "from": "p13", "to": "A2"}


@pytest.mark.parametrize("typed, says", [
    ("", "FROM TO"), ("# only a comment", "FROM TO"), ("p6", "FROM TO"), ("p6 K2 QS 4 5", "FROM TO"),
    ("deal p1", "'deal' takes no piles"), ("move p6", "'move' takes FROM TO"),
])
def test_what_is_not_a_move(typed, says):
    with pytest.raises(ShortFormError, match=says):
        parse_short(typed, ZK, LEGAL)


def test_a_move_of_another_game_is_worded_as_validate_words_it():
    from replay.log.play import dumps, new_log
    from replay.log.report import report_lines
    from replay.log.validate import check_bytes

    step = parse_short("tuck exiles p5", ZK)
    assert step == {"type": "tuck", "from": "exiles", "to": "p5"}  # not a move from 'tuck' of the card 'P5'
    log = new_log(ZK, ZK.deck_from_seed(1), [step])
    line = report_lines(check_bytes(dumps(log).encode()))[0]
    assert line.endswith("$.moves[0].type: zwarta-kolumna has no 'tuck' move (its moves: deal, move, redeal)")
    assert parse_short("tuck exiles p5 5H x1", ZK)["type"] == "tuck"
    assert parse_short("exiles p5", ZK) == {"type": "move", "from": "exiles", "to": "p5"}  # two piles: unknown ones


def test_other_games_type_words():
    ex = create("exiles")
    assert parse_short("tuck exiles p5 5H", ex) == {"type": "tuck", "from": "exiles", "to": "p5", "card": "5H"}
    ck = create("zwarta-kolumna", ["cztery-katy"])
    assert parse_short("fill p1 p2", ck)["type"] == "fill"
    with pytest.raises(ShortFormError):
        parse_short("redeal", create("napoleons-square"))  # no such move type there: read as a pile name


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "games").rglob("*.json")), ids=lambda p: p.parent.name
                         + "/" + p.stem)
def test_every_listed_move_typed_back_in_its_short_form_is_itself(path):
    log = parse(path.read_bytes())
    n = len(log.moves)
    for step in sorted({0, 1, 2, n // 3, n // 2, n - 1}):
        if step < 0:
            continue
        _, table, _, _ = replay_to(log, step)
        legal = choices(table)
        for c in legal:
            assert parse_short(c.short, table.game, legal) == c.step, (step, c.short)
            bare = c.short.split("  ")[0]  # without the card: completed from the list
            if sum(1 for x in legal if x.step.get("from") == c.step.get("from")
                   and x.step.get("to") == c.step.get("to")) == 1:
                assert parse_short(bare, table.game, legal) == c.step, (step, bare)


def test_the_moves_the_validator_names_can_be_typed_into_play():
    """'legal moves remain: p2 → A4  3D (and 1 more)': what a message names, replay play takes as it is."""
    from replay.engine.common import move_text
    from replay.play.moves import short_form

    for gid in ("zwarta-kolumna", "printex-frame", "exiles", "napoleons-square"):
        g = create(gid)
        t = g.new_table(g.deck_from_seed(3))
        for _ in range(40):
            legal = choices(t)
            if not legal:
                break
            for c in legal:
                assert move_text(t, c.move) == short_form(c.step) == c.short
                assert parse_short(move_text(t, c.move), g, legal) == c.step
            t.push(legal[-1].move)
