"""The pieces of `replay play` one at a time: the session's answers, and the atomic write."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from replay.cli.common import new_game
from replay.log.models import MAX_COMMENT
from replay.log.play import dumps
from replay.log.validate import check_bytes
from replay.fsio import atomic_write
from replay.play.session import Session


def session(game: str = "zwarta-kolumna", seed: int = 7) -> tuple[Session, list[dict]]:
    inst, log = new_game(game, [], [], seed, "test")
    saved: list[dict] = []
    return Session("t.json", log, inst, saved.append), saved


def test_each_change_is_saved_with_a_true_result_and_each_refusal_is_not():
    s, saved = session()
    assert s.handle("deal").changed and len(saved) == 1 and saved[-1]["result"] == "unfinished"
    assert s.handle("redeal").refused[0].startswith("refused: illegal move 2 ($.moves[1])")
    assert "breaks zk-15" in "\n".join(s.handle("redeal").refused)
    assert len(saved) == 1
    assert check_bytes(dumps(saved[-1]).encode()).ok
    assert list(saved[-1])[-1] == "meta"  # the documented key order


def test_numbers_undo_and_notes():
    s, saved = session()
    assert s.handle("0").refused == ["refused: no move number 0 (the numbers: 1 to 1)"]
    assert s.handle("2").refused
    assert s.handle("undo").refused == ["refused: nothing to undo"]
    assert s.handle("note hello").refused == ["refused: there is no move yet to comment on"]
    s.handle("1 # dealt")
    assert saved[-1]["moves"] == [{"type": "deal", "comment": "dealt"}]
    assert s.handle("note second thoughts").out == ["noted on move 1 ($.moves[0]); it replaces “dealt” ('note + TEXT' adds to a comment)"]
    assert saved[-1]["moves"] == [{"type": "deal", "comment": "second thoughts"}]
    refused = s.handle("note " + "x" * (MAX_COMMENT + 1)).refused
    assert refused and f"must be 1 to {MAX_COMMENT} characters" in refused[0]
    assert saved[-1]["moves"][0]["comment"] == "second thoughts"  # kept
    assert s.handle("note").out == ["removed the comment “second thoughts” from move 1 ($.moves[0])"] and saved[-1]["moves"] == [{"type": "deal"}]
    r = s.handle("undo")
    assert r.changed and r.out == ["undone: the log has 0 moves"] and saved[-1]["moves"] == []


def test_words_and_bad_lines():
    s, _ = session()
    assert s.handle("").out == [] and not s.handle("").changed
    assert s.handle("help").out and s.handle("HELP").out
    assert s.handle("table").redraw and s.handle("quit").quit and s.handle("q").quit
    bad = s.handle("p6")
    assert bad.refused and "FROM TO" in bad.refused[0]
    unknown = s.handle("p13 A2").refused
    assert len(unknown) == 1 and unknown[0].startswith(
        "refused: malformed: $.moves[0].from: unknown pile 'p13' in layout zk-columns-down; did you mean")


def test_the_atomic_write_keeps_the_mode_and_leaves_no_temporary_file(tmp_path):
    f = tmp_path / "log.json"
    f.write_text("old", encoding="utf-8")
    os.chmod(f, 0o640)
    atomic_write(f, "new ✓".encode("utf-8"))
    assert f.read_text(encoding="utf-8") == "new ✓"
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["log.json"]


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    f = tmp_path / "log.json"
    f.write_text("old", encoding="utf-8")

    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        atomic_write(f, b"new")
    assert f.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["log.json"]


def test_a_continued_log_is_the_same_game(tmp_path):
    s, saved = session("exiles", 3)
    for line in ("deal", "1", "1"):
        s.handle(line)
    again = Session("t.json", json.loads(dumps(saved[-1])), s.inst, saved.append)
    assert again.table.key() == s.table.key() and [c.step for c in again.legal] == [c.step for c in s.legal]
