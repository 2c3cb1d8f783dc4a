"""The interval arithmetic of ``replay stats``, on published values, and the summaries built on it."""

from __future__ import annotations

import pytest

from replay.solver.stats import newcombe_paired, newcombe_unpaired, paired, paired_mean, summarize, wilson


@pytest.mark.parametrize("k, n, lo, hi", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombes_table(k, n, lo, hi):
    a, b = wilson(k, n)
    assert a == pytest.approx(lo, abs=5e-5) and b == pytest.approx(hi, abs=5e-5)


def test_wilson_edges():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and 0.69 < lo < 0.73


@pytest.mark.parametrize("k1, n1, k2, n2, lo, hi", [
    # Newcombe (1998), "Interval estimation for the difference between independent proportions", method 10
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
])
def test_unpaired_difference_matches_newcombes_table(k1, n1, k2, n2, lo, hi):
    d, a, b = newcombe_unpaired(k1, n1, k2, n2)
    assert d == pytest.approx(k1 / n1 - k2 / n2)
    assert a == pytest.approx(lo, abs=5e-5) and b == pytest.approx(hi, abs=5e-5)


def test_paired_difference_without_correlation_is_the_unpaired_one():
    # 2x2 table with phi = 0: both 10, only1 10, only2 10, neither 10
    d, lo, hi = newcombe_paired(10, 10, 10, 10)
    d2, lo2, hi2 = newcombe_unpaired(20, 40, 20, 40)
    assert (d, lo, hi) == pytest.approx((d2, lo2, hi2))


def test_paired_difference_narrows_with_positive_correlation():
    # the same margins (30/50 against 20/50), concordant pairs make the interval narrower
    d1, lo1, hi1 = newcombe_paired(20, 10, 0, 20)   # strongly correlated
    d2, lo2, hi2 = newcombe_paired(12, 18, 8, 12)   # phi = 0
    assert d1 == d2 == pytest.approx(0.2)
    assert hi1 - lo1 < hi2 - lo2
    assert lo1 > 0  # ten deals won only under the reading and none only under the default: a difference


def test_paired_difference_of_identical_results_is_zero_and_symmetric():
    d, lo, hi = newcombe_paired(5, 0, 0, 195)
    assert d == 0 and lo < 0 < hi and lo == pytest.approx(-hi)
    d, lo, hi = newcombe_paired(0, 0, 0, 200)
    assert d == 0 and lo <= 0 <= hi and hi < 0.02
    a = newcombe_paired(3, 7, 2, 88)
    b = newcombe_paired(3, 2, 7, 88)
    assert a[0] == pytest.approx(-b[0]) and a[1] == pytest.approx(-b[2]) and a[2] == pytest.approx(-b[1])


def test_summaries_and_pairing_from_per_deal_results():
    rows = [{"seed": s, "status": st, "moves": 100 if st == "won" else 0, "nodes": 10, "seconds": 0.1,
             "greedy_won": st == "won" and s % 2 == 0, "greedy_moves": 50, "greedy_seconds": 0.01,
             "home": 104 if st == "won" else 40 + s, "greedy_home": 30 + s}
            for s, st in enumerate(["won", "unknown", "unwinnable", "won", "unknown"])]
    s = summarize(rows)
    assert s["deals"] == 5 and s["seeds"] == [0, 4]
    so = s["solver"]
    assert (so["won"], so["unwinnable"], so["unknown"]) == (2, 1, 2)
    assert so["results"] == "W?XW?" and so["win_rate"] == 0.4 and so["win_rate_at_most"] == 0.8
    assert so["mean_moves_won"] == 100 and so["win_ci"] == list(wilson(2, 5))
    assert s["greedy"]["results"] == "10000" and s["greedy"]["won"] == 1
    assert (so["mean_home"], so["max_home"]) == ((104 + 41 + 42 + 104 + 44) / 5, 104)
    assert (s["greedy"]["mean_home"], s["greedy"]["max_home"]) == (32, 34)
    p = paired("WW?X?", "W??XW")
    assert (p["both"], p["reading_only"], p["default_only"], p["neither"]) == (1, 1, 1, 2)
    assert p["difference"] == 0


def test_paired_mean_difference_of_cards_home():
    h = paired_mean([50, 52, 54, 56], [40, 40, 40, 40, 99])  # the extra default deal is not paired
    assert h["deals"] == 4 and h["difference"] == 13
    half = 1.959963984540054 * (20 / 3 / 4) ** 0.5  # sample variance of 10, 12, 14, 16 is 20/3
    assert h["ci"] == pytest.approx([13 - half, 13 + half])
    assert paired_mean([7, 7], [7, 7])["ci"] == [0.0, 0.0] and paired_mean([], [])["deals"] == 0


def test_the_committed_statistics_page_is_what_its_command_writes_from_the_committed_data():
    """docs/stats.md names the command that wrote it; rendering its data files again gives the same page."""
    import argparse
    import shlex
    from pathlib import Path

    from replay.solver import table as T

    root = Path(__file__).resolve().parents[1]
    page = root / "docs" / "stats.md"
    assert page.exists(), "docs/stats.md: the results page is committed (replay stats --page …)"
    lines = page.read_text(encoding="utf-8").splitlines()
    command = lines[lines.index("> ```") + 1].removeprefix("> ")
    args = shlex.split(command)
    assert args[:2] == ["replay", "stats"]
    ap = argparse.ArgumentParser()
    ap.add_argument("--page", required=True)
    ap.add_argument("--also", action="append", default=[])
    ap.add_argument("--out", required=True)
    opts = ap.parse_args(args[2:])
    assert opts.out == "docs/stats.md"
    data = T.load(root / opts.page)
    text = T.render_page(data, [T.load_row(root / a) for a in opts.also], command)
    assert text == page.read_text(encoding="utf-8"), "docs/stats.md is stale: run " + command
    # every figure on the page comes from committed code: no run recorded uncommitted changes
    versions = [data["version"], *(r["version"] for r in data.get("reruns", []))]
    versions += [T.load_row(root / a)["version"] for a in opts.also]
    assert not [v for v in versions if v.endswith("-dirty")], versions


@pytest.mark.parametrize("label, game", [("exiles", "exiles"), ("napoleons-square", "napoleons-square"),
                                         ("zwarta-kolumna", "zwarta-kolumna")])
def test_the_committed_table_is_what_the_code_gives_now(label, game):
    """The first deals of the committed table, played again at its first budget: the same verdicts (else re-run
    the table, or the game's rows with --only GAME --merge-into)."""
    import json
    from pathlib import Path

    from replay.solver.stats import CODE, Form, run

    data = json.loads((Path(__file__).resolve().parents[1] / "data" / "stats" / "results.json").read_text())
    row = next(r for r in data["forms"] if r["label"] == label)
    first = row["curve"][0]
    seed, n = data["seed"], 24 if game == "exiles" else 8  # exiles: won, lost and unknown deals among them
    got = run([(Form(game), s) for s in range(seed, seed + n)], first["budget"], None, workers=1)
    assert "".join(CODE[r["status"]] for r in got) == first["results"][:n]
    assert "".join("1" if r["greedy_won"] else "0" for r in got) == row["greedy"]["results"][:n]


def test_the_page_says_in_words_when_every_deal_of_a_game_is_proved_lost():
    """The opening sentence of a game whose every deal is proved lost says so (not "wins about 0"), with the
    upper bound of its rate; one open deal makes it an "at least … at most" again."""
    import copy
    import json
    from pathlib import Path

    from replay.solver.page import render

    root = Path(__file__).resolve().parents[1]
    data = json.loads((root / "data" / "stats" / "results.json").read_text(encoding="utf-8"))
    row = next(r for r in data["forms"] if r["label"] == "printex-frame")
    assert row["solver"]["won"] == 0 and row["solver"]["unknown"] == 0  # the committed table: settled
    line = next(x for x in render(data).splitlines() if x.startswith("* **Printex frame.**"))
    assert line == ("* **Printex frame.** No deal comes out as our text reads it: each of the 200 measured is proved "
                    "lost (the true rate is at most 2 in 100).")
    opened = copy.deepcopy(data)
    s = next(r for r in opened["forms"] if r["label"] == "printex-frame")["solver"]
    s["unwinnable"], s["unknown"] = s["unwinnable"] - 1, 1
    line = next(x for x in render(opened).splitlines() if x.startswith("* **Printex frame.**"))
    assert "No deal comes out" not in line and "at least 0 and at most 3" in line, line


def test_the_won_lines_found_beyond_the_table_replay_as_won():
    """The won lines benchmarks/README.md cites from data/stats/beyond/ (deals first won past the table's budget:
    Zwarta kolumna's seed 11 at 10^9, its cztery-katy seed 5 at 10^8, Leoni's seed 23) are valid logs that end
    won under the rules as they are now."""
    from pathlib import Path

    from replay.log.report import VALID
    from replay.log.validate import check_file

    logs = sorted((Path(__file__).resolve().parent.parent / "data" / "stats" / "beyond").glob("*-won.json"))
    assert len(logs) >= 3
    for path in logs:
        r = check_file(str(path))
        assert (r.verdict, r.outcome) == (VALID, "won"), (path.name, r.verdict, r.outcome, r.problems[:1])
