"""A strong player: nested searches made to find wins, and a portfolio with the depth-first search.

:func:`play` is the entry point of every method (``--method`` in the commands):

* ``depth-first``: :func:`replay.solver.search.solve`, the search that proves losses;
* ``nmcs``: nested Monte-Carlo search (T. Cazenave, "Nested Monte-Carlo Search", IJCAI 2009): at each
  step of a level-L search every move is tried and finished by a level L-1 search (level 0: one
  rollout, which plays a foundation move with chance ``p_found`` when there is one, else any move);
  the best line found so far is kept and its next move played.  With a ``width`` (a beam; none by
  default), a level of 2 or more first finishes every move by one rollout and searches only the
  ``width`` best by the level below;
* ``nrpa``: nested rollout policy adaptation (C. D. Rosin, IJCAI 2011): rollouts from the root follow
  a policy (a weight per move, a softmax), which each level adapts toward its best line; a foundation
  move has a prior weight ``bias``;
* ``portfolio``: a bounded depth-first search first (it proves losses and settles small trees), then
  the nested search with the rest of the budget.

A nested search names no game (it asks the engine, or the game's fast-core kernel, for legal moves and
counts cards home), never enters a position its line has passed through (the depth-first search's
keys) and never makes a line longer than ``max_len`` moves, so every rollout ends.  It proves
nothing: it answers ``won`` (the line) or ``unknown`` (``best_line`` to the position with the most
cards home, ``best_home``), never ``unwinnable``; only the portfolio's depth-first search can.  Its
budget (``Budget.nodes``) is counted in positions made, every move carried out (rollouts' steps
included), so the figures do not depend on the machine; ``Budget.seconds`` is the wall-clock
alternative.  For a given seed and budget the answer is the same on every run.

The search runs in the fast core (``replay/fastcore/nested.c``) when the game has a kernel that takes
the form and the position, else here in Python: the same algorithm, step for step, with the same
generator (splitmix64), so the same line on the same seed and budget, more slowly.  Every won line is
replayed through :meth:`~replay.engine.game.Table.apply` before it is reported.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Callable

from replay.engine import cards as C
from replay.engine.game import Game, Move, Table
from replay.engine.layout import FOUNDATION
from replay.solver.search import (UNKNOWN, WON, Budget, Profile, Progress, Result, _check_won_line, _clock, _reduce,
                                  position_key, profile_for, solve)

#: the methods :func:`play` knows
METHODS = ("depth-first", "nmcs", "nrpa", "portfolio")
#: what ``--method`` will default to
DEFAULT_METHOD = "portfolio"
#: how often (in positions) the nested search looks at the clock, ``should_stop`` and ``progress``
TICK_EVERY = 256
#: the policy's most codes (NRPA): a move code first met when it holds this many keeps weight 0
POLICY_MAX = 8192
#: the most levels a nested search may have
MAX_LEVEL = 8

#: the range of every number of :class:`Params` (nested.c's params_ok holds the same): a line of more
#: than MAX_LINE moves, NRPA's weights beyond what exp() and their sums can hold, counts beyond C's int
#: are refused where they enter
MAX_LINE = 100_000
MAX_ITERATIONS = 1_000_000
MAX_WIDTH = 1024
MAX_WEIGHT = 100.0
#: NRPA's weights are exp(x), x clamped to [-MAX_EXP, MAX_EXP] (nested.c's): their sums stay finite, above 0
MAX_EXP = 700.0
BOUNDS: dict[str, tuple[Any, Any]] = {
    "level": (1, MAX_LEVEL), "iterations": (1, MAX_ITERATIONS), "max_len": (1, MAX_LINE), "width": (0, MAX_WIDTH),
    "p_found": (0.0, 1.0), "bias": (-MAX_WEIGHT, MAX_WEIGHT), "alpha": (0.0, MAX_WEIGHT),
}


@dataclass(frozen=True)
class Params:
    """A nested search's parameters (the fast core's ``fc_nested_params``).

    ``method``: ``nmcs`` or ``nrpa``.  ``level``: the top level (1 or more).  ``iterations``: NRPA's runs
    of the level below per level.  ``max_len``: the longest line from the root, in moves.  ``width``:
    NMCS's beam, 0 for none: at each step of a level 2 or more every candidate is first finished by one
    rollout, and only the ``width`` best of them by the level below.  ``p_found``: NMCS's rollouts play
    a foundation move with this chance when one exists.  ``bias``: NRPA's prior weight of a foundation
    move.  ``alpha``: NRPA's step of adaptation.

    Every number is bounded here (:data:`BOUNDS`), as nested.c bounds it again: a value outside its range
    is refused with a ``ValueError`` naming the parameter and the range.
    """

    method: str = "nmcs"
    level: int = 2
    iterations: int = 30
    max_len: int = 1000
    width: int = 0
    p_found: float = 0.97
    bias: float = 3.0
    alpha: float = 1.0

    def __post_init__(self) -> None:
        if self.method not in ("nmcs", "nrpa"):
            raise ValueError(f"a nested search is nmcs or nrpa, not {self.method!r}")
        for name, (low, high) in BOUNDS.items():
            value = getattr(self, name)
            integral = isinstance(low, int)
            if isinstance(value, bool) or not isinstance(value, int if integral else (int, float)) \
                    or not low <= value <= high:  # NaN is refused too: it compares false
                kind = "a whole number" if integral else "a number"
                raise ValueError(f"Params {name} must be {kind} from {low} to {high}, not {value!r}")

    @property
    def p_found_units(self) -> int:
        """``p_found`` in units of 2**-32, as the generator's draws are compared with it."""
        return min(2**32 - 1, int(self.p_found * 2**32))


