"""The statistics table's budgets that follow the search (replay.solver.ladder): which deals a rung plays,
the journal that makes a run resumable, and the run through the command line (killed and resumed, on dask
workers, interrupted with Ctrl-C)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from replay.solver import ladder as L
from replay.solver import table as T
from replay.solver.stats import Form

ROOT = Path(__file__).resolve().parents[1]


def config(**kw) -> L.Config:  # type: ignore[no-untyped-def]
    c = dict(seed=1, deals=4, ruling_deals=2, ladder=(10, 100, 1000), ruling_ceiling=10, top=None, top_deals=0,
             method="portfolio", greedy=False, steady_cards=0.0, games=())
    c.update(kw)
    return L.Config(**c)  # type: ignore[arg-type]


def rec(label: str, seed: int, budget: int, status: str, home: int = 50) -> dict:
    return {"kind": "deal", "row": label, "seed": seed, "budget": budget, "status": status, "home": home,
            "moves": 0, "nodes": budget, "seconds": 0.0, "cpu": 0.01}


def records(*rs: dict) -> dict:
    return {(r["row"], r["seed"], r["budget"]): r for r in rs}


PLAN = L.RowPlan(Form("exiles"), 4, (10, 100, 1000))


# ----------------------------------------------------------------------------- which deals a rung plays


def test_a_rung_plays_only_the_deals_still_open():
    p = L.row_progress(PLAN, 1, {}, 0.0)
    assert (p.budget, p.todo, p.complete) == (10, [1, 2, 3, 4], [])
    got = records(rec("exiles", 1, 10, "won", 104), rec("exiles", 2, 10, "unknown"), rec("exiles", 3, 10, "unwinnable"),
                  rec("exiles", 4, 10, "unknown"))
    p = L.row_progress(PLAN, 1, got, 0.0)
    assert (p.budget, p.todo, p.complete) == (100, [2, 4], [10])
    got.update(records(rec("exiles", 2, 100, "won", 104)))
    assert L.row_progress(PLAN, 1, got, 0.0).todo == [4]  # half a rung: the rest of it
    got.update(records(rec("exiles", 4, 100, "unknown", 60)))
    p = L.row_progress(PLAN, 1, got, 0.0)
    assert (p.budget, p.todo) == (1000, [4])
    got.update(records(rec("exiles", 4, 1000, "unknown", 61)))
    p = L.row_progress(PLAN, 1, got, 0.0)
    assert (p.budget, p.stopped, p.complete) == (None, "ceiling", [10, 100, 1000])
    # the results at each budget: a deal settled below a budget keeps its verdict there
    c = L.curve(PLAN, 1, got, p)
    assert [(x["budget"], x["won"], x["unwinnable"], x["unknown"], x["played"]) for x in c] == [
        (10, 1, 1, 2, 4), (100, 2, 1, 1, 2), (1000, 2, 1, 1, 1)]
    assert L.settled_string(PLAN, 1, got) == "010."
    assert [r["status"] for r in L.row_results(PLAN, 1, got, p)] == ["won", "won", "unwinnable", "unknown"]


def test_a_row_that_a_budget_changes_nothing_for_stops_climbing_steady():
    got = records(*(rec("exiles", s, 10, "unknown", 50) for s in (1, 2, 3, 4)),
                  *(rec("exiles", s, 100, "unknown", 50) for s in (1, 2, 3, 4)))
    assert L.row_progress(PLAN, 1, got, 1.0).stopped == "steady"
    assert L.row_progress(PLAN, 1, got, 0.0).budget == 1000  # 0: never steady
    got[("exiles", 1, 100)] = rec("exiles", 1, 100, "unknown", 55)  # a card and more on average: still climbing
    assert L.row_progress(PLAN, 1, got, 1.0).budget == 1000


def test_the_top_budget_plays_the_first_deals_only():
    plan = L.RowPlan(Form("exiles"), 4, (10,), top=100, top_deals=2)
    got = records(*(rec("exiles", s, 10, "unknown") for s in (1, 2, 3, 4)))
    p = L.row_progress(plan, 1, got, 0.0)
    assert (p.budget, p.todo) == (100, [1, 2])
    got.update(records(rec("exiles", 1, 100, "won", 104), rec("exiles", 2, 100, "unknown")))
    p = L.row_progress(plan, 1, got, 0.0)
    c = L.curve(plan, 1, got, p)
    assert c[-1]["subset"] and c[-1]["deals"] == 2 and c[-1]["won"] == 1
    # the summary: every deal at the last full rung, but a deal the top rung settled counts as settled there
    assert [(r["budget"], r["status"]) for r in L.row_results(plan, 1, got, p)] == [
        (100, "won"), (10, "unknown"), (10, "unknown"), (10, "unknown")]
    # the first deals all settled below the top: the row stops at the ladder's ceiling with deals open, not
    # "settled" (the committed table's exiles row said settled with 11 of 200 open)
    got = records(rec("exiles", 1, 10, "won", 104), rec("exiles", 2, 10, "unwinnable"),
                  rec("exiles", 3, 10, "unknown"), rec("exiles", 4, 10, "unknown"))
    p = L.row_progress(plan, 1, got, 0.0)
    assert (p.budget, p.stopped, p.complete) == (None, "ceiling", [10])


def test_a_probe_tries_a_rung_on_the_first_open_deals_and_stops_the_row_where_it_settles_none():
    plan = L.RowPlan(Form("exiles"), 6, (10, 100, 1000), probe=2)
    got = records(rec("exiles", 1, 10, "won", 104), *(rec("exiles", s, 10, "unknown", 40) for s in (2, 3, 4, 5, 6)))
    p = L.row_progress(plan, 1, got, 0.0)
    assert (p.budget, p.todo) == (100, [2, 3])  # the probe: the first two open deals, not the first two seeds
    got.update(records(rec("exiles", 2, 100, "unknown", 45)))
    assert L.row_progress(plan, 1, got, 0.0).todo == [3]  # half a probe: the rest of it
    got.update(records(rec("exiles", 3, 100, "unwinnable", 30)))
    p = L.row_progress(plan, 1, got, 0.0)
    assert (p.budget, p.todo) == (100, [4, 5, 6])  # it settled one: the rest of the open deals play the rung
    got.update(records(*(rec("exiles", s, 100, "unknown", 50) for s in (4, 5, 6))))
    p = L.row_progress(plan, 1, got, 0.0)
    assert (p.budget, p.todo) == (1000, [2, 4])  # the next rung's probe
    got.update(records(rec("exiles", 2, 1000, "unknown", 60), rec("exiles", 4, 1000, "unknown", 70)))
    p = L.row_progress(plan, 1, got, 0.0)  # settled none: the row stops, deals 5 and 6 are not played there
    assert (p.budget, p.stopped, p.complete, p.probe) == (None, "steady", [10, 100], (1000, [2, 4]))
    c = L.curve(plan, 1, got, p)
    assert [(x["budget"], x["deals"], x.get("probe", False)) for x in c] == [(10, 6, False), (100, 6, False),
                                                                             (1000, 2, True)]
    assert c[-1]["subset"] and c[-1]["mean_home"] == 65 and c[-1]["results"] == "??"
    # the summary the page reads stays at the last rung every open deal played
    assert [r["budget"] for r in L.row_results(plan, 1, got, p)] == [10, 100, 100, 100, 100, 100]
    # a probe no smaller than the open deals is the rung itself
    small = L.RowPlan(Form("exiles"), 6, (10, 100, 1000), probe=5)
    p = L.row_progress(small, 1, got, 0.0)
    assert (p.budget, p.todo) == (1000, [5, 6])


def test_a_row_the_probe_stopped_still_plays_its_first_deals_at_the_top_rung():
    plan = L.RowPlan(Form("exiles"), 6, (10, 100), top=1000, top_deals=3, probe=2)
    got = records(rec("exiles", 1, 10, "won", 104), *(rec("exiles", s, 10, "unknown", 40) for s in range(2, 7)))
    got.update(records(rec("exiles", 2, 100, "unknown", 45), rec("exiles", 3, 100, "unknown", 55)))
    p = L.row_progress(plan, 1, got, 0.0)  # the probe (deals 2, 3) settled none: on to the top with those of seeds 1-3
    assert (p.budget, p.todo, p.complete, p.probe) == (1000, [2, 3], [10], (100, [2, 3]))
    got.update(records(rec("exiles", 2, 1000, "unknown", 70)))
    assert L.row_progress(plan, 1, got, 0.0).todo == [3]
    got.update(records(rec("exiles", 3, 1000, "won", 104)))
    p = L.row_progress(plan, 1, got, 0.0)
    assert (p.budget, p.stopped, p.complete, p.probe) == (None, "steady", [10, 1000], (100, [2, 3]))
    c = L.curve(plan, 1, got, p)  # in budget order: the probe, then the top rung over its first three seeds
    assert [(x["budget"], x["deals"], x["won"], x.get("probe", False), x.get("subset", False)) for x in c] == [
        (10, 6, 1, False, False), (100, 2, 0, True, True), (1000, 3, 2, False, True)]
    assert c[-1]["results"] == "W?W" and c[-1]["played"] == 2
    # the summary: the last full rung, and deal 3, won at the top rung, as won there (a won line holds at any budget)
    assert [(r["budget"], r["status"]) for r in L.row_results(plan, 1, got, p)] == [
        (10, "won"), (10, "unknown"), (1000, "won"), (10, "unknown"), (10, "unknown"), (10, "unknown")]
    # the probe's deals past the top rung's first seeds are not played there; without a top rung the row stops
    wide = L.RowPlan(Form("exiles"), 6, (10, 100), top=1000, top_deals=1, probe=2)
    assert L.row_progress(wide, 1, got, 0.0).stopped == "steady"
    bare = L.RowPlan(Form("exiles"), 6, (10, 100), probe=2)
    p = L.row_progress(bare, 1, got, 0.0)
    assert (p.budget, p.stopped, p.complete) == (None, "steady", [10])


def test_a_game_may_play_more_deals_than_the_others():
    c = config(deals_for=(("exiles", 8),), probe=3)
    rows = {p.label: p for p in L.plans(c)}
    assert rows["exiles"].deals == 8 and rows["exiles"].probe == 3
    assert rows["napoleons-square"].deals == 4
    assert L.Config.from_dict(c.as_dict()) == c
    assert c.as_dict()["deals_for"] == {"exiles": 8}
    # a journal's configuration written before the two existed reads back equal
    assert "probe" not in config().as_dict() and L.Config.from_dict(config().as_dict()) == config()
    assert "at least 1" in L.check_config(config(deals_for=(("exiles", 0),)))
    assert "probe" in L.check_config(config(probe=-1))
    assert "budget of the ladder" in L.check_config(config(probe=2, probe_from=50))
    assert "with a probe" in L.check_config(config(probe_from=100))
    # from a budget up only: below it the rung plays every open deal at once
    plan = L.RowPlan(Form("exiles"), 6, (10, 100, 1000), probe=2, probe_from=1000)
    got = records(*(rec("exiles", s, 10, "unknown") for s in range(1, 7)))
    assert L.row_progress(plan, 1, got, 0.0).todo == [1, 2, 3, 4, 5, 6]
    got.update(records(*(rec("exiles", s, 100, "unknown") for s in range(1, 7))))
    assert L.row_progress(plan, 1, got, 0.0).todo == [1, 2]


def test_a_configuration_is_checked():
    assert L.check_config(config()) is None
    assert "rising" in L.check_config(config(ladder=(100, 10)))
    assert "budget of the ladder" in L.check_config(config(ruling_ceiling=50))
    assert "above the ladder" in L.check_config(config(top=5, top_deals=1))


# ----------------------------------------------------------------------------- the journal


def test_a_journal_resumes_only_its_own_run(tmp_path):
    path = tmp_path / "j"
    j = L.Journal.open(path, config(), "code-1", {"version": "v"})
    j.add("exiles", 10, {"seed": 1, "status": "won", "home": 104})
    j.close()
    again = L.Journal.open(path, config(), "code-1", {"version": "v"})
    assert list(again.records) == [("exiles", 1, 10)]
    again.close()
    with pytest.raises(L.JournalError, match="differs in deals"):
        L.Journal.open(path, config(deals=5), "code-1", {})
    with pytest.raises(L.JournalError, match="other code"):
        L.Journal.open(path, config(), "code-2", {})
    (tmp_path / "k").write_text('{"kind": "deal"}\n')
    with pytest.raises(L.JournalError, match="k:1: not a replay-stats-journal/1 journal"):
        L.Journal.read(tmp_path / "k")


def test_a_line_torn_by_a_crash_is_cut_off_and_the_run_goes_on(tmp_path):
    path = tmp_path / "j"
    j = L.Journal.open(path, config(), "c", {})
    j.add("exiles", 10, {"seed": 1, "status": "won", "home": 104})
    j.close()
    whole = path.stat().st_size
    with open(path, "ab") as f:
        f.write(b'{"kind":"deal","row":"exiles","seed":2,"bud')  # killed mid-write
    assert len(L.Journal.read(path).records) == 1  # read as it stands: the torn line is not a result
    j = L.Journal.open(path, config(), "c", {})
    assert path.stat().st_size == whole  # cut off before anything is appended
    j.add("exiles", 10, {"seed": 2, "status": "unknown", "home": 40})
    j.close()
    assert [json.loads(x)["seed"] for x in path.read_text().splitlines()[1:]] == [1, 2]


def test_the_fingerprint_follows_the_code_and_the_corpus(tmp_path, monkeypatch):
    import shutil

    a = L.fingerprint()
    copy = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", copy)
    monkeypatch.setenv("REPLAY_CORPUS", str(copy))
    assert L.fingerprint() == a
    f = copy / "ambiguities" / "000.yaml"
    f.write_text(f.read_text() + "\n")
    assert L.fingerprint() != a


# ----------------------------------------------------------------------------- runs


def small_rows(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(T, "forms", lambda: [Form("exiles"), Form("napoleons-square")])
    monkeypatch.setattr(T, "ruling_forms", lambda: [
        (Form("exiles", (), (("redeals", "two"),)), Form("exiles"), "redeals", "two", "one")])
    monkeypatch.setattr(T, "relative_forms", lambda: [])


class Counting(L.LocalRunner):
    """The local runner, counting the deals it plays, and stopping after ``stop_after`` of them (a kill)."""

    def __init__(self, stop_after: int | None = None) -> None:
        super().__init__("portfolio")
        self.played: list[tuple[str, int, int]] = []
        self.stop_after = stop_after

    def results(self):  # type: ignore[no-untyped-def]
        for task, out in super().results():
            if self.stop_after is not None and len(self.played) + len(out) > self.stop_after:
                raise KeyboardInterrupt
            self.played += [(task.label, s, task.budget) for s in task.seeds]
            yield task, out


def strip(data: dict) -> dict:
    """A data file without what depends on when and how long it ran."""
    drop = {"date", "wall_seconds", "cpu_seconds", "sessions", "workers", "command", "seconds", "cpu"}

    def clean(x):  # type: ignore[no-untyped-def]
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items() if k not in drop}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    return clean(data)


def test_a_run_cut_short_resumes_and_computes_nothing_twice(tmp_path, monkeypatch):
    small_rows(monkeypatch)
    c = config(seed=2, deals=6, ladder=(30, 300, 3000), ruling_ceiling=30)
    whole = Counting()
    j = L.Journal.open(tmp_path / "whole", c, "code", {})
    L.run(c, j, whole)
    j.close()
    assert len(set(whole.played)) == len(whole.played)
    first = Counting(stop_after=len(whole.played) // 2)
    j = L.Journal.open(tmp_path / "cut", c, "code", {})
    with pytest.raises(KeyboardInterrupt):
        L.run(c, j, first)
    j.close()
    rest = Counting()
    j = L.Journal.open(tmp_path / "cut", c, "code", {})
    L.run(c, j, rest)
    j.close()
    assert not set(first.played) & set(rest.played)  # nothing twice
    assert sorted(first.played + rest.played) == sorted(whole.played)  # and what the whole run played
    a, b = L.assemble(L.Journal.read(tmp_path / "whole")), L.assemble(L.Journal.read(tmp_path / "cut"))
    assert strip(a) == strip(b) and a["complete"]
    # a run half done assembles too: its rows say how far they got
    j = L.Journal.read(tmp_path / "whole")
    half = L.assemble(L.Journal(j.path, j.header, dict(list(j.records.items())[:5]), []))
    assert not half["complete"]


def test_the_run_killed_mid_table_resumes_from_its_journal(tmp_path):
    """SIGKILL while the command runs (once its journal holds some results, which is how it says it has
    begun), then the same command again: the data file is the one an uninterrupted run writes."""
    args = [sys.executable, "-m", "replay", "stats", "--table", "--only", "exiles", "--deals", "12",
            "--ruling-deals", "2", "--ladder", "300,3000", "--ruling-ceiling", "300", "-j", "1", "--no-greedy"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    whole = tmp_path / "whole.json"
    r = subprocess.run(args + ["-o", str(whole)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "cut.json"
    journal = tmp_path / "cut.json.journal"
    p = subprocess.Popen(args + ["-o", str(out)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        while p.poll() is None:  # wait for what the run writes: a few results in its journal
            if journal.exists() and journal.read_text().count('"kind":"deal"') >= 5:
                break
        p.send_signal(signal.SIGKILL)
    finally:
        p.wait(timeout=60)
    assert not out.exists() or p.returncode == 0
    lines = journal.read_text().count('"kind":"deal"')
    r = subprocess.run(args + ["-o", str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    a, b = json.loads(whole.read_text()), json.loads(out.read_text())
    assert strip(a) == strip(b)
    got = L.Journal.read(journal)
    assert len(got.records) == journal.read_text().count('"kind":"deal"')  # each result once
    assert len(got.sessions) == 1 + (p.returncode == 0) and lines >= 5


def test_a_journal_of_other_code_is_refused_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from replay.cli import app

    j = tmp_path / "t.json.journal"
    j.write_text(json.dumps({"kind": "run", "format": L.JOURNAL_FORMAT, "fingerprint": "old", "commit": "abc",
                             "version": "abc", "config": config(games=("exiles",), ladder=(100,), ruling_ceiling=100,
                                                                deals=1, ruling_deals=1, greedy=True,
                                                                steady_cards=1.0).as_dict()}) + "\n")
    r = CliRunner().invoke(app, ["stats", "--table", "--only", "exiles", "-n", "1", "--ruling-deals", "1",
                                 "--ladder", "100", "--ruling-ceiling", "100", "-j", "1",
                                 "-o", str(tmp_path / "t.json")])
    assert r.exit_code == 1 and "a run resumes only on the code that began it" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, says", [
    (["--deals-for", "exiles"], "--deals-for 'exiles': give GAME=N"),
    (["--deals-for", "exiles=x"], "--deals-for 'exiles=x': give GAME=N"),
    (["--deals-for", "chess=9"], "--deals-for: unknown game 'chess'"),
    (["--deals-for", "exiles=0"], "N must be at least 1"),
    (["--probe", "-1"], "the probe is a number of deals, 0 or more"),
    (["--probe", "2", "--probe-from", "5000"], "the probe's first budget 5,000 must be a budget of the ladder"),
    (["--probe-from", "1000"], "with a probe"),
])
def test_the_probe_and_the_deals_per_game_are_refused_in_one_line_when_wrong(tmp_path, args, says):
    from typer.testing import CliRunner

    from replay.cli import app

    r = CliRunner().invoke(app, ["stats", "--table", "--ladder", "100,1000", "--ruling-ceiling", "100", "-j", "1",
                                 *args, "-o", str(tmp_path / "t.json")])
    assert r.exit_code == 2 and says in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "t.json.journal").exists()


def test_the_probe_does_nothing_outside_the_table(tmp_path):
    from typer.testing import CliRunner

    from replay.cli import app

    r = CliRunner().invoke(app, ["stats", "exiles", "--probe", "3"])
    assert r.exit_code == 2 and "--probe does nothing with GAME" in r.stderr


# ----------------------------------------------------------------------------- workers


def test_never_more_workers_than_batches_and_never_far_past_the_cores(monkeypatch):
    from replay.solver import stats as S

    started: list[int] = []

    class Cluster:  # stands for dask's LocalCluster: counts the worker processes asked for
        def __init__(self, n_workers: int, **kw) -> None:  # type: ignore[no-untyped-def]
            started.append(n_workers)
            raise RuntimeError("not started")

    import dask.distributed  # noqa: F401  (imported before the patch: importing it copies distributed's names,
    import distributed  # and a first import under the patch would copy the stand-in, which teardown then keeps)

    monkeypatch.setattr(distributed, "LocalCluster", Cluster)
    monkeypatch.setattr("dask.distributed.LocalCluster", Cluster)
    # one batch of work (two deals): played here, no cluster at all
    out = S.run([(Form("exiles"), 2), (Form("exiles"), 3)], 50, None, workers=6, greedy=False)
    assert len(out) == 2 and started == []
    # three batches: three workers, however many were asked for
    with pytest.raises(RuntimeError):
        S.run([(Form("exiles"), s) for s in range(1, 10)], 50, None, workers=8, greedy=False, chunk=4)
    assert started == [3]
    cores = os.cpu_count() or 1
    with pytest.raises(ValueError, match="worker processes a core"):
        S.worker_count(S.MAX_WORKERS_PER_CORE * cores + 1, 1000)
    assert S.worker_count(None, 1000) == cores and S.worker_count(None, 1) == 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a pseudo-terminal")
def test_ctrl_c_during_a_run_on_workers_is_quiet(tmp_path):
    """Ctrl-C while two dask workers play: exit 130 and not a line of traceback from the workers, their
    nanny or the exit hooks (the workers are started with SIGINT ignored; the command closes them)."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "replay", "stats", "exiles", "-n", "40", "-j", "2",
                                           "--nodes", "2000000", "--no-greedy"],
                          cwd=str(ROOT), dimensions=(24, 120), encoding="utf-8", timeout=300)
    child.expect(r"[1-9]\d*/40")  # the progress bar: the workers have played a deal
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    text = child.before or ""
    assert child.exitstatus == 130, text
    assert "Traceback" not in text and "Error" not in text, text


