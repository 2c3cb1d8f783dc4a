"""`replay validate`, `replay show`, `replay deal` and `replay schema`: game logs on the command line.

Exit codes (every command): 0 success (every log valid); 1 a log was rejected (illegal or
malformed); 2 usage or I/O error.  See docs/log-format.md.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, List, Optional

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from replay.engine.game import Game, Table
    from replay.log.models import GameLog
    from replay.log.report import Report
    from replay.log.validate import Instance


class Format(str, Enum):
    text = "text"
    json = "json"


def _usage(message: str) -> None:
    from replay.cli import fail  # at call time: replay.cli imports this module

    fail(message, 2)


# --------------------------------------------------------------------------- validate


def validate(
    paths: List[str] = typer.Argument(
        ..., metavar="PATH...", help="Log files, directories (every *.json below them) or - for standard input.",
        show_default=False,
    ),
    lenient: bool = typer.Option(False, "--lenient", help="Go on after a violation and list them all."),
    until: Optional[int] = typer.Option(None, "--until", min=0, metavar="N",
                                        help="Stop after N moves (the result claim is then not checked)."),
    fmt: Format = typer.Option(Format.text, "--format", help="text for people, json for programs."),
    all_readings: bool = typer.Option(
        False, "--all-readings",
        help="Replay under every reading of every ruling of the game and report under which the log is legal.",
    ),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Processes to use (default: every core)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Text: print only the rejected logs and the summary."),
) -> None:
    """Replay recorded games against the rules: valid, or the first illegal move and the clause it breaks.

    Each report is written as soon as its log is checked (--format json: one document, written incrementally).

    A file name that is not UTF-8 or holds a control character is shown quoted and escaped, as git does.

    Exit codes: 0 every log valid; 1 some log rejected (illegal or malformed); 2 usage or I/O error.
    """
    from replay.log.runner import STDIN, collect

    if paths.count(STDIN) > 1:
        _usage("'-' (standard input) may be given once")
    if all_readings and lenient:
        _usage("--lenient cannot be combined with --all-readings (which reports the first problem under each "
               "reading set)")
    if all_readings and (quiet or jobs is not None):  # it reads the logs in one process and prints each
        _usage(f"{'--quiet' if quiet else '--jobs'} does nothing with --all-readings")
    files, errors = collect(paths)
    if all_readings:
        raise typer.Exit(_all_readings(files, errors, until, fmt))
    raise typer.Exit(_validate(files, errors, lenient, until, fmt, jobs, quiet))


def _validate(files: list[str], errors: list, lenient: bool, until: int | None, fmt: Format, jobs: int | None,
              quiet: bool) -> int:
    """Validate ``files``, writing each verdict as soon as it is known (reports are not kept: memory stays flat)."""
    from replay.log.report import JsonStream, Report, Tally, report_lines, summary_line
    from replay.log.runner import Options, run

    opts = Options(lenient=lenient, until=until)
    progress = _progress(len(files))
    emit: Callable[[str], None] = typer.echo
    if progress is not None and sys.stdout.isatty():
        def above_the_bar(line: str) -> None:  # same terminal: print above the bar
            progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        emit = above_the_bar
    stream = JsonStream(lambda text: typer.echo(text, nl=False)) if fmt is Format.json else None
    tally = stream.tally if stream is not None else Tally()

    def one(r: Report, out: Callable[[str], None]) -> None:
        if stream is not None:
            stream.add(r)
            return
        tally.add(r)
        if not (quiet and r.ok):
            for line in report_lines(r):
                out(line)

    for r in errors:
        one(r, typer.echo)
    try:
        if progress is not None:
            progress.start()
            task = progress.add_task("validating", total=len(files))
        for r in run(files, opts, jobs):
            if progress is not None:
                progress.advance(task)
            one(r, emit)
            if until is not None and until > r.moves and r.game is not None:
                typer.echo(f"replay: warning: {r.file} has {r.moves} move{'s' if r.moves != 1 else ''}; "
                           f"--until {until} is past its end (every move was replayed)", err=True)
    finally:
        if progress is not None:
            progress.stop()
    if stream is not None:
        return stream.close()
    if tally.total > 1:
        typer.echo(summary_line(tally.counts))
    return tally.exit_code


def _progress(n: int):
    """A progress bar on standard error when it is a terminal and there are several logs."""
    if n < 2 or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=Console(file=sys.stderr), transient=True, redirect_stdout=False, redirect_stderr=False)


def _all_readings(files: list[str], errors: list, until: int | None, fmt: Format) -> int:
    from replay.log.models import MAX_BYTES
    from replay.log.names import shown
    from replay.log.readings import analyse, analysis_lines
    from replay.log.report import report_lines
    from replay.log.runner import STDIN, read_stdin

    from replay.log.report import JsonStream

    code = 2 if errors else 0
    # --format json: each log's analysis is written as soon as it is made (memory stays flat)
    stream = JsonStream(lambda text: typer.echo(text, nl=False), "replay-readings/1") if fmt is Format.json \
        else None
    if fmt is Format.text:
        for r in errors:
            for line in report_lines(r):
                typer.echo(line)
    for f in files:
        if f == STDIN:
            a = analyse(read_stdin(), "<stdin>", until)
        else:
            try:
                with open(f, "rb") as fh:
                    data = fh.read(MAX_BYTES + 1)
            except OSError as e:
                from replay.log.runner import _io_error

                errors.append(_io_error(f, f"cannot read: {e.strerror or e}"))
                if fmt is Format.text:
                    typer.echo(report_lines(errors[-1])[0])
                code = 2
                continue
            a = analyse(data, shown(f), until)
        if stream is not None:
            stream.add_json(a.to_json())
        code = max(code, a.exit_code)
        if until is not None and a.trials and until > a.trials[0].report.moves:
            typer.echo(f"replay: warning: {a.file} has {a.trials[0].report.moves} moves; --until {until} is past "
                       "its end (every move was replayed)", err=True)
        if fmt is Format.text:
            for line in analysis_lines(a):
                typer.echo(line)
    if stream is not None:
        stream.close({"errors": [r.to_json() for r in errors], "exit_code": code}, tally=False)
    return code


# --------------------------------------------------------------------------- show


def show(
    log: str = typer.Argument(..., metavar="LOG", help="A log file, or - for standard input."),
    step: Optional[int] = typer.Option(None, "--step", min=0, metavar="N",
                                       help="Show the table after N moves (0: before the first; default: the end)."),
    codes: bool = typer.Option(False, "--codes", help="Card codes (TH) instead of symbols (10♥)."),
    full: bool = typer.Option(False, "--full", help="Also list every pile's cards, bottom first."),
) -> None:
    """Draw the table of a log at a step, in the layout's shape, with the pile names."""
    from rich.console import Console

    from replay.log.describe import comment_text
    from replay.log.locate import format_path
    from replay.log.validate import Replay

    o = open_log(log, step)
    parsed, name, data, table, made = o.log, o.name, o.data, o.table, o.made
    console = Console(highlight=False, soft_wrap=True)
    target = len(parsed.moves) if step is None else step
    print_table(console, name, o.inst.game, table, made, len(parsed.moves), codes, full)
    comment = parsed.moves[made - 1].comment if made else None
    if comment:
        console.print(f"comment on move {made - 1}: {comment_text(comment)}", markup=False)
    if o.report.problems:
        print_violation(o)
        typer.echo(f"{name}: the table is shown before move {made}, the first illegal move", err=True)
        raise typer.Exit(1)
    if made < len(parsed.moves):
        nxt = Replay(parsed, name, data).written(made)
        console.print(f"next: move {made} ({format_path(['moves', made])}) {nxt}", markup=False)
    elif made == target:
        console.print(f"end of the log: {table.outcome()}", markup=False)