#: each nested method's parameters by default (benchmarks/README.md: how they were chosen)
PARAMS = {"nmcs": Params("nmcs"), "nrpa": Params("nrpa")}
#: what a nested search found: status, stopped_by, positions used, best cards home, line, best line
Found = tuple[str, "str | None", int, int, list[Move], list[Move]]

#: the portfolio's depth-first search takes this share of a position budget (a game may declare its own:
#: ``SEARCH['portfolio_dfs_share']``, :func:`dfs_share`), at least PORTFOLIO_DFS_MIN
#: positions (all of a smaller budget); PORTFOLIO_DFS_NODES when the search has no position budget, only a
#: stop request.  A tenth, not capped: at the statistics table's larger budgets (10^7 positions and more) the
#: depth-first search proves losses and finds wins the nested search does not, at less CPU a position
#: (benchmarks/README.md, "The portfolio's share"); at 200,000 positions and less it is 20,000 positions, as before.
PORTFOLIO_DFS_SHARE = 0.1
PORTFOLIO_DFS_MIN = 20_000
PORTFOLIO_DFS_NODES = 100_000


def play(game: Game, table: Table | None = None, *, deck: list[int] | None = None, method: str = DEFAULT_METHOD,
         budget: Budget = Budget(), seed: int = 0, progress: Progress | None = None,
         should_stop: Callable[[], bool] | None = None, fast: bool = True, params: Params | None = None) -> Result:
    """Play ``table`` (or a fresh table of ``deck``) with ``method`` (:data:`METHODS`) within ``budget``.

    ``budget.nodes`` is the position budget (for ``depth-first``, positions expanded; for the nested
    searches, positions made), ``budget.seconds`` the wall-clock one; ``seed`` the nested search's
    generator.  ``progress(positions, best_home, seconds)`` and ``should_stop()`` are as for
    :func:`replay.solver.search.solve`.  ``fast=False`` searches in Python.  ``params`` replaces the
    method's :data:`PARAMS` (its ``method`` is the nested method the portfolio uses).
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (one of {', '.join(METHODS)})")
    if table is None:
        if deck is None:
            raise ValueError("play() needs a table or a deck")
        table = game.new_table(deck)
    if method == "depth-first":
        return solve(game, table, budget=budget, progress=progress, should_stop=should_stop, fast=fast)
    if method == "portfolio":
        return _portfolio(game, table, budget, seed, progress, should_stop, fast, params or PARAMS["nmcs"])
    p = params or PARAMS[method]
    if p.method != method:
        p = replace(p, method=method)
    return nested(game, table, p, budget, seed, progress, should_stop, fast)


def nested(game: Game, table: Table, params: Params, budget: Budget, seed: int = 0,
           progress: Progress | None = None, should_stop: Callable[[], bool] | None = None,
           fast: bool = True) -> Result:
    """The nested search ``params.method`` from ``table`` (not changed): ``won`` or ``unknown``."""
    if budget.nodes is None and budget.seconds is None and should_stop is None:
        raise ValueError("a nested search needs a budget (positions or seconds) or a stop request: it never ends")
    start = time.perf_counter()
    profile = profile_for(game)
    root = table.copy()
    if root.is_won():
        return Result(WON, [], 0, 0.0, positions=0, reductions=profile.notes, best_home=root.cards_home(),
                      method=params.method)
    tick = _clock(start, budget.seconds, progress, should_stop)
    found = _fast_nested(game, root, profile, params, budget.nodes, seed, tick) if fast else None
    core = "c"
    if found is None:
        found = _PythonNested(game, root, profile, params, budget.nodes, seed, tick).run()
        core = "python"
    status, stopped, used, best_home, line, best_line = found
    if status == WON:
        _check_won_line(table, line)
    return Result(status, line, used, time.perf_counter() - start, stopped, used, profile.notes, best_home,
                  best_line=best_line, core=core, method=params.method)



def kernel_spec(game: Game) -> Any:
    """The game's fast-core spec (:class:`replay.fastcore.FastCore`), or None: the one place the nested
    search looks it up."""
    from replay import fastcore

    return fastcore.spec_of(game)


def _fast_nested(game: Game, root: Table, profile: Profile, params: Params, max_positions: int | None, seed: int,
                 tick: Callable[[int, int], str | None] | None) -> Found | None:
    """The fast core's nested search, or None when it cannot take this game, form or position."""
    from replay import fastcore
    from replay.fastcore import nested as fn

    spec = kernel_spec(game)
    if spec is None:
        return None
    state = fastcore.encode_table(root, spec)
    if state is None:
        return None
    cap = fastcore.encode_profile(game, profile.same_tableau, profile.same_foundations, profile.rounds_cap,
                                  profile.safe is not None, False)
    p = fn.encode_params(params.method, params.level, params.iterations, params.max_len, params.width,
                         params.p_found_units, params.bias, params.alpha, seed)
    f = fn.search(game, spec, state, cap, p, max_positions, tick)
    if f is None:
        return None
    return f.status, f.stopped_by, f.positions, f.best_home, f.line, f.best_line


