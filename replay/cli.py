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
from typing import Any

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
    "replay.view.commands",
)

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit with ``code``."""
    typer.echo(f"replay: {message}", err=True)
    raise typer.Exit(code)


def _click_class(name: str) -> Any:
    """Click's exception class ``name`` (typer may vendor its own copy of click)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


def main() -> None:
    """Entry point of the ``replay`` console script.

    Library errors (bad input) become one line and exit 1; usage errors one line and exit 2.
    """
    from replay.engine.errors import ReplayError

    usage_error, click_error = _click_class("UsageError"), _click_class("ClickException")
    try:
        code = app(standalone_mode=False)
    except usage_error as e:
        ctx = getattr(e, "ctx", None)
        where = ctx.command_path if ctx is not None else "replay"
        message = " ".join(e.format_message().split())
        if message:  # empty when the help has just been shown for a bare command group
            typer.echo(f"replay: {message} (see '{where} --help')", err=True)
        sys.exit(2)
    except click_error as e:
        typer.echo(f"replay: {' '.join(e.format_message().split())}", err=True)
        sys.exit(getattr(e, "exit_code", 1))
    except typer.Abort:
        typer.echo("replay: aborted", err=True)
        sys.exit(1)
    except ReplayError as e:
        typer.echo(f"replay: {e.one_line()}", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
