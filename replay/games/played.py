"""Whether every reading a log may select is played: read by its game's rules, and playing otherwise than the default.

A ruling of the ambiguity register opens its readings to a log (``replay deal --ruling``, ``replay validate``); the
game module lists in ``RULINGS`` the readings its rules turn into behaviour.  A reading the module does not list is
read by no rule function: a log that names it would be played as if it named the default.  A reading the module
lists may still change nothing; :func:`unplayed_readings` plays random walks from seeded deals under the default
and under the reading, in every form the ruling applies to (the game alone and with each variant), and reports a
reading under which no walk ever met a position where the legal moves, or the table a move leads to, differ.
``replay corpus check`` turns the findings into problems, unless the register's entry says why the reading is kept
(``plays_as_default`` on the reading).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterator

from replay.engine.edition import Edition
from replay.engine.errors import BadCombination
from replay.engine.game import Game, Table

#: walks per form and steps per walk: every reading of the archive that plays differently shows it within these
#: (the rarest, exiles' reversal-bases = bases-stay, differs on 8 deals of the first 20, the first at deal 4), and
#: the check stays quick (a few seconds: only a reading that never differs plays every walk)
WALKS = 12
STEPS = 400


@dataclass(frozen=True)
class Unplayed:
    """A selectable reading that plays no differently: ``why`` is ``"unread"`` (no rule function reads it: the
    module's ``RULINGS`` does not list it) or ``"same-play"`` (random walks found no difference)."""

    game: str
    ruling: str
    reading: str
    ambiguity: str
    why: str


def unplayed_readings(edition: Edition, walks: int = WALKS, steps: int = STEPS) -> list[Unplayed]:
    """Every selectable non-default reading of every game's rulings in ``edition`` that is unread or plays as the
    default (see the module's docstring); the default itself is checked to be listed in ``RULINGS`` too."""
    from replay.games.catalog import MODULES, module

    out = []
    for gid in MODULES:
        mod = module(gid)
        for name, r in edition.rulings_of(gid).items():
            listed = set(mod.RULINGS.get(name, ()))
            for reading in r.readings:
                if reading not in listed:
                    out.append(Unplayed(gid, name, reading, r.ambiguity, "unread"))
                elif reading != r.default and not _differs_somewhere(gid, name, reading, r.default, edition, walks,
                                                                     steps):
                    out.append(Unplayed(gid, name, reading, r.ambiguity, "same-play"))
    return out


def _forms(gid: str, variants: tuple[str, ...]) -> Iterator[frozenset[str]]:
    """The game alone and with each variant (those it can be played with)."""
    from replay.games.catalog import module

    mod = module(gid)
    yield frozenset()
    for v in mod.VARIANTS:
        if mod.combination_problem(frozenset({v})) is None:
            yield frozenset({v})


def _differs_somewhere(gid: str, name: str, reading: str, default: str, edition: Edition, walks: int,
                       steps: int) -> bool:
    """Whether, in some form the ruling applies to, a random walk meets a difference between the two readings."""
    from replay.games.catalog import create

    ruling = edition.rulings_of(gid)[name]
    for vset in _forms(gid, ruling.variants):
        if not ruling.applies(vset):
            continue
        try:
            base = create(gid, vset, {name: default}, edition=edition)
            other = create(gid, vset, {name: reading}, edition=edition)
        except BadCombination:
            continue
        if base.roles != other.roles or base.layout.names != other.layout.names:
            return True  # another layout
        for seed in range(1, walks + 1):
            if _walk_differs(base, other, seed, steps):
                return True
    return False


def _state(t: Table) -> tuple:
    return t.piles, t.fsuit, t.passes, t.rounds, t.vars


def _walk_differs(a: Game, b: Game, seed: int, steps: int) -> bool:
    """One random walk from deal ``seed``, each step a legal move chosen at random (the same for both games):
    whether the tables or the legal moves of the two games ever differ."""
    rng = random.Random(seed)
    ta, tb = a.new_table(a.deck_from_seed(seed)), b.new_table(b.deck_from_seed(seed))
    for _ in range(steps):
        if _state(ta) != _state(tb):
            return True
        la = [(m.type, m.src, m.dst, m.count) for m in ta.legal_moves()]
        lb = [(m.type, m.src, m.dst, m.count) for m in tb.legal_moves()]
        if sorted(la) != sorted(lb):
            return True
        if not la:
            return False
        moves = ta.legal_moves()
        m = moves[rng.randrange(len(moves))]
        ta.push(m)
        tb.push(m)
    return _state(ta) != _state(tb)