@dataclass
class Opened:
    """A log read, parsed and replayed up to a step (by :func:`open_log`)."""

    name: str  #: the file as named on the command line (``<stdin>`` for ``-``)
    data: bytes
    log: GameLog
    inst: Instance
    table: Table  #: the table after ``made`` moves
    made: int  #: moves replayed: the step asked for, or the first illegal move
    report: Report  #: the replay so far; its first problem is the illegal move that stopped it


def open_log(path: str, step: Optional[int] = None) -> Opened:
    """Read, parse and replay the log at ``path`` (``-``: standard input) up to ``step`` moves (None: all).

    Bad input ends the command as ``validate`` reports it: a malformed log in one line on
    standard error and exit 1; an unreadable file or a step beyond the log, exit 2.  An illegal
    move stops the replay before it; the caller finds it in ``report.problems``.
    """
    from replay.log.report import report_lines
    from replay.log.validate import Bad, Replay, check_bytes, internal_error, malformed, parse, replay_to

    data, name = _read(path)
    try:
        parsed = parse(data)
    except Bad:
        for line in report_lines(check_bytes(data, name)):  # the malformed verdict, with line and column
            typer.echo(line, err=True)
        raise typer.Exit(1)
    if step is not None and step > len(parsed.moves):
        _usage(f"{name} has {len(parsed.moves)} moves; --step must be 0 to {len(parsed.moves)}")
    try:
        inst, table, made, report = replay_to(parsed, step)
    except Bad as bad:
        for line in report_lines(malformed(name, bad, Replay(parsed, name, data))):
            typer.echo(line, err=True)
        raise typer.Exit(1)
    except Exception as e:  # noqa: BLE001 - never a traceback on the command line
        for line in report_lines(internal_error(name, e)):
            typer.echo(line, err=True)
        raise typer.Exit(2)
    return Opened(name, data, parsed, inst, table, made, report)


