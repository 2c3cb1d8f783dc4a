"""The session of ``replay play``: a log grown move by move, each move checked by the validator.

The log (a dict, as :func:`replay.log.play.new_log` makes it) is the only state: a move typed is
appended to a copy of it, the copy is judged by :func:`replay.log.validate.check_bytes` exactly as
``replay validate`` would judge the file, and only a valid copy replaces the log.  (The browser's
Play page reads the log with the plain reader instead, :mod:`replay.log.plain`, which needs no pydantic
and gives the same verdicts: ``Session(..., reader=replay.log.plain)``.)  A refusal is
``validate``'s own text (the clause broken, quoted in the diplomatic text and in translation, what the
table held).  The table shown is the log replayed (:func:`replay.log.validate.replay_to`).  After
every change the log is handed to ``save``, with its ``result`` claim set to the truth.

What a person types (:data:`HELP`): a number from the list of legal moves, a move in the short
form (:mod:`replay.play.shortform`), or one of the words ``undo``, ``note TEXT``, ``table``,
``moves``, ``help``, ``quit``.  How a terminal shows the answers is :mod:`replay.play.screen`'s.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from replay.engine.game import Table
from replay.log.describe import comment_text
from replay.log.locate import move_ref
from replay.log.play import dumps
from replay.log.report import Report
from replay.play.moves import AHEAD, Choice, choices, listing
from replay.play.shortform import ShortFormError, example, parse_short

if TYPE_CHECKING:
    from replay.log.check import Instance

#: the commands, one a line: the command, then from column :data:`HELP_COLUMN` what it does (not broken into
#: lines here: a terminal cuts them at its width, the description's further lines under its start)
HELP = """\
  N              play legal move number N of the list
  N M …          play several moves, each numbered as the list numbers it now (2 3: the second, then the move that is third in this list)
  p6 K2 [QS]     play a move in the short form: FROM TO [CARD] [×N] (an arrow between them is allowed)
  deal, redeal   a move that takes no pile (as the game has them; `fill` and `tuck` take FROM TO)
  … # text       a comment on the move (kept in the log, ignored by the rules)
  # text         a line that is only a comment is skipped (in a file of moves too)
  note TEXT      put TEXT as the comment of the last move (an earlier comment is replaced, and shown)
  note + TEXT    add TEXT to the comment of the last move
  undo           take back the last move
  table          draw the table again, with as many of the legal moves as the screen holds
  moves          list every legal move, one a line
  help, quit     this text; end the session (the log is already saved)
  Ctrl-C         clear the line typed; Ctrl-D (or quit) ends the session"""
HELP_COLUMN = 17

#: the longest move number read (more digits cannot number a move of any list)
MAX_DIGITS = 6


class SaveFailed(Exception):
    """``save`` could not write the log (the message says why, in one line): the change is not made and the
    session ends."""


@dataclass
class Reply:
    """What the session answers to one line."""

    out: list[str] = field(default_factory=list)  #: lines for standard output
    refused: list[str] = field(default_factory=list)  #: the refusal, for standard error
    changed: bool = False  #: the log changed (and was saved): draw the table and the moves again
    redraw: bool = False  #: draw the table and the moves again (nothing changed)
    listed: bool = False  #: every legal move was asked for (``moves``): a terminal lists them without the table
    quit: bool = False
    failed: str | None = None  #: the log could not be saved (one line): the session ends


class Session:
    """A log being written; ``save`` receives the log after every change (and may raise :class:`SaveFailed`).

    ``reader`` reads and judges the log: a module with ``parse`` and ``check_bytes``, by default
    :mod:`replay.log.validate` (``replay validate``'s); :mod:`replay.log.plain` needs no pydantic.
    """

    def __init__(self, name: str, log: dict[str, Any], inst: Instance, save: Callable[[dict[str, Any]], None],
                 reader: ModuleType | None = None) -> None:
        if reader is None:
            from replay.log import validate

            reader = validate
        self.name = name
        self.log = {k: v for k, v in log.items() if k != "result"}
        self.inst = inst
        self.save = save
        self.reader = reader
        self.refusal: Report | None = None  #: the verdict on the last change refused (None once one is made)
        self.table = self._replayed(self.log)
        self.legal: list[Choice] = choices(self.table)
        self.failed: str | None = None  #: why the log could not be saved, when that ended the session

    # ------------------------------------------------------------------ the log

    @property
    def moves(self) -> list[dict[str, Any]]:
        """The log's moves, as written."""
        return self.log["moves"]

    def written(self, log: dict[str, Any] | None = None, table: Table | None = None) -> dict[str, Any]:
        """The log as saved: with the true ``result`` claim, ``meta`` last."""
        log = self.log if log is None else log
        table = self.table if table is None else table
        out = {k: v for k, v in log.items() if k != "meta"}
        out["result"] = table.outcome()
        if "meta" in log:
            out["meta"] = log["meta"]
        return out

    def _replayed(self, log: dict[str, Any]) -> Table:
        from replay.log.check import replay_to

        _, table, _, _ = replay_to(self.reader.parse(dumps(log).encode("utf-8")), None)
        return table

    def _commit(self, log: dict[str, Any]) -> None:
        """Save ``log`` and take it as the session's; :class:`SaveFailed` leaves the session as it was."""
        table = self._replayed(log)
        self.save(self.written(log, table))
        self.log, self.table = log, table
        self.legal = choices(table)

    # ------------------------------------------------------------------ changes

    def play(self, step: dict[str, Any]) -> list[str]:
        """Append ``step`` if the validator finds the log still valid; else its refusal, as ``validate`` words it."""
        return self._try(dict(self.log, moves=[*self.moves, step]))

    def undo(self) -> bool:
        if not self.moves:
            return False
        self._commit(dict(self.log, moves=self.moves[:-1]))
        return True

    def note(self, text: str) -> list[str]:
        """Put ``text`` as the comment of the last move (none: remove it); checked like a move, as the log must stay
        valid (a comment has a length limit)."""
        if not self.moves:
            return ["refused: there is no move yet to comment on"]
        last = {k: v for k, v in self.moves[-1].items() if k != "comment"}
        if text:
            last["comment"] = text
        return self._try(dict(self.log, moves=[*self.moves[:-1], last]))

    def _try(self, trial: dict[str, Any]) -> list[str]:
        """Take ``trial`` as the log if ``replay validate`` would find it valid, else return its refusal."""
        from replay.log.report import report_lines

        report = self.reader.check_bytes(dumps(trial).encode("utf-8"), self.name)
        if not report.ok:
            report.file = "refused"  # the move is not in the file: no line and column in it to point at
            for p in report.problems:
                p.line = p.column = None
            self.refusal = report
            return report_lines(report)
        self.refusal = None
        self._commit(trial)
        return []

    # ------------------------------------------------------------------ a line typed

    def handle(self, line: str) -> Reply:
        """Answer one line typed by the player (a change the log cannot be saved with ends the session)."""
        try:
            return self._handle(line)
        except SaveFailed as e:
            return Reply(refused=[str(e)], quit=True, failed=str(e))

    def _handle(self, line: str) -> Reply:
        text = line.strip()
        bad = _not_utf8(text)
        if bad:
            return Reply(refused=[f"refused: {bad}; nothing was played"])
        word, _, rest = text.partition(" ")
        word = word.casefold()
        if not text or text.startswith("#"):  # nothing, or a line that is only a comment
            return Reply()
        if word in ("quit", "exit", "q"):
            return Reply(quit=True)
        if word in ("help", "?", "h"):
            return Reply(out=HELP.splitlines())
        if word in ("table", "moves", "list", "show"):
            return Reply(redraw=True, listed=word in ("moves", "list"))
        if word == "undo":
            if not self.moves:
                return Reply(refused=["refused: nothing to undo"])
            self.undo()
            return Reply(out=[f"undone: the log has {len(self.moves)} move{'s' if len(self.moves) != 1 else ''}"],
                         changed=True)
        if word == "note":
            return self._note(rest.strip())
        numbers, _, comment = text.partition("#")
        if numbers.split() and all(_is_number(w) for w in numbers.split()):
            return self._numbers(numbers.split(), comment.strip())
        try:
            step = parse_short(text, self.table.game, self.legal)
        except ShortFormError as e:
            return Reply(refused=[f"refused: {e} (help: the commands)"])
        return self._played([step])

    def _note(self, text: str) -> Reply:
        if not self.moves:
            return Reply(refused=["refused: there is no move yet to comment on"])
        where = move_ref(len(self.moves) - 1)
        old = self.moves[-1].get("comment")
        adding = text.startswith("+")
        if adding:
            text = " ".join(x for x in (old, text[1:].strip()) if x)
        refused = self.note(text)
        if refused:
            return Reply(refused=refused)
        changed = text != (old or "")  # the last move's comment, which the table's last line shows
        if adding and old:
            return Reply(out=[f"noted on {where}: {comment_text(text)}"], changed=changed)
        if not text:
            return Reply(out=[f"removed the comment {comment_text(old)} from {where}" if old else
                              f"no comment on {where}"], changed=changed)
        if old and old != text:
            return Reply(out=[f"noted on {where}; it replaces {comment_text(old)} ('note + TEXT' adds to a "
                              "comment)"], changed=changed)
        return Reply(out=[f"noted on {where}"], changed=changed)

    def _numbers(self, words: list[str], comment: str) -> Reply:
        """Moves by their numbers in the list as it is now (the comment goes on the last)."""
        steps = []
        for w in words:
            n = int(w) if len(w) <= MAX_DIGITS else None
            if n is None or not 1 <= n <= len(self.legal):
                what = f"1 to {len(self.legal)}" if self.legal else "none: no move is legal"
                shown = w if len(w) <= MAX_DIGITS else f"{w[:MAX_DIGITS]}… ({len(w):,} digits)"
                return Reply(refused=[f"refused: no move number {shown} (the numbers: {what})"])
            steps.append(copy.deepcopy(self.legal[n - 1].step))
        if comment:
            steps[-1]["comment"] = comment
        return self._played(steps, [int(w) for w in words] if len(words) > 1 else None)

    def _played(self, steps: list[dict[str, Any]], numbers: list[int] | None = None) -> Reply:
        """Play ``steps`` one after the other until one is refused (``numbers``: the numbers typed for them).
        A move refused only for its comment (too long) is played without it, and the comment refused in one
        line."""
        out: list[str] = []
        for done, step in enumerate(steps):
            refused = self.play(step)
            if refused and "comment" in step and _only_the_comment(refused):
                bare = {k: v for k, v in step.items() if k != "comment"}
                if not self.play(bare):
                    out.append(f"played without its comment, which is refused: {_comment_problem(refused)} "
                               f"(it has {len(step['comment']):,})")
                    refused = []
            if refused:
                if done and numbers:
                    refused = [f"refused: the moves numbered {' '.join(map(str, numbers[:done]))} are played; "
                               f"number {numbers[done]}, as listed before them, is not:", *refused]
                return Reply(out=out, refused=refused, changed=bool(done))
        return Reply(out=out, changed=True)

    # ------------------------------------------------------------------ what is shown

    def moves_lines(self) -> list[str]:
        """The numbered legal moves and where the game stands (as ``replay moves`` prints them, without the
        JSON column), and what several numbers on one line mean."""
        lines = listing(self.table, self.legal, with_json=False)
        if len(self.legal) > 1:
            lines.append(f"({AHEAD})")
        return lines

    def example(self) -> str:
        """A move in the short form in this game's own pile names (a legal one when there is one)."""
        return example(self.table.game, self.legal)


def _is_number(word: str) -> bool:
    """A move number: ASCII digits only (``²`` and other Unicode digits are not numbers here)."""
    return word.isascii() and word.isdigit()


def _not_utf8(text: str) -> str | None:
    """What is wrong with a line that was not UTF-8 (read with ``surrogateescape``): the first bad byte."""
    for i, ch in enumerate(text):
        if "\udc80" <= ch <= "\udcff":
            return f"the line is not UTF-8 text (byte 0x{ord(ch) - 0xDC00:02x} at character {i + 1})"
    return None


def _only_the_comment(refused: list[str]) -> bool:
    return len(refused) == 1 and ".comment:" in refused[0] and "malformed" in refused[0]


def _comment_problem(refused: list[str]) -> str:
    """``a comment must be 1 to 2000 characters`` from the validator's line (which quotes the comment's start)."""
    text = refused[0].split(".comment:", 1)[1].strip()
    return "a comment " + text[text.index(" must be ") + 1:] if " must be " in text else text


def run(session: Session, read: Callable[[], str | None], draw: Callable[[Session], None],
        echo: Callable[[str], None], echo_err: Callable[[str], None],
        show: Callable[[Session, Reply], None] | None = None) -> int:
    """The loop: draw, read a line (None: end of input), answer, until ``quit``, the end of input, or a log that
    cannot be saved (:attr:`Reply.failed`, kept in ``session.failed``).  ``show``, when given (a terminal), shows
    each answer itself, the table with it (:mod:`replay.play.screen`), in place of ``echo``, ``echo_err`` and
    ``draw``.

    Returns how many lines were refused.
    """
    refusals = 0
    draw(session)
    while True:
        line = read()
        if line is None:
            break
        reply = session.handle(line)
        if show is not None and not (reply.failed or reply.quit):
            refusals += bool(reply.refused)
            show(session, reply)
            continue
        for text in reply.out:
            echo(text)
        for text in reply.refused:
            echo_err(text)
        refusals += bool(reply.refused)
        if reply.failed:
            session.failed = reply.failed
            break
        if reply.quit:
            break
        if reply.changed or reply.redraw:
            draw(session)
    return refusals
