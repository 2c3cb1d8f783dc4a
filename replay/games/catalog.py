"""The catalog of games: which module plays which game, its variants and its rulings."""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol

from replay.engine.errors import BadCombination, UnknownName

if TYPE_CHECKING:  # the edition and the engine are imported when a game is made, not when the CLI starts
    from replay.engine.edition import Edition
    from replay.engine.game import Game, Setup
    from replay.engine.rulings import Ruling

#: game ID -> module under replay.games
MODULES = {
    "printex-frame": "replay.games.printex_frame",
    "zwarta-kolumna": "replay.games.zwarta_kolumna",
    "exiles": "replay.games.exiles",
    "napoleons-square": "replay.games.napoleons_square",
}


class GameModule(Protocol):
    ID: str
    VARIANTS: tuple[str, ...]
    RULINGS: dict[str, tuple[str, ...]]

    def combination_problem(self, variants: frozenset[str]) -> str | None: ...
    def build(self, variants: frozenset[str], readings: dict[str, str], edition: Edition) -> Setup: ...


def module(game_id: str) -> ModuleType:
    if game_id not in MODULES:
        raise UnknownName("game", game_id, list(MODULES))
    return importlib.import_module(MODULES[game_id])


def catalog() -> dict[str, ModuleType]:
    """Every game module by game ID (importing them registers their rule functions)."""
    return {g: module(g) for g in MODULES}


def rulings_for(game_id: str, edition: Edition | None = None) -> dict[str, Ruling]:
    """The rulings of a game, as the ambiguity register defines them (``edition``: the default one,
    :func:`replay.corpus.edition.default_edition`, when None)."""
    from replay.corpus.edition import default_edition

    return _rulings(game_id, edition or default_edition())


@lru_cache(maxsize=None)
def _rulings(game_id: str, edition: Edition) -> dict[str, Ruling]:
    return edition.rulings_of(game_id)


def create(game_id: str, variants: Iterable[str] = (), rulings: Mapping[str, str] | None = None,
           edition: Edition | None = None) -> Game:
    """A game instance, laid out from ``edition`` (None: :func:`replay.corpus.edition.default_edition`).

    Raises :class:`UnknownName` or :class:`BadCombination` on bad names or mixtures.
    """
    from replay.corpus.edition import default_edition
    from replay.engine.game import Game
    from replay.engine.rulings import resolve

    mod = module(game_id)
    chosen = list(variants)
    for v in chosen:
        if v not in mod.VARIANTS:
            raise UnknownName(f"variant of {game_id}", v, list(mod.VARIANTS))
    if len(set(chosen)) != len(chosen):
        raise BadCombination(f"a variant is named twice: {chosen}")
    vset = frozenset(chosen)
    problem = mod.combination_problem(vset)
    if problem:
        raise BadCombination(problem)
    edition = edition or default_edition()
    defs = rulings_for(game_id, edition)
    rulings = dict(rulings or {})
    for name in rulings:
        if name in defs and not defs[name].applies(vset):
            need = " or ".join(defs[name].variants)
            raise BadCombination(f"ruling {name!r} applies only with variant {need}")
    readings = resolve(defs, rulings)
    setup = mod.build(vset, readings, edition)
    shown = {k: v for k, v in readings.items() if defs[k].applies(vset)}
    return Game(game_id, vset, shown, setup, getattr(mod, "SEARCH", None))
