"""What the shell completes beyond commands and options: game IDs, variants, rulings with their readings,
and clause IDs, read from the corpus's edition (:func:`replay.corpus.edition.default_edition`, the cached
JSON a command reads at start-up), so that what is offered is what the commands accept.

Each function is a Typer ``autocompletion`` callback: it takes the word typed so far (and the command's
context, to find the game already given) and returns the values that start with it, with a short help
where the shell shows one (zsh, fish).  A ruling is offered whole, ``NAME=READING``; bash splits a word at
``=``, so :class:`BashComplete` puts the halves together again before the values are looked up.
"""

from __future__ import annotations

import glob
import os
from typing import TYPE_CHECKING, Any, Iterable

import typer

if TYPE_CHECKING:
    from replay.engine.edition import Edition

#: the parameters that name the game in the commands that take a variant or a ruling
GAME_PARAMS = ("game", "target", "log")


def _edition() -> Edition | None:
    try:
        from replay.corpus.edition import default_edition

        return default_edition()
    except Exception:  # noqa: BLE001 - a completion offers nothing rather than a traceback in the shell
        return None


def _starting(items: Iterable[tuple[str, str]], incomplete: str) -> list[tuple[str, str]]:
    return [(value, help) for value, help in items if value.startswith(incomplete)]


def games(incomplete: str) -> list[tuple[str, str]]:
    """Every game ID (``replay games``), with its title."""
    from replay.games.catalog import MODULES

    e = _edition()
    return _starting(((g, e.games[g].title if e is not None and g in e.games else "") for g in MODULES), incomplete)


def logs_or_games(incomplete: str) -> list[tuple[str, str]]:
    """A game ID, or a file or folder (a log): both are taken where the argument is ``LOG|GAME``."""
    paths = [(p + ("/" if os.path.isdir(p) else ""), "") for p in sorted(glob.glob(glob.escape(incomplete) + "*"))]
    return games(incomplete) + paths


def _game_of(ctx: typer.Context) -> str | None:
    """The game already given on the command line (a game ID, not a log), or None."""
    from replay.games.catalog import MODULES

    given = [ctx.params.get(name) for name in GAME_PARAMS] + list(ctx.args)  # an argument may be left unparsed
    return next((str(v) for v in given if v is not None and str(v) in MODULES), None)


def _chosen(ctx: typer.Context) -> list[str]:
    """The game given, or every game when none is."""
    from replay.games.catalog import MODULES

    game = _game_of(ctx)
    return [game] if game is not None else list(MODULES)


def variants(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """The variants of the game given (of every game when none is), with their titles."""
    e = _edition()
    if e is None:
        return []
    seen: dict[str, str] = {}
    for g in _chosen(ctx):
        for v in e.games[g].variants if g in e.games else ():
            seen.setdefault(v.id, v.title)
    return _starting(seen.items(), incomplete)


def rulings(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """``NAME=READING`` for every reading of every ruling of the game given (of every game when none is),
    the default marked."""
    e = _edition()
    if e is None:
        return []
    seen: dict[str, str] = {}
    for g in _chosen(ctx):
        for name, r in e.rulings_of(g).items():
            for reading in r.readings:
                default = " (the default)" if reading == r.default else ""
                seen.setdefault(f"{name}={reading}", r.ambiguity + default)
    return _starting(seen.items(), incomplete)


def clauses(incomplete: str) -> list[tuple[str, str]]:
    """Every clause ID and the ambiguity ID of every ruling (what ``replay trace`` takes by ID)."""
    e = _edition()
    if e is None:
        return []
    items = [(c, "") for c in e.clauses]
    items += sorted({(r.ambiguity, r.title) for g in e.games for r in e.rulings_of(g).values()})
    return _starting(items, incomplete)


def install() -> None:
    """Put :class:`BashComplete` in the place of Typer's bash completion (the script it prints stays the same)."""
    from typer._click.shell_completion import add_completion_class
    from typer._completion_classes import BashComplete as Base, completion_init

    completion_init()  # Typer's classes first (it registers them again when a completion runs: ours after)

    class BashComplete(Base):
        """Bash's completion, with a word split at ``=`` (bash's COMP_WORDBREAKS) put together again: ``-r
        foundations=e`` reaches the ruling's completion as one word, and bash is given back what follows the
        ``=``, the part of the word it replaces."""

        cut = ""

        def get_completion_args(self) -> tuple[list[str], str]:
            args, incomplete = super().get_completion_args()
            words = [*args, incomplete]
            joined: list[str] = []
            for i, w in enumerate(words):
                if joined and (w == "=" or (i > 0 and words[i - 1] == "=")):
                    joined[-1] += w
                else:
                    joined.append(w)
            if len(joined) == len(words):
                return args, incomplete
            last = joined[-1]
            # bash completes the text after the '=' (after 'NAME=' too, where its current word is the '=')
            self.cut = last if incomplete == "=" else last[:len(last) - len(incomplete)]
            return joined[:-1], last

        def format_completion(self, item: Any) -> str:
            value = str(item.value)
            return value[len(self.cut):] if self.cut and value.startswith(self.cut) else value

    add_completion_class(BashComplete, "bash")
    import typer._completion_classes as classes

    classes.BashComplete = BashComplete  # type: ignore[misc]


__all__ = ["games", "logs_or_games", "variants", "rulings", "clauses", "install"]