# ----------------------------------------------------------------------------- the figure


def test_the_figure_draws_every_form_with_a_text_equivalent(tmp_path, monkeypatch):
    import re
    from types import SimpleNamespace

    from replay.site.build import stats_curves
    from replay.solver.figure import curves_svg

    small_rows(monkeypatch)
    c = config(seed=2, deals=3, ladder=(30, 300), ruling_ceiling=30)
    j = L.Journal.open(tmp_path / "j", c, "code", {})
    L.run(c, j, L.LocalRunner("portfolio"))
    j.close()
    data = L.assemble(L.Journal.read(tmp_path / "j"))
    svg = curves_svg(data)
    assert svg.startswith('<svg class="rs-fig"') and 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert svg.count('<path class="rs-won"') == len(data["forms"])  # one panel a form
    assert "Exiles" in svg and "Napoleon" in svg and "var(--md-default-fg-color" in svg  # the theme's colours
    desc = re.search(r"<desc[^>]*>(.*?)</desc>", svg, re.S).group(1)  # type: ignore[union-attr]
    assert "Exiles: won" in desc and "positions" in desc
    html = stats_curves(SimpleNamespace(stats=data))  # the site's build: one block, no blank line to break it
    assert html.startswith('<div class="rs-figure"><svg') and "\n" not in html
    assert "does not have" in stats_curves(SimpleNamespace(stats=None))
    page = T.render_page(data)
    assert "<!-- replay:stats-curves -->" in page and "| Exiles | 10³ |" not in page  # budgets below 10^5 in full
    assert "| Exiles | 30 | 3 |" in page


