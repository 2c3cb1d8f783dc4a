"""What the commands share: one-line errors (:func:`fail`), ``--format`` (:class:`Format`),
``--ruling NAME=READING`` (:func:`ruling_options`), and reading, replaying and showing one log
(:func:`read_log`, :func:`open_log`, :func:`print_violation`, :func:`print_table`, :func:`new_game`).

Only the command modules of :mod:`replay.cli` use them; heavy imports stay inside the functions so
that ``replay --help`` is fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, List, NoReturn, Optional

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from replay.engine.game import Game, Table
    from replay.log.models import GameLog
    from replay.log.report import Report
    from replay.log.validate import Instance


class Format(str, Enum):
    """``--format``: what goes to standard output, text for people or JSON for programs (every command)."""

    text = "text"
    json = "json"


class Method(str, Enum):
    """``--method``: how the solver searches (``replay.solver.nested.METHODS``; a test holds the two equal).

    ``portfolio`` (the default, the strongest measured: benchmarks/README.md) runs a bounded depth-first
    search, which proves losses, then a nested Monte-Carlo search made to find wins with the rest of the
    budget; ``depth-first`` the depth-first search alone; ``nmcs`` and ``nrpa`` a nested search alone.
    """

    portfolio = "portfolio"
    depth_first = "depth-first"
    nmcs = "nmcs"
    nrpa = "nrpa"


METHOD_HELP = ("How to search: portfolio (a depth-first search, which proves losses, then a nested Monte-Carlo "
               "search made to find wins), depth-first, nmcs or nrpa (a nested search alone).")


def budget_of(nodes: int | None, seconds: float | None, default_nodes: int) -> Any:
    """The ``Budget`` of ``--nodes`` and ``--seconds`` (:meth:`replay.solver.search.Budget.asked`: neither given,
    ``default_nodes``; one given, that one alone; both, whichever runs out first); a bad value fails in one
    line (exit 2)."""
    from replay.solver.search import Budget

    try:
        return Budget.asked(nodes, seconds, default_nodes)
    except ValueError as e:
        fail(str(e))


#: ``-o -``: standard output, as in curl (every command with ``-o``; those that cannot write there say so)
STDOUT = "-"


def to_stdout(out: object) -> bool:
    """Whether an ``--out`` value means standard output (``-``)."""
    return out is not None and str(out) == STDOUT


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line to stderr (white space folded: never two lines) and exit with ``code``.

    Every command's one-line errors come here.
    """
    typer.echo(f"replay: {' '.join(str(message).split())}", err=True)
    raise typer.Exit(code)


def usage(message: str) -> NoReturn:
    """A usage or I/O error: one line on standard error, exit 2."""
    fail(message, 2)


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

    data, name = read_log(path)
    try:
        parsed = parse(data)
    except Bad:
        for line in report_lines(check_bytes(data, name)):  # the malformed verdict, with line and column
            typer.echo(line, err=True)
        raise typer.Exit(1)
    if step is not None and step > len(parsed.moves):
        usage(f"{name} has {len(parsed.moves)} moves; --step must be 0 to {len(parsed.moves)}")
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
    from replay.log.render import piles_listing, rich_style

    width = console.width if console.is_terminal else None
    head = table_header(name, game, table, made, total)
    for line in head[:-1]:
        console.print(line, markup=False)
    for line in fit_line(head[-1], width, sep="; "):
        console.print(line, markup=False)
    console.print()
    drawing, markup = table_drawing(console, table, codes)
    for line in drawing:
        console.print(line, markup=markup)
    if full:
        console.print()
        style = rich_style if console.is_terminal else (lambda c, t: t)
        for line in piles_listing(table, codes, style):
            console.print(line, markup=markup)
    console.print()


def table_header(name: str, game: Game, table: Table, made: int, total: int) -> list[str]:
    """The first lines :func:`print_table` prints: the game and the move, the rulings not at their default (when
    any), the layout and the state (unfitted: the state line is long)."""
    from replay.games.catalog import rulings_for
    from replay.log.render import state_line

    form = game.id + (f" ({'+'.join(sorted(game.variants))})" if game.variants else "")
    out = [f"{name}: {form}, after move {made} of {total}"]
    defs = rulings_for(game.id)
    changed = {k: v for k, v in game.rulings.items() if defs[k].default != v}
    if changed:
        out.append("rulings: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    out.append(f"layout {game.layout.spec.id}; {state_line(table)}")
    return out


def table_drawing(console: "Console", table: Table, codes: bool = False) -> tuple[list[str], bool]:
    """The drawing of the table fitted to the console's width (a terminal's), and whether its lines carry rich
    markup (the red suits, on a terminal)."""
    from replay.log.render import draw, rich_style

    if console.is_terminal:
        return draw(table, codes, rich_style, console.width), True
    return draw(table, codes, lambda c, t: t, None), False


def fit_line(line: str, width: int | None, sep: str = " ") -> list[str]:
    """``line`` in lines of at most ``width`` characters (a terminal's), cut where ``sep`` stands (a space; the
    state line's ``"; "``, which stays at the end of the line it ends), each further line indented two spaces
    past the first's indent; as it is when it fits or ``width`` is None (not a terminal).  A word longer than
    the width stays whole (the terminal wraps it)."""
    if width is None or len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    words = line.split(sep)
    out: list[str] = []
    cur = words[0]
    for w in words[1:]:
        if not w and sep == " ":  # two spaces in a row: kept within a line, dropped at a cut
            cur += sep
            continue
        if len(cur) + len(sep) + len(w) <= width or cur.strip() == "":
            cur += sep + w
        else:
            out.append((cur + sep).rstrip())
            cur = indent + w
    out.append(cur)
    return out


def note_missing_fast_core() -> None:
    """Say in one line on standard error when the solver will search without its fast core (not built, no
    compiler or one that fails, or a library that does not load): the answers are the same, 35 to 90 times
    slower.  The
    install cannot say it (pip shows a build's messages only with -v); REPLAY_NO_FASTCORE=1 asks for it, so
    that is not noted."""
    from replay import fastcore, settings

    if settings.get("REPLAY_NO_FASTCORE") or fastcore.library() is not None:
        return
    from replay.fastcore.build import status

    typer.echo(f"replay: note: {status()}; the same answers, 35 to 90 times slower (with a working C compiler, "
               "cc or $CC, python -m replay.fastcore.build builds it)", err=True)


def read_log(path: str) -> tuple[bytes, str]:
    """The bytes of the log at ``path`` (``-``: standard input), at most the size cap and one byte, and its
    name as shown; an unreadable file ends the command (exit 2), as ``validate`` reports it."""
    from replay.log.models import MAX_BYTES
    from replay.log.names import shown
    from replay.log.runner import STDIN, read_stdin

    if path == STDIN:
        return read_stdin(), "<stdin>"
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1), shown(path)
    except OSError as e:
        usage(f"{shown(path)}: cannot read: {e.strerror or e}")
        raise  # unreachable


def ruling_options(items: List[str]) -> dict[str, str]:
    """The ``--ruling NAME=READING`` options of any command as a dict; a malformed one ends it (exit 2)."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, reading = item.partition("=")
        if not sep or not name or not reading:
            usage(f"--ruling takes NAME=READING, not {item!r}")
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
        usage(bad.message)
    if seed is None:
        seed = secrets.randbelow(2**32)
    elif seed > 2**64 - 1:
        usage("--seed must be below 2^64: the shuffle's state has 64 bits")
    g = inst.game
    return inst, new_log(g, g.deck_from_seed(seed), meta={"source": f"{command} --seed {seed}", "seed": seed})
