"""What a game module declares to be searched by the solver's fast core (``SEARCH['fast_core']``).

A plain record below the games and the fast core both: a game module fills one in (its kernel's name
and how its instance and its ``Table.vars`` are encoded), :mod:`replay.fastcore` takes one as an
argument, and the solver, above both, hands the game's to the core.  Nothing here names a game or
loads the C library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from replay.engine.game import Game, Table


#: the most bytes ``FastCore.vars`` may give (the room for ``Table.vars`` in a position of the fast core:
#: replay/fastcore/core.h, ``FC_VARS``)
VARS_BYTES = 1536
#: the move types as the fast core numbers them (replay/fastcore/core.h); NRPA's move codes use them in C and
#: in Python alike, so the Python search (the Play page's, without the C library) reads them here
TYPES = ("move", "deal", "redeal", "fill", "tuck")
TYPE_CODE = {t: i for i, t in enumerate(TYPES)}


@dataclass(frozen=True)
class FastCore:
    """What a game module declares to be searched by the fast core (``SEARCH['fast_core']``).

    ``kernel``: the name of its C kernel.  ``options(game)``: the game instance's options as a list of
    integers, in the layout its kernel reads (raising ``NotImplementedError`` for a form the kernel
    does not mirror, which the Python search then takes).  ``vars(table)``: ``Table.vars`` as bytes (equal bytes
    exactly when the states are equal), or None when this table's state cannot be encoded.
    ``vars_back(bytes)``: the inverse, for the tests (the part of ``Table.vars`` it can give back).
    """

    kernel: str
    options: Callable[[Game], list[int]]
    vars: Callable[[Table], bytes | None]
    vars_back: Callable[[bytes], dict[str, Any]] | None = None
