"""`replay games`: every game with its variants, rulings, move types and piles."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from replay.cli import app
from replay.games.catalog import MODULES, create, module, rulings_for

runner = CliRunner()


def games_json() -> dict:
    r = runner.invoke(app, ["games", "--format", "json"])
    assert r.exit_code == 0, r.output
    return {g["id"]: g for g in json.loads(r.output)["games"]}


def test_every_game_with_its_variants_and_rulings():
    games = games_json()
    assert list(games) == list(MODULES)
    for gid, g in games.items():
        assert [v["id"] for v in g["variants"]] == list(module(gid).VARIANTS)
        defs = rulings_for(gid)
        assert {r["name"] for r in g["rulings"]} == set(defs)
        for r in g["rulings"]:
            d = defs[r["name"]]
            assert r["readings"] == list(d.readings) and r["default"] == d.default
            assert r["ambiguity"] == d.ambiguity and r["variants"] == list(d.variants)
    zk = {r["name"]: r for r in games["zwarta-kolumna"]["rulings"]}
    assert zk["replacement"]["variants"] == ["cztery-katy"]


def test_move_types_follow_the_rule_books():
    games = games_json()
    for gid, g in games.items():
        types = {m["type"] for m in g["moves"]}
        forms = [()] + [(v,) for v in module(gid).VARIANTS]
        assert types == set().union(*(create(gid, f).book.types for f in forms))
        for m in g["moves"]:
            assert m["meaning"]
            for k in m["kinds"]:
                assert k["clauses"] and all(c.split("-")[0] in ("pf", "zk", "ex", "ns") for c in k["clauses"])
    zk = {m["type"]: m for m in games["zwarta-kolumna"]["moves"]}
    assert zk["fill"]["forms"] == ["cztery-katy"] and zk["deal"]["forms"] == "all"
    assert "redeal" not in {m["type"] for m in games["napoleons-square"]["moves"]}
    assert "tuck" in {m["type"] for m in games["exiles"]["moves"]}


def test_piles_and_the_rulings_that_change_them():
    games = games_json()
    pf = games["printex-frame"]
    assert pf["layout"] == "pf-square-20-ring" and pf["deck_size"] == 96  # the twenty-pile default (amb-pf-frame)
    names = {p["name"] for p in pf["piles"]}
    assert {"c1", "t4", "r4", "l4", "A1", "K4", "stock"} <= names
    changes = {(c["ruling"], c["reading"]): c for c in pf["layout_rulings"]}
    assert "r4" not in {p["name"] for p in changes[("frame", "rect-16")]["piles"]}
    zk = {(c["ruling"], c["reading"]): c for c in games["zwarta-kolumna"]["layout_rulings"]}
    assert zk[("deal-order", "snake")]["same_names"] is True
    assert {"exiles", "p13"} <= {p["name"] for p in games["exiles"]["piles"]}


def test_text_listing():
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0
    out = r.output
    for gid in MODULES:
        assert f"{gid}: " in out
    assert "with frame=rect-16: layout pf-rect-16" in out
    assert "fill (only in cztery-katy)" in out
    assert "amb-zk-reach" in out
