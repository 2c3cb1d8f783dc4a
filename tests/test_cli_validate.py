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
    assert lines[0].startswith(f"{p}:") and "illegal move 2 ($.moves[1])" in lines[0] and '{"type": "redeal"}' in lines[0]
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
    "too large": (b" " * 5_000_001, "the file has 5,000,001 bytes, more than the 5,000,000-byte limit"),
    "much too large": (b" " * 6_000_000, "the file has 6,000,000 bytes, more than the 5,000,000-byte limit"),
    "NaN": (edit(lambda d: d.update(meta={"x": 1})).replace('"x": 1', '"x": NaN'),
            "$.meta.x: not valid JSON: NaN is not a JSON number"),
    "-Infinity": (edit(lambda d: d.update(meta={"x": 1})).replace('"x": 1', '"x": -Infinity'),
                  "$.meta.x: not valid JSON: -Infinity is not a JSON number"),
    "1e999": (edit(lambda d: d.update(meta={"x": [1]})).replace('"x": [\n   1', '"x": [\n   1e999'),
              "$.meta.x[0]: not valid JSON here: 1e999 overflows a double"),
    "duplicate key": (edit(lambda d: None).replace('"game": "zwarta-kolumna"', '"game": "zwarta-kolumna", '
                                                                               '"game": "zwarta-kolumna"'),
                      "$.game: the key \"game\" is given twice in one object"),
    "duplicate move key": (edit(lambda d: d["moves"].__setitem__(2, {"type": "deal"})).replace(
        '"type": "deal"\n  }', '"type": "deal", "type": "deal"\n  }', 1), ": the key \"type\" is given twice"),
    "lone surrogate": (edit(lambda d: d.update(meta={"player": "X"})).replace('"X"', '"\\ud800X"'),
                       "lone surrogate \\ud800"),
    "5,000 digits": (edit(lambda d: d.update(meta={"x": 1})).replace('"x": 1', '"x": ' + "9" * 5000),
                     "integer too large: 5,000 digits"),
    "count on a deal": (edit(lambda d: d["moves"].__setitem__(0, {"type": "deal", "count": 2})),
                        "$.moves[0].count: 'count' is not a field of a 'deal' move (it belongs to 'move')"),
    "from on a deal": (edit(lambda d: d["moves"].__setitem__(0, {"type": "deal", "from": "p1"})),
                       "'from' is not a field of a 'deal' move (it belongs to 'move', 'fill' and 'tuck')"),
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
    assert r.exit_code == 1 and "illegal move 2 ($.moves[1])" in r.output


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


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_reports_are_written_as_they_are_made_not_kept_to_the_end(monkeypatch, capsys, fmt):
    """Memory stays flat over many logs: each verdict is out before the next log is checked."""
    from replay.cli import log as commands
    from replay.log import runner
    from replay.log.report import Report

    seen: list[str] = []
    out: list[str] = []

    def fake_run(files, opts, jobs=None):  # type: ignore[no-untyped-def]
        for f in files:
            out.append(capsys.readouterr().out)
            if seen:  # the previous report must already be on stdout
                assert seen[-1] in out[-1], f"{seen[-1]} not written before {f} was checked"
            seen.append(f)
            yield Report(file=f, game="zwarta-kolumna", moves=1, replayed=1, outcome="lost")

    monkeypatch.setattr(runner, "run", fake_run)
    files = [f"log-{i}.json" for i in range(5)]
    code = commands._validate(files, [], False, None, commands.Format(fmt), 1, False)
    assert code == 0 and len(seen) == 5
    if fmt == "json":
        doc = json.loads("".join(out) + capsys.readouterr().out)
        assert [r["file"] for r in doc["logs"]] == files
        assert doc["summary"]["valid"] == 5 and doc["exit_code"] == 0


# --------------------------------------------------------------------------- file names and odd paths (issue #13 §3, #16)


