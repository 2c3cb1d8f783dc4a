"""A game of each kind played at 80 columns, as a terminal shows it (issues 26 and 31): tmux runs `replay play` in
an 80×24 window, a move is typed, and the screen is captured to ``tests/artifacts/terminal-<game>-80.txt`` (kept in
git: look at them).  Every line fits, and the whole screen (the header, every pile name of the layout, the last
move, the prompt) is in the window."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.test_play_session import REPLAY, ROOT

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
GAMES = ROOT / "examples" / "games"
KINDS = [("exiles", GAMES / "exiles" / "base" / "lost-seed-1.json", 30, "1"),
         ("napoleons-square", GAMES / "napoleons-square" / "base" / "lost-seed-1.json", 40, "1"),
         ("printex-frame", GAMES / "printex-frame" / "base" / "lost-seed-1.json", 12, "1"),
         ("zwarta-kolumna", GAMES / "zwarta-kolumna" / "base" / "lost-seed-1.json", 20, "1")]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux draws the terminal")


def _tmux(sock: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, timeout=30, check=True).stdout


def _screen(sock: str, prompts: int, seconds: float = 30) -> str:
    """The window's text (its history too) once it shows the ``prompts``-th question, waiting for it."""
    end = time.monotonic() + seconds
    text = ""
    while time.monotonic() < end:
        text = _tmux(sock, "capture-pane", "-p", "-t", "play", "-S", "-300")
        if text.count("move>") >= prompts and text.rstrip().endswith("move>"):
            return text
        time.sleep(0.2)
    return text


@pytest.mark.parametrize("game, src, made, typed", KINDS, ids=[k[0] for k in KINDS])
def test_a_game_of_each_kind_is_readable_at_80_columns(tmp_path, game, src, made, typed):
    from replay.games import create

    d = json.loads(src.read_bytes())
    d["moves"] = d["moves"][:made]
    d.pop("result", None)
    log = tmp_path / f"{game}.json"
    log.write_text(json.dumps(d, indent=1), encoding="utf-8")
    sock = f"replay-test-{os.getpid()}-{game}"
    env = f"REPLAY_CACHE_DIR={os.environ.get('REPLAY_CACHE_DIR', '')}" if "REPLAY_CACHE_DIR" in os.environ else ""
    command = f"cd {tmp_path} && {env} {REPLAY} play {log.name}; sleep 30"
    _tmux(sock, "-f", "/dev/null", "new-session", "-d", "-s", "play", "-x", "80", "-y", "24", command)
    try:
        _screen(sock, 1)
        _tmux(sock, "send-keys", "-t", "play", typed, "Enter")
        text = _screen(sock, 2)
        assert f"after move {made + 1} of {made + 1}" in text, text
        joined = _tmux(sock, "capture-pane", "-p", "-J", "-t", "play", "-S", "-300")  # lines as printed
        window = _tmux(sock, "capture-pane", "-p", "-t", "play")  # what the window shows now
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True, timeout=30)
    shot = text.rstrip("\n")
    screen = shot[shot.rindex(f"{game}.json: "):]  # the last screen drawn: after the move typed
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"terminal-{game}-80.txt").write_text(screen + "\n", encoding="utf-8")
    lines = joined[joined.rindex(f"{game}.json: "):].splitlines()
    drawing = "\n".join(lines[: next(i for i, x in enumerate(lines) if x.startswith("last: "))])
    assert max(len(x) for x in drawing.splitlines()) <= 80, drawing  # the table never wraps
    assert max(len(x) for x in screen.splitlines()) <= 80
    for name in create(game, d["variants"], d["rulings"]).layout.names:
        assert re.search(rf"(?<!\S){re.escape(name)}(?!\S)", drawing), (name, drawing)
    assert "{" not in screen  # no JSON column
    assert f"{game}.json: " in window and f"after move {made + 1} of {made + 1}" in window, window
    assert any(x.startswith("last: ") for x in window.splitlines()), window
    for name in create(game, d["variants"], d["rulings"]).layout.names:
        assert re.search(rf"(?<!\S){re.escape(name)}(?!\S)", window), (name, window)
