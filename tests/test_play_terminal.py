"""`replay play` as a player meets it (issues 26 and 23): each item through a real pseudo-terminal.

The table at 80 columns, moves to interchangeable foundations listed once, several numbers typed
ahead, the prompt's example in the game's own pile names, comments (whole-line, replaced, appended,
too long), Ctrl-C and Ctrl-D, a card named from an empty pile, a place the log cannot be written to,
a game that can only go back and forth, two sessions on one log, the lines that used to end the
session with a traceback (``²``, 5,000 digits, a byte that is not UTF-8) and a move of another game.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_play_session import ANSI, REPLAY, ROOT, menu, run, screen, validate

pexpect = pytest.importorskip("pexpect")


def spawn(*args: str, cwd: Path, columns: int = 80, lines: int = 60):  # type: ignore[no-untyped-def]
    env = dict(os.environ, TERM="xterm", COLUMNS=str(columns), LINES=str(lines))
    child = pexpect.spawn(REPLAY, list(args), cwd=str(cwd), env=env, encoding="utf-8", timeout=30,
                          dimensions=(lines, columns))
    where = cwd if os.access(cwd, os.W_OK) and not cwd.name == "ro" else cwd.parent
    child.logfile_read = open(where / "transcript.txt", "a", encoding="utf-8")  # noqa: SIM115 - kept for a failure
    return child


def quit_(child) -> str:  # type: ignore[no-untyped-def]
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    return ANSI.sub("", child.before).replace("\r\n", "\n")


def log_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def partial(src: Path, dst: Path, moves: int) -> Path:
    d = json.loads(src.read_bytes())
    d["moves"] = d["moves"][:moves]
    d.pop("result", None)
    dst.write_text(json.dumps(d, indent=1), encoding="utf-8")
    return dst


# ----------------------------------------------------------------------------- the table and the list


def test_exiles_fits_80_columns_with_every_pile_name_above_its_card(tmp_path):
    log = partial(ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json", tmp_path / "e.json", 30)
    child = spawn("play", "e.json", cwd=tmp_path, columns=80)
    text = screen(child)
    drawing = text.split("\n\n", 1)[1].split("\nlast:", 1)[0]
    assert max(len(x) for x in drawing.splitlines()) <= 80, drawing
    names = [f"p{i}" for i in range(1, 14)] + ["stock", "exiles", "A1", "A4", "K1", "K4"]
    lines = drawing.splitlines()
    for name in names:  # each name once, and under it its card (or -- for an empty pile, ·· an empty foundation)
        found = [(i, m.start()) for i, x in enumerate(lines) for m in re.finditer(rf"(?<!\S){name}(?!\S)", x)]
        assert len(found) == 1, (name, drawing)
        row, col = found[0]
        assert lines[row + 1][col:col + 2].strip(), (name, lines[row:row + 2])
    quit_(child)
    assert log_of(log)["moves"] == json.loads(
        (ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json").read_bytes())["moves"][:30]


def test_moves_to_alike_empty_foundations_are_listed_once_and_the_json_is_left_to_replay_moves(tmp_path):
    child = spawn("play", "napoleons-square", "--seed", "1", "--out", "ns.json", cwd=tmp_path, columns=100)
    screen(child)
    child.sendline("deal")
    text = screen(child)
    aces = [(n, short) for n, short, m in menu(text) if m.get("card", "").startswith("A") and m["to"].startswith("f")]
    assert aces, text
    listing = text.rsplit("after move ", 1)[-1]
    assert "f1  A" in listing and "(or f2, f3, f4, f5, f6, f7, f8: the same)" in listing
    assert "{" not in listing  # no JSON column: `replay moves` has it
    assert not any("→ f2  A" in short for _, short in aces)  # one line per ace, not eight
    n = aces[0][0]
    child.sendline(str(n))
    screen(child)
    assert log_of(tmp_path / "ns.json")["moves"][-1]["to"] == "f1"  # the move written names the first
    quit_(child)
    r = subprocess.run([REPLAY, "moves", "ns.json", "--step", "1"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and '"to": "f1"' in r.stdout and "(or f2, f3" in r.stdout


def test_two_numbers_typed_ahead_play_the_moves_as_listed_now_and_the_list_says_so(tmp_path):
    child = spawn("play", "zwarta-kolumna", "--seed", "7", "--out", "z.json", cwd=tmp_path)
    screen(child)
    child.sendline("1")
    child.sendline("1")  # two lines typed ahead: each is read against the list shown when it is read
    screen(child)
    text = screen(child)
    assert "(several numbers, as 2 3, play those moves as numbered now, one after the other)" in text
    listed = menu(text)
    assert len(listed) >= 3, text
    (_, _, second), (_, _, third) = listed[1], listed[2]
    before = len(log_of(tmp_path / "z.json")["moves"])
    child.sendline("2 3")
    screen(child)
    moves = log_of(tmp_path / "z.json")["moves"]
    assert moves[before:] == [second, third]  # the second and the third of the list as it was read
    quit_(child)


@pytest.mark.parametrize("game, names", [("printex-frame", ("c1", "t1", "A1", "K1")),
                                         ("napoleons-square", ("p1", "f1")), ("exiles", ("p1", "A1", "K1")),
                                         ("zwarta-kolumna", ("p1", "A1", "K1"))])
def test_the_prompts_example_is_in_the_games_own_pile_names(tmp_path, game, names):
    from replay.games import create

    child = spawn("play", game, "--seed", "3", "--out", "g.json", cwd=tmp_path, columns=120)
    text = screen(child)
    layout = create(game).layout.names
    example = text.rsplit("a move such as '", 1)[1].split("'", 1)[0]
    assert all(w in layout for w in example.split()), (example, layout)
    child.sendline("p")  # a line that is not a move: the usage names this game's piles too
    child.expect_exact("move> ")
    usage = ANSI.sub("", child.before)
    said = usage.split("e.g. '", 1)[1].split("'", 1)[0]
    assert all(w in layout for w in said.split()), usage
    quit_(child)


# ----------------------------------------------------------------------------- moves and comments


def test_a_whole_line_comment_in_a_file_of_moves_is_a_comment(tmp_path):
    script = "# my game, seed 5\ndeal\n   # the first deal is done\n\n2 # and the rest\n"
    r = run("play", "napoleons-square", "--seed", "5", "--out", "ns.json", stdin=script, cwd=tmp_path)
    assert r.returncode == 0 and "refused" not in r.stderr, r.stderr
    moves = log_of(tmp_path / "ns.json")["moves"]
    assert len(moves) == 2 and moves[1]["comment"] == "and the rest"


def test_note_says_what_it_replaces_and_note_plus_appends(tmp_path):
    child = spawn("play", "exiles", "--seed", "2", "--out", "c.json", cwd=tmp_path)
    screen(child)
    child.sendline("deal # first thoughts")
    screen(child)
    child.sendline("note second thoughts")
    said = screen(child)
    assert "noted on move 1 ($.moves[0]); it replaces “first thoughts”" in said
    child.sendline("note + and a third")
    said = screen(child)
    assert "noted on move 1 ($.moves[0]): “second thoughts and a third”" in said
    assert log_of(tmp_path / "c.json")["moves"][0] == {"type": "deal", "comment": "second thoughts and a third"}
    child.sendline("note")
    assert "removed the comment “second thoughts and a third” from move 1 ($.moves[0])" in screen(child)
    quit_(child)


def test_a_legal_move_with_a_comment_too_long_is_played_and_the_comment_refused_in_one_line(tmp_path):
    child = spawn("play", "exiles", "--seed", "2", "--out", "c.json", cwd=tmp_path)
    screen(child)
    child.sendline("deal # " + "x" * 2100)
    text = screen(child)
    said = " ".join(text.split("c.json: ", 1)[1].split())  # after the line typed; one line, cut at words
    assert said.count("refused") == 1 and "x" * 50 not in said, text[-800:]
    assert "played without its comment, which is refused: a comment must be 1 to 2000 characters (it has 2,100)" \
        in said, text[-800:]
    assert "after move 1 of 1" in text
    assert log_of(tmp_path / "c.json")["moves"] == [{"type": "deal"}]
    quit_(child)


def test_ctrl_c_clears_a_half_typed_line_and_ctrl_d_ends_the_session(tmp_path):
    child = spawn("play", "exiles", "--seed", "2", "--out", "c.json", cwd=tmp_path)
    screen(child)
    child.send("p1 A")  # half typed
    child.expect_exact("p1 A")  # echoed: the session is reading the line when Ctrl-C comes (not before)
    child.sendintr()
    text = screen(child)
    assert "(Ctrl-C clears the line; Ctrl-D or 'quit' ends the session)" in text and "Traceback" not in text
    child.sendline("deal")
    assert "after move 1 of 1" in screen(child)  # the line read is "deal", not "p1 Adeal"
    child.sendintr()  # on an empty line: a new prompt, the session goes on
    screen(child)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "c.json: 1 move, unfinished; the log is saved" in child.before
    assert log_of(tmp_path / "c.json")["moves"] == [{"type": "deal"}]


def test_a_card_named_from_an_empty_pile_says_the_pile_is_empty(tmp_path):
    child = spawn("play", "zwarta-kolumna", "--seed", "3", "--out", "z.json", cwd=tmp_path)
    screen(child)
    child.sendline("p1 A1 10H")  # nothing is dealt yet: p1 is empty
    child.expect_exact("move> ")
    said = " ".join(ANSI.sub("", child.before).split())
    assert "the move names TH but p1 is empty" in said and "is nothing" not in said
    quit_(child)


def test_building_on_the_table_in_base_printex_frame_cites_pf10_and_names_the_variant_that_allows_it(tmp_path):
    child = spawn("play", "printex-frame", "--seed", "1", "--out", "pf.json", cwd=tmp_path, columns=120)
    screen(child)
    child.sendline("deal")
    screen(child)
    child.sendline("b2 b3")
    child.expect_exact("move> ")
    said = " ".join(ANSI.sub("", child.before).split())
    assert "breaks pf-10: no rule lets a card go from b2 (tableau) to b3 (tableau) (the register, " \
           "amb-pf-target-foundation); a card goes from a pile only onto a foundation; the variant cztery-katy " \
           "(pf-22) allows building on the table after the third laying-out" in said, said
    assert "breaks pf-8" not in said
    quit_(child)


@pytest.fixture
def unwritable(tmp_path):  # type: ignore[no-untyped-def]
    """A directory holding a log, where no file can be made (immutable as root, read-only otherwise)."""
    d = tmp_path / "ro"
    d.mkdir()
    partial(ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json", d / "e.json", 5)
    if os.geteuid() == 0:
        if not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(d)]).returncode != 0:
            pytest.skip("root, and no chattr to make a directory unwritable")
        yield d
        subprocess.run(["chattr", "-i", str(d)])
    else:
        d.chmod(0o555)
        yield d
        d.chmod(0o755)


def test_play_says_it_cannot_write_its_log_before_the_first_move(unwritable):
    child = spawn("play", "e.json", cwd=unwritable)
    child.expect(pexpect.EOF)  # no table, no question: the one line, at once
    child.close()
    said = ANSI.sub("", child.before).strip()
    assert child.exitstatus == 2 and said.startswith("replay: cannot write e.json: ") and "\n" not in said, said
    assert "move>" not in said


# ----------------------------------------------------------------------------- the end of a game


def test_when_only_moves_back_and_forth_remain_play_says_nothing_more_can_come_home(tmp_path):
    from replay.games import create
    from replay.log.play import dumps, played_log

    g = create("napoleons-square", [], {"sequence-moves": "whole-sequence", "space-fill": "any-card"})
    log = played_log(g, seed=2)  # the greedy player ends it moving a sequence between two equal cards
    log.pop("result", None)
    (tmp_path / "loop.json").write_text(dumps(log), encoding="utf-8")
    child = spawn("play", "loop.json", cwd=tmp_path, columns=120)
    text = " ".join(screen(child).split())  # the verdict is longer than the terminal: cut at words
    assert "but nothing more can come home" in text and "the game cannot be won" in text, text[-600:]
    assert "no rule ends the game, so the log stays unfinished" in text
    quit_(child)


# ----------------------------------------------------------------------------- issue 23: inputs that broke


def test_two_sessions_on_one_log_the_second_save_is_refused_in_one_line(tmp_path):
    partial(ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json", tmp_path / "e.json", 4)
    first = spawn("play", "e.json", cwd=tmp_path)
    second = spawn("play", "e.json", cwd=tmp_path)
    screen(first)
    screen(second)
    first.sendline("1")
    screen(first)
    second.sendline("undo")  # would cut the first session's move and one more
    second.expect(pexpect.EOF)
    second.close()
    said = ANSI.sub("", second.before)
    refused = [x for x in said.splitlines() if "e.json" in x and "changed" in x]
    assert len(refused) == 1 and refused[0].startswith("replay: e.json has changed since this session last read "
                                                       "or wrote it (another replay play on the same log?)")
    assert second.exitstatus == 2 and "the log is saved" not in said
    assert len(log_of(tmp_path / "e.json")["moves"]) == 5  # the first session's moves, whole
    first.sendline("undo")
    screen(first)
    assert len(log_of(tmp_path / "e.json")["moves"]) == 4
    quit_(first)


@pytest.mark.parametrize("typed", ["²", "1" * 5000, "٣", "1 ²"])
def test_lines_that_ended_the_session_with_a_traceback_are_refused_in_one_line(tmp_path, typed):
    child = spawn("play", "exiles", "--seed", "2", "--out", "c.json", cwd=tmp_path)
    screen(child)
    child.sendline(typed)
    child.expect_exact("move> ")
    said = " ".join(ANSI.sub("", child.before).split())
    assert "Traceback" not in said and "refused: " in said
    if typed.startswith("111"):
        assert "no move number 111111… (5,000 digits)" in said
    child.sendline("deal")
    assert "after move 1 of 1" in screen(child)  # the session goes on
    quit_(child)


def test_a_byte_that_is_not_utf8_at_the_prompt_is_refused_and_the_session_goes_on(tmp_path):
    # in the C locale the terminal passes the byte through (a UTF-8 locale's line editor drops it)
    env = dict(os.environ, TERM="xterm", COLUMNS="80", LC_ALL="C")
    child = pexpect.spawn(REPLAY, ["play", "exiles", "--seed", "2", "--out", "c.json"], cwd=str(tmp_path), env=env,
                          encoding="utf-8", codec_errors="replace", timeout=30, dimensions=(60, 80))
    screen(child)
    os.write(child.child_fd, b"deal # caf\xe9\r")
    child.expect_exact("move> ")
    said = " ".join(ANSI.sub("", child.before).split())
    assert "refused: the line is not UTF-8 text (byte 0xe9 at character 11); nothing was played" in said
    assert "Traceback" not in said
    child.sendline("deal")
    assert "after move 1 of 1" in screen(child)
    quit_(child)


def test_a_piped_comment_that_is_not_utf8_is_refused_and_the_next_lines_are_read(tmp_path):
    r = subprocess.run([REPLAY, "play", "exiles", "--seed", "2", "--out", "c.json"], cwd=tmp_path,
                       input=b"deal # caf\xe9\ndeal\ndeal # fine\n", capture_output=True, timeout=60)
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 1 and "Traceback" not in err
    assert err.count("refused: ") == 1 and "byte 0xe9" in err
    assert "move> deal # caf\\xe9" in out  # echoed, the byte shown
    assert log_of(tmp_path / "c.json")["moves"] == [{"type": "deal"}, {"type": "deal", "comment": "fine"}]
    assert validate(tmp_path / "c.json").returncode == 0


def test_a_move_of_another_game_is_refused_as_validate_words_it(tmp_path):
    child = spawn("play", "zwarta-kolumna", "--seed", "3", "--out", "z.json", cwd=tmp_path)
    screen(child)
    child.sendline("tuck exiles p5")
    child.expect_exact("move> ")
    said = " ".join(ANSI.sub("", child.before).split())
    assert "zwarta-kolumna has no 'tuck' move (its moves: deal, move, redeal)" in said
    assert "is not a card code" not in said
    quit_(child)
    d = log_of(tmp_path / "z.json")
    d["moves"] = [{"type": "tuck", "from": "exiles", "to": "p5"}]
    (tmp_path / "v.json").write_text(json.dumps(d), encoding="utf-8")
    v = validate(tmp_path / "v.json")
    assert "zwarta-kolumna has no 'tuck' move (its moves: deal, move, redeal)" in v.stdout


# ----------------------------------------------------------------------------- issue 31: refusals that say more


def _said(child, line: str) -> str:  # type: ignore[no-untyped-def]
    """What the session answers to ``line``, on one line (the terminal's wrapping undone)."""
    child.sendline(line)
    child.expect_exact("move> ")
    return " ".join(ANSI.sub("", child.before).split())


def test_a_build_refused_for_suit_names_the_ruling_whose_other_reading_allows_it(tmp_path):
    src = ROOT / "examples" / "games" / "printex-frame" / "cztery-katy" / "lost-seed-1.json"
    partial(src, tmp_path / "pf.json", 60)  # the third laying-out: t2's 2S and t3's 3D lie on top
    child = spawn("play", "pf.json", cwd=tmp_path)
    screen(child)
    said = _said(child, "t2 t3")
    assert "breaks pf-22: 2S is not one rank above or below 3D of the same suit; the ruling build-suit=any-suit " \
           "(the register, amb-pf-build-suit) allows a card of any suit" in said, said
    quit_(child)


def test_a_refill_from_a_pile_that_is_no_corner_says_so_without_another(tmp_path):
    src = ROOT / "examples" / "games" / "zwarta-kolumna" / "cztery-katy" / "lost-seed-1.json"
    partial(src, tmp_path / "z.json", 2)  # the base card KC has left p5, which a corner pile must refill
    child = spawn("play", "z.json", cwd=tmp_path)
    screen(child)
    said = _said(child, "fill p8 p5")
    assert "breaks zk-23: p8 is not a corner pile: the card comes from the top of p1, p6, p7 or p12" in said, said
    assert "another" not in said
    quit_(child)


def test_an_old_exiles_log_under_the_new_default_is_told_in_one_line_which_reading_deals_its_deck(tmp_path):
    from replay.engine import cards as C

    d = json.loads((ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json").read_bytes())
    d["rulings"] = {}  # as a log of archive 0.1 was written: the default dealt every card
    d["deck"] = [C.code(c) for c in range(C.DECK_SIZE // 2)] * 2
    d["moves"] = []
    d.pop("result")
    (tmp_path / "old.json").write_text(json.dumps(d), encoding="utf-8")
    reading = ("the deck has 104 cards, as foundations=aces-and-kings deals, the default before 0.2.0; the default "
               "now, withdrawn-first, deals 96: a log of an older archive names its reading in its rulings "
               "(\"foundations\": \"aces-and-kings\")")
    child = spawn("play", "old.json", cwd=tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    said = ANSI.sub("", child.before).strip()
    assert child.exitstatus == 1 and " ".join(said.split()) == f"old.json:1:{said.split(':')[2]}: malformed: " \
                                                               f"$.deck: {reading}", said
    assert reading in validate(tmp_path / "old.json").stdout.splitlines()[0]
    d["rulings"] = {"foundations": "aces-and-kings"}  # named: valid
    (tmp_path / "named.json").write_text(json.dumps(d), encoding="utf-8")
    assert validate(tmp_path / "named.json").returncode == 0


def test_an_unknown_word_names_this_games_moves_not_every_games(tmp_path):
    child = spawn("play", "zwarta-kolumna", "--seed", "3", "--out", "z.json", cwd=tmp_path)
    screen(child)
    said = _said(child, "foo p1 p2")
    assert "refused: 'foo' is neither a move of zwarta-kolumna (its moves: deal, move, redeal) nor one of its " \
           "piles" in said, said
    assert "tuck" not in said and "fill" not in said
    quit_(child)


def test_napoleons_square_header_counts_the_cards_turned_from_the_pack_not_rounds(tmp_path):
    src = ROOT / "examples" / "games" / "napoleons-square" / "base" / "lost-seed-1.json"
    partial(src, tmp_path / "ns.json", 40)
    deals = sum(m["type"] == "deal" for m in json.loads(src.read_bytes())["moves"][:40])
    child = spawn("play", "ns.json", cwd=tmp_path)
    text = screen(child)
    assert f"the square dealt, {deals - 1} cards turned from the pack" in text, text[:400]
    assert "rounds dealt" not in text
    quit_(child)


def test_a_solvers_log_continued_in_play_says_who_played_which_moves(tmp_path):
    src = ROOT / "examples" / "games" / "exiles" / "base" / "won-2.json"
    theirs = json.loads(src.read_bytes())
    assert theirs["meta"]["player"] == "solver"
    shutil.copy(src, tmp_path / "s.json")
    n = len(theirs["moves"])
    child = spawn("play", "s.json", cwd=tmp_path)
    screen(child)
    for _ in range(3):  # back to where there is a choice
        child.sendline("undo")
        text = screen(child)
    k = n - 3
    number = next(i for i, _, m in menu(text) if m != theirs["moves"][k])  # not the solver's move
    child.sendline(str(number))
    screen(child)
    credit = f"solver (moves 1 to {k}), then replay play (moves {k + 1} to {k + 1})"
    assert log_of(tmp_path / "s.json")["meta"] == {"player": credit, "source": "replay solve, seed 2"}
    child.sendline("undo")
    screen(child)
    assert log_of(tmp_path / "s.json")["meta"]["player"] == "solver"  # every move left is the solver's
    quit_(child)


def test_a_long_line_from_a_file_is_echoed_cut_with_its_length(tmp_path):
    lines = "x" * 100_000 + "\ndeal # " + "y" * 100_000 + "\n"
    r = run("play", "exiles", "--seed", "2", "--out", "c.json", stdin=lines, cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    echoed = [x for x in r.stdout.splitlines() if x.startswith("move> ")]
    assert len(echoed) == 2 and all(len(x) < 300 for x in echoed), [len(x) for x in echoed]
    assert echoed[0].endswith("… (100,000 characters)") and echoed[1].endswith("… (100,007 characters)")
    assert max(len(x) for x in r.stdout.splitlines() + r.stderr.splitlines()) < 400
