"""`replay moves`: the legal moves of a log, each ready to paste, and why a deal or a redeal is not allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.log.play import dumps, step_of
from replay.log.validate import check_bytes, parse, replay_to

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "examples" / "games"
runner = CliRunner()


def moves(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["moves", *args])


def listed(output: str) -> list[dict]:
    """The JSON entries of the text listing, in order (as a person would copy them)."""
    out = []
    for line in output.splitlines():
        if line.startswith("  ") and "{" in line and line.split()[0].isdigit():
            out.append(json.loads(line[line.index("{"):]))
    return out


def truncated(path: Path, step: int, extra: dict | None = None) -> bytes:
    d = json.loads(path.read_bytes())
    d["moves"] = d["moves"][:step] + ([extra] if extra else [])
    d.pop("result", None)
    return dumps(d).encode()


@pytest.mark.parametrize("path", [GAMES / "zwarta-kolumna" / "base" / "lost-seed-1.json",
                                  GAMES / "exiles" / "base" / "lost-seed-1.json",
                                  GAMES / "napoleons-square" / "base" / "lost-sequences-seed-3.json",
                                  GAMES / "printex-frame" / "cztery-katy" / "lost-seed-1.json"],
                         ids=lambda p: p.parent.parent.name)
def test_every_listed_move_pasted_into_the_log_is_legal_and_every_other_is_refused(path):
    log = parse(path.read_bytes())
    for step in (1, len(log.moves) // 3, len(log.moves) // 2):
        r = moves(str(path), "--step", str(step))
        assert r.exit_code == 0, r.output
        assert f"after move {step} of {len(log.moves)}" in r.output.splitlines()[0]
        entries = listed(r.output)
        assert entries, r.output
        doc = json.loads(moves(str(path), "--step", str(step), "--format", "json").output)
        assert [x["move"] for x in doc["legal"]] == entries
        entries += [a for x in doc["legal"] for a in x.get("alike", [])]  # the same move to an alike foundation
        for e in entries:
            assert check_bytes(truncated(path, step, e)).ok, e
        # every other move the game knows of, from here, breaks a rule
        _, table, _, _ = replay_to(log, step)
        others = [step_of(table.game, m) for m in table.game.candidates(table)]
        bare = [{k: v for k, v in e.items() if k != "card"} for e in entries]
        refused = [o for o in others if o not in bare]
        assert refused
        for o in refused[:40]:
            v = check_bytes(truncated(path, step, o))
            assert v.verdict == "illegal" and v.first.clause, o


def test_a_fresh_deal_allows_only_the_deal_and_says_why_not_a_redeal(tmp_path):
    f = tmp_path / "new.json"
    f.write_text(runner.invoke(app, ["deal", "zwarta-kolumna", "--seed", "3"]).output, encoding="utf-8")
    r = moves(str(f))
    assert r.exit_code == 0
    assert listed(r.output) == [{"type": "deal"}]
    assert "no card can move; the rules allow: deal" in r.output
    assert "no redeal: zk-15:" in r.output


def test_the_end_of_a_lost_game_names_the_clauses_that_forbid_a_deal_and_a_redeal():
    path = GAMES / "printex-frame" / "base" / "lost-seed-1.json"
    r = moves(str(path))
    assert r.exit_code == 0
    assert listed(r.output) == []
    assert "the game is lost: no legal move is left" in r.output
    assert "no deal: pf-" in r.output and "no redeal: pf-" in r.output
    doc = json.loads(moves(str(path), "--format", "json").output)
    assert doc["outcome"] == "lost" and doc["legal"] == []
    assert {x["type"] for x in doc["not_now"]} == {"deal", "redeal"}
    assert all(x["clause"].startswith("pf-") and x["reason"] for x in doc["not_now"])


def test_the_end_of_a_won_game():
    r = moves(str(GAMES / "exiles" / "base" / "won-2.json"))
    assert r.exit_code == 0 and "the game is won: every card is on the foundations" in r.output
    assert "no deal" not in r.output


@pytest.mark.clause("zk-16")
def test_a_won_game_has_no_legal_move_and_a_redeal_after_the_win_is_illegal():
    """Won in the first laying-out, zwarta kolumna offers no redeal (its stock is empty and two layings-out
    are left), and a log that goes on with redeals after the win is refused, citing zk-16."""
    path = GAMES / "zwarta-kolumna" / "base" / "won-constructed-12.json"
    r = moves(str(path))
    assert r.exit_code == 0 and listed(r.output) == [] and "redeal" not in r.output
    doc = json.loads(moves(str(path), "--format", "json").output)
    assert doc["outcome"] == "won" and doc["legal"] == [] and doc["not_now"] == []
    log = parse(path.read_bytes())
    going_on = truncated(path, len(log.moves), {"type": "redeal"})
    v = check_bytes(going_on)
    assert v.verdict == "illegal" and v.first.clause == "zk-16" and "come out" in v.first.message
    twice = json.loads(going_on)
    twice["moves"] += [{"type": "redeal"}]
    text = runner.invoke(app, ["validate", "-"], input=dumps(twice))
    assert text.exit_code == 1 and "breaks zk-16" in text.output


def test_json_lists_the_same_moves_as_the_text():
    path = GAMES / "napoleons-square" / "base" / "lost-seed-1.json"
    text = moves(str(path), "--step", "20")
    doc = json.loads(moves(str(path), "--step", "20", "--format", "json").output)
    assert doc["format"] == "replay-moves/1" and doc["after"] == 20 and doc["game"] == "napoleons-square"
    assert [x["move"] for x in doc["legal"]] == listed(text.output)
    assert [x["number"] for x in doc["legal"]] == list(range(1, len(doc["legal"]) + 1))
    for x in doc["legal"]:
        assert f"{x['number']}  {x['short']}" in text.output


def test_an_illegal_log_is_reported_as_validate_reports_it():
    path = ROOT / "examples" / "broken" / "zk-illegal-zk-8.json"
    r = moves(str(path))
    v = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 1 and v.exit_code == 1
    assert r.stdout == ""
    assert r.stderr.startswith(v.stdout)  # the same block, then the hint
    assert "replay moves" in r.stderr and "--step 1" in r.stderr
    before = moves(str(path), "--step", "1")  # up to the illegal move: listed
    assert before.exit_code == 0 and listed(before.output)


def test_bad_input_is_one_line():
    r = moves(str(ROOT / "examples" / "broken" / "zk-10H.json"))
    assert r.exit_code == 1 and len(r.output.splitlines()) == 1 and "did you mean 'TH'?" in r.output
    r = moves("/no/such/log.json")
    assert r.exit_code == 2 and len(r.output.splitlines()) == 1 and "cannot read" in r.output
    r = moves(str(GAMES / "exiles" / "base" / "won-2.json"), "--step", "100000")
    assert r.exit_code == 2 and "--step must be 0 to 238" in r.output