def test_a_row_is_settled_by_all_its_deals_not_by_the_top_rungs_subset():
    """The top rung plays a row's first deals only: every one of them won there does not settle the row
    (Cadogan's Four Corners in the committed table: its first 10 deals won at 10^7, 42 of 200 open at 10^6)."""
    from replay.solver.page import row_state

    def point(budget, deals, won, unknown, home, subset=False):
        p = {"budget": budget, "deals": deals, "won": won, "unwinnable": 0, "unknown": unknown, "mean_home": home}
        return {**p, "subset": True} if subset else p

    row = {"curve": [point(10**5, 200, 46, 154, 93.5), point(10**6, 200, 158, 42, 102.7),
                     point(10**7, 10, 10, 0, 104.0, subset=True)], "stopped": "ceiling"}
    assert row_state(row) == "still climbing"
    row["curve"][1] = point(10**6, 200, 200, 0, 104.0)
    assert row_state(row) == "settled"
    flat = {"curve": [point(10**5, 200, 0, 200, 66.0), point(10**6, 200, 0, 200, 66.4),
                      point(10**7, 10, 0, 10, 90.0, subset=True)], "stopped": "ceiling"}
    assert row_state(flat) == "steady"
    # a row the probe stopped: said so, with the probe's budget and deals, not "steady" (its cards still rise)
    from replay.solver.page import _reached

    probed = {"curve": [point(10**5, 200, 0, 200, 66.0), point(10**6, 200, 0, 200, 78.2),
                        {**point(10**7, 20, 0, 20, 89.0, subset=True), "probe": True}], "stopped": "steady",
              "budget": {"nodes": 10**6}}
    assert row_state(probed) == "probed: none settled"
    assert _reached(probed) == "10⁶ (probed at 10⁷: none of 20 settled)"
    probed["curve"].append(point(10**8, 20, 0, 20, 95.55, subset=True))  # and played on past the ladder
    assert row_state(probed) == "probed: none settled"
    assert _reached(probed) == "10⁶ (probed at 10⁷: none of 20 settled; its first 20 at 10⁸: none settled, 95.5 " \
                               "cards home)"
