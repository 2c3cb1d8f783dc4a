"""The command line: a thin Typer layer over the library, the top layer of the package.

Every command lives here, one module per group (:data:`replay.cli.root.COMMANDS`, each with its
``register(app)``, imported when one of its commands is called), with what they share in
:mod:`replay.cli.common` (one-line errors, ``--format``, reading one log); no other package imports
Typer or this one.  Heavy imports stay inside the commands so that ``replay --help`` is fast.  This module itself imports nothing: the
console script's :func:`main` imports the app (:mod:`replay.cli.root`) under its own guard, so that
Ctrl-C at any moment, the first tenth of a second included, ends quietly with 130.

Exit codes: 0 success (every log valid, corpus sound); 1 something was rejected
(an illegal or malformed log, a corpus problem); 2 usage or I/O error; ``solve`` adds
3 (unwinnable) and 4 (unknown); 130 interrupted (Ctrl-C).  When standard output is closed early
(``| head -1``) the command stops quietly with the shell's code for a broken pipe, 141.
"""

from __future__ import annotations

from replay.cli.names import BROKEN_PIPE, DISTRIBUTION, INTERRUPTED

__all__ = ["main", "DISTRIBUTION", "BROKEN_PIPE", "INTERRUPTED"]


def main() -> None:
    """Entry point of the ``replay`` console script: the app (:func:`replay.cli.root.run`), and Ctrl-C
    while it loads or runs (where no command took it first) ends quietly with :data:`INTERRUPTED`."""
    try:
        import gc

        gc.disable()  # importing the app makes long-lived objects only: a collection on the way frees nothing
        try:
            from replay.cli.root import run
        finally:
            gc.freeze()  # nor need the command's own collections walk them again (about a tenth of the start)
            gc.enable()
        run()
    except KeyboardInterrupt:
        _interrupted()


def _interrupted() -> None:
    import os
    import sys

    try:
        sys.stderr.write("\n")  # the terminal's ^C is on the line: end it, and say no more
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(INTERRUPTED)  # not SystemExit: nothing at exit may raise again


def __getattr__(name: str) -> object:
    """``app``, ``version_line`` and the rest of :mod:`replay.cli.root`, imported when first asked for."""
    if name.startswith("__") or name in ("root", "names"):
        raise AttributeError(name)
    import importlib

    root = importlib.import_module("replay.cli.root")
    try:
        return getattr(root, name)
    except AttributeError:
        raise AttributeError(f"module 'replay.cli' has no attribute {name!r}") from None
