"""`replay show`: the table at a step, drawn in the layout's shape with the pile names."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from replay.cli import app

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "examples" / "games"
runner = CliRunner()


def show(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["show", *args])


def first(game: str, form: str = "base") -> Path:
    return sorted((GAMES / game / form).glob("lost-seed-*.json"))[0]


def test_show_draws_every_pile_in_the_layout_shape():
    path = first("zwarta-kolumna")
    r = show(str(path), "--step", "0", "--codes")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "after move 0 of" in lines[0] and "layout zk-columns-down" in r.output
    for name in [f"p{i}" for i in range(1, 13)] + ["A1", "A2", "A3", "A4", "K1", "K2", "K3", "K4", "stock"]:
        assert name in r.output, name
    # the two columns of six: p1 and p7 share the top row, p6 and p12 the bottom one
    row = next(ln for ln in lines if ln.startswith("p1 ") or ln == "p1" or ln.startswith("p1"))
    assert "p7" in row and row.index("p7") > row.index("p1")
    row6 = next(ln for ln in lines if ln.startswith("p6"))
    assert "p12" in row6
    # foundations sit between the columns, with their bases (codes with --codes)
    row2 = next(ln for ln in lines if ln.startswith("p2"))
    assert row2.index("p2") < row2.index("A1") < row2.index("K1") < row2.index("p8")
    assert "stock (96)" in r.output
    assert "next: move 1 ($.moves[0])" in r.output


def test_show_at_a_step_and_at_the_end():
    path = first("printex-frame")
    d = json.loads(path.read_bytes())
    mid = show(str(path), "--step", "5")
    assert mid.exit_code == 0 and "after move 5 of" in mid.output and "next: move 6 ($.moves[5])" in mid.output
    end = show(str(path))
    assert end.exit_code == 0
    assert f"after move {len(d['moves'])} of {len(d['moves'])}" in end.output
    assert "end of the log: lost" in end.output


def test_show_uses_suit_symbols_unless_asked_for_codes():
    path = first("zwarta-kolumna")
    sym = show(str(path), "--step", "3")
    codes = show(str(path), "--step", "3", "--codes")
    assert any(s in sym.output for s in "♠♥♦♣")
    assert not any(s in codes.output for s in "♠♥♦♣")


def test_show_full_lists_every_pile_bottom_first():
    path = first("napoleons-square")
    r = show(str(path), "--step", "1", "--full", "--codes")
    assert r.exit_code == 0
    d = json.loads(path.read_bytes())
    p1 = next(ln for ln in r.output.splitlines() if ln.startswith("p1  "))
    assert p1.split()[1:] == d["deck"][:4]  # the first packet of four, bottom card first
    stock = next(ln for ln in r.output.splitlines() if ln.startswith("stock  "))
    assert stock.split()[1] == d["deck"][48]


def test_show_other_layouts():
    for game, form, names in [("exiles", "base", ["p13", "exiles", "K4"]),
                              ("printex-frame", "base", ["c1", "t4", "l2", "K4"])]:
        r = show(str(first(game, form)), "--step", "2")
        assert r.exit_code == 0 and all(n in r.output for n in names), r.output
    sq = next((GAMES / "printex-frame" / "base").glob("lost-square-20-*.json"))
    r = show(str(sq), "--step", "1")
    assert "pf-square-20" in r.output and "r4" in r.output and "l4" in r.output


def test_show_stops_before_an_illegal_move():
    path = ROOT / "examples" / "broken" / "zk-illegal-zk-8.json"
    expect = json.loads(path.read_bytes())["meta"]["expect"]
    r = show(str(path))
    assert r.exit_code == 1
    assert f"after move {expect['move']} of" in r.stdout
    assert "breaks zk-8" in r.stderr and f"shown before move {expect['move'] + 1} ($.moves[{expect['move']}])" in r.stderr


def test_show_errors():
    r = show(str(ROOT / "examples" / "broken" / "zk-10H.json"))
    assert r.exit_code == 1 and "did you mean 'TH'?" in r.output and len(r.output.splitlines()) == 1
    r = show(str(first("zwarta-kolumna")), "--step", "100000")
    assert r.exit_code == 2 and "--step must be 0 to" in r.output
    assert show("/no/such/log.json").exit_code == 2
    r = show(str(ROOT / "examples" / "broken" / "pf-square-20-pile.json"))
    assert r.exit_code == 1 and "unknown pile 'r4'" in r.output


def test_show_says_1_card_not_1_cards():
    """`show` counts in words that agree: "1 card on the foundations" (issue #16)."""
    from replay.log.validate import parse, replay_to

    for path in sorted(GAMES.glob("*/base/lost-seed-*.json")):
        log = parse(path.read_bytes())
        for step in range(len(log.moves) + 1):
            _, table, _, _ = replay_to(log, step)
            if table.cards_home() == 1:
                break
        else:
            continue
        r = show(str(path), "--step", str(step))
        assert r.exit_code == 0, r.output
        assert "; 1 card on the foundations" in r.output and "1 cards" not in r.output
        return
    raise AssertionError("no example log has exactly one card home at some step")
