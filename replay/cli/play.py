"""`replay moves` and `replay play`: writing a game move by move (registered by replay.cli).

Exit codes: 0 success; 1 a log was rejected (malformed, or illegal before the step asked for);
2 usage or I/O error.  Heavy imports stay inside the commands so that ``replay --help`` is fast.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Optional

import typer

from replay.cli import complete
from replay.cli.common import Format, usage
from replay.log.names import shown_path

if TYPE_CHECKING:
    from replay.play.session import Session


def _form(game: Any) -> str:
    from replay.log.validate import _form as variants

    return game.id + variants(game)


# --------------------------------------------------------------------------- moves


def moves(
    log: str = typer.Argument(..., metavar="LOG", help="A log file, or - for standard input."),
    step: Optional[int] = typer.Option(None, "--step", min=0, metavar="N",
                                       help="The moves after N moves (0: before the first; default: the end)."),
    fmt: Format = typer.Option(Format.text, "--format", help="text for people, json for programs."),
) -> None:
    """List the legal moves at the end of a log (or after N moves), numbered, each as a log entry to paste.

    Each move is shown in a short form (p6 → K2  QS, as replay play accepts it) and as the JSON
    entry a log writes; a move to any of several empty foundations the rules treat alike is listed
    once, naming the others. Where a deal or a redeal is not allowed, the clause that forbids it
    is named; where no move is left, the game is won or lost; where no move can bring another
    card home, it says so. A log that is malformed, or illegal before that point, is reported as
    replay validate reports it (exit 1).
    """
    import json

    from replay.cli.common import open_log, print_violation
    from replay.play.moves import choices, document, listing

    o = open_log(log, step)
    if o.report.problems:
        print_violation(o)
        typer.echo(f"replay: {o.name}: the moves are listed up to the first illegal move: "
                   f"replay moves {o.name} --step {o.made}", err=True)
        raise typer.Exit(1)
    game, table = o.inst.game, o.table
    legal = choices(table)
    if fmt is Format.json:
        doc = {"format": "replay-moves/1", "file": o.name, "game": game.id, "variants": sorted(game.variants),
               "rulings": dict(sorted(game.rulings.items())), "after": o.made, "moves_in_log": len(o.log.moves),
               **document(table, legal)}
        typer.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    typer.echo(f"{o.name}: {_form(game)}, after move {o.made} of {len(o.log.moves)}")
    for line in listing(table, legal):
        typer.echo(line)


# --------------------------------------------------------------------------- play


def play(
    target: str = typer.Argument(..., metavar="LOG|GAME", autocompletion=complete.logs_or_games,
                                 help="A log to continue (it is updated), or a game ID to start a new game."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", min=0, metavar="N",
                                       help="A new game: seed of the shuffle (default: a random one)."),
    variant: List[str] = typer.Option([], "--variant", metavar="V", autocompletion=complete.variants,
                                      help="A new game: a variant (repeatable)."),
    ruling: List[str] = typer.Option([], "--ruling", "-r", metavar="R=X", autocompletion=complete.rulings,
                                     help="A new game: a ruling's reading (repeatable)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                       help="Write the log here (required for a new game; for a log: instead of "
                                            "updating it)."),
    force: bool = typer.Option(False, "--force", help="Let --out overwrite an existing file."),
    codes: bool = typer.Option(False, "--codes", help="Card codes (TH) instead of symbols (10♥) in the table."),
) -> None:
    """Play a game in the terminal: the table, the legal moves by number, a move typed by number or as 'p6 K2'.

    The table, the last move and the prompt fit the terminal, its width and its height: the
    moves are listed several a line where one a line would not fit, as many as fit ('moves'
    lists them all), and after a refusal the table is drawn again, the refusal under it; every
    line is cut at words. Moves to interchangeable empty foundations are listed once. Several
    numbers on a line (2 3) play the moves so numbered in the list shown. An illegal move is
    refused with the clause it breaks, as replay validate words it; 'undo' takes a move back,
    'note TEXT' (or 'note + TEXT') comments the last move, '# text' after a move comments it,
    'help' lists the commands. Ctrl-C clears the line typed; Ctrl-D or 'quit' (or the end of
    input) ends the session. The log is written after every move, atomically, so nothing is lost
    if the terminal closes; a log changed on disk since the session read it (another session) is
    not overwritten. Moves may also come from a file (replay play game.json < moves.txt; a line
    that is only '# text' is skipped); then a refused line makes the exit code 1. Exit codes: 0
    the session ended; 1 the log given is malformed or illegal, or (input not from a terminal) a
    line was refused; 2 usage or I/O error (the log cannot be written, or changed under the
    session).
    """
    from replay.play.session import SaveFailed, Session, run

    log, name, dest, inst, known = _start(target, seed, variant, ruling, out, force)
    save = _credited(_saver(dest, known, force), log)
    session = Session(name, log, inst, save)
    if known is None:  # a new log, or a log continued into another file: it exists from the start
        try:
            save(session.written())
        except SaveFailed as e:  # one line, before the first move
            usage(str(e).removeprefix("replay: "))
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=True)
    interactive = sys.stdin.isatty()
    screen = interactive and console.is_terminal  # a person at a terminal: each answer drawn with the table
    draw: Callable[["Session"], None] = (lambda s: _show(console, s, None, codes)) if screen else \
        (lambda s: _draw(console, s, codes))
    try:
        refusals = run(session, _reader(interactive, console), draw, typer.echo,
                       lambda line: typer.echo(line, err=True),
                       show=(lambda s, r: _show(console, s, r, codes)) if screen else None)
    except KeyboardInterrupt:  # between two questions: every change is already saved
        typer.echo("")
        refusals = 0
    n = len(session.moves)
    if session.failed:
        raise typer.Exit(2)
    typer.echo(f"{shown_path(dest)}: {n} move{'s' if n != 1 else ''}, {session.table.outcome()}; the log is saved")
    if refusals and not interactive:
        raise typer.Exit(1)


def _saver(dest: Path, known: Optional[bytes], replace: bool) -> Callable[[dict[str, Any]], None]:
    """``save`` for the session: write the log atomically, unless the file has changed since this session
    last read or wrote it (another ``replay play`` on the same log, an editor): then nothing is written and
    the session ends, in one line (:class:`replay.play.session.SaveFailed`).  The first write of a file the
    session makes (``known`` None) finds no file there, unless ``replace`` (``--force``) allows one.

    The check and the rename are one step (:func:`replay.fsio.locked`): two sessions saving at the same
    instant take turns, and the second finds the first one's file changed, never the file they both read."""
    from replay.fsio import atomic_write, locked
    from replay.log.play import dumps
    from replay.play.session import SaveFailed

    last = [known]  # None: the first write makes the file (a new log, or --out --force over another)

    def save(written: dict[str, Any]) -> None:
        data = dumps(written).encode("utf-8")
        try:
            with locked(dest):
                _unchanged(dest, last[0], replace)
                atomic_write(dest, data)
        except OSError as e:
            raise SaveFailed(f"replay: cannot write {shown_path(dest)}: {e.strerror or e}") from None
        last[0] = data

    return save