# ----------------------------------------------------------------------------- the Python search

_M64 = 2**64 - 1


class _Stop(Exception):
    """The search must stop (budget, clock, won): unwinds to :meth:`_PythonNested.run` (nested.c unwinds
    too, counting nothing more; what its levels hold then is never read)."""


class _PythonNested:
    """nested.c in Python, step for step: the same candidates in the same order, the same draws of the
    same generator, the same floating point (NRPA), the same positions counted."""

    def __init__(self, game: Game, root: Table, profile: Profile, params: Params, budget: int | None, seed: int,
                 tick: Callable[[int, int], str | None] | None) -> None:
        from replay.engine.kernel import TYPE_CODE

        self.game, self.root, self.profile, self.p = game, root, profile, params
        self.type_code = TYPE_CODE  # move types as the fast core numbers them, for the policy's move codes
        self.budget, self.tick = budget, tick
        self.rng = seed % 2**64
        self.key = position_key(game, profile)
        self.roles = game.roles
        self.used = 0
        self.stopped: str | None = None
        self.won = False
        self.line: list[Move] = []
        self.path: list[Any] = [self.key(root)]
        self.on_path = set(self.path)
        self.best_home = root.cards_home()
        self.best_line: list[Move] = []
        self.win: list[Move] = []

    # -- the generator: splitmix64
    def next64(self) -> int:
        self.rng = (self.rng + 0x9E3779B97F4A7C15) & _M64
        z = self.rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next64() >> 32) * n) >> 32

    def unit(self) -> float:
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    # -- positions
    def count(self) -> None:
        if self.budget is not None and self.used >= self.budget:
            self.stopped = "nodes"
            raise _Stop
        self.used += 1
        if self.tick is not None and self.used % TICK_EVERY == 0:
            why = self.tick(self.used, self.best_home)
            if why:
                self.stopped = why
                raise _Stop

    def step(self, t: Table, m: Move) -> Table | None:
        """nested.c's step: the child entered (the line and the path grow), or None (on the line already,
        or the line as long as allowed); raises _Stop."""
        if len(self.line) >= self.p.max_len:
            return None
        self.count()
        child = t.copy()
        child.push(m)
        k = self.key(child)
        if k in self.on_path:
            return None
        self.on_path.add(k)
        self.path.append(k)
        self.line.append(m)
        home = child.cards_home()
        if home > self.best_home:
            self.best_home = home
            self.best_line = list(self.line)
        if home == C.DECK_SIZE:
            self.win = list(self.line)
            self.won = True
            raise _Stop
        return child

    def back_to(self, depth: int) -> None:
        while len(self.line) > depth:
            self.line.pop()
            self.on_path.discard(self.path.pop())

    def is_found(self, m: Move) -> bool:
        roles = self.roles
        return m.dst >= 0 and roles[m.dst] == FOUNDATION and (m.src < 0 or roles[m.src] != FOUNDATION)

    def candidates(self, t: Table) -> tuple[list[Move], int]:
        moves = _reduce(self.game, t, t.legal_moves(), self.profile)
        safe = -1
        if self.profile.safe is not None:
            for i, m in enumerate(moves):
                if self.profile.safe(t, m):
                    safe = i
                    break
        return moves, safe

    # -- NMCS
    def rollout(self, t: Table) -> tuple[int, list[Move]]:
        start = len(self.line)
        best = t.cards_home()
        while len(self.line) < self.p.max_len:
            mv, safe = self.candidates(t)
            n = len(mv)
            if not n:
                break
            tried = [False] * n
            left = n
            child = None
            if safe >= 0:
                child = self.step(t, mv[safe])
                if child is None:
                    tried[safe] = True
                    left -= 1
            while child is None and left > 0:
                pool = [i for i in range(n) if not tried[i] and self.is_found(mv[i])]
                if not (pool and (self.next64() >> 32) < self.p.p_found_units):
                    pool = [i for i in range(n) if not tried[i]]
                i = pool[self.below(len(pool))]
                child = self.step(t, mv[i])
                if child is None:
                    tried[i] = True
                    left -= 1
            if child is None:
                break
            t = child
            best = max(best, t.cards_home())
        return best, self.line[start:]

    def nmcs(self, level: int, s: Table) -> tuple[int, list[Move]]:
        start = len(self.line)
        best, seq = -1, list[Move]()
        played = 0
        cur = s
        width = self.p.width
        while True:
            mv, safe = self.candidates(cur)
            n = len(mv)
            here = len(self.line)
            forced = (n == 1 or safe >= 0) and len(seq) > played
            order = range(n) if safe < 0 else [safe, *(j for j in range(n) if j != safe)]
            if level >= 2 and width > 0 and safe < 0 and not forced:  # the beam: a rollout for every candidate
                ranked: list[tuple[int, int]] = []
                for i in order:
                    child = self.step(cur, mv[i])
                    if child is None:
                        continue
                    score, sub = self.rollout(child)
                    self.back_to(here)
                    if score > best:
                        best, seq = score, seq[:played] + [mv[i]] + sub
                    ranked.append((score, i))
                ranked.sort(key=lambda x: -x[0])  # stable: ties keep the earlier candidate
                order = [i for _, i in ranked[:width]]
            for i in ([] if forced else order):
                child = self.step(cur, mv[i])
                if child is None:
                    continue
                score, sub = self.rollout(child) if level == 1 else self.nmcs(level - 1, child)
                self.back_to(here)
                if score > best:
                    best, seq = score, seq[:played] + [mv[i]] + sub
                if i == safe:
                    break
            if len(seq) <= played:
                break
            nxt = self.step(cur, seq[played])
            if nxt is None:
                break
            cur = nxt
            played += 1
        self.back_to(start)
        return max(best, s.cards_home()), seq

    # -- NRPA
    def code_of(self, t: Table, m: Move) -> int:
        card = 0
        if m.src >= 0:
            pile = t.piles[m.src]
            k = m.count or 1
            if len(pile) >= k:
                card = pile[len(pile) - k] + 1
        return 1 + self.type_code[m.type] + ((m.src + 1) << 3) + ((m.dst + 1) << 10) + (card << 17)

    def weights(self, pol: dict[int, float], t: Table, mv: list[Move]) -> list[float]:
        bias = self.p.bias
        xs = (pol.get(self.code_of(t, m), 0.0) + (bias if self.is_found(m) else 0.0) for m in mv)
        return [math.exp(min(MAX_EXP, max(-MAX_EXP, x))) for x in xs]

    def playout(self, pol: dict[int, float]) -> tuple[int, list[Move]]:
        t = self.root
        best = t.cards_home()
        while len(self.line) < self.p.max_len:
            mv, safe = self.candidates(t)
            n = len(mv)
            if not n:
                break
            tried = [False] * n
            left = n
            child = None
            if safe >= 0:
                child = self.step(t, mv[safe])
                if child is None:
                    tried[safe] = True
                    left -= 1
            w = self.weights(pol, t, mv) if child is None else []
            while child is None and left > 0:
                z = 0.0
                last = -1
                for i in range(n):
                    if not tried[i]:
                        z += w[i]
                        last = i
                u = self.unit() * z
                acc = 0.0
                pick = last
                for i in range(n):
                    if not tried[i]:
                        acc += w[i]
                        if acc > u:
                            pick = i
                            break
                child = self.step(t, mv[pick])
                if child is None:
                    tried[pick] = True
                    left -= 1
            if child is None:
                break
            t = child
            best = max(best, t.cards_home())
        seq = list(self.line)
        self.back_to(0)
        return best, seq

    def adapt(self, pol: dict[int, float], seq: list[Move]) -> None:
        old = dict(pol)
        alpha = self.p.alpha

        def add(code: int, d: float) -> None:
            if code in pol:
                pol[code] += d
            elif len(pol) < POLICY_MAX:
                pol[code] = 0.0 + d

        t = self.root
        for m in seq:
            mv, safe = self.candidates(t)
            if safe < 0:
                w = self.weights(old, t, mv)
                z = 0.0
                for x in w:
                    z += x
                add(self.code_of(t, m), alpha)
                for i, other in enumerate(mv):
                    add(self.code_of(t, other), -alpha * w[i] / z)
            self.count()
            t = t.copy()
            t.push(m)

    def nrpa(self, level: int, pol: dict[int, float]) -> tuple[int, list[Move]]:
        best, seq = -1, list[Move]()
        for _ in range(self.p.iterations):
            score, got = self.playout(pol) if level == 1 else self.nrpa(level - 1, dict(pol))
            if score >= best:
                best, seq = score, got
            self.adapt(pol, seq)
        return best, seq

    def run(self) -> Found:
        try:
            while True:
                before = self.used
                if self.p.method == "nmcs":
                    self.nmcs(self.p.level, self.root)
                else:
                    self.nrpa(self.p.level, {})
                if self.used == before:  # nothing to play from the root: another run would do the same
                    break
        except _Stop:
            pass
        if self.won:
            return WON, None, self.used, C.DECK_SIZE, self.win, self.win
        return UNKNOWN, self.stopped, self.used, self.best_home, [], self.best_line


