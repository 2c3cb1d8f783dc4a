"""The strong player on the command line (issue 20): ``--method`` on ``solve``, ``analyse`` and ``stats``, a
``--seconds`` budget alone, and the move that lost a game named by play."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from replay.cli import app
from replay.cli.common import Method
from replay.log.validate import check_file
from replay.solver import analyse as A
from replay.solver.nested import DEFAULT_METHOD, METHODS
from replay.solver.search import UNKNOWN, WON

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_the_option_offers_the_methods_the_solver_knows() -> None:
    assert sorted(m.value for m in Method) == sorted(METHODS)
    assert Method.portfolio.value == DEFAULT_METHOD


def test_the_strong_player_wins_a_deal_the_depth_first_search_does_not(tmp_path: Path) -> None:
    """Zwarta kolumna with fill-from-any-pile, seed 1, 200,000 positions: the portfolio (the default) wins it,
    and its log validates; the depth-first search alone runs out of budget (bench_solver.py --play)."""
    out = tmp_path / "won.json"
    args = ["solve", "--game", "zwarta-kolumna", "--variant", "fill-from-any-pile", "--seed", "1",
            "--nodes", "200000"]
    r = run(*args, "-o", str(out))
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("won in ") and "; method portfolio, budget 200000 nodes" in r.stderr
    report = check_file(str(out))
    assert report.ok and report.outcome == "won"
    assert json.loads(out.read_text())["meta"]["solver"]["method"] == "portfolio"
    r = run(*args, "--method", "depth-first")
    assert r.exit_code == 4 and r.stderr.startswith("unknown: the nodes budget ran out"), r.output


def test_seconds_alone_is_the_only_budget() -> None:
    r = run("solve", "--game", "zwarta-kolumna", "--seed", "1", "--seconds", "0.3")
    assert r.exit_code == 4, r.output
    assert "budget 0.3 s (machine-dependent))" in r.stderr and "200000 nodes" not in r.stderr


def test_a_bad_method_or_budget_is_one_line() -> None:
    for args in (["--method", "greedy"], ["--nodes", "-1"], ["--seconds", "nan"], ["--seconds", "0"],
                 ["--seconds", "5e-324"], ["--seconds", "1e300"]):
        r = run("solve", "--game", "exiles", "--seed", "1", *args)
        assert r.exit_code == 2 and "Traceback" not in r.output, (args, r.output)


def test_seconds_are_bounded_where_they_enter() -> None:
    """Issue 32: 5e-324 s passed the check and left the portfolio's first search a share that rounds to 0
    (a traceback); a thousandth of a second is the least budget, and it is kept."""
    r = run("solve", "--game", "exiles", "--seed", "1", "--seconds", "5e-324")
    assert r.stderr == "replay: --seconds must be 0.001 to 1,000,000,000, not 5e-324\n"
    for method in ("portfolio", "depth-first", "nmcs", "nrpa"):
        r = run("solve", "--game", "exiles", "--seed", "1", "--seconds", "0.001", "--method", method)
        assert r.exit_code in (0, 4) and "Traceback" not in r.output, (method, r.output)


def _positions(statuses: str) -> list[A.Position]:
    """Positions searched with the verdicts of ``statuses`` (W won, ? unknown, X unwinnable)."""
    code = {"W": WON, "?": UNKNOWN, "X": "unwinnable"}
    return [A.Position(k, status=code[c], how="solved", nodes=50_000) for k, c in enumerate(statuses)]


def test_the_move_after_the_last_win_is_named_by_play() -> None:
    pos = _positions("WWW??")
    assert A.lost_by_play(pos) == 3
    assert pos[3].how == "played" and pos[3].status == UNKNOWN and "not a proof" in (pos[3].reason or "")
    points = A.turning_points(pos)
    assert points["lost_after"] is None and points["lost_by_play"] == 3
    doc = {"positions": [p.as_dict() for p in pos], "moves_list": ["a", "b", "c", "d"], **points}
    assert A._turning_sentence(doc).startswith("Move 3 (c), $.moves[2] of the log, lost the game as far as a "
                                               "strong player finds (found by play, not proved)")
    assert A.evidence(doc["positions"][3]).startswith("found by play: the game is won from position 2")


def test_a_proof_or_no_win_names_no_move_by_play() -> None:
    assert A.lost_by_play(_positions("WWX??")) is None  # the proof names the move
    assert A.lost_by_play(_positions("?????")) is None  # nothing is won
    assert A.lost_by_play(_positions("WWWWW")) is None  # the game is won
    pos = _positions("WW???")
    pos[2].how = "not-searched"
    assert A.lost_by_play(pos) is None  # interrupted before it was searched


def test_analyse_names_the_losing_move_by_play_and_the_file_says_how(tmp_path: Path) -> None:
    """Napoleon's Square, the lost example of seed 1: the strong player wins before move 5 and not after it;
    the depth-first search alone (the earlier analysis) cannot say so."""
    log = ROOT / "examples" / "games" / "napoleons-square" / "base" / "lost-seed-1.json"
    out = tmp_path / "a.json"
    r = run("analyse", str(log), "--nodes", "50000", "-o", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    A.AnalysisDoc.model_validate(doc)
    assert doc["budget"] == {"nodes": 50_000, "seconds": None, "method": "portfolio"}
    assert doc["lost_by_play"] == 5 and doc["lost_after"] is None
    assert doc["positions"][5]["how"] == "played" and doc["positions"][4]["status"] == WON
    assert "lost the game as far as a strong player finds" in r.stdout
    assert "<- the move that lost the game, found by play" in r.stdout
    r = run("analyse", str(log), "--nodes", "20000", "--method", "depth-first", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["lost_by_play"] is None and not any(p["how"] == "played" for p in doc["positions"])