#: ``meta.player`` as :func:`_credited` writes it: the first player and how many moves are theirs
_CREDIT = re.compile(r"^(.*) \(moves 1 to (\d+)\), then replay play \(moves \d+ to \d+\)$", re.DOTALL)


def _credited(save: Callable[[dict[str, Any]], None], log: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    """``save``, with ``meta.player`` of a log continued (``solver``, ``random-greedy``) saying who played which
    moves once the session has moves of its own: ``solver (moves 1 to 40), then replay play (moves 41 to 52)``
    (continued again: the first player keeps what is still theirs); none when no move of theirs is left.  A
    comment changed is not a move played."""
    meta = log.get("meta")
    player = meta.get("player") if isinstance(meta, dict) else None
    if not isinstance(player, str) or not log["moves"]:
        return save
    known = [_bare(m) for m in log["moves"]]
    credit = _CREDIT.match(player)
    first, theirs = (credit[1], int(credit[2])) if credit else (player, len(known))

    def credited(written: dict[str, Any]) -> None:
        moves = written["moves"]
        kept = next((i for i, (a, b) in enumerate(zip(moves, known)) if _bare(a) != b), min(len(moves), len(known)))
        own = min(kept, theirs)  # the moves still the first player's
        if own < len(moves) or credit:
            rest = {k: v for k, v in written["meta"].items() if k != "player"}
            said = first if own == len(moves) else \
                f"{first} (moves 1 to {own}), then replay play (moves {own + 1} to {len(moves)})"
            written = {**written, "meta": {"player": said, **rest} if own or not moves else rest}
        save(written)

    return credited


def _bare(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items() if k != "comment"}


def _unchanged(dest: Path, last: Optional[bytes], replace: bool) -> None:
    """Raise :class:`replay.play.session.SaveFailed` unless ``dest`` holds ``last`` (the session's last read or
    write; None: no file yet, or any file when ``replace``)."""
    from replay.play.session import SaveFailed

    try:
        now: Optional[bytes] = dest.read_bytes()
    except FileNotFoundError:
        now = None
    except OSError as e:
        raise SaveFailed(f"replay: cannot read {shown_path(dest)} back before writing it: {e.strerror or e}") from None
    if last is None and (now is None or replace):
        return
    if now != last:
        what = "was removed" if now is None else "has changed" if last is not None else "was made"
        raise SaveFailed(f"replay: {shown_path(dest)} {what} since this session last read or wrote it (another "
                         "replay play on the same log?): this change is not saved, the file is left as it is; "
                         f"replay play {shown_path(dest)} continues from what it holds now")


def _start(target: str, seed: Optional[int], variant: list[str], ruling: list[str], out: Optional[Path],
           force: bool) -> tuple[dict[str, Any], str, Path, Any, Optional[bytes]]:
    """The log to play, its name, where it is written, its game instance and the bytes read from that file
    (None: the session writes it first); or the one-line error.  The place is checked before the first
    move: a log that could not be saved is said at once, not after a move is typed."""
    from replay.games.catalog import MODULES
    from replay.cli.common import STDOUT, new_game, open_log, print_violation
    from replay.fsio import WriteRefused, check_target, probe_write

    if target == "-":
        usage("replay play reads the moves from standard input; give the log as a file")
    if out is not None and str(out) == STDOUT:
        usage("-o -: replay play writes its log after every move and standard output is the session; give a file")
    new = not Path(target).is_file() and (target in MODULES or seed is not None or bool(variant) or bool(ruling))
    if not new and not Path(target).exists():
        usage(f"{target}: no such log file, and not a game ID (games: {', '.join(MODULES)})")
    if not new and (seed is not None or variant or ruling):
        usage("--seed, --variant and --ruling start a new game: give a game ID, not a log")
    if new and out is None:
        usage("a new game needs --out FILE, where its log is written")
    dest = out if out is not None else Path(target)
    same = not new and dest.resolve() == Path(target).resolve()  # continuing LOG into LOG: an update

    def writable() -> None:
        try:
            check_target(dest, force=force, update=same, streams=False)  # the log is read back
            probe_write(dest)
        except WriteRefused as e:
            usage(e.message)

    if new:
        writable()
        inst, log = new_game(target, variant, ruling, seed, "replay play")
        return log, shown_path(dest), dest, inst, None
    o = open_log(target)
    writable()
    if o.report.problems:
        from replay.log.locate import move_ref

        print_violation(o)
        typer.echo(f"replay: {o.name}: the log breaks the rules at {move_ref(o.made)}; replay play continues "
                   "only a legal log", err=True)
        raise typer.Exit(1)
    log = o.log.model_dump(mode="json", by_alias=True, exclude_unset=True)
    log["moves"] = [_ordered(m) for m in log["moves"]]
    return log, shown_path(dest), dest, o.inst, o.data if same else None


def _ordered(step: dict[str, Any]) -> dict[str, Any]:
    """A move's keys in the order the log format writes them (the comment last)."""
    order = ("type", "from", "to", "card", "count", "comment")
    return {k: step[k] for k in order if k in step}


#: the most characters of a line read from a file that are echoed after the prompt (then its length)
ECHOED = 160


def _reader(interactive: bool, console: Any) -> Callable[[], Optional[str]]:
    """Read one line: with line editing from a terminal (Ctrl-C clears the line, Ctrl-D ends); echoed after
    the prompt from a file (None: the end).  A line that is not UTF-8 is read all the same (its bytes kept
    as surrogate escapes, which the session refuses in one line), and the next lines are read after it."""
    prompt = "move> "
    if interactive:
        try:
            import readline  # noqa: F401 - line editing and history for input()
        except ImportError:  # pragma: no cover - not on every platform
            pass
        try:
            sys.stdin.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]
        except (AttributeError, ValueError):  # pragma: no cover - a stdin that is not a text file
            pass
        told = [False]

        def ask() -> Optional[str]:
            while True:
                try:
                    return input(prompt)
                except EOFError:
                    typer.echo("")
                    return None
                except KeyboardInterrupt:  # as in a shell: the line typed is dropped, the question asked again
                    typer.echo("")
                    if not told[0]:
                        console.print("(Ctrl-C clears the line; Ctrl-D or 'quit' ends the session)", markup=False)
                        told[0] = True
                except UnicodeDecodeError:  # pragma: no cover - surrogateescape takes every byte
                    return "\udcff"
        return ask

    def take() -> Optional[str]:
        raw = sys.stdin.buffer.readline()
        if not raw:
            return None
        line = raw.decode("utf-8", errors="surrogateescape").rstrip("\r\n")
        shown = line if len(line) <= ECHOED else f"{line[:ECHOED]}… ({len(line):,} characters)"
        typer.echo(prompt + _printable(shown))
        return line
    return take


