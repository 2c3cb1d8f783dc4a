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
* **Proofs of loss without search** (sound, per game, a game's ``SEARCH['dead_ends']``): small tests
  that see a position cannot be won (a card that can never reach a foundation).  Asked at the root
  (an answer there is ``unwinnable`` with the proof's reason in :attr:`Result.proof` and its plain name
  in :attr:`Result.proved_by`) and at every position the search enters (a lost position is not
  expanded: pruning it loses no win).  An exhaustive search's ``unwinnable`` is ``proved_by``
  ``"exhaustive search (…)"``, naming the reductions it used.
* **Twin cards.**  A card is an integer (``rank * 4 + suit``) and the two copies of a card are the
  same integer, so positions that differ only by swapping twins have one key, and of two moves of
  twin cards to the same target the second leads to a position already seen and is not searched.

The result is ``won`` (with the line), ``unwinnable`` (the search ran to the end:
no budget ran out, and nothing but the sound reductions above was pruned) or
``unknown`` (a budget of nodes or seconds ran out, or ``should_stop`` asked the search to end:
``stopped_by`` says which).  With a node budget the answer
is deterministic; a time budget makes it depend on the machine.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable

from replay.engine import cards as C
from replay.engine.game import Game, Move, Table, hashable
from replay.engine.layout import FOUNDATION, STOCK, TABLEAU, WASTE

WON, UNWINNABLE, UNKNOWN = "won", "unwinnable", "unknown"
STATUSES = (WON, UNWINNABLE, UNKNOWN)

#: default node budget of ``replay solve`` (positions expanded)
DEFAULT_NODES = 200_000


#: the largest node budget: the C search counts in 64 signed bits (a larger one would wrap)
MAX_NODES = 2**63 - 1

#: the shortest and the longest time budget, in seconds: the portfolio gives its first search a share of the
#: time (a few thousandths: 5e-324 s would round to nothing), and past a billion seconds (32 years) a budget
#: means no limit, which leaving --seconds out says
MIN_SECONDS, MAX_SECONDS = 0.001, 1e9


@dataclass(frozen=True)
class Budget:
    """How much search one deal may take: positions expanded and/or seconds (None: no limit).

    Raises ``ValueError`` (one line) for a budget no search can keep: nodes below 1 or above
    :data:`MAX_NODES`, seconds that are not a positive finite number (NaN would never run out).  What a user
    asks for is bounded further, where it enters (:meth:`asked`).
    """

    nodes: int | None = DEFAULT_NODES
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and not 1 <= self.nodes <= MAX_NODES:
            raise ValueError(f"--nodes must be between 1 and {MAX_NODES:,} (0: no limit), not {self.nodes:,}")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ValueError(f"--seconds must be a positive number of seconds, not {self.seconds!r}")

    @classmethod
    def asked(cls, nodes: int | None, seconds: float | None, default_nodes: int = DEFAULT_NODES) -> Budget:
        """The budget a user asked for with ``--nodes`` and ``--seconds``: neither given, the default node
        budget; one given, that one alone (``--seconds 10`` is ten seconds, not the default nodes or ten
        seconds, whichever ends first); both, whichever runs out first.  ``nodes`` 0 means no node limit
        (then ``seconds``, if given, is the budget; with neither limit the search runs to its end).  ``seconds``
        must be :data:`MIN_SECONDS` to :data:`MAX_SECONDS`."""
        if nodes is None:
            nodes = default_nodes if seconds is None else 0
        if nodes < 0:
            raise ValueError(f"--nodes must be 0 (no limit) or more, not {nodes:,}")
        if seconds is not None and not (math.isfinite(seconds) and MIN_SECONDS <= seconds <= MAX_SECONDS):
            raise ValueError(f"--seconds must be {MIN_SECONDS:g} to {MAX_SECONDS:,.0f}, not {seconds!r}")
        return cls(nodes=nodes or None, seconds=seconds)

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
    proof: str | None = None  #: unwinnable without search: the reason a static proof of loss gave at the root
    #: unwinnable: what settled it, in plain words: the proof of loss that answered at the root (its
    #: :func:`proof_name`), or ``"exhaustive search (…)"`` with the reductions the search used
    proved_by: str | None = None
    pruned: int = 0  #: positions the search entered and found lost by a static proof (not expanded)
    best_line: list[Move] = field(default_factory=list)  #: moves to the first position with ``best_home`` cards home
    core: str = "python"  #: which search ran: "c" (replay.fastcore) or "python"; the result is the same
    method: str = "depth-first"  #: which player: depth-first, or replay.solver.nested's nmcs, nrpa, portfolio

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "moves": len(self.line), "nodes": self.nodes, "positions": self.positions,
                "seconds": round(self.seconds, 4), "stopped_by": self.stopped_by,
                "reductions": list(self.reductions), "best_home": self.best_home, "proof": self.proof,
                "proved_by": self.proved_by,
                "pruned": self.pruned, "core": self.core, "method": self.method}


