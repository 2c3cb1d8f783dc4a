"""``replay solve`` and ``replay stats``: the solver and the win-rate tables on the command line.

Heavy imports stay inside the command functions so that ``replay --help`` is fast.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, List, Optional

import typer

from replay.cli import complete
from replay.cli.common import (METHOD_HELP, Format, Method, budget_of, fail, note_missing_fast_core,
                               ruling_options)  # one --format, one --ruling for every command

if TYPE_CHECKING:
    from replay.engine.game import Game, Table
    from replay.solver.search import Budget, Result


#: the position budget per deal of `replay stats` when neither --nodes nor --seconds is given (the table's)
STATS_NODES = 100_000

#: exit codes of `replay solve` beside 0 (won), 1 (rejected log) and 2 (usage or I/O)
EXIT_UNWINNABLE, EXIT_UNKNOWN = 3, 4


def _cpus() -> int:
    import os

    return os.cpu_count() or 1


def _command(*parts: object, **options: object) -> str:
    """The canonical command line of a run (recorded in the data it makes)."""
    words = ["replay", "stats"] + [str(p) for p in parts]
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if v is None or v is False:
                continue
            words.append(flag if v is True else f"{flag} {v}")
    return " ".join(words)


def _write_data(data: dict, out: Path | None, inputs: list[Path], force: bool, updating: bool) -> None:
    """The table's data file to ``out`` (atomically), or to standard output (``out`` None: ``-o -``)."""
    from replay.fsio import WriteRefused
    from replay.solver import table as T

    if out is None:  # -o -
        import json

        typer.echo(json.dumps(data, indent=1, ensure_ascii=False))
        return
    try:
        T.save(data, out, inputs=inputs, force=force, update=updating)
    except WriteRefused as e:
        fail(e.message)
    typer.echo(f"wrote {out}", err=True)


def _solve_interruptibly(game: Game, table: Table, budget: Budget, method: str) -> Result:
    """The search of ``method`` (``replay.solver.nested.play``) with its progress on stderr (when a terminal)
    and Ctrl-C ending it with its best so far."""
    import signal
    import sys

    from replay.solver.nested import play

    asked = []

    def stop(signum: int, frame: object) -> None:
        asked.append(signum)

    try:
        before = signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread: no handler, Ctrl-C behaves as usual
        before = None
    try:
        with _search_progress(_cards(table), sys.stderr.isatty()) as show:
            return play(game, table, method=method, budget=budget, progress=show, should_stop=lambda: bool(asked))
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)


def _cards(table: Table) -> int:
    """The cards of the deal (96 or 104, as the game's deck has them)."""
    return sum(len(p) for p in table.piles)


@contextmanager
def _search_progress(cards: int, terminal: bool) -> Iterator[Optional[Callable[[int, int, float], None]]]:
    """The search's progress on standard error, drawn by rich as every long command's (positions, most cards
    home, time; cleared at the end): the ``progress`` callback of the search, or None when standard error is
    not a terminal."""
    if not terminal:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("searching: {task.fields[positions]} positions, at best "
                                              "{task.fields[best]}/{task.fields[cards]} cards home"),
                  TimeElapsedColumn(), TextColumn("(Ctrl-C stops)"), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task("searching", total=None, positions="0", best=0, cards=cards)

        def show(nodes: int, best: int, seconds: float) -> None:
            bar.update(task, positions=f"{nodes:,}", best=best)

        yield show


def _unknown_why(r: Result, cards: int) -> str:
    """Why a search ended unknown, and how far it came: ``the nodes budget ran out; at best 91 of 104 cards home
    in 10,000,000 positions``."""
    if r.stopped_by == "interrupted":
        why = "interrupted"
    elif r.stopped_by == "memory":
        why = "the positions searched filled the memory allowed (REPLAY_SOLVER_MEMORY, in MiB)"
    else:
        why = f"the {r.stopped_by} budget ran out"
    return f"{why}; at best {r.best_home} of {cards} cards home in {r.positions:,} positions"