def _printable(line: str) -> str:
    """A line as it may be echoed: bytes that were not UTF-8 as ``\\xNN``, control characters as ``\\uNNNN``."""
    out = []
    for ch in line:
        if "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif not ch.isprintable() and ch != "\t":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _draw(console: Any, session: "Session", codes: bool) -> None:
    """Off a terminal (moves from a file): the table as `replay show` draws it, the last move (and its comment),
    then the legal moves, each line whole."""
    from replay.cli.common import print_table

    n = len(session.moves)
    print_table(console, session.name, session.table.game, session.table, n, n, codes)
    lines = [x for x in (_last(session),) if x] + session.moves_lines() + [_commands(session)]
    for line in lines:
        console.print(line, markup=False)


def _last(session: "Session") -> Optional[str]:
    """``last: move 4 ($.moves[3]) p6 → K2  QS  “a comment”`` (None before the first move)."""
    from replay.log.describe import comment_text
    from replay.log.locate import move_ref
    from replay.play.moves import short_form

    n = len(session.moves)
    if not n:
        return None
    last = session.moves[-1]
    note = f"  {comment_text(last['comment'])}" if last.get("comment") else ""
    return f"last: {move_ref(n - 1)} {short_form(last)}{note}"


def _commands(session: "Session") -> str:
    return f"type a number, a move such as '{session.example()}', 'undo', 'help' or 'quit'"


