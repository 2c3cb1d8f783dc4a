"""The command line: a thin Typer layer over the library.

Each area registers its own commands (``register(app)`` in the modules of
:data:`COMMAND_MODULES`); heavy imports stay inside the commands so that
``replay --help`` is fast.

Exit codes: 0 success (every log valid, corpus sound); 1 something was rejected
(an illegal or malformed log, a corpus problem); 2 usage or I/O error.
"""

from __future__ import annotations

import importlib
import sys

import typer

app = typer.Typer(
    name="replay",
    help="Digitized-rules archive and replay tool for old patience rule texts.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: modules that add commands to the app, in the order they appear in --help
COMMAND_MODULES = (
    "replay.games.commands",
    "replay.log.commands",
    "replay.corpus.commands",
    "replay.solver.commands",
    "replay.trace.commands",
)

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit with ``code``."""
    typer.echo(f"replay: {message}", err=True)
    raise typer.Exit(code)


def main() -> None:
    """Entry point of the ``replay`` console script: library errors become one line and exit 1."""
    from replay.engine.errors import ReplayError

    try:
        app()
    except ReplayError as e:
        typer.echo(f"replay: {e.one_line()}", err=True)
        sys.exit(1)