def print_violation(o: Opened) -> None:
    """The illegal move that stopped :func:`open_log`, on standard error, as ``validate`` shows it."""
    from replay.log.report import Report, problem_lines
    from replay.log.validate import Replay

    p = o.report.problems[0]
    Replay(o.log, o.name, o.data).place(p, ["moves", p.move] if p.move is not None else [])
    for line in problem_lines(Report(file=o.name), p):
        typer.echo(line, err=True)


def print_table(console: "Console", name: str, game: Game, table: Table, made: int, total: int, codes: bool = False,
                full: bool = False) -> None:
    """What ``replay show`` prints of a table: the game, rulings and state, the drawing (and every pile)."""
    from replay.games.catalog import rulings_for
    from replay.log.render import draw, piles_listing, rich_style, state_line

    style = rich_style if console.is_terminal else (lambda c, t: t)
    form = game.id + (f" ({'+'.join(sorted(game.variants))})" if game.variants else "")
    console.print(f"{name}: {form}, after move {made} of {total}", markup=False)
    defs = rulings_for(game.id)
    changed = {k: v for k, v in game.rulings.items() if defs[k].default != v}
    if changed:
        console.print("rulings: " + ", ".join(f"{k}={v}" for k, v in changed.items()), markup=False)
    console.print(f"layout {game.layout.spec.id}; {state_line(table)}", markup=False)
    console.print()
    for line in draw(table, codes, style):
        console.print(line, markup=style is rich_style)
    if full:
        console.print()
        for line in piles_listing(table, codes, style):
            console.print(line, markup=style is rich_style)
    console.print()


def _read(path: str) -> tuple[bytes, str]:
    from replay.log.models import MAX_BYTES
    from replay.log.names import shown
    from replay.log.runner import STDIN, read_stdin

    if path == STDIN:
        return read_stdin(), "<stdin>"
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1), shown(path)
    except OSError as e:
        _usage(f"{shown(path)}: cannot read: {e.strerror or e}")
        raise  # unreachable


# --------------------------------------------------------------------------- deal


def deal(
    game: str = typer.Argument(..., metavar="GAME", help="A game ID (see replay games)."),
    variant: List[str] = typer.Option([], "--variant", metavar="VARIANT", help="A variant (repeatable)."),
    ruling: List[str] = typer.Option([], "--ruling", "-r", metavar="NAME=READING",
                                     help="A ruling's reading (repeatable)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", min=0, metavar="SEED",
                                       help="Seed of the shuffle (default: a random one)."),
    out: Optional[str] = typer.Option(None, "--out", "-o", metavar="FILE",
                                      help="Write the log to FILE (default: standard output), atomically."),
    force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists."),
) -> None:
    """Write a new log (header and shuffled deck, no moves) to standard output or a file.

    The same seed gives the same deck: the shuffle (SplitMix64 and Fisher-Yates) is described in the
    log format's documentation.
    """
    from replay.fsio import WriteRefused, check_target, write_text
    from replay.log.play import dumps

    try:
        if out is not None:  # before any work: a bad output path costs nothing
            check_target(out, force=force)
        _, log = new_game(game, variant, ruling, seed)
        if out is None:
            typer.echo(dumps(log), nl=False)
            return
        write_text(out, dumps(log), force=force)
    except WriteRefused as e:
        _usage(e.message)
    typer.echo(f"wrote {out}", err=True)


def ruling_options(items: List[str]) -> dict[str, str]:
    """The ``--ruling NAME=READING`` options of any command as a dict; a malformed one ends it (exit 2)."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, reading = item.partition("=")
        if not sep or not name or not reading:
            _usage(f"--ruling takes NAME=READING, not {item!r}")
        out[name.strip()] = reading.strip()
    return out


def new_game(game: str, variants: List[str], rulings: List[str], seed: Optional[int], command: str = "replay deal"
             ) -> tuple[Instance, dict[str, Any]]:
    """The instance and the new log (header and deck of ``seed``, no moves) of ``replay deal``'s options
    (``command`` names the command in ``meta.source``).

    A bad option ends the command: one line on standard error, exit 2.  Without a seed a random
    one is drawn; either way it is recorded in ``meta.seed``.
    """
    import secrets

    from replay.log.play import new_log
    from replay.log.validate import Bad, instance

    readings = ruling_options(rulings)
    try:
        inst = instance(game, variants, readings)
    except Bad as bad:
        _usage(bad.message)
    if seed is None:
        seed = secrets.randbelow(2**32)
    elif seed > 2**64 - 1:
        _usage("--seed must be below 2^64: the shuffle's state has 64 bits")
    g = inst.game
    return inst, new_log(g, g.deck_from_seed(seed), meta={"source": f"{command} --seed {seed}", "seed": seed})


# --------------------------------------------------------------------------- schema


def schema() -> None:
    """Print the JSON Schema of the log format (as published in docs/schema/replay-log-1.schema.json)."""
    from replay.log.models import schema_text

    typer.echo(schema_text(), nl=False)


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("validate")(validate)  # its help ends with its exit codes (the docstring), once
    app.command("show")(show)
    app.command("deal")(deal)
    app.command("schema")(schema)
