"""The checked replay's compiled twin: a whole log's moves checked by the fast core's kernel in one call.

The engine's rule functions (one per clause) stay the authority.  This path may only *accept*: the
kernel (``replay/fastcore/games/<game>.c``, held move by move to the rule functions by
``tests/test_fastcore_<game>.py``) carries out the log's moves while each is among its legal moves and
names the card it moves, and answers how many it carried out and whether the last position is won,
lost or unfinished.  When every move was accepted (and the log's claimed result, if it has one, is
that outcome) the verdict is *valid* without the Python replay; anything else (a move the kernel does
not find, a false claim, a table or position the kernel cannot encode, a move whose fields it cannot
pack) is replayed by the engine, which words the refusal with its clause.  So a refusal always comes
from the rule functions, and an acceptance from the kernel only where the differential test
``tests/test_log_fast.py`` holds the two equal (every example log and random logs of every game,
variant and ruling, valid and broken, reported identically by both paths; it says how many it compared).

Besides, one log in :data:`SAMPLE` (chosen by a hash of its moves, so the same log always takes the
same path) is replayed by the engine too after the kernel accepted it; were the engine to refuse it the
report would be an internal error naming the disagreement, never a silent pass.

Loading the library costs some 30-50 ms, more than a short log's whole replay, so a process uses it
only once it has checked :data:`AFTER` moves in Python (``replay validate`` of one log never loads it;
a batch does): the verdict is the same either way.  Where the package is shipped without the fast core
(the Play page's archive) the import fails once and the engine replays every log.
"""

from __future__ import annotations

import struct
import zlib
from typing import Sequence

from replay.engine import cards as C
from replay.engine.game import Game, Move, Table
from replay.engine.kernel import TYPE_CODE

#: moves a process checks in Python before it loads the fast core for the rest
AFTER = 4000
#: one accepted log in SAMPLE is replayed by the engine as well
SAMPLE = 32

_seen = 0
_missing = False  # the fast core cannot be imported here (set at the first try)


class Disagreement(RuntimeError):
    """The fast core accepted a log that the engine refuses: a bug in a kernel (reported, never passed)."""


def accepted(game: Game, table: Table, moves: Sequence[Move]) -> str | None:
    """The outcome (``won``, ``lost``, ``unfinished``) when the kernel accepts every one of ``moves`` from
    ``table`` (left unchanged); None when the engine is to replay the log (a move not accepted, no kernel
    for this form, the library not loaded yet or missing)."""
    global _seen, _missing
    if _missing or _seen < AFTER:
        _seen += len(moves)
        return None
    try:
        from replay import fastcore as F
    except ImportError:  # a copy without it (the Play page's archive, which has no ctypes): the engine replays
        _missing = True
        return None
    spec = F.spec_of(game)  # None without the library, a kernel for this game or one that takes this form
    if spec is None:
        return None
    packed = _pack(moves)
    if packed is None:
        return None
    done = F.check_line(game, spec, table, packed, len(moves))
    if done is None or done[0] != len(moves):
        return None
    _, nlegal, home = done
    outcome = "won" if home == C.DECK_SIZE else "unfinished" if nlegal else "lost"
    if zlib.crc32(packed) % SAMPLE == 0:
        _confirm(game, table, moves, outcome)
    return outcome


def _pack(moves: Sequence[Move]) -> bytes | None:
    """The moves as fc_logmove records, or None when one has a field the record cannot hold (a count past
    255, a pile past 127: the engine refuses it with its words).  A pile the layout lacks or a count of
    0 fits the record and is among no position's legal moves, so the kernel refuses it."""
    from replay.fastcore import LOGMOVE

    pack, code = LOGMOVE.pack, TYPE_CODE
    try:
        return b"".join([pack(code[m.type], m.src, m.dst, m.count, m.card) for m in moves])
    except (KeyError, struct.error):  # a type the kernel has no code for, a field out of the record's range
        return None


def _confirm(game: Game, table: Table, moves: Sequence[Move], outcome: str) -> None:
    """The engine's replay of an accepted log of the sample: it must accept every move and reach ``outcome``."""
    from replay.engine.errors import ReplayError

    t = table.copy()
    step = game.step
    for i, m in enumerate(moves):
        try:
            step(t, m)
        except ReplayError as e:
            raise Disagreement(f"the fast core accepted move {i}, which the engine refuses ({e})") from None
    if t.outcome() != outcome:
        raise Disagreement(f"the fast core found the game {outcome}, the engine {t.outcome()}")