# ----------------------------------------------------------------------------- per-game knowledge


@dataclass(frozen=True)
class Profile:
    """The sound reductions the search may use for one game instance.

    ``same_tableau``: containers the rules treat alike after the first deal (any of them may
    be the source or the target of the same moves; none has a position that matters).
    ``same_foundations``: groups of foundations the rules treat alike.  ``rounds_cap``: the
    round counter matters to the rules only up to this value (None: all of it).  ``safe``:
    a test that a legal move loses nothing and may be made at once.  ``dead_ends``: tests that
    a position cannot be won, each ``(table) -> reason | None`` (a reason: provably lost), asked
    at the root and (unless ``dead_ends_at_nodes`` is false: when they cost more search than they
    save) at every position the search enters.
    """

    same_tableau: tuple[int, ...] = ()
    same_foundations: tuple[tuple[int, ...], ...] = ()
    rounds_cap: int | None = None
    safe: Callable[[Table, Move], bool] | None = None
    notes: tuple[str, ...] = ()
    dead_ends: tuple[Callable[[Table], str | None], ...] = ()
    dead_ends_at_nodes: bool = True
    #: proofs of loss asked at the root only, after ``dead_ends`` (too slow to ask at every position)
    root_dead_ends: tuple[Callable[[Table], str | None], ...] = ()
    #: the share of a portfolio's budget its depth-first search takes (None: the solver's default,
    #: ``replay.solver.nested.PORTFOLIO_DFS_SHARE``)
    dfs_share: float | None = None

    def lost(self, t: Table) -> str | None:
        """The reason the first of the game's proofs of loss gives for ``t`` (None: none proves it lost)."""
        for proof in self.dead_ends:
            why = proof(t)
            if why:
                return why
        return None

    def lost_by(self, t: Table) -> tuple[str, str] | None:
        """``(the proof's plain name, its reason)`` of the first proof of loss (of those asked at the root:
        ``dead_ends``, then ``root_dead_ends``) that settles ``t``, or None."""
        for proof in (*self.dead_ends, *self.root_dead_ends):
            why = proof(t)
            if why:
                return proof_name(proof), why
        return None

    def exhaustive(self) -> str:
        """How an exhaustive search of this profile proves a loss, in plain words: ``exhaustive search``
        and the reductions it used (a proof of loss asked at every position among them)."""
        used = [n for n in self.notes if not n.startswith("proof of loss")]
        if self.dead_ends and self.dead_ends_at_nodes:
            used += [f"{proof_name(p)} at every position" for p in self.dead_ends]
        return "exhaustive search" + (f" ({', '.join(used)})" if used else "")


def proof_name(proof: Callable[..., Any]) -> str:
    """A proof of loss's plain name: its ``plain_name`` (set by
    :func:`replay.engine.proofs.proof_of_loss`), else its function name in words."""
    return getattr(proof, "plain_name", None) or proof.__name__.replace("_", " ")