def _show(console: Any, session: "Session", reply: Any, codes: bool) -> None:
    """At a terminal: the table, the last move, the legal moves and the answer to the line typed (``reply``; None:
    the first screen), fitted to the terminal's width and height (:func:`replay.play.screen.compose`), every
    line cut at word boundaries.  An answer that changes nothing on the screen (help, a note that leaves the
    comment as it was) is printed alone; ``moves`` lists every legal move, without the table."""
    from replay.cli.common import table_drawing, table_header
    from replay.play.moves import not_now, verdict
    from replay.play.screen import Parts, Row, compose, wrap
    from replay.play.session import HELP_COLUMN

    width, height = console.width, console.height
    if reply is not None and reply.listed:
        _rows(console, [Row(x) for line in session.moves_lines() for x in wrap(line, width)])
        return
    if reply is not None and not (reply.changed or reply.redraw or reply.refused):
        hang = HELP_COLUMN if reply.out and reply.out[0].startswith("  ") else None  # the help's two columns
        _rows(console, [Row(x) for line in reply.out for x in wrap(line, width, hang)])
        return
    n, t = len(session.moves), session.table
    drawing, _ = table_drawing(console, t, codes)
    parts = Parts(header=table_header(session.name, t.game, t, n, n), drawing=drawing, last=_last(session),
                  legal=session.legal, verdict=verdict(t, session.legal), not_now=not_now(t, session.legal),
                  said=list(reply.out) if reply else [], refused=list(reply.refused) if reply else [],
                  brief=_brief(session, reply.refused) if reply and reply.refused else None,
                  commands=_commands(session))
    shown = compose(parts, width, height)
    _rows(console, shown.above)
    _rows(console, shown.rows)


def _brief(session: "Session", refused: list[str]) -> Optional[list[str]]:
    """A refused move in one line, for the screen when the refusal is printed in full above it: ``refused: move
    61 ($.moves[60]) t2 → t3: breaks pf-22: 2S is not … (in full above)``; the line before it kept (the moves
    of the same line that were played).  None: not a refused move."""
    import json

    from replay.log.locate import move_ref
    from replay.play.moves import short_form

    p = session.refusal.first if session.refusal is not None else None
    if p is None or p.move is None or p.code not in ("illegal-move", "card-mismatch"):
        return None
    try:
        move = short_form(json.loads(p.written or ""))
    except (ValueError, KeyError, TypeError, AttributeError):
        move = p.written or ""
    why = f"breaks {p.clause}: {p.message}" if p.code == "illegal-move" else p.message
    before = refused[:1] if refused and not refused[0].startswith("refused: illegal") else []
    return before + [f"refused: {move_ref(p.move)} {move}: {why} (in full above)"]


def _rows(console: Any, rows: list[Any]) -> None:
    """Print ``rows`` (:class:`replay.play.screen.Row`): a refusal's on standard error, the drawing with its
    colours."""
    for row in rows:
        if row.where == "err":
            console.file.flush()
            typer.echo(row.text, err=True)
        else:
            console.print(row.text, markup=row.where == "drawing")


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("moves")(moves)
    app.command("play")(play)
