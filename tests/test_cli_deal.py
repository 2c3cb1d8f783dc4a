"""`replay deal`: a new log (header and deck, no moves), the same for the same seed."""

from __future__ import annotations

import json
from collections import Counter

from typer.testing import CliRunner

from replay.cli import app
from replay.engine import cards as C
from replay.games import create
from replay.log.validate import check_bytes

runner = CliRunner()


def deal(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["deal", *args])


def test_same_seed_same_log_and_a_valid_one():
    a = deal("zwarta-kolumna", "--seed", "7")
    b = deal("zwarta-kolumna", "--seed", "7")
    c = deal("zwarta-kolumna", "--seed", "8")
    assert a.exit_code == 0 and a.output == b.output and a.output != c.output
    log = json.loads(a.output)
    assert log["format"] == "replay-log/1" and log["game"] == "zwarta-kolumna" and log["moves"] == []
    assert log["variants"] == [] and log["rulings"]["side-reach"] == "row"
    assert "result" not in log and log["meta"]["seed"] == 7
    g = create("zwarta-kolumna")
    assert log["deck"] == [C.code(x) for x in g.deck_from_seed(7)]
    r = check_bytes(a.output.encode())
    assert r.ok and r.outcome == "unfinished"


def test_deck_sizes_follow_the_game():
    sizes = {}
    for game, args in [("printex-frame", []), ("zwarta-kolumna", ["--variant", "cztery-katy"]),
                       ("exiles", []), ("napoleons-square", [])]:
        r = deal(game, *args, "--seed", "1")
        assert r.exit_code == 0, r.output
        sizes[game] = len(json.loads(r.output)["deck"])
    assert sizes == {"printex-frame": 96, "zwarta-kolumna": 104, "exiles": 96, "napoleons-square": 104}
    deck = json.loads(deal("printex-frame", "--seed", "3").output)["deck"]
    counts = Counter(deck)
    assert counts["AS"] == 1 and counts["KH"] == 1 and counts["7D"] == 2  # the bases are out


def test_variants_and_rulings_are_written_out():
    r = deal("printex-frame", "--variant", "cztery-katy", "-r", "frame=square-20", "--ruling", "build-suit=any-suit",
             "--seed", "2")
    assert r.exit_code == 0, r.output
    log = json.loads(r.output)
    assert log["variants"] == ["cztery-katy"]
    assert log["rulings"]["frame"] == "square-20" and log["rulings"]["build-suit"] == "any-suit"
    assert log["rulings"]["third-layout"] == "third-pass"  # every ruling that applies, resolved
    assert check_bytes(r.output.encode()).ok


def test_without_a_seed_one_is_drawn_and_recorded():
    a = json.loads(deal("exiles").output)
    again = json.loads(deal("exiles", "--seed", str(a["meta"]["seed"])).output)
    assert again["deck"] == a["deck"]


def test_usage_errors_exit_2():
    for args in (["zwarta"], ["zwarta-kolumna", "--variant", "gothic"], ["zwarta-kolumna", "-r", "side-reach"],
                 ["zwarta-kolumna", "-r", "side-reach=diagonal"], ["zwarta-kolumna", "-r", "replacement=always"],
                 ["zwarta-kolumna", "--variant", "gotycki-zamek", "--variant", "cztery-katy"], ["exiles", "--seed", "-3"]):
        r = deal(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output
    r = deal("zwarta", "--seed", "1")
    assert "did you mean 'zwarta-kolumna'?" in r.output
