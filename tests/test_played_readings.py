"""`replay corpus check` refuses a reading a log may select that the engine does not play (replay.games.played):
one read by no rule function of its game, or one that plays as the default on random walks of every form unless
its entry says why (``plays_as_default``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from replay.corpus.checks import unplayed_problems
from replay.corpus.edition import edition_of
from replay.corpus.files import corpus_dir
from replay.corpus.loader import load
from replay.games import napoleons_square
from replay.games.played import Unplayed, unplayed_readings

TWO_KINGS_RULING = """      - kind: ruling
        game: napoleons-square
        ruling: two-kings
        ambiguity: amb-ns-two-kings
        readings: [not-adopted, slip-king, redeal-square]
        default: not-adopted
        before: not-adopted
        reason: "Cadogan's note made a ruling (a test of replay corpus check)."
"""


def corpus_with_two_kings_a_ruling(tmp_path: Path, why: str | None = None) -> Path:
    """A copy of the corpus where amb-ns-two-kings is a ruling, recorded in changes.yaml as the guide says, and
    (with ``why``) its reading slip-king says why it plays as the default."""
    root = tmp_path / "corpus"
    shutil.copytree(corpus_dir(), root)
    path = root / "ambiguities" / "003.yaml"
    text = path.read_text(encoding="utf-8")
    entry = text.index("  - id: amb-ns-two-kings")
    end = text.index("\n  - id:", entry + 10) + 1
    block = text[entry:end].replace("    status: resolved\n", "    status: ruling\n    ruling: two-kings\n")
    if why:
        block = block.replace("        summary: The player may slip one such king to the bottom of its packet.\n",
                              "        summary: The player may slip one such king to the bottom of its packet.\n"
                              f"        plays_as_default: \"{why}\"\n")
    path.write_text(text[:entry] + block + text[end:], encoding="utf-8")
    changes = root / "changes.yaml"
    changes.write_text(changes.read_text(encoding="utf-8") + TWO_KINGS_RULING, encoding="utf-8")
    return root


def corpus_check(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REPLAY_CORPUS": str(root)}
    return subprocess.run([str(Path(sys.executable).parent / "replay"), "corpus", "check"], env=env,
                          capture_output=True, text=True, timeout=600)


def test_every_reading_of_the_archive_is_played_or_says_why() -> None:
    corpus = load()
    found = unplayed_readings(edition_of(corpus))
    assert unplayed_problems(corpus, found) == []
    # the one reading that plays as its default in every form says why: it differs only with another ruling
    assert [(u.game, u.ruling, u.reading, u.why) for u in found] == [
        ("printex-frame", "corner-refill", "every-card", "same-play")]


def test_a_ruling_no_rule_function_reads_fails_the_check(tmp_path: Path) -> None:
    """The guide's own way to make an entry a ruling, with no rule to play it: `corpus check` refuses it."""
    root = corpus_with_two_kings_a_ruling(tmp_path)
    done = corpus_check(root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("ambiguities/003.yaml: amb-ns-two-kings: reading 'not-adopted' of ruling 'two-kings' is read by no rule "
            "function of napoleons-square") in done.stdout
    assert "reading 'slip-king'" in done.stdout and "reading 'redeal-square'" in done.stdout
    assert corpus_check(corpus_dir()).returncode == 0  # the corpus as it is passes


def test_a_reading_listed_but_played_as_the_default_fails_unless_its_entry_says_why(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    """A module that lists the readings but whose rules never read them: the random walks find no difference."""
    monkeypatch.setitem(napoleons_square.RULINGS, "two-kings", ("not-adopted", "slip-king", "redeal-square"))
    corpus = load(corpus_with_two_kings_a_ruling(tmp_path / "bare"))
    found = unplayed_readings(edition_of(corpus))
    same = [u for u in found if u.ruling == "two-kings"]
    assert [(u.reading, u.why) for u in same] == [("slip-king", "same-play"), ("redeal-square", "same-play")]
    messages = [p.message for p in unplayed_problems(corpus, found)]
    assert len(messages) == 2 and all("plays as the default 'not-adopted' on random walks" in m for m in messages)
    excused = load(corpus_with_two_kings_a_ruling(tmp_path / "why", why="Kept for a test."))
    messages = [p.message for p in unplayed_problems(excused, found)]
    assert len(messages) == 1 and "'redeal-square'" in messages[0]  # slip-king says why; redeal-square does not


def test_a_reason_on_a_reading_that_plays_is_refused() -> None:
    """plays_as_default must not outlive its reason: on a reading the walks find playing, it is a problem."""
    corpus = load()
    a = corpus.ambiguities["amb-ns-no-return"]
    allowed = next(r for r in a.readings if r.id == "allowed")
    object.__setattr__(allowed, "plays_as_default", "No longer true.")
    try:
        messages = [str(p) for p in unplayed_problems(corpus, [])]
    finally:
        object.__setattr__(allowed, "plays_as_default", None)
    assert any("amb-ns-no-return: reading 'allowed' says why it plays as the default" in m for m in messages)
    assert any("amb-pf-corner-refill" in m for m in messages)  # with no findings given, its reason outlives them


def test_an_unread_reading_is_refused_whatever_its_entry_says() -> None:
    corpus = load()
    finding = Unplayed("napoleons-square", "take-back", "allowed", "amb-ns-no-return", "unread")
    (p,) = [p for p in unplayed_problems(corpus, [finding]) if p.entry == "amb-ns-no-return"]
    assert "read by no rule function" in p.message
