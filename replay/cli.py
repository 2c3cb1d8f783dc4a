"""The command line: a thin Typer layer over the library.

Exit codes: 0 success (every log valid, corpus sound); 1 something was rejected
(an illegal or malformed log, a corpus problem); 2 usage or I/O error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(
    name="replay",
    help="Digitized-rules archive and replay tool for old patience rule texts.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
corpus_app = typer.Typer(help="Check, lock and export the corpus of source texts.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit with ``code``."""
    typer.echo(f"replay: {message}", err=True)
    raise typer.Exit(code)


@corpus_app.command("check")
def corpus_check() -> None:
    """Validate the whole corpus: one line per problem; exit 0 when sound, 1 otherwise."""
    from replay.corpus.checks import check_corpus

    problems = check_corpus()
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

    corpus = load()
    text, added = update_lock(corpus)
    (corpus.root / "clause-ids.yaml").write_text(text, encoding="utf-8")
    typer.echo(f"added {len(added)} clause ID(s)" + (f": {', '.join(added)}" if added else ""))


def main() -> None:
    """Entry point of the ``replay`` console script."""
    from replay.engine.errors import ReplayError

    try:
        app()
    except ReplayError as e:
        typer.echo(f"replay: {e.one_line()}", err=True)
        sys.exit(1)
