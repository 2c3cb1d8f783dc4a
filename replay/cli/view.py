"""``replay view`` and ``replay analyse``: see one game replayed, learn where it was lost.

Exit codes: 0 done (a log that breaks a rule is still shown, and analysed up to that move);
1 the log is rejected (it cannot be replayed at all: not JSON, unknown game, impossible deck…)
or the analysis file does not belong to it; 2 usage or I/O error.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import typer

from replay.cli.common import METHOD_HELP, Format, Method, budget_of, fail, note_missing_fast_core, read_log

EXIT_CODES_HELP = ("Exit codes: 0 done (a log that breaks a rule is shown up to that move); 1 the log is rejected; "
                   "2 usage or I/O error.")


def _output(out: Path, log: str, force: bool, option: str, *others: Path | None) -> Path:
    """Check that ``out`` may be written (replay.fsio): never the log, nothing existing without --force."""
    from replay.fsio import WriteRefused, check_target

    try:
        inputs = [p for p in (log, *others) if p is not None and str(p) != "-"]  # the command's inputs
        return check_target(out, inputs=inputs, force=force)
    except WriteRefused as e:
        fail(f"{option}: {e.message}")
        raise  # unreachable


def _save(out: Path, text: str, option: str) -> None:
    from replay.fsio import atomic_write

    try:
        atomic_write(out, text.encode("utf-8"))
    except OSError as e:
        fail(f"{option} {out}: cannot write: {e.strerror or e}")


def default_rules_url() -> str | None:
    """The rules site's address: ``site_url`` of the project's ``mkdocs.yml`` when it names one."""
    from replay.paths import ROOT

    try:
        text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r"^site_url:\s*['\"]?([^'\"\s#]+)", text, re.MULTILINE)
    return m.group(1) if m else None


def _no_site() -> str:
    """Why no rules site is known: a checkout's mkdocs.yml names none; an installed copy has no mkdocs.yml."""
    from replay.paths import ROOT

    return "mkdocs.yml names no site_url" if (ROOT / "mkdocs.yml").is_file() else "no rules site is known to this copy"


#: the position budget per position of `replay analyse` when neither --nodes nor --seconds is given
ANALYSE_NODES = 50_000


def _budget(nodes: int | None, seconds: float | None, default_nodes: int) -> Any:
    budget = budget_of(nodes, seconds, default_nodes)
    if budget.nodes is None and budget.seconds is None:
        fail("a budget is needed: --nodes N (N > 0) or --seconds S")
    return budget


def load_analysis(path: Path, raw: bytes) -> dict[str, Any]:
    """Read an analysis file (``replay analyse --format json`` or ``-o``) and check it was made from ``raw``."""
    import hashlib
    import json

    from pydantic import ValidationError

    from replay.solver.analyse import AnalysisDoc

    try:
        data = path.read_bytes()
    except OSError as e:
        fail(f"--analysis {path}: cannot read: {e.strerror or e}")
    try:
        doc = AnalysisDoc.model_validate_json(data)
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        where = ".".join(str(x) for x in err["loc"]) or "$"
        fail(f"--analysis {path}: not an analysis of `replay analyse`: {where}: {err['msg']}", 1)
    if doc.log_sha256 != hashlib.sha256(raw).hexdigest():
        fail(f"--analysis {path}: it was made from another log (or another version of this one): its log_sha256 "
              "differs", 1)
    return json.loads(data)