def profile_for(game: Game) -> Profile:
    """What is provably safe to reduce in ``game``: read from its module's ``SEARCH`` data.

    A game module may declare ``SEARCH``, a dict of what its rules make sound (the solver
    itself names no game): ``interchangeable_tableau`` (bool: the tableau piles have no
    position the rules look at), ``interchangeable_foundations`` (``"all"``, or ``"by-base"``:
    those founded on the same rank), ``rounds_matter_up_to`` (int), ``safe_move`` (a
    function ``(table, move) -> bool`` whose docstring gives the proof) and ``dead_ends`` (a
    sequence of functions ``(table) -> str | None``, each a proof of loss that returns its reason
    when the position cannot be won; its docstring argues why it is sound) with
    ``dead_ends_at_nodes`` (bool, default true: ask them at every position, not only at the root),
    ``root_dead_ends`` (more such proofs, asked at the root only: too slow for every position),
    ``portfolio_dfs_share`` (a number above 0 and at most 1, or a function of the game instance giving one
    or None for the solver's default: the share of a portfolio's budget its depth-first search takes,
    where it was measured to settle more deals than the default share; its docstring gives the
    measurement), and
    ``fast_core`` (a :class:`replay.engine.kernel.FastCore`: the game's C kernel, used by :func:`solve`).
    No ``SEARCH``: no reductions.
    """
    from replay.games.catalog import module

    hints = getattr(module(game.id), "SEARCH", None) or {}
    unknown = set(hints) - {"interchangeable_tableau", "interchangeable_foundations", "rounds_matter_up_to",
                            "safe_move", "dead_ends", "dead_ends_at_nodes", "root_dead_ends", "fast_core",
                            "portfolio_dfs_share"}
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
    dead_ends = tuple(hints.get("dead_ends", ()))
    root_dead_ends = tuple(hints.get("root_dead_ends", ()))
    for proof in (*dead_ends, *root_dead_ends):
        notes.append(f"proof of loss ({proof.__name__})")
    share = hints.get("portfolio_dfs_share")
    if callable(share):  # the share of this instance of the game (its variants and readings), None: the default
        share = share(game)
    if share is not None and (isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 1):
        raise ValueError(f"{game.id}: portfolio_dfs_share must be a number above 0 and at most 1, not {share!r}")
    return Profile(same_tableau=same_tableau, same_foundations=same_foundations,
                   rounds_cap=hints.get("rounds_matter_up_to"), safe=safe, notes=tuple(notes), dead_ends=dead_ends,
                   dead_ends_at_nodes=bool(hints.get("dead_ends_at_nodes", True)), root_dead_ends=root_dead_ends,
                   dfs_share=None if share is None else float(share))


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
    allows = game.allows
    for m in _to_foundations(game, src):
        if allows(t, m):
            return True
    return False


@lru_cache(maxsize=None)
def _to_foundations(game: Game, src: int) -> tuple[Move, ...]:
    """The moves from ``src`` to each foundation (made once: moves are immutable)."""
    return tuple(Move("move", src, f) for f in game.foundations)


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


#: how often (in positions expanded) ``solve`` looks at the clock, ``should_stop`` and ``progress``
CHECK_EVERY = 16
#: the least time between two calls of ``progress`` (seconds)
PROGRESS_EVERY = 0.5

Progress = Callable[[int, int, float], None]


def solve(game: Game, table: Table | None = None, *, deck: list[int] | None = None,
          budget: Budget = Budget(), profile: Profile | None = None, progress: Progress | None = None,
          should_stop: Callable[[], bool] | None = None, fast: bool = True) -> Result:
    """Search for a winning line from ``table`` (or a fresh table of ``deck``); the table is not changed.

    With ``fast`` (the default) a game whose module declares a fast core (``SEARCH['fast_core']``,
    :mod:`replay.fastcore`) is searched by it when it can take this position and profile: the same
    search, step for step, with the same result, in C.  ``fast=False`` always searches in Python.

    ``progress(nodes, best_home, seconds)`` is called about every :data:`PROGRESS_EVERY` seconds while
    the search runs; when ``should_stop()`` turns true the search ends with what it has (``unknown``,
    ``stopped_by="interrupted"``).  Both are looked at every :data:`CHECK_EVERY` positions.
    """
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
    if profile.dead_ends or profile.root_dead_ends:
        settled = profile.lost_by(root)
        if settled:
            return Result(UNWINNABLE, [], 0, time.perf_counter() - start, positions=1, reductions=profile.notes,
                          best_home=root.cards_home(), proof=settled[1], proved_by=settled[0])
    lost = profile.lost if profile.dead_ends and profile.dead_ends_at_nodes else None
    max_nodes = budget.nodes
    tick = _clock(start, budget.seconds, progress, should_stop)
    if fast:
        found = _fast_search(game, root, profile, lost is not None, max_nodes, tick)
        if found is not None:
            if found.status == WON:
                _check_won_line(table, found.line)
            return Result(found.status, found.line, found.nodes, time.perf_counter() - start, found.stopped_by,
                          found.positions, profile.notes, found.best_home, pruned=found.pruned,
                          best_line=found.best_line, core="c",
                          proved_by=profile.exhaustive() if found.status == UNWINNABLE else None)
    seen = {key(root)}
    stack = [_Frame(root, ordered_moves(game, root, profile))]
    line: list[Move] = []
    nodes = 1
    pruned = 0
    stopped = None
    cards_home = game.cards_home
    best = cards_home(root)
    best_line: list[Move] = []
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
            best_line = [*line, m]  # at most 104 times a search: the cost stays off the common path
        if home == C.DECK_SIZE:  # Game.is_won, without counting again
            line.append(m)
            _check_won_line(table, line)  # a copy of the given table: the root before any move
            return Result(WON, line, nodes, time.perf_counter() - start, positions=len(seen),
                          reductions=profile.notes, best_home=best, pruned=pruned, best_line=list(line))
        if lost is not None and lost(child):
            pruned += 1
            continue
        if max_nodes is not None and nodes >= max_nodes:
            stopped = "nodes"
            break
        if tick is not None and nodes % CHECK_EVERY == 0:
            stopped = tick(nodes, best)
            if stopped:
                break
        nodes += 1
        stack.append(_Frame(child, ordered_moves(game, child, profile)))
        line.append(m)
    status = UNKNOWN if stopped else UNWINNABLE
    return Result(status, [], nodes, time.perf_counter() - start, stopped, len(seen), profile.notes, best,
                  pruned=pruned, best_line=best_line, proved_by=None if stopped else profile.exhaustive())


