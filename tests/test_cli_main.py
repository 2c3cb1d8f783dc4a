"""The console script itself: usage errors and bad input are one line, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "replay", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


@pytest.mark.parametrize("args", [
    ("trace",), ("coverage", "--format", "xml"), ("games", "--bogus"), ("validate", "--until", "x", "a.json"),
    ("nosuch",), ("deal", "zwarta-kolumna", "--seed", "-"),
])
def test_usage_errors_are_one_line_and_exit_2(args):
    p = run(*args)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("replay: ") and "--help" in lines[0]
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("args, suggested", [
    (("validate", "--bogus"), None),  # was "Possible options: --jobs": the dashes alone made them close
    (("solve", "--bogus"), None),
    (("solve", "--node", "5"), "--nodes"),
    (("solve", "--sed", "1"), "--seed"),  # not --seconds beside it
    (("validate", "--lenent"), "--lenient"),
    (("play", "--forse"), "--force"),
])
def test_an_unknown_option_is_matched_to_a_near_one_or_to_none(args, suggested):
    """Issue 32: the suggestion for an unknown option compares the names without their dashes."""
    p = run(*args)
    assert p.returncode == 2, p.stderr
    line = p.stderr.strip()
    assert line.startswith(f"replay: No such option: {args[1]}"), line
    if suggested is None:
        assert "Possible options" not in line, line
    else:
        assert f"(Possible options: {suggested}) " in line, line


def test_help_works_and_lists_every_area():
    p = run("--help")
    assert p.returncode == 0
    for command in ("validate", "show", "deal", "games", "schema", "corpus", "trace", "coverage", "solve", "stats"):
        assert command in p.stdout


def test_bad_input_from_the_library_is_one_line_and_exit_1(tmp_path):
    bad = tmp_path / "log.json"
    bad.write_bytes(b'{"format": "replay-log/1", "game": "zwarta-kolumna", "variants": [], "rulings": {}, '
                    b'"deck": ["10H"], "moves": []}')
    p = run("validate", str(bad))
    assert p.returncode == 1 and "TH" in p.stdout + p.stderr and "Traceback" not in p.stderr
