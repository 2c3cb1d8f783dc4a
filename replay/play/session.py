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
``moves``, ``help``, ``quit``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from replay.engine.game import Table
from replay.log.play import dumps
from replay.log.report import Report
from replay.play.moves import Choice, choices, listing
from replay.play.shortform import ShortFormError, parse_short

if TYPE_CHECKING:
    from replay.log.check import Instance

HELP = """\
  N              play legal move number N of the list
  p6 K2 [QS]     play a move in the short form: FROM TO [CARD] [×N] (an arrow between them is allowed)
  deal, redeal   a move that takes no pile (as the game has them; `fill` and `tuck` take FROM TO)
  … # text       a comment on the move (kept in the log, ignored by the rules)
  note TEXT      put TEXT as the comment of the last move
  undo           take back the last move
  table, moves   draw the table again; list the legal moves again
  help, quit     this text; end the session (the log is already saved)"""


@dataclass
class Reply:
    """What the session answers to one line."""

    out: list[str] = field(default_factory=list)  #: lines for standard output
    refused: list[str] = field(default_factory=list)  #: the refusal, for standard error
    changed: bool = False  #: the log changed (and was saved): draw the table and the moves again
    redraw: bool = False  #: draw the table and the moves again (nothing changed)
    quit: bool = False


class Session:
    """A log being written; ``save`` receives the log after every change.

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

    # ------------------------------------------------------------------ the log

    @property
    def moves(self) -> list[dict[str, Any]]:
        """The log's moves, as written."""
        return self.log["moves"]

    def written(self) -> dict[str, Any]:
        """The log as saved: with the true ``result`` claim, ``meta`` last."""
        out = {k: v for k, v in self.log.items() if k != "meta"}
        out["result"] = self.table.outcome()
        if "meta" in self.log:
            out["meta"] = self.log["meta"]
        return out

    def _replayed(self, log: dict[str, Any]) -> Table:
        from replay.log.check import replay_to

        _, table, _, _ = replay_to(self.reader.parse(dumps(log).encode("utf-8")), None)
        return table

    def _commit(self, log: dict[str, Any]) -> None:
        self.log = log
        self.table = self._replayed(log)
        self.legal = choices(self.table)
        self.save(self.written())

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
        """Answer one line typed by the player."""
        text = line.strip()
        word, _, rest = text.partition(" ")
        word = word.casefold()
        if not text:
            return Reply()
        if word in ("quit", "exit", "q"):
            return Reply(quit=True)
        if word in ("help", "?", "h"):
            return Reply(out=HELP.splitlines())
        if word in ("table", "moves", "list", "show"):
            return Reply(redraw=True)
        if word == "undo":
            if not self.undo():
                return Reply(refused=["refused: nothing to undo"])
            return Reply(out=[f"undone: the log has {len(self.moves)} move{'s' if len(self.moves) != 1 else ''}"],
                         changed=True)
        if word == "note":
            refused = self.note(rest.strip())
            done = "noted on" if rest.strip() else "no comment on"
            return Reply(refused=refused) if refused else Reply(out=[f"{done} move {len(self.moves) - 1}"])
        number, _, comment = text.partition("#")
        if number.strip().isdigit():
            n = int(number)
            if not 1 <= n <= len(self.legal):
                what = f"1 to {len(self.legal)}" if self.legal else "none: no move is legal"
                return Reply(refused=[f"refused: no move number {n} (the numbers: {what})"])
            step = copy.deepcopy(self.legal[n - 1].step)
            if comment.strip():
                step["comment"] = comment.strip()
        else:
            try:
                step = parse_short(text, self.table.game, self.legal)
            except ShortFormError as e:
                return Reply(refused=[f"refused: {e} (help: the commands)"])
        refused = self.play(step)
        return Reply(refused=refused) if refused else Reply(changed=True)

    # ------------------------------------------------------------------ what is shown

    def moves_lines(self) -> list[str]:
        """The numbered legal moves and where the game stands (as ``replay moves`` prints them)."""
        return listing(self.table, self.legal)


def run(session: Session, read: Callable[[], str | None], draw: Callable[[Session], None],
        echo: Callable[[str], None], echo_err: Callable[[str], None]) -> int:
    """The loop: draw, read a line (None: end of input), answer, until ``quit`` or the end of input.

    Returns how many lines were refused.
    """
    refusals = 0
    draw(session)
    while True:
        line = read()
        if line is None:
            break
        reply = session.handle(line)
        for text in reply.out:
            echo(text)
        for text in reply.refused:
            echo_err(text)
        refusals += bool(reply.refused)
        if reply.quit:
            break
        if reply.changed or reply.redraw:
            draw(session)
    return refusals