def _clock(start: float, seconds: float | None, progress: Progress | None,
           should_stop: Callable[[], bool] | None) -> Callable[[int, int], str | None] | None:
    """What a search does every :data:`CHECK_EVERY` positions, as ``tick(nodes, best_home)``: the reason to
    stop (``"seconds"`` past the deadline, ``"interrupted"`` when ``should_stop()``), else None after
    reporting ``progress`` when it is due.  None when there is nothing to look at (no time budget, no
    progress, no stop request).  The Python search and the C search (through a callback) ask the same."""
    if seconds is None and progress is None and should_stop is None:
        return None
    deadline = start + seconds if seconds is not None else None
    report = [start + PROGRESS_EVERY]

    def tick(nodes: int, best: int) -> str | None:
        now = time.perf_counter()
        if deadline is not None and now > deadline:
            return "seconds"
        if should_stop is not None and should_stop():
            return "interrupted"
        if progress is not None and now >= report[0]:
            progress(nodes, best, now - start)
            report[0] = now + PROGRESS_EVERY
        return None

    return tick


def _fast_search(game: Game, root: Table, profile: Profile, use_lost: bool, max_nodes: int | None,
                 tick: Callable[[int, int], str | None] | None) -> Any:
    """The C search of :mod:`replay.fastcore` from ``root``, or None when it cannot take this search (no
    kernel for the game, a state it cannot encode, a profile other than the game's own)."""
    from replay import fastcore
    from replay.games.catalog import module

    hints = getattr(module(game.id), "SEARCH", None) or {}
    spec = hints.get("fast_core")  # the game's declaration, handed to the core
    if spec is None or fastcore.spec_of(game, spec) is None:
        return None
    if profile.safe is not None and profile.safe is not hints.get("safe_move"):
        return None  # the kernel mirrors the module's own safe move, not another
    if use_lost and profile.dead_ends != tuple(hints.get("dead_ends", ())):
        return None
    state = fastcore.encode_table(root, spec)
    if state is None:
        return None
    cap = fastcore.encode_profile(game, profile.same_tableau, profile.same_foundations, profile.rounds_cap,
                                  profile.safe is not None, use_lost)
    return fastcore.search(game, spec, state, cap, max_nodes, tick)


def _check_won_line(table: Table, line: list[Move]) -> None:
    """Replay a line the search found through the checked path (:meth:`Table.apply`, every rule asked
    again) and make sure it ends won, before it is reported: the engine stays the authority."""
    t = table.copy()
    for m in line:
        t.apply(m)  # raises IllegalMove if the search ever made a move the rules refuse
    if not t.is_won():
        raise AssertionError(f"the search's line of {len(line)} moves does not end won")


def replay_line(game: Game, deck: list[int], moves: Iterable[Move]) -> Table:
    """Play ``moves`` from a fresh table of ``deck`` through the checked path (raises on an illegal move)."""
    t = game.new_table(deck)
    for m in moves:
        t.apply(m)
    return t


__all__ = ["Budget", "Result", "Profile", "solve", "profile_for", "proof_name", "position_key", "ordered_moves",
           "replay_line", "WON", "UNWINNABLE", "UNKNOWN", "STATUSES", "DEFAULT_NODES", "Progress"]
