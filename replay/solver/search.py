"""Depth-first search for a winning line, on the engine's own legal-move list.

The solver never decides for itself what is legal: every position is expanded
with :meth:`~replay.engine.game.Table.legal_moves` and every move is carried out
with :meth:`~replay.engine.game.Table.push`.  What it adds is search:

* **Transposition table.**  Every position reached is recorded under a compact
  key (:func:`position_key`: the cards of every container as bytes, the
  foundation suits, the pass, the round counter and the game's own state).  A
  position met a second time is not searched again: either it was searched to
  the end without a win, or it lies on the current line (a cycle).  This is
  what makes the search finite and an exhaustive failure a proof.
* **Move ordering** (never pruning): cards to the foundations first, then the
  moves the rules impose (``fill``, ``tuck``), then moves that empty their pile,
  then other card moves, then moves between foundations, then ``deal`` and
  last ``redeal``.  Ties keep the engine's order, so the search is
  deterministic.
* **Symmetry** (sound, per game, see :class:`Profile`): where the rules treat a
  group of containers alike, positions that differ only by a permutation of the
  group share one key, and of several moves into empty members of the group
  only the first is tried.
* **Safe moves** (sound, per game, a game's ``SEARCH['safe_move']``, e.g. Napoleon's Square's): a move that
  provably loses nothing is made as the only child of its position.

The result is ``won`` (with the line), ``unwinnable`` (the search ran to the end:
no budget ran out, and nothing but the sound reductions above was pruned) or
``unknown`` (a budget of nodes or seconds ran out).  With a node budget the answer
is deterministic; a time budget makes it depend on the machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from replay.engine import cards as C
from replay.engine.game import Game, Move, Table, hashable
from replay.engine.layout import FOUNDATION, STOCK, TABLEAU, WASTE

WON, UNWINNABLE, UNKNOWN = "won", "unwinnable", "unknown"
STATUSES = (WON, UNWINNABLE, UNKNOWN)

#: default node budget of ``replay solve`` (positions expanded)
DEFAULT_NODES = 200_000


@dataclass(frozen=True)
class Budget:
    """How much search one deal may take: positions expanded and/or seconds (None: no limit)."""

    nodes: int | None = DEFAULT_NODES
    seconds: float | None = None

    def describe(self) -> str:
        parts = []
        if self.nodes is not None:
            parts.append(f"{self.nodes} nodes")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s (machine-dependent)")
        return " and ".join(parts) or "unlimited"


@dataclass
class Result:
    """What a search found."""

    status: str  #: won | unwinnable | unknown
    line: list[Move]  #: the winning moves from the start position (empty unless won)
    nodes: int  #: positions expanded (legal-move lists computed)
    seconds: float
    stopped_by: str | None = None  #: "nodes" or "seconds" when a budget ran out
    positions: int = 0  #: distinct positions recorded
    reductions: tuple[str, ...] = ()  #: the sound reductions this game's search used
    best_home: int = 0  #: the most cards on the foundations in any position the search reached

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "moves": len(self.line), "nodes": self.nodes, "positions": self.positions,
                "seconds": round(self.seconds, 4), "stopped_by": self.stopped_by,
                "reductions": list(self.reductions), "best_home": self.best_home}


# ----------------------------------------------------------------------------- per-game knowledge


@dataclass(frozen=True)
class Profile:
    """The sound reductions the search may use for one game instance.

    ``same_tableau``: containers the rules treat alike after the first deal (any of them may
    be the source or the target of the same moves; none has a position that matters).
    ``same_foundations``: groups of foundations the rules treat alike.  ``rounds_cap``: the
    round counter matters to the rules only up to this value (None: all of it).  ``safe``:
    a test that a legal move loses nothing and may be made at once.
    """

    same_tableau: tuple[int, ...] = ()
    same_foundations: tuple[tuple[int, ...], ...] = ()
    rounds_cap: int | None = None
    safe: Callable[[Table, Move], bool] | None = None
    notes: tuple[str, ...] = ()


def profile_for(game: Game) -> Profile:
    """What is provably safe to reduce in ``game``: read from its module's ``SEARCH`` data.

    A game module may declare ``SEARCH``, a dict of what its rules make sound (the solver
    itself names no game): ``interchangeable_tableau`` (bool: the tableau piles have no
    position the rules look at), ``interchangeable_foundations`` (``"all"``, or ``"by-base"``:
    those founded on the same rank), ``rounds_matter_up_to`` (int) and ``safe_move`` (a
    function ``(table, move) -> bool`` whose docstring gives the proof).  No ``SEARCH``: no
    reductions.
    """
    from replay.games.catalog import module

    hints = getattr(module(game.id), "SEARCH", None) or {}
    unknown = set(hints) - {"interchangeable_tableau", "interchangeable_foundations", "rounds_matter_up_to",
                            "safe_move"}
    if unknown:
        raise ValueError(f"{game.id}: unknown SEARCH hints {sorted(unknown)}")
    notes = []
    same_tableau: tuple[int, ...] = ()
    if hints.get("interchangeable_tableau"):
        same_tableau = tuple(game.by_role.get(TABLEAU, ()))
        notes.append("tableau piles interchangeable")
    same_foundations: tuple[tuple[int, ...], ...] = ()
    kind = hints.get("interchangeable_foundations")
    if kind == "all":
        same_foundations = (tuple(game.foundations),)
        notes.append("foundations interchangeable")
    elif kind == "by-base":
        groups: dict[int, list[int]] = {}
        for f in game.foundations:
            groups.setdefault(game.fbase[f], []).append(f)
        same_foundations = tuple(tuple(g) for g in groups.values())
        notes.append("foundations of a kind interchangeable")
    elif kind is not None:
        raise ValueError(f"{game.id}: interchangeable_foundations must be 'all' or 'by-base', not {kind!r}")
    safe = hints.get("safe_move")
    if safe is not None:
        notes.append(f"safe moves ({safe.__name__})")
    return Profile(same_tableau=same_tableau, same_foundations=same_foundations,
                   rounds_cap=hints.get("rounds_matter_up_to"), safe=safe, notes=tuple(notes))


# ----------------------------------------------------------------------------- keys


def position_key(game: Game, profile: Profile | None = None) -> Callable[[Table], tuple]:
    """A function giving each table a compact hashable key: equal keys mean equivalent positions.

    Without reductions it holds everything a :class:`Table` holds but the move counter: every
    container's cards (one byte per card; 255 separates containers), foundation suits, pass,
    round and the game's state.  With a profile, interchangeable containers are sorted first.
    """
    profile = profile or Profile()
    n = len(game.roles)
    sym_t = tuple(profile.same_tableau)
    sym_f = tuple(profile.same_foundations)
    grouped = set(sym_t) | {f for g in sym_f for f in g}
    fixed = tuple(i for i in range(n) if i not in grouped)
    fixed_found = tuple(f for f in game.foundations if f not in grouped)
    cap = profile.rounds_cap
    sep = b"\xff"

    def key(t: Table) -> tuple:
        piles = t.piles
        parts = [bytes(piles[i]) for i in fixed]
        if sym_t:
            parts.append(b"\xfe".join(sorted(bytes(piles[i]) for i in sym_t)))
        fsuit = t.fsuit
        for g in sym_f:
            parts.append(b"\xfe".join(sorted(bytes((fsuit[f] + 1,)) + bytes(piles[f]) for f in g)))
        rounds = t.rounds if cap is None else min(t.rounds, cap)
        return (sep.join(parts), bytes(fsuit[f] + 1 for f in fixed_found), t.passes, rounds,
                hashable(t.vars) if t.vars else ())

    return key


# ----------------------------------------------------------------------------- ordering


#: search-order classes (lower first)
R_FOUNDATION, R_IMPOSED, R_PRODUCTIVE, R_DEAL, R_REDEAL, R_OTHER, R_SHIFT = range(7)


def move_class(game: Game, t: Table, m: Move, child: Table) -> int:
    """Search order of ``m`` (from ``t``, giving ``child``): see :func:`ordered_moves`."""
    if m.type == "deal":
        return R_DEAL
    if m.type == "redeal":
        return R_REDEAL
    roles = game.roles
    if m.dst >= 0 and roles[m.dst] == FOUNDATION:
        return R_SHIFT if roles[m.src] == FOUNDATION else R_FOUNDATION
    if m.type in ("fill", "tuck"):
        return R_IMPOSED
    if m.src >= 0 and roles[m.src] == WASTE:
        return R_PRODUCTIVE  # a card taken off the talon uncovers the next one
    if m.src >= 0 and roles[m.src] != STOCK and frees_a_card(game, child, m.src):
        return R_PRODUCTIVE
    return R_OTHER


def frees_a_card(game: Game, t: Table, src: int) -> bool:
    """Whether the top card of ``src`` may now go to a foundation (asked of the engine's own rules)."""
    if not t.piles[src]:
        return False
    for f in game.foundations:
        if t.allows(Move("move", src, f)):
            return True
    return False


def _reduce(game: Game, t: Table, moves: list[Move], profile: Profile) -> list[Move]:
    """Drop moves into an empty member of an interchangeable group when an earlier empty member takes the same move."""
    if not (profile.same_tableau or profile.same_foundations):
        return moves
    groups = [profile.same_tableau] if profile.same_tableau else []
    groups.extend(profile.same_foundations)
    out = []
    taken: set[tuple] = set()
    piles = t.piles
    for m in moves:
        if m.dst >= 0 and not piles[m.dst]:
            for gi, g in enumerate(groups):
                if m.dst in g:
                    sig = (gi, m.type, m.src, m.count)
                    if sig in taken:
                        break
                    taken.add(sig)
                    out.append(m)
                    break
            else:
                out.append(m)
        else:
            out.append(m)
    return out


def ordered_moves(game: Game, t: Table, profile: Profile) -> list[tuple[Move, Table]]:
    """The legal moves of ``t`` with the tables they lead to, in search order.

    Order: cards to the foundations; moves the rules impose (fill, tuck); card moves that free
    a card for a foundation (or take a card off the talon); deal; redeal; other card moves;
    moves between foundations.  Ties keep the engine's order.  After the symmetry reduction;
    a safe move (see :class:`Profile`) is returned alone.
    """
    moves = _reduce(game, t, t.legal_moves(), profile)
    if profile.safe is not None:
        for m in moves:
            if profile.safe(t, m):
                child = t.copy()
                child.push(m)
                return [(m, child)]
    out = []
    for m in moves:
        child = t.copy()
        child.push(m)
        out.append((move_class(game, t, m, child), m, child))
    out.sort(key=lambda x: x[0])  # stable: ties keep the engine's order
    return [(m, c) for _, m, c in out]


# ----------------------------------------------------------------------------- search


@dataclass
class _Frame:
    table: Table
    moves: list[tuple[Move, Table]]
    next: int = 0


def solve(game: Game, table: Table | None = None, *, deck: list[int] | None = None,
          budget: Budget = Budget(), profile: Profile | None = None) -> Result:
    """Search for a winning line from ``table`` (or a fresh table of ``deck``); the table is not changed."""
    if table is None:
        if deck is None:
            raise ValueError("solve() needs a table or a deck")
        table = game.new_table(deck)
    profile = profile_for(game) if profile is None else profile
    key = position_key(game, profile)
    start = time.perf_counter()
    root = table.copy()
    if root.is_won():
        return Result(WON, [], 0, 0.0, positions=1, reductions=profile.notes, best_home=root.cards_home())
    seen = {key(root)}
    max_nodes = budget.nodes
    deadline = start + budget.seconds if budget.seconds is not None else None
    stack = [_Frame(root, ordered_moves(game, root, profile))]
    line: list[Move] = []
    nodes = 1
    stopped = None
    cards_home = game.cards_home
    best = cards_home(root)
    while stack:
        frame = stack[-1]
        if frame.next >= len(frame.moves):
            stack.pop()
            if line:
                line.pop()
            continue
        m, child = frame.moves[frame.next]
        frame.next += 1
        k = key(child)
        if k in seen:
            continue
        seen.add(k)
        home = cards_home(child)
        if home > best:
            best = home
        if home == C.DECK_SIZE:  # Game.is_won, without counting again
            line.append(m)
            return Result(WON, line, nodes, time.perf_counter() - start, positions=len(seen),
                          reductions=profile.notes, best_home=best)
        if max_nodes is not None and nodes >= max_nodes:
            stopped = "nodes"
            break
        if deadline is not None and (nodes & 63) == 0 and time.perf_counter() > deadline:
            stopped = "seconds"
            break
        nodes += 1
        stack.append(_Frame(child, ordered_moves(game, child, profile)))
        line.append(m)
    status = UNKNOWN if stopped else UNWINNABLE
    return Result(status, [], nodes, time.perf_counter() - start, stopped, len(seen), profile.notes, best)


def replay_line(game: Game, deck: list[int], moves: Iterable[Move]) -> Table:
    """Play ``moves`` from a fresh table of ``deck`` through the checked path (raises on an illegal move)."""
    t = game.new_table(deck)
    for m in moves:
        t.apply(m)
    return t


__all__ = ["Budget", "Result", "Profile", "solve", "profile_for", "position_key", "ordered_moves",
           "replay_line", "WON", "UNWINNABLE", "UNKNOWN", "STATUSES", "DEFAULT_NODES"]