# ----------------------------------------------------------------------------- the portfolio


def dfs_share(game: Game) -> float:
    """The share of a portfolio's budget its depth-first search takes in ``game``: the game's own
    (``SEARCH['portfolio_dfs_share']``, :func:`replay.solver.search.profile_for`), else
    :data:`PORTFOLIO_DFS_SHARE`."""
    own = profile_for(game).dfs_share
    return PORTFOLIO_DFS_SHARE if own is None else own


def _portfolio(game: Game, table: Table, budget: Budget, seed: int, progress: Progress | None,
               should_stop: Callable[[], bool] | None, fast: bool, params: Params) -> Result:
    """The depth-first search with a share of the budget, then (unless it decided) the nested search with the
    rest.  A proof of loss from the depth-first search is the answer: no win can contradict it."""
    start = time.perf_counter()
    part = dfs_share(game)
    share = None if budget.nodes is None else \
        min(budget.nodes, max(PORTFOLIO_DFS_MIN, int(budget.nodes * part)))
    if share is None and budget.seconds is None:
        share = PORTFOLIO_DFS_NODES
    dfs_budget = Budget(nodes=share, seconds=None if budget.seconds is None else budget.seconds * part)
    first = solve(game, table, budget=dfs_budget, progress=progress, should_stop=should_stop, fast=fast)
    if first.status != UNKNOWN or first.stopped_by == "interrupted":
        return replace(first, method="portfolio")
    left_nodes = None if budget.nodes is None else budget.nodes - first.nodes
    left_seconds = None if budget.seconds is None else budget.seconds - first.seconds
    if (left_nodes is not None and left_nodes < 1) or (left_seconds is not None and left_seconds <= 0):
        return replace(first, method="portfolio")  # the depth-first search took the whole budget
    rest = Budget(nodes=left_nodes, seconds=left_seconds)
    offset = first.nodes
    shifted = None if progress is None else (lambda n, b, s: progress(offset + n, max(b, first.best_home), s))
    second = nested(game, table, params, rest, seed, shifted, should_stop, fast)
    better = second if second.best_home > first.best_home or second.status == WON else first
    return Result(second.status, second.line, first.nodes + second.nodes, time.perf_counter() - start,
                  second.stopped_by, first.positions + second.positions, first.reductions, better.best_home,
                  pruned=first.pruned, best_line=better.best_line,
                  core=first.core if first.core == second.core else f"{first.core}+{second.core}", method="portfolio")


__all__ = ["METHODS", "DEFAULT_METHOD", "Params", "PARAMS", "play", "nested", "kernel_spec"]
