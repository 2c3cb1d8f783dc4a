"""`replay play`: a game played in a real pseudo-terminal as a person plays it, and with moves piped on stdin.

The real `replay` console script of the virtual environment is spawned (pexpect), the table is read
off the screen, moves are chosen from what is shown, and the log written is checked with
`replay validate`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

REPLAY = str(Path(sys.executable).with_name("replay"))
ROOT = Path(__file__).resolve().parents[1]
LISTED = re.compile(r"^ +(\d+)  (\S.*?)\s*$", re.MULTILINE)
TYPES = ("move", "deal", "redeal", "fill", "tuck")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str, cwd: Path):  # type: ignore[no-untyped-def]
    env = dict(os.environ, TERM="xterm", COLUMNS="160", LINES="50")
    child = pexpect.spawn(REPLAY, list(args), cwd=str(cwd), env=env, encoding="utf-8", timeout=30,
                          dimensions=(50, 160))
    child.logfile_read = open(cwd / "transcript.txt", "a", encoding="utf-8")  # noqa: SIM115 - kept for a failure
    return child


def screen(child) -> str:  # type: ignore[no-untyped-def]
    """What the session printed up to and including the next prompt (without colours)."""
    child.expect_exact("move> ")
    return ANSI.sub("", child.before).replace("\r\n", "\n")


def entry(short: str) -> dict:
    """The log entry a listed short form stands for (``p7 → K3  QD``, ``tuck exiles → p5  5H``, ``deal``)."""
    words = re.sub(r"\s+\(or .*\)$", "", short).replace("→", " ").split()
    d: dict = {"type": words.pop(0) if words[0] in TYPES else "move"}
    count = int(words.pop()[1:]) if words and words[-1].startswith("×") else None
    if words:
        d["from"], d["to"], d["card"] = words
    if count is not None:
        d["count"] = count
    return d


def menu(text: str) -> list[tuple[int, str, dict]]:
    """The numbered moves of the last listing on the screen: (number, short form, log entry)."""
    last = text.rsplit("after move ", 1)[-1]
    return [(int(n), re.sub(r"\s+\(or .*\)$", "", short), entry(short)) for n, short in LISTED.findall(last)]


def validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REPLAY, "validate", str(path)], capture_output=True, text=True, timeout=60)


def test_a_game_played_in_a_terminal(tmp_path):
    child = spawn("play", "zwarta-kolumna", "--seed", "3", "--out", "game.json", cwd=tmp_path)
    first = screen(child)
    # the table, drawn as `replay show` draws it, and the only legal move of a fresh deal
    assert "game.json: zwarta-kolumna, after move 0 of 0" in first and "stock (96)" in first
    assert all(name in first for name in ("p1", "p12", "A1", "K4"))
    assert [m for _, _, m in menu(first)] == [{"type": "deal"}]
    assert "no redeal: zk-15" in first
    log = tmp_path / "game.json"
    assert json.loads(log.read_text())["moves"] == []  # written from the start

    # play by number: the deal
    child.sendline("1")
    after_deal = screen(child)
    assert "after move 1 of 1" in after_deal and "stock (84)" in after_deal and "last: move 1 ($.moves[0]) deal" in after_deal
    assert len(json.loads(log.read_text())["moves"]) == 1  # saved after the move, before the next question

    # deal again by name until some card can go to a foundation, then play it in the short form
    text = after_deal
    for _ in range(8):
        cards = [(short, m) for _, short, m in menu(text) if m["type"] == "move"]
        if cards:
            break
        child.sendline("deal")
        text = screen(child)
    assert cards, text
    short, entry = cards[0]
    n_before = len(json.loads(log.read_text())["moves"])
    child.sendline(f"{entry['from'].upper()} {entry['to'].lower()}   # my first move")  # typed loosely
    played = screen(child)
    assert f"after move {n_before + 1} of {n_before + 1}" in played
    assert f"last: move {n_before + 1} ($.moves[{n_before}]) {short}  “my first move”" in played
    saved = json.loads(log.read_text())["moves"]
    assert saved[-1] == dict(entry, comment="my first move")

    # an illegal move: a top card to a foundation it may not go to, as the screen shows it
    listed = {(m.get("from"), m.get("to")) for _, _, m in menu(played)}
    tableau = [f"p{i}" for i in range(1, 13)]
    wrong = next((s, f) for s in tableau for f in ("A1", "A2", "A3", "A4", "K1", "K2", "K3", "K4")
                 if (s, f) not in listed and re.search(rf"^{s} \(", played, re.MULTILINE))
    child.sendline(f"{wrong[0]} {wrong[1]}")
    refused = screen(child)
    assert f"refused: illegal move {n_before + 2} ($.moves[{n_before + 1}])" in refused
    assert re.search(r"breaks zk-\d+: ", refused)
    assert "diplomatic:  “" in refused and "translation: “" in refused and "table held:" in refused
    assert len(json.loads(log.read_text())["moves"]) == n_before + 1  # not written

    # undo, then help, then quit
    child.sendline("undo")
    undone = screen(child)
    assert f"undone: the log has {n_before} move" in undone and f"after move {n_before} of {n_before}" in undone
    assert len(json.loads(log.read_text())["moves"]) == n_before
    child.sendline("help")
    assert "undo" in screen(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert f"game.json: {n_before} move" in child.before and "the log is saved" in child.before
    v = validate(log)
    assert v.returncode == 0 and "valid" in v.stdout, v.stdout + v.stderr


def test_continuing_a_log_in_a_terminal_and_closing_the_terminal_loses_nothing(tmp_path):
    src = ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json"
    log = tmp_path / "mine.json"
    d = json.loads(src.read_bytes())
    d["moves"] = d["moves"][:20]
    del d["result"]
    log.write_text(json.dumps(d), encoding="utf-8")
    child = spawn("play", "mine.json", cwd=tmp_path)
    text = screen(child)
    assert "after move 20 of 20" in text
    choices = menu(text)
    child.sendline(str(choices[-1][0]))
    text = screen(child)
    assert "after move 21 of 21" in text
    child.close(force=True)  # the terminal goes away: SIGHUP, no quit
    written = json.loads(log.read_text())
    assert written["moves"][:20] == d["moves"] and written["moves"][20] == choices[-1][2]
    assert validate(log).returncode == 0


def run(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REPLAY, *args], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=60)


def test_moves_piped_on_standard_input(tmp_path):
    r = run("play", "napoleons-square", "--seed", "5", "--out", "ns.json", stdin="deal\n2\n1\n", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("move> ") == 3 and "move> deal" in r.stdout  # the lines read are echoed
    assert "ns.json: 3 moves" in r.stdout and "the log is saved" in r.stdout  # the end of input ends the session
    log = json.loads((tmp_path / "ns.json").read_text())
    assert len(log["moves"]) == 3 and log["moves"][0] == {"type": "deal"}
    assert log["meta"]["seed"] == 5 and log["result"] == "unfinished"
    assert validate(tmp_path / "ns.json").returncode == 0
    # continue it from a file of moves, one of them illegal: refused on stderr, the rest played, exit 1
    r = run("play", "ns.json", stdin="deal\np1 p1\n1 # from the script\n", cwd=tmp_path)
    assert r.returncode == 1
    assert "refused: " in r.stderr and "p1" in r.stderr
    log = json.loads((tmp_path / "ns.json").read_text())
    assert len(log["moves"]) == 5 and log["moves"][-1]["comment"] == "from the script"
    assert validate(tmp_path / "ns.json").returncode == 0


def test_bad_input_is_one_line_without_a_traceback(tmp_path):
    (tmp_path / "taken.json").write_text("keep me", encoding="utf-8")
    cases = [
        (("play", "no-such-game", "--seed", "1", "--out", "x.json"), 2, "unknown game 'no-such-game'"),
        (("play", "exiles", "--seed", "-1", "--out", "x.json"), 2, "--seed"),
        (("play", "exiles", "--seed", "1"), 2, "needs --out"),
        (("play", "exiles", "--seed", "1", "--out", "taken.json"), 2, "--force"),
        (("play", "nothing-here.json"), 2, "no such log file"),
        (("play", str(ROOT / "examples" / "broken" / "zk-10H.json"), "--out", "y.json"), 1, "did you mean 'TH'?"),
        (("play", str(ROOT / "examples" / "broken" / "zk-illegal-zk-8.json"), "--out", "y.json"), 1, "breaks zk-8"),
        (("play", str(ROOT / "examples" / "games" / "exiles" / "base" / "won-2.json"), "--seed", "2"), 2,
         "give a game ID, not a log"),
        (("play", "."), 2, "cannot read"),
    ]
    for args, code, says in cases:
        r = run(*args, stdin="", cwd=tmp_path)
        assert r.returncode == code, (args, r.stderr)
        assert says in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
        if code == 2 or "TH" in says:
            assert len(r.stderr.splitlines()) == 1, r.stderr
    assert (tmp_path / "taken.json").read_text() == "keep me"
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "y.json").exists()
    (tmp_path / "exiles").mkdir()  # a directory named like a game does not hide the game
    r = run("play", "exiles", "--seed", "1", "--out", "taken.json", "--force", stdin="quit\n", cwd=tmp_path)
    assert r.returncode == 0 and json.loads((tmp_path / "taken.json").read_text())["game"] == "exiles"


def test_an_unwritable_place_is_one_line(tmp_path):
    r = run("play", "exiles", "--seed", "1", "--out", str(tmp_path / "no" / "dir" / "x.json"), stdin="", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "cannot write" in r.stderr


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX")
def test_the_written_log_is_never_half_written(tmp_path):
    # the only file the session leaves beside the log is the log: the temporary files are renamed away
    r = run("play", "exiles", "--seed", "4", "--out", "e.json", stdin="deal\n" * 3, cwd=tmp_path)
    assert r.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.json"]


FORMS = [("printex-frame", ()), ("printex-frame", ("any-pile-after-third-deal",)), ("printex-frame", ("cztery-katy",)),
         ("printex-frame", ("--ruling", "frame=square-20")), ("zwarta-kolumna", ()),
         ("zwarta-kolumna", ("fill-from-any-pile",)), ("zwarta-kolumna", ("chaldejski",)),
         ("zwarta-kolumna", ("gotycki-zamek",)), ("zwarta-kolumna", ("cztery-katy",)), ("exiles", ()),
         ("napoleons-square", ())]


@pytest.mark.parametrize("game, form", FORMS, ids=lambda x: x if isinstance(x, str) else "+".join(x) or "base")
def test_every_game_and_variant_can_be_played_from_a_script_of_short_forms(tmp_path, game, form):
    from replay.games import create
    from replay.log.play import played_log
    from replay.play.moves import short_form

    variants = [v for v in form if not v.startswith("--") and "=" not in v]
    rulings = dict(a.split("=") for a in form if "=" in a)
    extra = list(form) if form[:1] == ("--ruling",) else [a for v in form for a in ("--variant", v)]
    # a game played by the seeded greedy player, typed in as the short forms `replay moves` shows
    steps = played_log(create(game, variants, rulings), seed=11)["moves"][:60]
    script = "".join(f"{short_form(s)}\n" for s in steps)
    r = run("play", game, "--seed", "11", *extra, "--out", "g.json", stdin=script, cwd=tmp_path)
    assert r.returncode == 0 and "refused" not in r.stderr, r.stderr
    log = json.loads((tmp_path / "g.json").read_text())
    assert log["moves"] == steps and log["variants"] == variants
    assert {s["type"] for s in steps} - {"deal", "redeal"}  # cards moved, not only deals
    v = validate(tmp_path / "g.json")
    assert v.returncode == 0 and f"{len(steps)} moves" in v.stdout, v.stdout + v.stderr

# Ctrl-C now clears the line typed, as in a shell, and Ctrl-D ends the session: tests/test_play_terminal.py
