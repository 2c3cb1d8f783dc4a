"""`replay corpus …`: check, lock and export the corpus."""

from __future__ import annotations

import typer

corpus_app = typer.Typer(help="Check, lock and export the corpus of source texts.", no_args_is_help=True)


@corpus_app.command("check")
def corpus_check() -> None:
    """Validate the whole corpus: one line per problem; exit 0 when sound, 1 otherwise.

    On a sound corpus it then checks that every reading a log may select is played: read by a rule of its game,
    and playing otherwise than the default on random walks (replay/games/played.py)."""
    from replay.corpus.checks import check_corpus, unplayed_problems

    problems = check_corpus()
    if not problems:
        from replay.corpus.edition import edition_of
        from replay.corpus.loader import load
        from replay.games.played import unplayed_readings

        corpus = load()
        problems = unplayed_problems(corpus, unplayed_readings(edition_of(corpus)))
    for p in problems:
        typer.echo(str(p))
    if problems:
        typer.echo(f"{len(problems)} problem(s) in the corpus", err=True)
        raise typer.Exit(1)
    typer.echo("corpus is sound")


@corpus_app.command("lock")
def corpus_lock() -> None:
    """Add new clause IDs to corpus/clause-ids.yaml (existing entries are never changed)."""
    from replay.corpus.loader import load
    from replay.corpus.lock import update_lock

    from replay.fsio import WriteRefused, write_text

    corpus = load()
    text, added = update_lock(corpus)
    try:  # updating the lock file is the command's purpose; written atomically
        write_text(corpus.root / "clause-ids.yaml", text, update=True)
    except WriteRefused as e:
        typer.echo(f"replay: {e.message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"added {len(added)} clause ID(s)" + (f": {', '.join(added)}" if added else ""))


@corpus_app.command("export")
def corpus_export(
    format: str = typer.Option("tei", "--format", metavar="tei",
                               help="Export format: tei, TEI P5 XML, one file per text (the only one)."),
    out: str = typer.Option("build/tei", "--out", "-o", metavar="DIR", help="Directory to write into."),
) -> None:
    """Export the corpus: one TEI P5 document per text (clauses as seg, OCR repairs as sic/corr, …)."""
    from pathlib import Path

    from datetime import date

    from replay import __version__
    from replay.corpus.loader import load
    from replay.corpus.tei import Stamp, export
    from replay.fsio import WriteRefused
    from replay.solver.version import build_commit

    if format != "tei":
        typer.echo(f"replay: unknown export format {format!r} (known: tei)", err=True)
        raise typer.Exit(2)
    if out == "-":
        typer.echo("replay: -o - (standard output) cannot hold one document per text: give a directory", err=True)
        raise typer.Exit(2)
    try:
        paths = export(load(), Path(out), Stamp(__version__, build_commit(), date.today().isoformat()))
    except OSError as e:
        typer.echo(f"replay: cannot write to {out}: {e.strerror}", err=True)
        raise typer.Exit(2) from None
    except WriteRefused as e:
        typer.echo(f"replay: {e.message}", err=True)
        raise typer.Exit(2) from None
    for p in paths:
        typer.echo(str(p))


@corpus_app.command("schema")
def corpus_schema(
    out: str = typer.Option("", "--out", "-o", metavar="DIR",
                            help="Directory to write into (default: the corpus's schema folder)."),
) -> None:
    """Write the JSON Schemas of the corpus files (generated from the pydantic models)."""
    from pathlib import Path

    from replay.corpus.loader import corpus_dir
    from replay.corpus.schema import write_schemas

    from replay.fsio import WriteRefused

    if out == "-":
        typer.echo("replay: -o - (standard output) cannot hold one schema per file: give a directory", err=True)
        raise typer.Exit(2)
    try:
        paths = write_schemas(Path(out) if out else corpus_dir() / "schema")
    except WriteRefused as e:
        typer.echo(f"replay: {e.message}", err=True)
        raise typer.Exit(2) from None
    for p in paths:
        typer.echo(str(p))


def register(app: typer.Typer) -> None:
    app.add_typer(corpus_app, name="corpus")
