"""``-o -`` is standard output, as in curl (issue 23 §2): no command writes a file named ``-``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REPLAY = str(Path(sys.executable).with_name("replay"))
WON = ROOT / "examples" / "games" / "exiles" / "base" / "won-2.json"


def replay(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REPLAY, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize("args, starts", [
    (("deal", "exiles", "-s", "3", "-o", "-"), '{\n  "format": "replay-log/1"'),
    (("solve", "exiles", "-s", "1", "-o", "-"), '{\n  "format": "replay-log/1"'),
    (("view", str(WON), "-o", "-"), "<!DOCTYPE html>"),
    (("analyse", str(WON), "--nodes", "50", "-o", "-"), '{\n "format": "replay-analysis/1"'),
    (("stats", "exiles", "--deals", "2", "-j", "1", "--nodes", "50", "-o", "-"), '{\n "deals": 2'),
], ids=lambda x: x[0] if isinstance(x, tuple) else None)
def test_dash_is_standard_output(tmp_path, args, starts):
    r = replay(*args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(starts), r.stdout[:200]
    if starts.startswith("{"):
        json.loads(r.stdout)  # the document alone: no text beside it
    assert list(tmp_path.iterdir()) == []  # no file named "-", nothing else


def test_same_as_without_o_for_deal(tmp_path):
    assert replay("deal", "exiles", "-s", "3", "-o", "-", cwd=tmp_path).stdout == \
        replay("deal", "exiles", "-s", "3", cwd=tmp_path).stdout


@pytest.mark.parametrize("args, says", [
    (("play", "exiles", "-s", "1", "-o", "-"), "replay play writes its log after every move"),
    (("corpus", "export", "-o", "-"), "give a directory"),
    (("corpus", "schema", "-o", "-"), "give a directory"),
])
def test_commands_that_cannot_write_to_standard_output_say_so_in_one_line(tmp_path, args, says):
    r = replay(*args, cwd=tmp_path)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    assert list(tmp_path.iterdir()) == []
