"""The catalog of games: which module plays which game, its variants and its rulings."""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol

from replay.engine.errors import BadCombination, UnknownName

if TYPE_CHECKING:  # the corpus and the engine are imported when a game is made, not when the CLI starts
    from replay.corpus.loader import Corpus
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
    def build(self, variants: frozenset[str], readings: dict[str, str], corpus: Corpus) -> Setup: ...


def module(game_id: str) -> ModuleType:
    if game_id not in MODULES:
        raise UnknownName("game", game_id, list(MODULES))
    return importlib.import_module(MODULES[game_id])


def catalog() -> dict[str, ModuleType]:
    """Every game module by game ID (importing them registers their rule functions)."""
    return {g: module(g) for g in MODULES}


@lru_cache(maxsize=None)
def rulings_for(game_id: str) -> dict[str, Ruling]:
    """The rulings of a game, as the ambiguity register defines them."""
    from replay.corpus.loader import default_corpus
    from replay.engine.rulings import Ruling

    corpus = default_corpus()
    out: dict[str, Ruling] = {}
    for amb in corpus.ambiguities_of_game(game_id):
        if amb.ruling:
            out[amb.ruling] = Ruling(
                name=amb.ruling,
                readings=tuple(r.id for r in amb.readings if r.selectable),
                default=amb.default,
                ambiguity=amb.id,
                title=amb.title,
                summaries={r.id: r.summary for r in amb.readings},
                variants=tuple(amb.variants),
            )
    return out


def create(game_id: str, variants: Iterable[str] = (), rulings: Mapping[str, str] | None = None,
           corpus: Corpus | None = None) -> Game:
    """A game instance.  Raises :class:`UnknownName` or :class:`BadCombination` on bad names or mixtures."""
    from replay.corpus.loader import default_corpus
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
    defs = rulings_for(game_id)
    rulings = dict(rulings or {})
    for name in rulings:
        if name in defs and not defs[name].applies(vset):
            need = " or ".join(defs[name].variants)
            raise BadCombination(f"ruling {name!r} applies only with variant {need}")
    readings = resolve(defs, rulings)
    setup = mod.build(vset, readings, corpus or default_corpus())
    shown = {k: v for k, v in readings.items() if defs[k].applies(vset)}
    return Game(game_id, vset, shown, setup, getattr(mod, "SEARCH", None))
