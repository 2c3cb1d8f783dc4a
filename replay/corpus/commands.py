"""`replay corpus …`: check, lock and export the corpus."""

from __future__ import annotations

import typer

corpus_app = typer.Typer(help="Check, lock and export the corpus of source texts.", no_args_is_help=True)


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


def register(app: typer.Typer) -> None:
    app.add_typer(corpus_app, name="corpus")
