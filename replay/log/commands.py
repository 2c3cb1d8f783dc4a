"""`replay validate`, `replay show`, `replay deal` and `replay schema`: game logs on the command line.

Exit codes (every command): 0 success (every log valid); 1 a log was rejected (illegal or
malformed); 2 usage or I/O error.  See docs/log-format.md.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Callable, List, Optional

import typer

EXIT_CODES_HELP = "Exit codes: 0 every log valid; 1 some log rejected (illegal or malformed); 2 usage or I/O error."


class Format(str, Enum):
    text = "text"
    json = "json"


def _usage(message: str) -> None:
    typer.echo(f"replay: {message}", err=True)
    raise typer.Exit(2)


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

    Exit codes: 0 every log valid; 1 some log rejected (illegal or malformed); 2 usage or I/O error.
    """
    from replay.log.runner import STDIN, collect

    if paths.count(STDIN) > 1:
        _usage("'-' (standard input) may be given once")
    files, errors = collect(paths)
    if all_readings:
        raise typer.Exit(_all_readings(files, errors, until, fmt))
    raise typer.Exit(_validate(files, errors, lenient, until, fmt, jobs, quiet))


def _validate(files: list[str], errors: list, lenient: bool, until: int | None, fmt: Format, jobs: int | None,
              quiet: bool) -> int:
    from replay.log.report import exit_code, json_document, report_lines, summary_line, count_verdicts
    from replay.log.runner import Options, run

    reports = list(errors)
    opts = Options(lenient=lenient, until=until)
    progress = _progress(len(files))
    emit: Callable[[str], None] = typer.echo
    if progress is not None and sys.stdout.isatty():
        def above_the_bar(line: str) -> None:  # same terminal: print above the bar
            progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        emit = above_the_bar
    if fmt is Format.text:
        for r in errors:
            for line in report_lines(r):
                typer.echo(line, err=False)
    try:
        if progress is not None:
            progress.start()
            task = progress.add_task("validating", total=len(files))
        for r in run(files, opts, jobs):
            reports.append(r)
            if progress is not None:
                progress.advance(task)
            if fmt is Format.text and not (quiet and r.ok):
                for line in report_lines(r):
                    emit(line)
    finally:
        if progress is not None:
            progress.stop()
    if fmt is Format.json:
        typer.echo(json_document(reports))
    elif len(reports) > 1:
        typer.echo(summary_line(count_verdicts(reports)))
    return exit_code(reports)


def _progress(n: int):
    """A progress bar on standard error when it is a terminal and there are several logs."""
    if n < 2 or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=Console(file=sys.stderr), transient=True, redirect_stdout=False, redirect_stderr=False)


def _all_readings(files: list[str], errors: list, until: int | None, fmt: Format) -> int:
    import json

    from replay.log.readings import analyse, analysis_lines
    from replay.log.report import report_lines
    from replay.log.runner import STDIN, read_stdin

    code = 2 if errors else 0
    results = []
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
                    data = fh.read()
            except OSError as e:
                from replay.log.runner import _io_error

                errors.append(_io_error(f, f"cannot read: {e.strerror or e}"))
                if fmt is Format.text:
                    typer.echo(report_lines(errors[-1])[0])
                code = 2
                continue
            a = analyse(data, f, until)
        results.append(a)
        code = max(code, a.exit_code)
        if fmt is Format.text:
            for line in analysis_lines(a):
                typer.echo(line)
    if fmt is Format.json:
        doc = {"format": "replay-readings/1", "logs": [a.to_json() for a in results],
               "errors": [r.to_json() for r in errors], "exit_code": code}
        typer.echo(json.dumps(doc, ensure_ascii=False, indent=2))
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

    from replay.log.locate import format_path
    from replay.log.report import Report, problem_lines, report_lines
    from replay.log.render import draw, piles_listing, rich_style, state_line
    from replay.log.validate import Bad, Replay, check_bytes, internal_error, malformed, parse, replay_to

    data, name = _read(log)
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
    game = inst.game
    console = Console(highlight=False, soft_wrap=True)
    style = rich_style if console.is_terminal else (lambda c, t: t)
    form = game.id + (f" ({'+'.join(sorted(game.variants))})" if game.variants else "")
    target = len(parsed.moves) if step is None else step
    console.print(f"{name}: {form}, after move {made} of {len(parsed.moves)}", markup=False)
    from replay.games.catalog import rulings_for

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
    if report.problems:
        rp = Replay(parsed, name, data)
        p = report.problems[0]
        rp.place(p, ["moves", p.move] if p.move is not None else [])
        for line in problem_lines(Report(file=name), p):
            typer.echo(line, err=True)
        typer.echo(f"{name}: the table is shown before move {made}, the first illegal move", err=True)
        raise typer.Exit(1)
    if made < len(parsed.moves):
        nxt = Replay(parsed, name, data).written(made)
        console.print(f"next: move {made} ({format_path(['moves', made])}) {nxt}", markup=False)
    elif made == target:
        console.print(f"end of the log: {table.outcome()}", markup=False)


def _read(path: str) -> tuple[bytes, str]:
    from replay.log.models import MAX_BYTES
    from replay.log.runner import STDIN, read_stdin

    if path == STDIN:
        return read_stdin(), "<stdin>"
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1), path
    except OSError as e:
        _usage(f"{path}: cannot read: {e.strerror or e}")
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
                                      help="Write the log to FILE (default: standard output); never overwrites "
                                           "an existing file."),
) -> None:
    """Write a new log (header and shuffled deck, no moves) to standard output or a file.

    The same seed gives the same deck: the shuffle (SplitMix64 and Fisher-Yates) is described in the
    log format's documentation.
    """
    import secrets

    from replay.log.play import dumps, new_log
    from replay.log.validate import Bad, instance

    rulings: dict[str, str] = {}
    for r in ruling:
        name, sep, reading = r.partition("=")
        if not sep or not name or not reading:
            _usage(f"--ruling takes NAME=READING, not {r!r}")
        rulings[name.strip()] = reading.strip()
    if out is not None and os.path.lexists(out):
        _usage(f"--out {out}: the file exists; choose another name (a log is never overwritten)")
    if out is not None and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        _usage(f"--out {out}: no such directory")
    try:
        inst = instance(game, variant, rulings)
    except Bad as bad:
        _usage(bad.message)
    if seed is None:
        seed = secrets.randbelow(2**32)
    g = inst.game
    log = new_log(g, g.deck_from_seed(seed), meta={"source": f"replay deal --seed {seed}", "seed": seed})
    if out is None:
        typer.echo(dumps(log), nl=False)
        return
    _write_new(out, dumps(log))
    typer.echo(f"wrote {out}", err=True)


def _write_new(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file beside it, then a link), never replacing a file."""
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".replay-", suffix=".json")
    except OSError as e:
        _usage(f"--out {path}: cannot write: {e.strerror or e}")
        raise  # unreachable
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.link(tmp, path)  # fails when path exists, unlike a rename: a file that appeared meanwhile is kept
    except FileExistsError:
        _usage(f"--out {path}: the file exists; choose another name (a log is never overwritten)")
    except OSError as e:
        _usage(f"--out {path}: cannot write: {e.strerror or e}")
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


# --------------------------------------------------------------------------- schema


def schema() -> None:
    """Print the JSON Schema of the log format (as published in docs/schema/replay-log-1.schema.json)."""
    from replay.log.models import schema_text

    typer.echo(schema_text(), nl=False)


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("validate")(validate)  # its help ends with EXIT_CODES_HELP (the docstring), once
    app.command("show")(show)
    app.command("deal")(deal)
    app.command("schema")(schema)
