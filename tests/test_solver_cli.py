"""`replay solve` and `replay stats` through the command line (typer's CliRunner)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.log.validate import check_file
from replay.solver import table as T

runner = CliRunner()

WON_SEED = 2  # exiles: won in a few hundred nodes (seed 3 is not, in 2,000)


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def one_line_error(result, code: int) -> None:  # type: ignore[no-untyped-def]
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("replay: "), result.stderr


def test_solve_a_seed_writes_a_complete_valid_won_log(tmp_path):
    out = tmp_path / "won.json"
    r = run("solve", "--game", "exiles", "--seed", str(WON_SEED), "--nodes", "5000", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("won in ")
    report = check_file(str(out))
    assert report.ok and report.outcome == "won"
    log = json.loads(out.read_text())
    assert log["result"] == "won" and log["meta"]["player"] == "solver"
    assert log["meta"]["source"] == f"replay solve, seed {WON_SEED}"


def test_solve_takes_a_game_id_in_place_of_a_log(tmp_path):
    out = tmp_path / "won.json"
    r = run("solve", "exiles", "--seed", str(WON_SEED), "--nodes", "5000", "--out", str(out))
    assert r.exit_code == 0 and r.stderr.startswith("won in "), r.output
    assert check_file(str(out)).outcome == "won"
    r = run("solve", "no-such-game", "--seed", "1")
    one_line_error(r, 2)
    assert "no such log file, and not a game ID" in r.stderr and "exiles" in r.stderr


def test_solve_continues_a_log_and_prints_it(tmp_path):
    deal = run("deal", "exiles", "--seed", str(WON_SEED))
    assert deal.exit_code == 0
    src = tmp_path / "deal.json"
    src.write_text(deal.stdout)
    r = run("solve", str(src), "--nodes", "5000")
    assert r.exit_code == 0, r.output
    log = json.loads(r.stdout)
    assert log["result"] == "won" and log["moves"]
    again = tmp_path / "again.json"
    again.write_text(r.stdout)
    assert check_file(str(again)).outcome == "won"


def test_an_unknown_verdict_says_how_far_the_search_got():
    """Issue 29: "unknown: … at best 91 of 104 cards home in 10,000,000 positions", from the search's own
    figures (the most cards home in any position it reached, the positions it recorded)."""
    from replay.games.catalog import create
    from replay.solver.nested import play
    from replay.solver.search import Budget

    r = run("solve", "--game", "zwarta-kolumna", "--seed", "3", "--nodes", "20000")
    assert r.exit_code == 4, r.output
    g = create("zwarta-kolumna")
    found = play(g, g.new_table(g.deck_from_seed(3)), budget=Budget(nodes=20_000))  # the same search
    assert r.stderr.startswith(f"unknown: the nodes budget ran out; at best {found.best_home} of 104 cards home in "
                               f"{found.positions:,} positions ("), r.stderr
    assert 0 < found.best_home < 104


def test_solve_reports_unknown_and_unwinnable():
    r = run("solve", "--game", "exiles", "--seed", str(WON_SEED), "--nodes", "10")
    assert r.exit_code == 4 and r.stdout == "" and r.stderr.startswith("unknown: the nodes budget ran out")
    r = run("solve", "--game", "exiles", "--seed", "17", "--nodes", "5000")
    assert r.exit_code == 3 and r.stderr.startswith("unwinnable: proved lost: exhaustive search (")
    # a deal of Napoleon's Square whose square locks itself: the game's proof of loss answers at once, by name
    r = run("solve", "napoleons-square", "--seed", "28", "--nodes", "10")
    assert r.exit_code == 3 and r.stderr.startswith("unwinnable: proved lost: a card that can never come home (")
    assert "can never reach a foundation) (0 nodes" in r.stderr


@pytest.mark.parametrize("args, code", [
    (["solve", "--game", "no-such-game", "--seed", "1"], 2),
    (["solve", "--game", "exiles", "--seed", "1", "--variant", "nope"], 2),
    (["solve", "--game", "exiles"], 2),
    (["solve", "--game", "exiles", "--seed", "-3"], 2),
    (["solve", "--game", "exiles", "--seed", "1", "--ruling", "oops"], 2),
    (["solve", "--game", "exiles", "--seed", "1", "--nodes", "-1"], 2),
    (["stats"], 2),
    (["stats", "no-such-game", "--deals", "1"], 2),
    (["stats", "exiles", "--deals", "1", "--variant", "nope"], 2),
    (["stats", "--table", "--only", "no-such-game", "--out", "x.json"], 2),
    (["stats", "exiles", "--deals", "0"], 2),
    (["stats", "exiles", "--nodes", "0"], 2),
    (["stats", "exiles", "--table"], 2),
])
def test_bad_input_is_one_line_and_a_nonzero_exit(args, code):
    one_line_error(run(*args), code)


def test_solve_rejects_a_broken_log_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "replay-log/1", "game": "exiles"')
    one_line_error(run("solve", str(bad)), 1)
    one_line_error(run("solve", str(tmp_path / "missing.json")), 2)  # an I/O error, as in replay validate
    illegal = tmp_path / "illegal.json"
    deal = json.loads(run("deal", "exiles", "--seed", "2").stdout)
    deal["moves"] = [{"type": "redeal"}]
    illegal.write_text(json.dumps(deal))
    one_line_error(run("solve", str(illegal)), 1)


def test_stats_one_form(tmp_path):
    out = tmp_path / "s.json"
    r = run("stats", "exiles", "--deals", "3", "--seed", str(WON_SEED), "--nodes", "3000", "--workers", "1",
            "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "Win rates" in r.stdout
    s = json.loads(out.read_text())
    assert s["deals"] == 3 and s["solver"]["results"][0] == "W" and s["seeds"] == [WON_SEED, WON_SEED + 2]
    assert s["solver"]["won"] >= 1 and len(s["greedy"]["results"]) == 3


def test_stats_in_parallel_gives_the_same_results_as_one_worker():
    from replay.solver.stats import Form, run as run_jobs

    jobs = [(Form("exiles"), s) for s in range(7, 15)]  # two batches of four: two workers
    one = run_jobs(jobs, 300, None, workers=1, greedy=False)
    two = run_jobs(jobs, 300, None, workers=2, greedy=False)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in one]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in two]


def test_stats_on_a_dask_scheduler_gives_the_same_results_as_one_worker(tmp_path):
    """A two-worker dask cluster (threads, to keep it cheap) reached by its address, as --scheduler is."""
    from dask.distributed import LocalCluster

    plain, spread = tmp_path / "one.json", tmp_path / "dask.json"
    args = ["stats", "exiles", "--deals", "5", "--seed", "7", "--nodes", "300", "--no-greedy"]
    assert run(*args, "--workers", "1", "--json", str(plain)).exit_code == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        r = run(*args, "--scheduler", cluster.scheduler_address, "--json", str(spread))
    assert r.exit_code == 0, r.output
    a, b = json.loads(plain.read_text()), json.loads(spread.read_text())
    assert a["solver"]["results"] == b["solver"]["results"] and len(a["solver"]["results"]) == 5
    assert a["solver"]["mean_nodes"] == b["solver"]["mean_nodes"]
    assert "--scheduler" in b["command"]


def test_an_unreachable_scheduler_is_one_line_and_exit_2(monkeypatch):
    from replay.solver import stats as S

    monkeypatch.setattr(S, "SCHEDULER_TIMEOUT", 1)
    r = run("stats", "exiles", "--deals", "2", "--nodes", "100", "--no-greedy", "--scheduler", "tcp://127.0.0.1:1")
    one_line_error(r, 2)
    assert "--scheduler tcp://127.0.0.1:1" in r.stderr


def table(tmp_path, name: str = "j", **kw):  # type: ignore[no-untyped-def]
    """A small table run (in this process) and its data file."""
    from replay.solver import ladder as LD

    c = dict(seed=WON_SEED, deals=3, ruling_deals=2, ladder=(100, 300), ruling_ceiling=100, top=None, top_deals=0,
             method="portfolio", greedy=False, steady_cards=0.0, games=())
    c.update(kw.pop("config", {}))
    return LD.run_table(LD.Config(**c), tmp_path / f"{name}.journal", workers=1, progress=False, **kw)


def test_the_table_and_its_page(tmp_path, monkeypatch):
    from replay.solver.stats import Form

    monkeypatch.setattr(T, "forms", lambda: [Form("exiles"), Form("napoleons-square")])
    monkeypatch.setattr(T, "ruling_forms", lambda: [
        (Form("exiles", (), (("redeals", "two"),)), Form("exiles"), "redeals", "two", "one")])
    modern = Form("napoleons-square", (), (("sequence-moves", "whole-sequence"), ("space-fill", "any-card")))
    monkeypatch.setattr(T, "relative_forms", lambda: [T.RelativeForm(modern, "PySolFC", "PySolFC's modern rules")])
    data = table(tmp_path, command="replay stats --table (test)")
    path = tmp_path / "results.json"
    T.save(data, path)
    assert data["format"] == "replay-stats/2" and data["complete"]
    assert [r["label"] for r in data["forms"]] == ["exiles", "napoleons-square"]
    assert data["rulings"][0]["paired_solver"]["deals"] == 2 and data["rulings"][0]["budget"]["nodes"] == 100
    assert [(x["label"], x["title"], x["against"], x["paired_solver"]["deals"]) for x in data["relatives"]] == [
        (modern.label, "PySolFC's modern rules", "napoleons-square", 3)]  # a relative: as many deals as a form
    ex = data["forms"][0]
    c = ex["curve"]
    assert [p["budget"] for p in c] == [100, 300][:len(c)] and c[0]["deals"] == 3
    # a deal settled at the first budget is not played at the second; the curve never loses a deal won
    assert c[0]["played"] == 3 and (len(c) == 1 or c[1]["played"] == c[0]["unknown"])
    assert all(b["won"] >= a["won"] and b["unwinnable"] >= a["unwinnable"] for a, b in zip(c, c[1:]))
    assert len(ex["settled"]) == 3 and ex["settled"].count(".") == ex["solver"]["unknown"]
    assert data["rulings"][0]["paired_home_solver"]["deals"] == 2 and "mean_home" in data["rulings"][0]["solver"]
    page = tmp_path / "stats.md"
    r = run("stats", "--page", str(path), "--out", str(page))
    assert r.exit_code == 0, r.output
    text = page.read_text()
    assert "replay stats --table (test)" in text and data["version"] in text
    assert "| Exiles (text 003) | base | 3 |" in text and "`redeals`" in text and "9 in 10" in text
    assert "under PySolFC's modern rules" in text and "Under PySolFC's modern rules" in text
    assert text.index("* **Exiles.**") < text.index("## In short") < text.index("## How this page is made") \
        < text.index("replay stats --table (test)")
    assert "## How the figures move with the budget" in text and "<!-- replay:stats-curves -->" in text
    assert "Budget reached" in text and "100, then 300 positions" in text
    assert data["forms"][1]["reductions"] and "safe moves" in text and "Cards home" in text
    if data["forms"][1]["solver"]["won"] == 0:  # Napoleon's Square at 300 nodes: none won, so how far it got
        assert "Napoleon's Square, base: the solver's best position holds" in text
    one_line_error(run("stats", "--page", str(tmp_path / "nope.json")), 2)


def test_a_partial_rerun_merges_into_the_table(tmp_path, monkeypatch):
    from replay.solver.stats import Form

    monkeypatch.setattr(T, "forms", lambda: [Form("exiles"), Form("napoleons-square")])
    monkeypatch.setattr(T, "ruling_forms", lambda: [
        (Form("exiles", (), (("redeals", "two"),)), Form("exiles"), "redeals", "two", "one")])
    kw = dict(deals=2, ruling_deals=1, seed=7, ladder=(50,), ruling_ceiling=50)
    monkeypatch.setattr(T, "relative_forms", lambda: [
        T.RelativeForm(Form("napoleons-square", (), (("space-fill", "any-card"),)), "PySolFC", "modern rules"),
        T.RelativeForm(Form("exiles", (), (("chain-king", "ends-chain"),)), "Leoni's Own", "Leoni's Own")])
    full = table(tmp_path, "full", command="first", config=kw)
    part = table(tmp_path, "part", command="again", config={**kw, "games": ("exiles",)})
    assert [r["game"] for r in part["forms"]] == ["exiles"] and [r["game"] for r in part["relatives"]] == ["exiles"]
    merged = T.merge(full, part)
    assert [r["label"] for r in merged["forms"]] == [r["label"] for r in full["forms"]]
    assert merged["forms"][0]["made_by"]["version"] == part["version"] and "made_by" not in merged["forms"][1]
    assert [r["game"] for r in merged["relatives"]] == ["napoleons-square", "exiles"]
    assert "made_by" in merged["relatives"][1] and "made_by" not in merged["relatives"][0]
    assert merged["reruns"][0]["command"] == "again" and merged["reruns"][0]["games"] == ["exiles"]
    assert "measured again by `again`" in T.render_page(merged)
    assert "has replaced those rows since" not in T.render_page(merged)
    assert T.merge(merged, part) == merged  # the same re-run merged again: listed once, the rows the same
    twice = T.merge(merged, {**part, "command": "third"})  # the same rows again: the first re-run is superseded
    page = T.render_page(twice)
    assert "by `again`" in page and "by `third`" in page
    assert page.count("a later re-run (below) has replaced those rows since") == 1
    assert page.index("has replaced those rows since") < page.index("by `third`")
    with pytest.raises(ValueError):
        T.merge(full, full)
    # a reading that is no longer measured (it became the default) leaves the merged table
    monkeypatch.setattr(T, "ruling_forms", lambda: [])
    again = T.merge(full, table(tmp_path, "after", command="after", config={**kw, "games": ("exiles",)}))
    assert full["rulings"] and not [r for r in again["rulings"] if r["game"] == "exiles"]


def test_a_rerun_may_climb_one_form_past_the_ladder(tmp_path, monkeypatch):
    """--top-for: a partial re-run sends one form on to a top budget; it merges into a table without one, the
    re-run's entry and the page say how far that form went, the other form keeps the ladder; a re-run whose
    ladder differs is refused, and an unknown form is a one-line error."""
    from replay.solver import ladder as LD
    from replay.solver.stats import Form

    monkeypatch.setattr(T, "forms", lambda: [Form("napoleons-square"), Form("exiles")])
    monkeypatch.setattr(T, "ruling_forms", lambda: [])
    monkeypatch.setattr(T, "relative_forms", lambda: [])
    kw = dict(deals=3, ladder=(50,), ruling_ceiling=50, seed=WON_SEED)
    full = table(tmp_path, "full", command="first", config=kw)
    part = table(tmp_path, "part", command="again",
                 config={**kw, "top": 500, "top_deals": 2, "top_forms": ("napoleons-square",)})
    rungs = {r["label"]: r["rungs"] for r in part["forms"]}
    assert rungs == {"napoleons-square": [50, 500], "exiles": [50]}
    assert part["budget"]["top_forms"] == ["napoleons-square"]
    assert "500 on `napoleons-square`'s first 2 deals" in T.render_page(part)  # the run's own budget in words
    merged = T.merge(full, {**part, "games": ["napoleons-square", "exiles"]})
    assert merged["reruns"][0]["top"] == {"top": 500, "top_deals": 2, "top_forms": ["napoleons-square"]}
    assert "`napoleons-square` went on to 500 positions on its first 2 deals" in T.render_page(merged)
    ns = next(r for r in part["forms"] if r["label"] == "napoleons-square")
    assert ns["curve"][-1]["budget"] == 500 and ns["curve"][-1].get("subset") and ns["budget"]["nodes"] == 50
    # a top rung that plays every deal of the row counts in its results as a rung of the ladder would
    whole = table(tmp_path, "whole", command="again",
                  config={**kw, "top": 500, "top_deals": 3, "top_forms": ("napoleons-square",), "games": ("napoleons-square",)})
    ns = whole["forms"][0]
    at_top = ns["curve"][-1]
    assert at_top["budget"] == 500  # no deal of Napoleon's Square settles in 50 positions
    assert "subset" not in at_top and ns["budget"]["nodes"] == 500 and at_top["deals"] == 3
    assert ns["solver"]["won"] == at_top["won"] and ns["solver"]["unknown"] == at_top["unknown"]
    with pytest.raises(ValueError, match="budget"):
        T.merge(full, {**table(tmp_path, "other", command="x", config={**kw, "ladder": (60,), "ruling_ceiling": 60}),
                       "games": ["exiles"]})
    # --assemble of a partial run's journal puts its rows into the table (the file updated in place)
    data = tmp_path / "full.json"
    T.save(full, data)
    r = run("stats", "--assemble", str(tmp_path / "whole.journal"), "--merge-into", str(data), "--out", str(data))
    assert r.exit_code == 0, r.output
    again = json.loads(data.read_text())
    assert again["reruns"][-1]["games"] == ["napoleons-square"] and again["reruns"][-1]["top"]["top_deals"] == 3
    assert [r["label"] for r in again["forms"]] == ["napoleons-square", "exiles"]
    one_line_error(run("stats", "--assemble", str(tmp_path / "full.journal"), "--merge-into", str(data),
                       "--out", str(tmp_path / "m.json")), 1)  # a whole run's journal is no partial run
    # a journal begun before top_forms reads the same configuration back
    c = LD.Config(seed=1, deals=2, ruling_deals=1, ladder=(5,), ruling_ceiling=5, top=None, top_deals=0,
                  method="portfolio", greedy=False, steady_cards=0.0)
    assert "top_forms" not in c.as_dict() and LD.Config.from_dict(c.as_dict()) == c
    one_line_error(run("stats", "--table", "--only", "exiles", "--top", "10", "--top-deals", "1", "--ladder", "5",
                       "--top-for", "nope", "--out", str(tmp_path / "t.json")), 2)


def test_extra_rows_appear_on_the_page(tmp_path, monkeypatch):
    from replay.solver.stats import Form

    row = tmp_path / "row.json"
    r = run("stats", "napoleons-square", "--deals", "2", "--nodes", "30", "--workers", "1", "--no-greedy",
            "--ruling", "space-fill=any-card", "--json", str(row))
    assert r.exit_code == 0, r.output
    x = json.loads(row.read_text())
    assert x["format"] == "replay-stats-row/1" and x["command"].startswith("replay stats napoleons-square")
    monkeypatch.setattr(T, "forms", lambda: [Form("napoleons-square")])
    monkeypatch.setattr(T, "ruling_forms", lambda: [])
    monkeypatch.setattr(T, "relative_forms", lambda: [])
    data = table(tmp_path, command="t", config=dict(seed=1, deals=1, ruling_deals=1, ladder=(30,), ruling_ceiling=30))
    path = tmp_path / "results.json"
    T.save(data, path)
    r = run("stats", "--page", str(path), "--also", str(row))
    assert r.exit_code == 0, r.output
    assert "## Other measurements" in r.stdout and "napoleons-square space-fill=any-card" in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    one_line_error(run("stats", "--page", str(path), "--also", str(bad)), 1)  # read, and rejected


def test_solve_reads_a_log_as_validate_does(tmp_path):
    """No more than the size limit is read (/dev/zero ends at once), and an unreadable path is an I/O error (2)."""
    r = run("solve", "/dev/zero", "--nodes", "10")
    one_line_error(r, 1)
    assert "larger than the 5,000,000-byte limit" in r.stderr
    r = run("solve", str(tmp_path), "--nodes", "10")
    one_line_error(r, 2)
    assert "cannot read" in r.stderr


def test_stats_refuses_options_that_do_nothing_in_its_mode(tmp_path):
    for args, says in ((("--page", "data/stats/results.json", "--only", "exiles"), "--only does nothing with --page"),
                       (("--table", "--out", str(tmp_path / "t.json"), "--format", "json"),
                        "--format does nothing with --table"),
                       (("exiles", "--also", "x.json"), "--also does nothing with GAME"),
                       (("exiles", "--ladder", "10,100"), "--ladder does nothing with GAME"),
                       (("--table", "--out", str(tmp_path / "t.json"), "--nodes", "5"), "--nodes does nothing with --table"),
                       (("--table", "--out", str(tmp_path / "t.json"), "--ladder", "100,10"),
                        "must be positive and rising"),
                       (("--table", "--out", str(tmp_path / "t.json"), "--ladder", "a,b"), "give budgets in positions"),
                       (("--table", "--out", str(tmp_path / "t.json"), "--ladder", "10,100", "--ruling-ceiling", "50"),
                        "must be a budget of the ladder"),
                       (("--table", "--out", str(tmp_path / "t.json"), "--top", "100000000"),
                        "needs a number of deals"),
                       (("exiles", "-j", "1000"), "worker processes a core")):
        r = run("stats", *args)
        one_line_error(r, 2)
        assert says in r.stderr
    bad = tmp_path / "not-stats.json"
    bad.write_text('{"format": "something else"}')
    r = run("stats", "--page", str(bad))
    one_line_error(r, 1)  # read, and rejected
    assert "cannot render" in r.stderr
