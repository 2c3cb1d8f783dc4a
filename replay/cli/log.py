"""`replay validate`, `replay show`, `replay deal` and `replay schema`: game logs on the command line.

Exit codes (every command): 0 success (every log valid); 1 a log was rejected (illegal or
malformed); 2 usage or I/O error.  See docs/log-format.md.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Callable, List, Optional

import typer

from replay.cli import complete
from replay.cli.common import Format, new_game, open_log, print_table, print_violation, usage

if TYPE_CHECKING:
    from replay.log.report import Report


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

    A file name that is not UTF-8 or holds a control character (C0, C1, a bidirectional override, a zero-width character) is shown quoted and escaped, as git does (\\u202e for U+202E).

    Exit codes: 0 every log valid; 1 some log rejected (illegal or malformed); 2 usage or I/O error.
    """
    from replay.log.runner import STDIN, collect

    if paths.count(STDIN) > 1:
        usage("'-' (standard input) may be given once")
    if all_readings and lenient:
        usage("--lenient cannot be combined with --all-readings (which reports the first problem under each "
               "reading set)")
    if all_readings and (quiet or jobs is not None):  # it reads the logs in one process and prints each
        usage(f"{'--quiet' if quiet else '--jobs'} does nothing with --all-readings")
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
    from replay.log.locate import move_ref
    from replay.log.validate import Replay

    o = open_log(log, step)
    parsed, name, data, table, made = o.log, o.name, o.data, o.table, o.made
    console = Console(highlight=False, soft_wrap=True)
    target = len(parsed.moves) if step is None else step
    print_table(console, name, o.inst.game, table, made, len(parsed.moves), codes, full)
    comment = parsed.moves[made - 1].comment if made else None
    if comment:
        console.print(f"comment on {move_ref(made - 1)}: {comment_text(comment)}", markup=False)
    if o.report.problems:
        print_violation(o)
        typer.echo(f"{name}: the table is shown before {move_ref(made)}, the first illegal move", err=True)
        raise typer.Exit(1)
    if made < len(parsed.moves):
        nxt = Replay(parsed, name, data).written(made)
        console.print(f"next: {move_ref(made)} {nxt}", markup=False)
    elif made == target:
        console.print(f"end of the log: {table.outcome()}", markup=False)


# --------------------------------------------------------------------------- deal


def deal(
    game: str = typer.Argument(..., metavar="GAME", help="A game ID (see replay games).",
                               autocompletion=complete.games),
    variant: List[str] = typer.Option([], "--variant", metavar="VARIANT", help="A variant (repeatable).",
                                      autocompletion=complete.variants),
    ruling: List[str] = typer.Option([], "--ruling", "-r", metavar="NAME=READING", autocompletion=complete.rulings,
                                     help="A ruling's reading (repeatable)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", min=0, metavar="SEED",
                                       help="Seed of the shuffle (default: a random one)."),
    out: Optional[str] = typer.Option(None, "--out", "-o", metavar="FILE",
                                      help="Write the log to FILE (default, or -: standard output), atomically."),
    force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists."),
) -> None:
    """Write a new log (header and shuffled deck, no moves) to standard output or a file.

    The same seed gives the same deck: the shuffle (SplitMix64 and Fisher-Yates) is described in the
    log format's documentation.
    """
    from replay.cli.common import to_stdout
    from replay.fsio import WriteRefused, check_target, write_text
    from replay.log.play import dumps

    if to_stdout(out):  # -o -: standard output, as in curl
        out = None
    try:
        if out is not None:  # before any work: a bad output path costs nothing
            check_target(out, force=force)
        _, log = new_game(game, variant, ruling, seed)
        if out is None:
            typer.echo(dumps(log), nl=False)
            return
        write_text(out, dumps(log), force=force)
    except WriteRefused as e:
        usage(e.message)
    typer.echo(f"wrote {out}", err=True)


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
