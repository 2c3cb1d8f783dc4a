"""`replay validate` on the command line: verdict lines, exit codes, stdin, JSON reports, many logs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.games import create
from replay.log.play import dumps, played_log

ROOT = Path(__file__).resolve().parents[1]
REPLAY = [sys.executable, "-m", "replay"]
runner = CliRunner()


@lru_cache(maxsize=None)
def game_text(game_id: str = "zwarta-kolumna", seed: int = 5) -> str:
    return dumps(played_log(create(game_id), seed, 600))


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


def edit(change) -> str:  # type: ignore[no-untyped-def]
    d = json.loads(game_text())
    change(d)
    return json.dumps(d, indent=1)


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_a_valid_log_exits_0(tmp_path):
    p = write(tmp_path, "ok.json", game_text())
    r = run("validate", str(p))
    assert r.exit_code == 0
    assert r.output == f"{p}: valid (zwarta-kolumna, {len(json.loads(game_text())['moves'])} moves, lost)\n"


def test_an_illegal_log_exits_1_with_clause_text_and_table(tmp_path):
    p = write(tmp_path, "bad.json", edit(lambda d: d["moves"].insert(1, {"type": "redeal"})))
    r = run("validate", str(p))
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"{p}:") and "illegal move 1 ($.moves[1])" in lines[0] and '{"type": "redeal"}' in lines[0]
    assert lines[1].startswith("  breaks zk-15: ")
    assert lines[2].startswith("  diplomatic:  “") and lines[3].startswith("  translation: “")
    assert lines[4].startswith("  table held:  ") and "stock" in lines[4]


BAD_INPUT = {
    "syntax": (b'{"format": "replay-log/1",\n  "game": }', ":2:11: malformed: not valid JSON"),
    "wrong type": (edit(lambda d: d.update(moves={})), "$.moves"),
    "unknown game": (edit(lambda d: d.update(game="zwarta")), "$.game"),
    "unknown variant": (edit(lambda d: d.update(variants=["gothic"])), "$.variants[0]"),
    "unknown ruling": (edit(lambda d: d["rulings"].update(reach="row")), "$.rulings.reach"),
    "unknown pile": (edit(lambda d: d["moves"][2].update({"from": "P3"})), "$.moves[2].from"),
    "unknown move type": (edit(lambda d: d["moves"].append({"type": "tuck", "from": "p1", "to": "p2"})), ".type"),
    "10H": (edit(lambda d: d["deck"].__setitem__(d["deck"].index("TH"), "10H")), "did you mean 'TH'?"),
    "three times": (edit(lambda d: d["deck"].__setitem__(-1, "2S") or d["deck"].__setitem__(-2, "2S")
                         or d["deck"].__setitem__(-3, "2S")), "appears"),
    "wrong count": (edit(lambda d: d["deck"].pop()), "the deck has 95 cards"),
    "false claim": (edit(lambda d: d.update(result="won")), "$.result"),
    "deep": ('{"a":' * 5000 + "1" + "}" * 5000, "nested deeper than 200"),
    "not utf-8": (game_text().replace('"moves"', '"meta": {"player": "Zoë"}, "moves"').encode("latin-1"), "not UTF-8"),
    "too large": (b" " * 5_000_001, "limit is 5,000,000"),
}


@pytest.mark.parametrize("case", list(BAD_INPUT))
def test_bad_input_gives_one_line_exit_1_and_no_traceback(tmp_path, case):
    data, needle = BAD_INPUT[case]
    p = write(tmp_path, "in.json", data)
    r = run("validate", str(p))
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    lines = r.output.splitlines()
    assert len(lines) == 1, r.output
    assert lines[0].startswith(f"{p}:") and needle in lines[0]
    assert "Traceback" not in r.output


@pytest.mark.parametrize("case", ["not utf-8", "deep", "10H"])
def test_bad_input_through_the_real_command_and_stdin(tmp_path, case):
    data, needle = BAD_INPUT[case]
    data = data if isinstance(data, bytes) else data.encode()
    proc = subprocess.run(REPLAY + ["validate", "-"], input=data, capture_output=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1
    out = proc.stdout.decode()
    assert out.startswith("<stdin>:") and needle in out and len(out.splitlines()) == 1
    assert b"Traceback" not in proc.stderr and proc.stderr == b""
    p = write(tmp_path, "file.json", data)
    proc = subprocess.run(REPLAY + ["validate", str(p)], capture_output=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1 and proc.stdout.decode().startswith(f"{p}:") and b"Traceback" not in proc.stderr


def test_the_installed_console_script_reads_stdin():
    exe = Path(sys.executable).with_name("replay")
    if not exe.exists():
        pytest.skip("the replay console script is not installed in this environment")
    proc = subprocess.run([str(exe), "validate", "-"], input=game_text().encode(), capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.decode().startswith("<stdin>: valid")


def test_exit_2_for_usage_and_io_errors(tmp_path):
    assert run("validate", str(tmp_path / "nope.json")).exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run("validate", str(empty))
    assert r.exit_code == 2 and "no *.json files" in r.output
    assert run("validate").exit_code == 2
    assert run("validate", "--until", "-1", "x").exit_code == 2
    assert run("validate", "--format", "xml", "x").exit_code == 2
    assert run("validate", "-", "-").exit_code == 2
    ok = write(tmp_path, "ok.json", game_text())
    r = run("validate", str(ok), str(tmp_path / "missing.json"))
    assert r.exit_code == 2 and "valid" in r.output and "no such file" in r.output


def test_directories_are_searched_for_json_files_in_order(tmp_path):
    write(tmp_path, "b/one.json", game_text())
    write(tmp_path, "a/deep/two.json", edit(lambda d: d.update(result="won")))
    write(tmp_path, "a/notes.txt", "not a log")
    r = run("validate", str(tmp_path))
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(str(tmp_path / "a/deep/two.json"))
    assert lines[1].startswith(str(tmp_path / "b/one.json"))
    assert lines[-1] == "2 logs: 1 valid, 1 illegal"


def test_many_logs_use_every_core_and_keep_their_order(tmp_path):
    names = []
    for i in range(24):
        data = game_text("printex-frame", i % 6) if i != 13 else edit(lambda d: d.update(game="nope"))
        names.append(write(tmp_path, f"log-{i:02d}.json", data))
    r = run("validate", "--jobs", "2", str(tmp_path))
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert [ln.split(":")[0] for ln in lines[:-1]] == [str(p) for p in names]
    assert "unknown game" in lines[13]
    assert lines[-1] == "24 logs: 23 valid, 1 malformed"
    q = run("validate", "-q", "-j", "2", str(tmp_path))
    assert q.output.splitlines() == [lines[13], lines[-1]]


def test_json_format_is_machine_readable(tmp_path):
    good = write(tmp_path, "a.json", game_text())
    bad = write(tmp_path, "b.json", edit(lambda d: d["moves"].insert(1, {"type": "redeal"})))
    r = run("validate", "--format", "json", str(good), str(bad))
    assert r.exit_code == 1
    doc = json.loads(r.output)
    assert doc["format"] == "replay-report/1" and doc["exit_code"] == 1
    assert doc["summary"] == {"valid": 1, "illegal": 1, "malformed": 0, "error": 0}
    a, b = doc["logs"]
    assert a["file"] == str(good) and a["verdict"] == "valid" and a["outcome"] == "lost" and a["problems"] == []
    p = b["problems"][0]
    assert p["code"] == "illegal-move" and p["clause"] == "zk-15" and p["move"] == 1 and p["path"] == "$.moves[1]"
    assert p["snapshot"]["piles"]["stock"] and p["diplomatic"] and p["translation"] and p["line"] >= 1
    assert b["rulings"]["side-reach"] == "row"


def test_lenient_and_until_on_the_command_line(tmp_path):
    def two(d):  # type: ignore[no-untyped-def]
        d["moves"].insert(1, {"type": "redeal"})
        d["moves"].append({"type": "move", "from": "p1", "to": "stock"})
    p = write(tmp_path, "two.json", edit(two))
    strict = run("validate", "--format", "json", str(p))
    lenient = run("validate", "--format", "json", "--lenient", str(p))
    assert len(json.loads(strict.output)["logs"][0]["problems"]) == 1
    problems = json.loads(lenient.output)["logs"][0]["problems"]
    assert len(problems) >= 2 and all("carried_out" in q for q in problems if q["code"] == "illegal-move")
    text = run("validate", "--lenient", str(p))
    assert text.output.count("illegal move") >= 2 and "problems (" in text.output
    assert run("validate", "--until", "1", str(p)).exit_code == 0
    r = run("validate", "--until", "2", str(p))
    assert r.exit_code == 1 and "illegal move 1" in r.output


def test_all_readings_on_the_command_line():
    path = ROOT / "examples" / "readings" / "zk-side-reach-row.json"
    r = run("validate", "--all-readings", str(path))
    assert r.exit_code == 0
    assert "legal under 1 of 64 reading sets" in r.output
    assert "side-reach=adjacent" in r.output and "breaks zk-8" in r.output
    j = run("validate", "--all-readings", "--format", "json", str(path))
    doc = json.loads(j.output)
    log = doc["logs"][0]
    assert log["tried"] == 64 and log["legal"] == 1 and log["possible"]["side-reach"] == {"row": True,
                                                                                          "adjacent": False}
    assert all(set(t) >= {"rulings", "changed", "verdict", "problem"} for t in log["trials"])


def test_all_readings_exit_1_when_legal_under_none(tmp_path):
    p = write(tmp_path, "x.json", edit(lambda d: d["moves"].insert(1, {"type": "redeal"})))
    r = run("validate", "--all-readings", str(p))
    assert r.exit_code == 1 and "legal under 0 of" in r.output
    m = write(tmp_path, "m.json", b"{")
    r = run("validate", "--all-readings", str(m))
    assert r.exit_code == 1 and len(r.output.splitlines()) == 1


def test_help_documents_the_exit_codes():
    r = run("validate", "--help")
    assert r.exit_code == 0
    out = " ".join(r.output.split())
    assert "0 every log valid" in out and "2 usage or I/O error" in out


def test_the_readme_command_validates_the_examples():
    env = dict(os.environ)
    proc = subprocess.run(REPLAY + ["validate", "examples/games"], capture_output=True, cwd=ROOT, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout.decode()[-2000:]
    assert proc.stdout.decode().splitlines()[-1].endswith("valid")
