"""`replay play` in a real 80×24 terminal, as the screen shows it (issue 31): the table, the last move and the prompt
on one screen whatever the list of moves or the answer, and every line cut at word boundaries.

A pseudo-terminal of 24 rows and 80 columns runs the real console script (pexpect); what it prints is fed to a
terminal emulator (pyte), whose screen is what a person sees: the rows that scrolled off the top are gone.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.test_play_session import REPLAY, ROOT
from tests.test_play_terminal import partial

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

GAMES = ROOT / "examples" / "games"
#: a move of the compact list: its number, then the move (``12 p5→f1 AC``, ``3 deal``, ``4 tuck p10→p1 AS``)
MOVE = re.compile(r"(?<!\S)(\d+) (?:deal|redeal|(?:tuck |fill )?[a-z]+\d*→)")


class Terminal:
    """A terminal of ``rows`` × ``columns`` running ``replay ARGS``; :meth:`prompt` waits for the question and
    returns the screen's rows (trailing blanks cut)."""

    def __init__(self, *args: str, cwd: Path, rows: int = 24, columns: int = 80) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}  # the size is the terminal's
        env["TERM"] = "xterm"
        self.child = pexpect.spawn(REPLAY, list(args), cwd=str(cwd), env=env, encoding="utf-8", timeout=60,
                                   dimensions=(rows, columns))
        self.child.logfile_read = self
        self.transcript = open(cwd / "transcript.txt", "a", encoding="utf-8")  # noqa: SIM115 - kept for a failure

    def write(self, data: str) -> None:  # pexpect's logfile: what the program prints goes to the screen
        self.transcript.write(data)
        self.stream.feed(data)

    def flush(self) -> None:
        self.transcript.flush()

    def prompt(self) -> list[str]:
        self.child.expect_exact("move> ")
        return self.rows()

    def rows(self) -> list[str]:
        return [x.rstrip() for x in self.screen.display]

    def type(self, line: str) -> list[str]:
        self.child.sendline(line)
        return self.prompt()

    def quit(self) -> None:
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF)
        self.child.close()


def assert_one_screen(rows: list[str], name: str, made: int, layout: list[str]) -> None:
    """The header, every pile name of the drawing, the last move and the prompt are on the screen, the prompt on
    its last row used, with nothing above the header but what scrolled in before it."""
    text = "\n".join(rows)
    assert f"{name}: " in text and f"after move {made} of {made}" in text, text
    for pile in layout:
        assert re.search(rf"(?<!\S){re.escape(pile)}(?!\S)", text), (pile, text)
    if made:
        assert any(x.startswith(f"last: move {made} ") for x in rows), text
    used = [x for x in rows if x]
    assert used[-1].startswith("move>"), text


def no_word_split(rows: list[str], columns: int = 80) -> None:
    """No row is filled to its last column with a word that the next row goes on with: the terminal did not
    break a word (every line the program printed was cut at a space)."""
    for a, b in zip(rows, rows[1:]):
        assert not (len(a) == columns and a[-1] != " " and b[:1].strip()), (a, b)


def words_whole(rows: list[str], text: str) -> None:
    """Every word of ``text`` stands whole in one row of the screen."""
    screen_words = {w.strip("“”") for x in rows for w in x.split()}  # a quotation's marks are not its words
    missing = [w for w in text.split() if w not in screen_words]
    assert not missing, (missing, rows)


def layout_of(game: str, variants: list[str] | None = None, rulings: dict | None = None) -> list[str]:
    from replay.games import create

    return list(create(game, variants or [], rulings or {}).layout.names)


# ----------------------------------------------------------------------------- the table stays on the screen


def test_napoleons_square_with_nine_moves_listed_keeps_the_whole_table_on_the_screen(tmp_path):
    src = GAMES / "napoleons-square" / "base" / "won-347.json"
    partial(src, tmp_path / "ns.json", 126)  # nine legal moves
    t = Terminal("play", "ns.json", cwd=tmp_path)
    rows = t.prompt()
    assert_one_screen(rows, "ns.json", 126, layout_of("napoleons-square"))
    listed = MOVE.findall("\n".join(rows))
    assert sorted(map(int, listed)) == list(range(1, 10)), rows  # all nine, several a line
    no_word_split(rows)
    t.quit()


def test_the_printex_frames_third_pass_with_building_keeps_the_frame_the_last_move_and_the_prompt(tmp_path):
    src = GAMES / "printex-frame" / "cztery-katy" / "lost-seed-1.json"
    partial(src, tmp_path / "pf.json", 41)  # the third laying-out: fourteen legal moves, building among them
    t = Terminal("play", "pf.json", cwd=tmp_path)
    rows = t.prompt()
    assert_one_screen(rows, "pf.json", 41, layout_of("printex-frame", ["cztery-katy"]))
    text = "\n".join(rows)
    assert "14 legal moves" in text
    assert len(set(MOVE.findall(text))) == 14, rows
    no_word_split(rows)
    t.quit()