@contextmanager
def _analysis_progress(total: int) -> Iterator[tuple[Callable[[int], None], Callable[[str, float], None]]]:
    """A progress bar on standard error for ``analyse``: positions decided, time so far, and the time left
    counted as :class:`replay.solver.analyse.Estimate` counts it (the slow positions at their own pace)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from replay.solver.analyse import Estimate

    est = Estimate(total)
    with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[left]}"), TextColumn("(Ctrl-C stops)"), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task("analysing", total=total, left="")

        def shown() -> str:
            left = est.left()
            if left is None:
                return ""
            m, s = divmod(int(left + 0.5), 60)
            return f"at most {m}:{s:02d} left" if est.decided < total else ""

        def advance(n: int) -> None:
            est.advance(n)
            bar.update(task, advance=n, left=shown())

        def searched(status: str, seconds: float) -> None:
            est.searched(status, seconds)
            bar.update(task, left=shown())

        yield advance, searched


def register(app: typer.Typer) -> None:
    """Add ``view`` and ``analyse`` to ``app``."""

    @app.command("view", epilog=EXIT_CODES_HELP)
    def view_cmd(
        log: str = typer.Argument(..., metavar="LOG", help="A log file, or - for standard input (then give -o)."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                           help="The HTML file to write (default: the log's name with .html, "
                                                "beside it; -: standard output)."),
        force: bool = typer.Option(False, "--force", help="Replace FILE when it exists (never the log itself)."),
        analysis: Optional[Path] = typer.Option(None, "--analysis", metavar="FILE",
                                                help="Show the verdicts of replay analyse --format json (or its "
                                                     "-o FILE) on the timeline."),
        all_readings: bool = typer.Option(False, "--all-readings",
                                          help="Also show under which readings of the rulings the log is legal."),
        rules_url: Optional[str] = typer.Option(None, "--rules-url", metavar="URL",
                                                help="Root of the rules site the clause links point into, or the "
                                                     "folder of a site built on disk (default: in a checkout, the "
                                                     "site_url of its mkdocs.yml; none: clauses are quoted, not "
                                                     "linked)."),
    ) -> None:
        """Write one self-contained HTML file that replays a game move by move.

        The table is drawn at every step; a slider, the arrow keys (and Home, End), a timeline
        and the move list (with the moves' comments) move through the game.  A move the rules
        refuse is marked, with the clause it breaks in the diplomatic text and in translation.  The
        file needs no server and fetches nothing: it opens from disk.
        """
        from replay.cli.common import to_stdout
        from replay.view.model import replay_log
        from replay.view.render import standalone_page

        raw, name = read_log(log)
        stdout = to_stdout(out)  # -o -: the page on standard output, as in curl
        if out is None:
            if log == "-":
                fail("reading standard input: give -o FILE (or -o - for standard output)")
            out = Path(log).with_suffix(".html")
        target = out if stdout else _output(out, log, force, "-o", analysis)
        v = replay_log(raw, name)
        if v.game is None or v.verdict == "error":
            from replay.log.report import report_lines

            for line in report_lines(v.report)[:1] if v.report.problems else [f"{name}: {v.error}"]:
                typer.echo(line, err=True)
            raise typer.Exit(2 if v.verdict == "error" else 1)
        doc = load_analysis(analysis, raw) if analysis is not None else None
        readings = None
        if all_readings:
            from replay.log.readings import analyse

            readings = analyse(raw, name)
        base = rules_url if rules_url is not None else default_rules_url()
        if base:
            from replay.view.render import url_problem

            problem = url_problem(base)
            if problem:
                fail(f"--rules-url {base!r}: {problem}" if rules_url is not None
                     else f"mkdocs.yml: site_url {base!r}: {problem}")
        if base and "://" not in base and Path(base).is_dir():  # a site built on disk (mkdocs build)
            base = Path(base).resolve().as_uri()
        page = standalone_page(v, base or None, doc, readings, title=Path(name).name)
        if stdout:
            typer.echo(page, nl=False)
        else:
            _save(target, page, "-o")
        what = f"{len(v.steps) - 1} of {len(v.moves)} moves"
        if v.refused is not None:
            # counted from 1 as the viewer counts; the JSON path is the log's own index (validate's)
            from replay.log.locate import move_ref

            what += f"; {move_ref(v.refused.n - 1)} is refused" + (f" ({v.refused.problem.clause})"
                                                                   if v.refused.problem.clause else "")
        elif v.verdict != "valid" and v.problem is not None:
            what += f"; {v.verdict}: {v.problem.message}"
        typer.echo(f"wrote {'standard output' if stdout else target} ({what})", err=True)
        if not base:
            typer.echo(f"replay: note: the clauses are quoted, not linked: {_no_site()}; give --rules-url URL (the "
                       "rules site's address, or the folder of a site built with mkdocs build)", err=True)

    @app.command("analyse", epilog=EXIT_CODES_HELP)
    def analyse_cmd(
        log: str = typer.Argument(..., metavar="LOG", help="A log file, or - for standard input."),
        nodes: Optional[int] = typer.Option(None, "--nodes", metavar="N", show_default=False,
                                            help="Budget per position: positions (0: no limit; default 50,000 unless "
                                                 "--seconds is given). The output depends only on it."),
        seconds: Optional[float] = typer.Option(None, "--seconds", metavar="S",
                                                help="Budget per position in seconds (alone, the only budget; the "
                                                     "verdicts then depend on the machine and its load)."),
        method: Method = typer.Option(Method.portfolio, "--method", help=METHOD_HELP),
        fmt: Format = typer.Option(Format.text, "--format", help="text for people, json for programs."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                           help="Also write the JSON document here (for replay view --analysis; "
                                                "-: on standard output, instead of the text)."),
        force: bool = typer.Option(False, "--force", help="Replace FILE when it exists (never the log itself)."),
    ) -> None:
        """For each position of a log, whether the game could still be won from there.

        Each position (the deal, then the table after each move) is won (the solver found a
        winning line, shown), unwinnable (its search was exhaustive) or unknown within the
        budget: the solver does not guess.  Positions are not all searched: a winnable
        position makes every earlier one winnable, an unwinnable one every later one
        unwinnable; such verdicts are marked inferred.  Each verdict says what it rests on (a
        winning line, an exhaustive search, the proof of loss named).  The summary names the move
        after which the game could no longer be won, and a line against the cards the game as played
        brought home: the winning line of the last position that could be won, where one could;
        else the best line the solver found (the most cards home: a search result within the budget,
        not a bound).  A progress bar is shown on
        a terminal, with the time left at most; Ctrl-C ends the analysis with what is known
        (written, as with -o, and "interrupted after N of M positions"; exit 130).
        """
        import json
        import signal
        import sys

        from replay.cli.common import to_stdout
        from replay.engine.errors import ReplayError
        from replay.solver.analyse import analyse_bytes, text_lines

        budget = _budget(nodes, seconds, ANALYSE_NODES)
        note_missing_fast_core()
        raw, name = read_log(log)
        stdout = to_stdout(out)  # -o -: the JSON document on standard output, instead of the text
        target = _output(out, log, force, "-o") if out is not None and not stdout else None
        asked: list[int] = []  # Ctrl-C: the search under way ends, and what is known is written

        def stop(signum: int, frame: object) -> None:
            asked.append(signum)

        try:
            previous = signal.signal(signal.SIGINT, stop)
        except ValueError:  # not the main thread: Ctrl-C behaves as usual
            previous = None
        try:
            if sys.stderr.isatty():
                from replay.log.validate import parse

                try:
                    total = len(parse(raw).moves) + 1
                except Exception:  # noqa: BLE001 - analyse_bytes says what is wrong
                    total = 1
                with _analysis_progress(total) as (advance, searched):
                    doc = analyse_bytes(raw, name, budget, advance, lambda: bool(asked), searched, method.value)
            else:
                doc = analyse_bytes(raw, name, budget, should_stop=lambda: bool(asked), method=method.value)
        except ReplayError as e:
            fail(e.one_line(), 1)
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
        if target is not None:
            _save(target, text, "-o")
        if fmt is Format.json or stdout:
            typer.echo(text, nl=False)
        else:
            for line in text_lines(doc):
                typer.echo(line)
        if doc.get("interrupted"):
            typer.echo(f"replay: analyse: interrupted after {doc['decided']} of {len(doc['positions'])} positions; "
                       "the positions not decided are marked not-searched"
                       + (f"; what is known is written to {target}" if target is not None else ""), err=True)
            raise typer.Exit(130)
        if target is not None:
            typer.echo(f"wrote {target}", err=True)
