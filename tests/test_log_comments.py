"""A move's free-text ``comment``: allowed on every move type, bounded, ignored by the rules, shown by ``show``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.log.models import MAX_COMMENT, MOVE_MODELS, schema_text
from replay.log.play import dumps
from replay.log.validate import check_bytes

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def commented(path: Path, text: str = "thought about it") -> dict:
    """The log at ``path`` with a comment on every move."""
    d = json.loads(path.read_bytes())
    d["moves"] = [dict(m, comment=f"{text} {i}") for i, m in enumerate(d["moves"])]
    return d


def test_every_move_type_takes_a_comment_in_the_models_and_the_schema():
    schema = json.loads(schema_text())
    for mtype, model in MOVE_MODELS.items():
        assert "comment" in model.model_fields, mtype
        definition = schema["$defs"][model.__name__]
        assert definition["properties"]["comment"]["anyOf"][0]["maxLength"] == MAX_COMMENT, mtype
        assert "comment" not in definition.get("required", []), mtype


def test_comments_on_every_move_type_do_not_change_the_verdict_of_a_valid_log():
    seen: set[str] = set()
    for path in sorted((ROOT / "examples" / "games").rglob("*.json")):
        plain = check_bytes(path.read_bytes(), "plain")
        d = commented(path)
        seen.update(m["type"] for m in d["moves"])
        noted = check_bytes(dumps(d).encode(), "noted")
        assert plain.ok and noted.ok, (path, noted.problems)
        assert (noted.outcome, noted.replayed) == (plain.outcome, plain.replayed), path
    assert seen == set(MOVE_MODELS)  # a comment was tried on every move type


def test_comments_do_not_change_the_clause_an_illegal_log_breaks():
    path = ROOT / "examples" / "broken" / "zk-illegal-zk-8.json"
    plain, noted = check_bytes(path.read_bytes()), check_bytes(dumps(commented(path)).encode())
    assert noted.verdict == plain.verdict == "illegal"
    assert (noted.first.clause, noted.first.move) == (plain.first.clause, plain.first.move) == ("zk-8", 1)
    assert '"comment": "thought about it 1"' in noted.first.written  # the move quoted as written


@pytest.mark.parametrize("comment, why", [
    ("x" * (MAX_COMMENT + 1), f"must be 1 to {MAX_COMMENT} characters"),
    ("", f"must be 1 to {MAX_COMMENT} characters"),
    (7, "expected a string, got a number"),
])
def test_a_bad_comment_makes_the_log_malformed_at_its_place(comment, why):
    d = json.loads((ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json").read_bytes())
    d["moves"][2]["comment"] = comment
    r = check_bytes(dumps(d).encode(), "c.json")
    assert r.verdict == "malformed"
    p = r.first
    assert (p.code, p.path) == ("schema", "$.moves[2].comment") and why in p.message, p.message
    assert p.line is not None


def test_a_comment_at_the_limit_is_accepted():
    d = json.loads((ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json").read_bytes())
    d["moves"][0]["comment"] = "ж" * MAX_COMMENT
    assert check_bytes(dumps(d).encode()).ok


def test_show_prints_the_comment_of_the_last_move_on_one_safe_line(tmp_path):
    d = json.loads((ROOT / "examples" / "games" / "zwarta-kolumna" / "base" / "lost-seed-1.json").read_bytes())
    d["moves"][2]["comment"] = "kept the queen\nfor later \x1b[31m"
    f = tmp_path / "noted.json"
    f.write_text(dumps(d), encoding="utf-8")
    r = runner.invoke(app, ["show", str(f), "--step", "3"])
    assert r.exit_code == 0, r.output
    assert "comment on move 3 ($.moves[2]): “kept the queen for later [31m”" in r.output
    assert "\x1b" not in r.output
    r = runner.invoke(app, ["show", str(f), "--step", "2"])  # the next move is quoted as written, comment included
    assert "comment on move" not in r.output and '"comment": "kept the queen\\nfor later \\u001b[31m"' in r.output


#: what a terminal would obey rather than print: a C1 CSI (U+009B), a right-to-left override (U+202E),
#: a right-to-left mark, a line separator, a zero-width joiner and a tag character
HOSTILE = "evil \u202e txt.exe \u009b31m red \u200f\u2028\u200d\U000e0041 end"


@pytest.mark.parametrize("args", [["validate"], ["validate", "--lenient"], ["validate", "--format", "json"],
                                  ["validate", "--lenient", "--format", "json"], ["validate", "--all-readings"],
                                  ["show"], ["moves"]], ids=" ".join)
def test_a_comments_controls_never_reach_the_terminal_raw(tmp_path, args):
    log = json.loads((ROOT / "examples" / "broken" / "ex-illegal-ex-6.json").read_text(encoding="utf-8"))
    for m in log["moves"]:
        m["comment"] = HOSTILE
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    r = runner.invoke(app, [*args, str(path)])
    assert r.exit_code in (0, 1), r.output
    for ch in "\u202e\u009b\u200f\u2028\u200d\U000e0041\x1b":
        assert ch not in r.stdout and ch not in r.stderr, (args, hex(ord(ch)))
    if "json" in args:  # the same value, escaped: a program reading the report gets the comment back
        doc = json.loads(r.stdout)
        assert HOSTILE in json.dumps(doc, ensure_ascii=False) or "\\u202e" in r.stdout