STRICT_ENVS = {
    "C.UTF-8": {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
    "utf-8:strict": {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"},
}


@pytest.mark.parametrize("locale", list(STRICT_ENVS))
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path, fmt, locale):
    d = os.fsencode(tmp_path)
    for name, text in ((b"ok\xff.json", game_text()), (b"bad\xfe\t.json", "{")):
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(text.encode())
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LANG", "PYTHONIOENCODING")}
    env.update(STRICT_ENVS[locale])
    r = subprocess.run(REPLAY + ["validate", "--format", fmt, str(tmp_path)], cwd=ROOT, env=env,
                       capture_output=True)
    assert r.returncode == 1, r.stderr  # one log valid, one malformed: exit 1 is the verdict, not a crash
    assert b"Traceback" not in r.stderr and b"UnicodeEncodeError" not in r.stderr
    out = r.stdout.decode("utf-8")  # strict: the output is UTF-8
    ok = f'"{tmp_path}/ok\\377.json"'
    bad = f'"{tmp_path}/bad\\376\\t.json"'
    if fmt == "text":
        assert f"{ok}: valid (" in out and f"{bad}:1:1: malformed:" in out
    else:
        doc = json.loads(out)
        assert [x["file"] for x in doc["logs"]] == [bad, ok]  # sorted by the bytes of the names
        assert doc["summary"] == {"valid": 1, "illegal": 0, "malformed": 1, "error": 0}


def test_names_that_need_no_escape_are_shown_unchanged():
    from replay.log.names import shown

    assert shown("gry/Zoë/партия 1.json") == "gry/Zoë/партия 1.json"
    assert shown("a\udcffb.json") == '"a\\377b.json"'
    assert shown('a"b\\c\n.json\udcff') == '"a\\"b\\\\c\\n.json\\377"'


#: a C1 control (U+009B, a one-byte CSI on many terminals) and a bidirectional override (U+202E)
TRICKY = "a\u202eb\u009bc"


def test_names_with_c1_controls_or_bidi_overrides_are_escaped():
    from replay.log.names import shown

    assert shown(f"{TRICKY}.json") == '"a\\u202eb\\u009bc.json"'
    assert shown("zero\u200bwidth\U000e0041.json") == '"zero\\u200bwidth\\U000e0041.json"'


@pytest.mark.parametrize("command", ["validate", "show", "moves", "analyse", "walk"])
def test_a_name_with_a_c1_control_or_a_bidi_override_never_reaches_the_terminal_raw(tmp_path, command):
    """Issue 32: comments and fields were escaped, the file's own name was not."""
    d = tmp_path / f"dir{TRICKY}"
    d.mkdir()
    write(d, f"{TRICKY}.json", game_text())
    write(d, f"bad{TRICKY}.json", "{")
    target = d if command == "walk" else d / f"{TRICKY}.json"
    args = ["validate", str(target)] if command == "walk" else [command, str(target)]
    if command == "analyse":
        args += ["--nodes", "100"]
    r = run(*args)
    said = r.stdout + r.stderr
    assert "\u202e" not in said and "\u009b" not in said, said
    assert '\\u202eb\\u009bc.json"' in said, said


def test_a_symlink_loop_and_a_broken_link_say_what_they_are(tmp_path):
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    broken = tmp_path / "gone.json"
    broken.symlink_to(tmp_path / "nowhere.json")
    r = run("validate", str(loop), str(broken))
    assert r.exit_code == 2
    assert f"{loop}: error: too many levels of symbolic links" in r.output
    assert f"{broken}: error: a symbolic link to nothing ({tmp_path / 'nowhere.json'})" in r.output
    d = tmp_path / "dir"
    d.mkdir()
    (d / "ok.json").write_text(game_text())
    (d / "loop.json").symlink_to(d / "loop.json")
    r = run("validate", str(d))
    assert r.exit_code == 2 and f"{d / 'loop.json'}: error: too many levels of symbolic links" in r.output
    assert f"{d / 'ok.json'}: valid" in r.output


def test_an_unreadable_directory_is_not_an_empty_one(tmp_path, monkeypatch):
    d = tmp_path / "logs"
    (d / "locked").mkdir(parents=True)
    (d / "ok.json").write_text(game_text())
    real = os.scandir

    def scandir(path="."):  # type: ignore[no-untyped-def]
        if os.fspath(path).endswith("locked"):  # as chmod 000 does (root would read it anyway)
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    r = run("validate", str(d))
    assert r.exit_code == 2
    assert f"{d / 'locked'}: error: cannot read this directory: permission denied" in r.output
    assert f"{d / 'ok.json'}: valid" in r.output and "no *.json files" not in r.output


def test_dev_zero_is_larger_than_the_limit_without_a_size(tmp_path):
    r = run("validate", "/dev/zero")
    assert r.exit_code == 1 and r.output == "/dev/zero: malformed: the file is larger than the 5,000,000-byte limit\n"


def test_until_past_the_end_warns_and_all_readings_refuses_lenient(tmp_path):
    p = write(tmp_path, "ok.json", game_text())
    n = len(json.loads(game_text())["moves"])
    r = run("validate", "--until", "100000", str(p))
    assert r.exit_code == 0 and f"replay: warning: {p} has {n} moves; --until 100000 is past its end" in r.stderr
    r = run("validate", "--until", "3", str(p))
    assert r.exit_code == 0 and r.stderr == ""
    r = run("validate", "--all-readings", "--lenient", str(p))
    assert r.exit_code == 2 and r.stderr.startswith("replay: --lenient cannot be combined with --all-readings")
    for flag in (["-q"], ["-j", "2"]):
        r = run("validate", "--all-readings", *flag, str(p))
        assert r.exit_code == 2 and "does nothing with --all-readings" in r.stderr


def test_a_wrong_card_name_is_reported_before_the_illegality_it_hides(tmp_path):
    """A move naming a card that is not there, and illegal too: the mismatch comes first (#16)."""
    d = json.loads(game_text())
    from replay.log.validate import check_bytes

    # find a move with a card, then name another card and send it somewhere it cannot go
    for k, m in enumerate(d["moves"]):
        if m.get("type") == "move" and m.get("card"):
            break
    real = d["moves"][k]["card"]
    wrong = "9S" if real != "9S" else "9H"
    d["moves"][k] = {"type": "move", "from": m["from"], "to": "stock", "card": wrong}
    p = write(tmp_path, "drift.json", json.dumps(d, indent=1))
    report = check_bytes(p.read_bytes(), str(p))
    first = report.first
    assert first is not None and first.code == "card-mismatch" and first.move == k
    assert first.message.startswith(f"the move names {wrong} but the card moved from {m['from']} is {real}; "
                                    "as written the move would also break ")
    assert first.clause and first.clause in first.message
    r = run("validate", "--all-readings", str(p))
    assert r.exit_code == 1
    for line in r.output.splitlines()[1:]:
        if "illegal at move" in line:
            assert f"the move names {wrong}" in line, line


def test_the_streamed_json_report_is_the_document_byte_for_byte(tmp_path):
    from replay.log.report import JsonStream, json_document
    from replay.log.validate import check_bytes

    reports = [check_bytes(game_text().encode(), "a.json"), check_bytes(b"{", "b.json"),
               check_bytes(edit(lambda d: d["moves"].insert(1, {"type": "redeal"})).encode(), "c.json", lenient=True)]
    out: list[str] = []
    stream = JsonStream(out.append)
    for r in reports:
        stream.add(r)
    assert stream.close() == 1
    assert "".join(out) == json_document(reports) + "\n"
    out.clear()
    JsonStream(out.append).close()
    assert "".join(out) == json_document([]) + "\n"
