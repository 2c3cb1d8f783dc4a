"""One numbering of moves (issue 23 §2): every command counts moves from 1 and gives the JSON path beside it.

Move ``k`` is ``$.moves[k-1]``: the first move is move 1, as ``--step N`` and ``--until N`` count the moves
made and as position ``k`` of ``replay analyse`` is the table after move ``k`` (docs/log-format.md,
"Numbering moves").  Each command is run on one log whose second move breaks a rule, and every
"move K ($.moves[J])" any of them prints must have K = J + 1.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REPLAY = str(Path(sys.executable).with_name("replay"))
BROKEN = ROOT / "examples" / "broken" / "zk-illegal-zk-8.json"  # $.moves[1] breaks zk-8
NAMED = re.compile(r"\bmove (\d+) \(\$\.moves\[(\d+)\]")


def replay(*args: str, cwd: Path, stdin: str = "") -> str:
    r = subprocess.run([REPLAY, *args], capture_output=True, text=True, cwd=cwd, timeout=300, input=stdin)
    assert "Traceback" not in r.stderr, r.stderr
    return r.stdout + r.stderr


def test_the_refused_move_is_move_2_at_moves_1_in_every_command(tmp_path):
    said = {
        "validate": replay("validate", str(BROKEN), cwd=tmp_path),
        "validate --all-readings": replay("validate", "--all-readings", str(BROKEN), cwd=tmp_path),
        "show": replay("show", str(BROKEN), cwd=tmp_path),
        "show --step 1": replay("show", str(BROKEN), "--step", "1", cwd=tmp_path),
        "moves": replay("moves", str(BROKEN), cwd=tmp_path),
        "view": replay("view", str(BROKEN), "-o", "v.html", cwd=tmp_path),
        "view (the page)": (tmp_path / "v.html").read_text(encoding="utf-8") if (tmp_path / "v.html").exists()
        else "",
        "analyse": replay("analyse", str(BROKEN), "--nodes", "20", cwd=tmp_path),
        "play": replay("play", str(BROKEN), "--out", "p.json", cwd=tmp_path),
        "solve": replay("solve", str(BROKEN), "--nodes", "20", cwd=tmp_path),
    }
    wants = {
        "validate": "illegal move 2 ($.moves[1])",
        "validate --all-readings": "illegal at move 2 ($.moves[1])",
        "show": "shown before move 2 ($.moves[1]), the first illegal move",
        "show --step 1": "next: move 2 ($.moves[1])",
        "moves": "illegal move 2 ($.moves[1])",
        "view": "move 2 ($.moves[1]) is refused",
        "view (the page)": "at move 2 ($.moves[1])",
        "analyse": "breaks the rules at move 2 ($.moves[1])",
        "play": "breaks the rules at move 2 ($.moves[1])",
        "solve": "move 2 ($.moves[1])",
    }
    for command, want in wants.items():
        assert want in said[command], (command, said[command][-600:])
    for command, text in said.items():
        for k, j in NAMED.findall(text):
            assert int(k) == int(j) + 1, (command, k, j)


def test_play_numbers_the_last_move_and_a_refusal_the_same_way(tmp_path):
    text = replay("play", "zwarta-kolumna", "--seed", "3", "--out", "z.json", cwd=tmp_path,
                  stdin="deal\ndeal # two\nnote + dealt\nredeal\n")
    assert "last: move 2 ($.moves[1]) deal" in text
    assert "noted on move 2 ($.moves[1])" in text
    assert "refused: illegal move 3 ($.moves[2])" in text
    assert "after move 2 of 2" in text
    for k, j in NAMED.findall(text):
        assert int(k) == int(j) + 1, (k, j)


@pytest.mark.parametrize("doc", ["docs/log-format.md"])
def test_the_numbering_is_documented(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert "## Numbering moves" in text and "$.moves[8]" in text
