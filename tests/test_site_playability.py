"""Playability as evidence (issue 20): where a ruling's readings play differently, its register entry and its
game page show the measured figures of every reading, generated from the results table, never typed."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from replay.paths import ROOT
from replay.site.data import STATS_DATA, SiteData
from replay.site.games import game_page
from replay.site.register import ambiguities_page
from replay.solver.page import playability
from replay.solver.stats import paired


def _ruling_row(game: str, ruling: str, reading: str, default: str, mine: str, theirs: str) -> dict[str, Any]:
    n = len(mine)
    return {"game": game, "variants": [], "rulings": {ruling: reading}, "label": f"{game} {ruling}={reading}",
            "ruling": ruling, "reading": reading, "default": default, "deals": n, "seeds": [1, n],
            "budget": {"nodes": 1234, "method": "portfolio"},
            "solver": {"won": mine.count("W"), "unwinnable": mine.count("X"), "unknown": mine.count("?"),
                       "results": mine},
            "default_row": {"solver": {"won": theirs.count("W"), "unwinnable": theirs.count("X"),
                                       "unknown": theirs.count("?"), "results": theirs}},
            "paired_solver": paired(mine, theirs)}


def synthetic_table() -> dict[str, Any]:
    """Three rulings: deal-timing (every deal proved lost under when-stuck), space-fill (wins more), and
    gather-order of zwarta kolumna (the readings play alike: no evidence)."""
    return {"format": "replay-stats/2", "seed": 1, "deals": 7, "ruling_deals": 7,
            "budget": {"nodes": 1234, "method": "portfolio"}, "forms": [], "relatives": [],
            "rulings": [_ruling_row("printex-frame", "deal-timing", "when-stuck", "player-choice", "XXXXXXX", "???????"),
                        _ruling_row("napoleons-square", "space-fill", "any-card", "talon-or-pack", "WWWWW??", "W??????"),
                        _ruling_row("zwarta-kolumna", "gather-order", "piles-top-first", "piles-bottom-first",
                                    "???????", "???????")]}


@pytest.fixture(scope="module")
def site() -> SiteData:
    return SiteData.collect()


def _with_stats(site: SiteData, data: dict[str, Any] | None) -> SiteData:
    d = copy.copy(site)
    d.__dict__["stats"] = data
    d.__dict__["stats_page"] = "stats.md"
    return d


def _entry(page: str, aid: str) -> str:
    start = page.index(f"### {aid} ")
    end = page.find("\n### ", start + 1)
    return page[start:end if end > 0 else None]


def test_the_register_and_the_game_page_show_each_readings_figures_from_the_table(site: SiteData) -> None:
    d = _with_stats(site, synthetic_table())
    reg = ambiguities_page(d)
    pf = _entry(reg, "amb-pf-deal-timing")
    assert "**Measured in play** (from [the statistics](stats.md#rulings))" in pf
    assert "the same 7 deals of printex-frame (seeds 1–7), 1,234 nodes per deal" in pf
    assert "- `deal-timing = player-choice` (default): won 0, proved lost 0, undecided 7." in pf
    assert "- `deal-timing = when-stuck`: won 0, proved lost 7, undecided 0 — every deal of 7 is proved lost." in pf
    ns = _entry(reg, "amb-ns-space-fill")
    assert "`space-fill = any-card`: won 5, proved lost 0, undecided 2." in ns
    assert "`space-fill = talon-or-pack` (default): won 1, proved lost 0, undecided 6." in ns
    p = paired("WWWWW??", "W??????")
    assert f"{100 * p['difference']:+.1f} points of deals won" in ns  # +57.1, from the same counts
    assert "Measured in play" not in _entry(reg, "amb-zk-gather")  # the readings play alike
    game = game_page(d, "printex-frame")
    assert "(from [the statistics](../stats.md#rulings))" in game
    assert "every deal of 7 is proved lost" in game


def test_without_a_table_there_is_no_evidence(site: SiteData) -> None:
    assert "Measured in play" not in ambiguities_page(_with_stats(site, None))


def test_the_committed_tables_differing_readings_all_appear_in_the_register(site: SiteData) -> None:
    data = json.loads((ROOT / STATS_DATA).read_text(encoding="utf-8"))
    reg = ambiguities_page(_with_stats(site, data))
    by_ruling = {(g, a.ruling): a.id for a in site.corpus.ambiguities.values() if a.ruling
                 for g in {site.corpus.clauses[c].game for c in a.clauses}}
    shown = 0
    for game, ruling in dict.fromkeys((r["game"], r["ruling"]) for r in data["rulings"]):
        ev = playability(data, game, ruling)
        entry = _entry(reg, by_ruling[(game, ruling)])
        if ev is None:
            assert "Measured in play" not in entry
            continue
        shown += 1
        for x in ev["readings"]:
            line = re.escape(f"`{ruling} = {x['reading']}`") + r"[^:]*: " + re.escape(
                f"won {x['won']}, proved lost {x['unwinnable']}, undecided {x['unknown']}")
            assert re.search(line, entry), (ruling, x)
        # the figures are the table's: the per-deal strings counted again
        row = next(r for r in data["rulings"] if r["game"] == game and r["ruling"] == ruling)
        assert ev["readings"][1]["unwinnable"] == row["solver"]["results"].count("X") == row["solver"]["unwinnable"]
    assert shown, "the committed table shows no ruling whose readings play differently"
    # the example of issue 20: every printex-frame deal is proved lost under deal-timing = when-stuck
    assert "`deal-timing = when-stuck`: won 0, proved lost 200, undecided 0 — every deal of 200 is proved lost" \
        in _entry(reg, "amb-pf-deal-timing")


def test_a_relatives_plays_as_and_its_measured_rate_are_on_the_game_page(site: SiteData) -> None:
    data = synthetic_table()
    data["relatives"] = [{"game": "napoleons-square", "variants": [],
                          "rulings": {"sequence-moves": "whole-sequence", "space-fill": "any-card",
                                      "take-back": "allowed"},
                          "label": "napoleons-square sequence-moves=whole-sequence space-fill=any-card take-back=allowed",
                          "title": "PySolFC's modern rules", "relative": "PySolFC", "beyond": [], "deals": 10,
                          "solver": {"won": 6, "unwinnable": 1, "unknown": 3}}]
    page = game_page(_with_stats(site, data), "napoleons-square")
    assert ("*Played as PySolFC's modern rules:* `sequence-moves = whole-sequence`, `space-fill = any-card`, "
            "`take-back = allowed`. "
            "Measured ([statistics](../stats.md#relatives)): won 6 of 10 deals, proved lost 1") in page
    assert "*Not played as PySolFC's Carre Napoleon:*" in page