def test_after_a_refusal_the_table_is_drawn_again_with_the_refusal_under_it(tmp_path):
    src = GAMES / "printex-frame" / "cztery-katy" / "lost-seed-1.json"
    partial(src, tmp_path / "pf.json", 60)
    t = Terminal("play", "pf.json", cwd=tmp_path)
    t.prompt()
    rows = t.type("t2 t3")  # 2S on 3D: refused for suit (pf-22), with the clause quoted
    assert_one_screen(rows, "pf.json", 60, layout_of("printex-frame", ["cztery-katy"]))
    text = " ".join(" ".join(rows).split())
    assert "refused: move 61 ($.moves[60]) t2 → t3: breaks pf-22: 2S is not one rank above or below 3D of the " \
           "same suit" in text and "(in full above)" in text, rows
    full = " ".join(t.child.before.split())  # above the screen: the refusal as replay validate words it
    assert "refused: illegal move 61 ($.moves[60])" in full and "diplomatic:" in full and "table held:" in full
    assert rows.index(next(x for x in rows if x.startswith("refused: "))) > \
        rows.index(next(x for x in rows if x.startswith("last: ")))  # under the table, above the prompt
    no_word_split(rows)
    assert json.loads((tmp_path / "pf.json").read_text())["moves"] == \
        json.loads(src.read_bytes())["moves"][:60]  # nothing written
    t.quit()


def test_a_list_longer_than_the_screen_is_cut_and_moves_lists_every_move(tmp_path):
    src = GAMES / "printex-frame" / "cztery-katy" / "lost-any-suit-seed-1.json"
    partial(src, tmp_path / "pf.json", 10)  # 69 legal moves
    t = Terminal("play", "pf.json", cwd=tmp_path)
    rows = t.prompt()
    variants = json.loads(src.read_bytes())["variants"]
    rulings = json.loads(src.read_bytes())["rulings"]
    assert_one_screen(rows, "pf.json", 10, layout_of("printex-frame", variants, rulings))
    text = "\n".join(rows)
    more = re.search(r"… and (\d+) more: 'moves' lists every one", text)
    assert more, text
    shown = set(MOVE.findall(text))
    assert len(shown) + int(more.group(1)) == 69, (len(shown), more.group(1))
    t.child.sendline("moves")
    t.child.expect_exact("move> ")
    listed = re.findall(r"^ +(\d+)  \S", t.child.before, re.MULTILINE)
    assert sorted(map(int, listed)) == list(range(1, 70))  # every move, one a line
    t.quit()


def test_the_first_screen_of_every_game_fits_80x24(tmp_path):
    for game in ("exiles", "napoleons-square", "printex-frame", "zwarta-kolumna"):
        t = Terminal("play", game, "--seed", "4", "--out", f"{game}.json", cwd=tmp_path)
        rows = t.prompt()
        assert_one_screen(rows, f"{game}.json", 0, layout_of(game))
        rows = t.type("deal")
        assert_one_screen(rows, f"{game}.json", 1, layout_of(game))
        no_word_split(rows)
        t.quit()


def test_a_long_comment_and_an_answer_quoting_it_keep_two_rows_and_the_table_stays(tmp_path):
    long = "a comment of many words " * 75  # 1,800 characters: a legal comment, 23 rows at 80 columns
    t = Terminal("play", "zwarta-kolumna", "--seed", "4", "--out", "z.json", cwd=tmp_path)
    t.prompt()
    rows = t.type(f"deal # {long}")
    assert_one_screen(rows, "z.json", 1, layout_of("zwarta-kolumna"))
    last = [x for x in rows if x.startswith("last: ")]
    assert last and rows[rows.index(last[0]) + 1].endswith("…"), rows  # the comment, cut: it is in the log
    rows = t.type("note a shorter one")  # the answer quotes the comment it replaces
    assert_one_screen(rows, "z.json", 1, layout_of("zwarta-kolumna"))
    assert any(x.startswith("noted on move 1 ($.moves[0]); it replaces “a comment of many") for x in rows), rows
    no_word_split(rows)
    assert json.loads((tmp_path / "z.json").read_text())["moves"][0]["comment"] == "a shorter one"
    t.quit()


# ----------------------------------------------------------------------------- words are not broken


def test_help_inside_play_is_cut_at_words(tmp_path):
    from replay.play.session import HELP, HELP_COLUMN

    t = Terminal("play", "exiles", "--seed", "2", "--out", "e.json", cwd=tmp_path)
    t.prompt()
    rows = t.type("help")
    no_word_split(rows)
    words_whole(rows, HELP)
    for x in rows:  # a description goes on under its own start
        if x.startswith(" " * HELP_COLUMN) and x.strip():
            assert x[HELP_COLUMN] != " ", x
    t.quit()


def test_a_quoted_clause_is_cut_at_words(tmp_path):
    from replay.log.describe import clause_text

    diplomatic, translation, _, _ = clause_text("ex-6")
    assert diplomatic and "тринадцать" in diplomatic and translation and "thirteen" in translation
    t = Terminal("play", "exiles", "--seed", "2", "--out", "e.json", cwd=tmp_path, rows=40)
    t.prompt()
    t.type("deal")
    rows = t.type("p1 A1")  # play begins when all the cards are laid out (ex-6)
    no_word_split(rows)
    words_whole(rows, diplomatic + " " + translation)
    assert "тринадцать" in " ".join(rows) and "thirteen" in " ".join(rows)
    t.quit()
