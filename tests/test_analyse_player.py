"""The analysis a player reads (issue 26): the best line and its cards home, the proof that settled a position,
what each verdict rests on, Ctrl-C during `replay analyse`, and a time estimate that counts slow positions."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from replay.solver.analyse import AnalysisDoc, Estimate, analyse_bytes, evidence, text_lines
from replay.solver.search import Budget

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[1]
REPLAY = str(Path(sys.executable).with_name("replay"))
PF_LOST = ROOT / "examples" / "games" / "printex-frame" / "base" / "lost-seed-1.json"
#: a lost exiles log whose analysis takes some seconds (under the default foundations = withdrawn-first, about ten
#: at 20,000 nodes: lost-seed-1's proofs come in two), so that Ctrl-C comes while it runs
#: a lost game whose analysis takes long enough to interrupt (many positions undecided within the budget;
#: exiles' lost-seed-2 took 50 s before its tuck chains came into the fast core, and now takes one)
EX_LOST = ROOT / "examples" / "games" / "napoleons-square" / "base" / "lost-seed-1.json"


@pytest.fixture(scope="module")
def pf() -> dict:
    return analyse_bytes(PF_LOST.read_bytes(), PF_LOST.name, Budget(nodes=3000))


@pytest.fixture(scope="module")
def pf_quick() -> dict:
    """The same game at a budget too small for the search to settle the third laying-out's first positions:
    the proof at the root settles one in the middle (a larger budget proves the second already lost by
    exhaustive search, and every later one follows)."""
    return analyse_bytes(PF_LOST.read_bytes(), PF_LOST.name, Budget(nodes=20))


def test_the_summary_names_the_best_line_and_its_cards_home_against_the_game_as_played(pf):
    best = pf["best"]
    assert best is not None and best["home"] > best["played_home"] and best["line"]
    kept = [p for p in pf["positions"] if p.get("best_home") is not None]
    assert best["home"] == max(p["best_home"] for p in kept)
    assert best["played_home"] == pf["positions"][-1]["home"]
    assert (f"brings {best['home']} cards home, against {best['played_home']} in the game as played: "
            f"{best['line'][0]}") in pf["summary"]
    assert "a search within the budget, not a bound: a longer one may bring more home" in pf["summary"]
    AnalysisDoc.model_validate(pf)  # what replay view --analysis accepts


#: a lost exiles game that could be won up to move 44 (at 3,000 nodes a position: the strong player finds the
#: win there and none after move 45), and whose later searches keep lines of 70 cards home
EX_WINNABLE = ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-2.json"


def test_where_a_position_was_won_the_line_offered_is_its_winning_line_not_a_later_best(tmp_path):
    r = subprocess.run([REPLAY, "analyse", str(EX_WINNABLE), "--nodes", "3000", "-o", "a.json"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    AnalysisDoc.model_validate(doc)
    k = doc["last_winnable"]
    assert k is not None and doc["positions"][k]["status"] == "won" and doc["positions"][k]["line"]
    later = [p for p in doc["positions"][k + 1:] if p.get("best_home") is not None]
    assert later and max(p["best_home"] for p in later) < 104  # the later best lines the summary used to offer
    assert doc["best"] == {"position": k, "home": 104, "line": doc["positions"][k]["line"],
                           "played_home": doc["positions"][-1]["home"]}
    said = " ".join(r.stdout.split())
    n = len(doc["positions"][k]["line"])
    assert (f"A winning line from position {k} (after move {k}), the last that could be won, brings every card "
            f"home, against {doc['best']['played_home']} in the game as played: ") in said
    assert said.count(f"({n} moves).") == 1
    assert "The best line the solver found" not in said  # no contradiction: a won position's line is the best
    rows = r.stdout.splitlines()
    won_row = next(x for x in rows if x.lstrip().startswith(f"{k} "))
    assert f"proved: a winning line (" in won_row and f"; a winning line of {n} moves: " in won_row
    best_row = next(x for x in rows if "best found: " in x)
    assert re.search(r"best found: \d+ cards home by a line of \d+ moves?: ", best_row), best_row
    assert not re.search(r"cards home after \d+", r.stdout)  # "after 92" read as "after move 92"


def test_a_position_settled_by_a_proof_of_loss_names_it_and_keeps_a_best_line(pf_quick):
    pf = pf_quick
    proved = [p for p in pf["positions"] if p.get("proof")]
    assert proved, [p["how"] for p in pf["positions"]]
    for p in proved:
        assert p["status"] == "unwinnable" and p["nodes"] == 0
        assert evidence(p) == f"proved without search: {p['proof']}"
        assert "can never reach a foundation" in p["proof"] or "a side pile that can never take it" in p["proof"]
    with_line = [p for p in proved if p["position"] < len(pf["positions"]) - 1]
    assert with_line and all(p["best_home"] is not None and p["best_line"] for p in with_line)
    text = "\n".join(text_lines(pf))
    assert "proved without search: " in text and "(0 nodes)" not in text


def test_every_verdict_says_what_it_rests_on():
    assert evidence({"how": "solved", "status": "won", "nodes": 12}) == "proved: a winning line (12 nodes)"
    assert evidence({"how": "solved", "status": "unwinnable", "nodes": 1}) == \
        "proved: the search was exhaustive (1 node)"
    assert evidence({"how": "solved", "status": "unknown", "nodes": 300, "stopped_by": "nodes"}) == \
        "searched 300 nodes, the nodes budget ran out"
    assert evidence({"how": "inferred", "from": 4}) == "inferred from position 4"
    assert evidence({"how": "played", "status": "unwinnable", "reason": "no line of a strong player wins"}) == \
        "found by play: no line of a strong player wins"
    assert evidence({"how": "not-searched", "status": "unknown"}) == "not searched (the analysis was interrupted)"
    AnalysisDoc.model_validate  # noqa: B018 - "played" and "not-searched" are verdicts the file may hold
    from replay.solver.analyse import PositionDoc

    for how in ("played", "not-searched"):
        PositionDoc.model_validate({"position": 1, "status": "unknown", "how": how})


def test_the_time_left_counts_the_slow_positions():
    # the shape of the run in the issue: two fast searches settle most positions, then slow ones remain
    e = Estimate(125)
    e.searched("unwinnable", 0.1)
    e.advance(20)
    e.searched("won", 0.2)
    e.advance(80)
    e.searched("unknown", 5.0)
    e.advance(1)
    # 24 positions left, each possibly a search that runs out of budget: about 24 * 5 s, not 24 / (101/5.3) s
    assert e.left() == pytest.approx(24 * 5.0)
    rate_estimate = (125 - 101) / (101 / 5.3)
    assert e.left() > 20 * rate_estimate


def _pty(args: list[str], cwd: Path):  # type: ignore[no-untyped-def]
    env = dict(os.environ, TERM="xterm", COLUMNS="160")
    return pexpect.spawn(REPLAY, args, cwd=str(cwd), env=env, encoding="utf-8", timeout=120, dimensions=(40, 160))


def test_ctrl_c_during_analyse_writes_what_is_known_and_says_how_far_it_came(tmp_path):
    n = len(json.loads(EX_LOST.read_bytes())["moves"]) + 1  # positions: the deal, then after each move
    child = _pty(["analyse", str(EX_LOST), "--nodes", "50000", "-o", "a.json"], tmp_path)
    child.expect("analysing")
    child.expect(r"at most \d+:\d\d left")  # the estimate, once a search has ended
    decided = 0
    while decided < 2:  # the bar counts the positions decided: Ctrl-C once it shows two (what it says, not a time)
        child.expect(r"(\d+)/\d+")
        decided = int(child.match.group(1))
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    text = child.before
    assert child.exitstatus == 130 and "Traceback" not in text
    assert "replay: analyse: interrupted after " in text and f" of {n} positions" in text
    doc = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    AnalysisDoc.model_validate(doc)
    assert doc["interrupted"] is True and 0 < doc["decided"] < n
    assert f"interrupted after {doc['decided']} of {n} positions" in text
    assert doc["summary"].startswith(f"Interrupted after {doc['decided']} of {n} positions: ")
    missing = [p for p in doc["positions"] if p["how"] == "not-searched"]
    assert len(missing) == n - doc["decided"] and all(p["status"] == "unknown" for p in missing)
    r = subprocess.run([REPLAY, "view", str(EX_LOST), "--analysis", "a.json", "-o", "a.html"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr  # an interrupted analysis is still shown
    assert "Interrupted after" in (tmp_path / "a.html").read_text(encoding="utf-8")