def register(app: typer.Typer) -> None:
    """Add ``solve`` and ``stats`` to ``app``."""

    @app.command("solve")
    def solve_cmd(
        log: Optional[Path] = typer.Argument(
            None, metavar="LOG|GAME", autocompletion=complete.logs_or_games,
            help="A log (a deal, with or without moves) to continue, or a game ID (with --seed)."),
        game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=complete.games,
                                           help="Game ID (with --seed, instead of a log)."),
        seed: Optional[int] = typer.Option(None, "--seed", "-s", metavar="SEED",
                                           help="The deal that replay deal --seed SEED makes."),
        variant: List[str] = typer.Option([], "--variant", metavar="VARIANT", autocompletion=complete.variants,
                                          help="A variant (repeatable; with --game)."),
        ruling: List[str] = typer.Option([], "--ruling", "-r", metavar="NAME=READING",
                                         autocompletion=complete.rulings,
                                         help="A ruling's reading (repeatable; with --game)."),
        nodes: Optional[int] = typer.Option(None, "--nodes", metavar="N", show_default=False,
                                            help="Budget: positions (0: no limit; default 200,000 unless --seconds "
                                                 "is given)."),
        seconds: Optional[float] = typer.Option(None, "--seconds", metavar="SECONDS",
                                                help="Budget: seconds (machine-dependent; alone, the only budget)."),
        method: Method = typer.Option(Method.portfolio, "--method", help=METHOD_HELP),
        out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                           help="Write the won log to FILE (default, or -: standard output)."),
        force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists (never the input log)."),
    ) -> None:
        """Search for a winning line and write it as a complete log.

        The verdict goes to standard error: won (the log is written), unwinnable (the search was
        exhaustive, or a proof of loss settled it) or unknown (a budget ran out; it says how far the search
        got: the most cards home in any position reached, and the positions searched).  The default method, a
        portfolio, proves what a depth-first search can prove within a share of the budget, then plays
        with a nested Monte-Carlo search made to find wins; for a seed and a position budget the answer
        is the same on every machine.  On a terminal the
        search shows its progress on standard error (positions, most cards home, time); Ctrl-C ends
        it with what it found so far (unknown, "interrupted").

        Exit codes: 0 won; 3 unwinnable; 4 unknown (a budget ran out); 130 interrupted; 1 the log
        is rejected; 2 usage or I/O error (an unknown game, variant or ruling too).
        """
        from replay.engine.errors import BadCombination, ReplayError, UnknownName
        from replay.solver import logs as L
        from replay.solver.search import DEFAULT_NODES, WON
        from replay.solver.version import code_version

        budget = budget_of(nodes, seconds, DEFAULT_NODES)
        from replay.cli.common import to_stdout

        if to_stdout(out):  # -o -: standard output, as in curl
            out = None
        if log is not None and game is None and not log.exists():
            from replay.games.catalog import MODULES

            if str(log) in MODULES:  # `replay solve GAME --seed N`, as `replay stats GAME`
                game, log = str(log), None
            else:
                fail(f"{log}: no such log file, and not a game ID (games: {', '.join(MODULES)})")
        if log is not None and (game or seed is not None or variant or ruling):
            fail("give either a log or --game with --seed, not both")
        if seed is not None and seed > 2**64 - 1:
            fail("--seed must be below 2^64: the shuffle's state has 64 bits")
        if out is not None:  # before the search: a bad output path costs nothing
            from replay.fsio import WriteRefused, check_target

            try:
                check_target(out, inputs=[log] if log is not None else [], force=force)
            except WriteRefused as e:
                fail(e.message)
        try:
            if log is not None:
                from replay.cli.common import read_log  # the size cap and I/O errors (exit 2) of validate

                loaded = L.load_bytes(*read_log(str(log)))
                g, deck, before, table = loaded.game, loaded.deck, loaded.steps, loaded.table
                source = f"replay solve, from {log.name}"
                if isinstance(loaded.data.get("meta"), dict) and "source" in loaded.data["meta"]:
                    source += f" ({loaded.data['meta']['source']})"
            else:
                if game is None or seed is None:
                    fail("give a log, or --game and --seed")
                if seed < 0:
                    fail("--seed must be a non-negative integer")
                from replay.games.catalog import create

                try:
                    g = create(game, variant, ruling_options(ruling))
                except (UnknownName, BadCombination) as e:
                    fail(e.one_line(), 2)
                deck = g.deck_from_seed(seed)
                before, table = [], g.new_table(deck)
                source = f"replay solve, seed {seed}"
        except ReplayError as e:
            fail(e.one_line(), 1)
        note_missing_fast_core()
        r = _solve_interruptibly(g, table, budget, method.value)
        core = ", fast core" if "c" in r.core.split("+") else ""
        facts = (f"{r.nodes} nodes, {r.positions} positions, {r.seconds:.2f} s{core}; method {method.value}, "
                 f"budget {budget.describe()}")
        if r.status != WON:
            if r.proved_by:
                why = f"proved lost: {r.proved_by}" + (f" ({r.proof})" if r.proof else "")
            else:
                why = _unknown_why(r, _cards(table))
            typer.echo(f"{r.status}: {why} ({facts})", err=True)
            if r.stopped_by == "interrupted":
                raise typer.Exit(130)
            raise typer.Exit(EXIT_UNKNOWN if r.status == "unknown" else EXIT_UNWINNABLE)
        solver_facts = {"method": method.value, "nodes": r.nodes, "budget": budget.describe(),
                        "version": code_version()}
        if log is not None and isinstance(loaded.data.get("meta"), dict):
            # the player's meta stays as it was; the solver's facts go beside it
            meta = {**loaded.data["meta"], "solver": {"source": source, "moves": len(r.line), **solver_facts}}
        else:
            meta = {"source": source, "player": "solver", "solver": solver_facts}
        text = L.dumps(L.make_log(g, deck, r.line, "won", meta, before=before, table=table))
        line = before + r.line
        if out is not None:
            from replay.fsio import WriteRefused, write_text

            try:
                write_text(out, text, inputs=[log] if log is not None else [], force=force)
            except WriteRefused as e:
                fail(e.message)
            typer.echo(f"won in {len(line)} moves ({facts}); log written to {out}", err=True)
        else:
            typer.echo(text, nl=False)
            typer.echo(f"won in {len(line)} moves ({facts})", err=True)

    @app.command("stats")
    def stats_cmd(
        game: Optional[str] = typer.Argument(None, metavar="GAME", autocompletion=complete.games,
                                             help="Game ID (not with --table or --page)."),
        variant: List[str] = typer.Option([], "--variant", metavar="VARIANT", autocompletion=complete.variants,
                                          help="A variant (repeatable)."),
        ruling: List[str] = typer.Option([], "--ruling", "-r", metavar="NAME=READING",
                                         autocompletion=complete.rulings, help="A ruling's reading (repeatable)."),
        deals: int = typer.Option(100, "--deals", "-n", metavar="N",
                                  help="Deals to play (the table: per game and variant)."),
        ruling_deals: int = typer.Option(200, "--ruling-deals", metavar="N",
                                         help="(--table) Deals per ruling reading and per relative's rules."),
        seed: int = typer.Option(1, "--seed", "-s", metavar="SEED", help="First seed; deals are SEED, SEED+1, …"),
        workers: Optional[int] = typer.Option(None, "--jobs", "-j", "--workers", metavar="N",
                                              help="Worker processes of the local cluster (default: every core; "
                                                   "never more than the batches of work)."),
        scheduler: Optional[str] = typer.Option(
            None, "--scheduler", metavar="ADDRESS",
            help="Run on this dask.distributed scheduler (e.g. tcp://host:8786) instead of a local cluster."),
        nodes: Optional[int] = typer.Option(None, "--nodes", metavar="N", show_default=False,
                                            help="GAME: solver budget per deal, positions (0: none; default "
                                                 "100,000 unless --seconds is given)."),
        seconds: Optional[float] = typer.Option(None, "--seconds", metavar="SECONDS",
                                                help="GAME: solver budget per deal, seconds (alone, the only "
                                                     "budget)."),
        ladder: Optional[str] = typer.Option(
            None, "--ladder", metavar="N,N,…",
            help="(--table) The budgets a deal climbs, in positions, until it is won or proved lost "
                 "(by default 100000,1000000,10000000)."),
        ruling_ceiling: Optional[int] = typer.Option(
            None, "--ruling-ceiling", metavar="N",
            help="(--table) The highest budget of the ladder the ruling readings climb to (by default 1000000)."),
        top: Optional[int] = typer.Option(None, "--top", metavar="N",
                                          help="(--table) A last budget past the ladder, played on each form's "
                                               "first --top-deals deals, those still open."),
        top_deals: int = typer.Option(0, "--top-deals", metavar="N", help="(--table) Deals a form plays at --top."),
        top_for: List[str] = typer.Option([], "--top-for", metavar="FORM",
                                          help="(--table) Only this form climbs to --top (repeatable; a row's "
                                               "label, e.g. printex-frame or 'zwarta-kolumna +cztery-katy')."),
        probe: int = typer.Option(0, "--probe", metavar="N",
                                  help="(--table) Try each budget above the first on a row's first N open deals "
                                       "before the rest; a row whose probe it settles none of stops there "
                                       "(but for --top, played on the probe's deals among its first)."),
        probe_from: Optional[int] = typer.Option(None, "--probe-from", metavar="N",
                                                 help="(--table) The lowest budget of the ladder the probe "
                                                      "applies to (by default the second)."),
        deals_for: List[str] = typer.Option([], "--deals-for", metavar="GAME=N", autocompletion=complete.games,
                                            help="(--table) Deals for this game's forms instead of --deals "
                                                 "(repeatable)."),
        steady: float = typer.Option(1.0, "--steady", metavar="CARDS",
                                     help="(--table) A row stops climbing when a budget settles none of its open "
                                          "deals and raises their mean cards home by less than this (0: never)."),
        journal: Optional[Path] = typer.Option(
            None, "--journal", metavar="FILE",
            help="(--table) The run's per-deal results, appended as they come; a run started again with the "
                 "same journal resumes it (by default the --out file with .journal)."),
        assemble: Optional[Path] = typer.Option(
            None, "--assemble", metavar="JOURNAL",
            help="Write the table's data file (--out) from a journal as it stands, a run half done included."),
        method: Method = typer.Option(Method.portfolio, "--method", help=METHOD_HELP),
        no_greedy: bool = typer.Option(False, "--no-greedy", help="Do not play the greedy player."),
        fmt: Format = typer.Option(Format.text, "--format",
                                   help="GAME: the figures as a text table for people or as JSON for programs."),
        json_out: Optional[Path] = typer.Option(None, "--json", hidden=True, metavar="FILE",
                                                help="The same as --out FILE with GAME (kept for recorded commands)."),
        table: bool = typer.Option(False, "--table", help="Run the whole results table (every form and ruling)."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                           help="Write to FILE: with GAME the figures as JSON (a row for --also); "
                                                "with --table or --assemble the data file; with --page the "
                                                "Markdown page (-: standard output, instead of the text)."),
        page: Optional[Path] = typer.Option(None, "--page", metavar="FILE",
                                            help="Render the results page from this data file."),
        also: List[Path] = typer.Option([], "--also", metavar="FILE",
                                        help="(--page) A row written by replay stats GAME --out FILE, to show "
                                             "beside the table (repeatable)."),
        only: List[str] = typer.Option([], "--only", metavar="GAME", autocompletion=complete.games,
                                       help="(--table) Only this game's rows (repeatable)."),
        merge_into: Optional[Path] = typer.Option(None, "--merge-into", metavar="FILE",
                                                  help="(--table --only, or --assemble of such a run's journal) "
                                                       "Replace those rows in this data file."),
        force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists "
                                                          "(never an input of the command)."),
    ) -> None:
        """Win rates of the solver and a greedy player over seeded deals, with 95% intervals.

        With GAME it measures one form; with --table every game, variant and ruling reading, each
        deal's budget climbing the ladder until the deal is won or proved lost, written to the data
        file (resumable: its journal keeps every result); with --page it turns a data file into the
        statistics page.

        Exit codes: 0 done; 1 a file given is rejected; 2 usage or I/O error (an unknown game,
        variant or ruling too).
        """
        from replay.engine.errors import ReplayError

        if deals < 1 or ruling_deals < 1:
            fail("--deals and --ruling-deals must be at least 1")
        if seed < 0:
            fail("--seed must be a non-negative integer")
        if workers is not None and workers < 1:
            fail("--workers must be at least 1")
        modes = sum([game is not None, table, page is not None, assemble is not None])
        if modes != 1:
            fail("give one of: GAME, --table, --page FILE, --assemble JOURNAL")
        from replay.cli.common import to_stdout

        stdout = to_stdout(out) or to_stdout(json_out)  # -o -: what FILE would hold goes to standard output
        if stdout:
            out = json_out = None
        # options that would do nothing in the mode chosen are refused, not ignored
        given = {"--variant": bool(variant), "--ruling": bool(ruling), "--deals": deals != 100,
                 "--ruling-deals": ruling_deals != 200, "--seed": seed != 1, "--jobs": workers is not None,
                 "--scheduler": scheduler is not None, "--nodes": nodes is not None, "--seconds": seconds is not None,
                 "--ladder": ladder is not None, "--ruling-ceiling": ruling_ceiling is not None,
                 "--top": top is not None, "--top-deals": top_deals != 0, "--top-for": bool(top_for),
                 "--steady": steady != 1.0,
                 "--probe": probe != 0, "--probe-from": probe_from is not None, "--deals-for": bool(deals_for),
                 "--journal": journal is not None,
                 "--method": method is not Method.portfolio,
                 "--no-greedy": no_greedy, "--format": fmt is not Format.text, "--json": json_out is not None,
                 "--also": bool(also), "--only": bool(only), "--merge-into": merge_into is not None}
        mode, allowed = (("--page", {"--also"}) if page is not None else
                         ("--assemble", {"--merge-into"}) if assemble is not None else
                         ("--table", {"--deals", "--ruling-deals", "--seed", "--jobs", "--scheduler", "--ladder",
                                      "--ruling-ceiling", "--top", "--top-deals", "--top-for", "--steady", "--journal",
                                      "--probe", "--probe-from", "--deals-for",
                                      "--method", "--no-greedy", "--only", "--merge-into"}) if table else
                         ("GAME", {"--variant", "--ruling", "--deals", "--seed", "--jobs", "--scheduler", "--nodes",
                                   "--seconds", "--method", "--no-greedy", "--format", "--json"}))
        idle = [name for name, on in given.items() if on and name not in allowed]
        if idle:
            fail(f"{', '.join(idle)} {'does' if len(idle) == 1 else 'do'} nothing with {mode}")
        if game is not None:
            budget = budget_of(nodes, seconds, STATS_NODES)
            if budget.nodes is None and budget.seconds is None:
                fail("a budget is needed: --nodes or --seconds")
            nodes, seconds = budget.nodes, budget.seconds
        from replay.fsio import WriteRefused, check_target, write_text

        inputs = [p for p in [page, merge_into, assemble, journal, *also] if p is not None]
        # the data file named by --merge-into is the one --table --only means to update
        updating = (table or assemble is not None) and out is not None and merge_into is not None \
            and out.resolve() == merge_into.resolve()
        try:  # before the work: a bad output path costs nothing
            for target in (out, json_out):
                if target is not None:
                    check_target(target, inputs=[] if updating else inputs, force=force, update=updating,
                                 make_parents=False)
        except WriteRefused as e:
            fail(e.message)
        if seed + max(deals, ruling_deals) - 1 > 2**64 - 1:
            fail("--seed: the seeds SEED … SEED+DEALS-1 must be below 2^64 (the shuffle's state has 64 bits)")
        if page is None and assemble is None and (scheduler is not None or (workers or _cpus()) > 1):
            from replay.solver.stats import dask_missing

            hint = dask_missing()  # the `stats` extra: asked before the work, as the output path is
            if hint:
                fail(hint)
        if workers is not None and scheduler is None:
            from replay.solver.stats import worker_count

            try:
                worker_count(workers, workers)
            except ValueError as e:
                fail(str(e))
        if page is not None:
            from replay.solver import table as T

            try:
                text = T.render_page(T.load(page), [T.load_row(p) for p in also],
                                     _command(page=page, also=list(also), out=out))
            except OSError as e:
                fail(f"cannot read {e.filename or page}: {(e.strerror or str(e)).lower()}")
            except (ValueError, KeyError) as e:  # the file is read, and rejected: 1, as the help says
                fail(f"cannot render {page}: {e}", 1)
            if out is None:  # none, or -o -
                typer.echo(text, nl=False)
            else:
                try:
                    write_text(out, text, inputs=inputs, force=force)
                except WriteRefused as e:
                    fail(e.message)
                typer.echo(f"wrote {out}", err=True)
            return
        if assemble is not None or table:
            from replay.solver import ladder as LD
            from replay.solver import table as T

            if out is None and not stdout:
                fail(f"{mode} needs --out FILE (the data file; -: standard output)")
        if assemble is not None:
            try:
                data = LD.assemble(LD.Journal.read(assemble))
            except LD.JournalError as e:
                fail(str(e), 1)
            if merge_into is not None:  # a partial run's journal (--only), its rows put in the table it re-ran
                try:
                    data = T.merge(T.load(merge_into), data)
                except OSError as e:
                    fail(f"cannot read {merge_into}: {(e.strerror or str(e)).lower()}")
                except (KeyError, ValueError) as e:
                    fail(f"cannot merge into {merge_into}: {e}", 1)
            _write_data(data, out, [] if updating else inputs, force, updating)
            return
        if table:
            if merge_into is not None and not only:
                fail("--merge-into needs --only GAME")
            if out is None and journal is None:
                fail("--table -o - needs --journal FILE (the run's per-deal results)")
            from replay.games.catalog import MODULES

            for g in only:
                if g not in MODULES:
                    fail(f"unknown game {g!r} (known: {', '.join(MODULES)})", 2)
            try:
                steps = tuple(int(x.replace("_", "")) for x in (ladder or "").split(",") if x.strip()) \
                    if ladder is not None else LD.LADDER
            except ValueError:
                fail(f"--ladder {ladder!r}: give budgets in positions, separated by commas (100000,1000000)")
            per_game: dict[str, int] = {}
            for item in deals_for:
                g, sep, n = item.partition("=")
                if not sep or not n.strip().isdigit():
                    fail(f"--deals-for {item!r}: give GAME=N (e.g. exiles=800)")
                if g not in MODULES:
                    fail(f"--deals-for: unknown game {g!r} (known: {', '.join(MODULES)})", 2)
                per_game[g] = int(n)
                if per_game[g] < 1 or seed + per_game[g] - 1 > 2**64 - 1:
                    fail(f"--deals-for {item!r}: N must be at least 1, and SEED+N-1 below 2^64")
            config = LD.Config(seed=seed, deals=deals, ruling_deals=ruling_deals, ladder=steps,
                               ruling_ceiling=ruling_ceiling if ruling_ceiling is not None else
                               max([b for b in steps if b <= LD.RULING_CEILING], default=steps[0]),
                               top=top, top_deals=top_deals, method=method.value, greedy=not no_greedy,
                               steady_cards=steady, games=tuple(sorted(set(only))), probe=probe,
                               probe_from=probe_from or 0,
                               deals_for=tuple(sorted(per_game.items())), top_forms=tuple(sorted(set(top_for))))
            problem = LD.check_config(config)
            if problem:
                fail(f"--table: {problem}")
            jpath = journal if journal is not None else out.with_name(out.name + ".journal")  # type: ignore[union-attr]
            try:
                check_target(jpath, inputs=[p for p in inputs if p != journal], update=True, make_parents=False)
            except WriteRefused as e:
                fail(e.message)
            try:
                full = T.load(merge_into) if merge_into is not None else None
            except (OSError, ValueError) as e:
                fail(f"cannot read {merge_into}: {e}")
            command = _command("--table", deals=deals, ruling_deals=ruling_deals, seed=seed, ladder=",".join(map(str, steps)),
                               ruling_ceiling=config.ruling_ceiling, top=top, top_deals=top_deals or None,
                               top_for=list(config.top_forms),
                               steady=steady if steady != 1.0 else None, probe=probe or None, probe_from=probe_from,
                               deals_for=[f"{g}={n}" for g, n in sorted(per_game.items())],
                               method=method.value, workers=workers,
                               scheduler=scheduler, no_greedy=no_greedy, only=list(only), merge_into=merge_into,
                               journal=jpath, out=out)
            try:
                note_missing_fast_core()
                data = LD.run_table(config, jpath, workers=workers, scheduler=scheduler, command=command)
            except LD.JournalError as e:
                fail(str(e), 1)
            except ReplayError as e:
                fail(e.one_line(), 1)
            except ValueError as e:
                fail(str(e))
            except OSError as e:
                fail(f"--scheduler {scheduler or repr(scheduler)}: {e}" if scheduler is not None
                      else f"cannot run the local cluster: {e}")
            if full is not None:
                try:
                    data = T.merge(full, data)
                except (KeyError, ValueError) as e:
                    fail(f"cannot merge into {merge_into}: {e}")
            _write_data(data, out, [] if updating else inputs, force, updating)
            return

        from replay.games.catalog import create
        from replay.solver import stats as S
        from replay.solver.table import progress_bar, show_rows

        chosen = ruling_options(ruling)
        if json_out is not None and out is not None:
            fail("--json is the old name of --out: give one of them")
        json_out = json_out or out
        try:
            create(game, variant, chosen)  # type: ignore[arg-type]
        except ReplayError as e:  # an unknown game, variant or ruling, or a combination that does not exist
            fail(e.one_line(), 2)
        form = S.Form(game, tuple(variant), tuple(sorted(chosen.items())))  # type: ignore[arg-type]
        jobs = [(form, s) for s in range(seed, seed + deals)]
        import time

        from replay.solver.version import code_version, commit

        version, head = code_version(), commit()  # the code that runs, not the code at the end (as the table)
        t0 = time.perf_counter()
        try:
            note_missing_fast_core()
            with progress_bar(len(jobs), form.label) as advance:
                results = S.run(jobs, nodes, seconds, workers, greedy=not no_greedy, progress=advance,
                                scheduler=scheduler, method=method.value)
        except OSError as e:
            fail(f"--scheduler {scheduler or repr(scheduler)}: {e}" if scheduler is not None
                  else f"cannot run the local cluster: {e}")
        summary = S.summarize(results)
        import datetime as dt
        import os

        summary.update(format="replay-stats-row/1", label=form.label, form=form.as_dict(),
                       command=_command(game, variant=list(variant), ruling=list(ruling), deals=deals, seed=seed,
                                        nodes=nodes, seconds=seconds, method=method.value, workers=workers,
                                        scheduler=scheduler, no_greedy=no_greedy, out=json_out),
                       version=version, commit=head,
                       date=dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
                       wall_seconds=round(time.perf_counter() - t0, 1),
                       budget={"nodes": nodes, "seconds": seconds, "method": method.value},
                       workers=workers or os.cpu_count())
        if fmt is Format.json or stdout:
            import json

            typer.echo(json.dumps(summary, indent=1))
        else:
            show_rows([(form.label, summary)], wall=summary["wall_seconds"])
        if json_out is not None:
            import json

            try:
                write_text(json_out, json.dumps(summary, indent=1) + "\n", force=force)
            except WriteRefused as e:
                fail(e.message)
