"""Win rates: run the solver and the greedy player over seeded deals, in parallel, with 95% intervals.

Parallel runs go through dask.distributed: a local cluster of worker processes by default, or
the cluster whose scheduler address is given.  Every deal is played by the same function
whatever runs it, and results come back in job order, so a node budget gives the same results
whatever the backend and however many workers.

Deals are ``game.deck_from_seed(seed)`` for ``seed = S, S+1, …``.  Rates carry Wilson score
intervals; the difference a ruling makes is measured on the same seeds as the default
(paired) with Newcombe's hybrid score interval for paired proportions (his method 10).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Sequence

from replay.engine.errors import ReplayError
from replay.solver.nested import DEFAULT_METHOD

#: two-sided 95% normal quantile
Z95 = 1.959963984540054

#: one-letter codes of the per-deal results stored in the data files
CODE = {"won": "W", "unwinnable": "X", "unknown": "?"}
DECODE = {v: k for k, v in CODE.items()}


# ----------------------------------------------------------------------------- intervals


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``k/n`` (no continuity correction); (0, 1) when n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    denom = 1 + z2 / n
    lo = 0.0 if k == 0 else max(0.0, (centre - half) / denom)
    hi = 1.0 if k == n else min(1.0, (centre + half) / denom)
    return lo, hi


def newcombe_unpaired(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """Difference p1 - p2 of independent proportions with Newcombe's hybrid score interval (method 10, 1998)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def newcombe_paired(both: int, only1: int, only2: int, neither: int, z: float = Z95) -> tuple[float, float, float]:
    """Difference p1 - p2 of paired proportions with Newcombe's hybrid score interval (paired method 10, 1998).

    ``both`` pairs succeed under 1 and 2, ``only1`` under 1 only, ``only2`` under 2 only, ``neither``
    under neither.  The Wilson limits of p1 and p2 are combined with the phi correlation of the
    2x2 table (taken as 0 when a margin is empty).
    """
    n = both + only1 + only2 + neither
    if n == 0:
        return 0.0, -1.0, 1.0
    k1, k2 = both + only1, both + only2
    p1, p2 = k1 / n, k2 / n
    l1, u1 = wilson(k1, n, z)
    l2, u2 = wilson(k2, n, z)
    margins = (both + only1) * (only2 + neither) * (both + only2) * (only1 + neither)
    phi = (both * neither - only1 * only2) / math.sqrt(margins) if margins > 0 else 0.0
    d = p1 - p2
    dl = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    du = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    lo = d - math.sqrt(max(dl, 0.0))
    hi = d + math.sqrt(max(du, 0.0))
    return d, max(-1.0, lo), min(1.0, hi)


# ----------------------------------------------------------------------------- one deal


@dataclass(frozen=True)
class Form:
    """A game instance by name: game, variants and the rulings read otherwise than by default."""

    game: str
    variants: tuple[str, ...] = ()
    rulings: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        parts = [self.game] + ["+" + v for v in self.variants] + [f"{k}={v}" for k, v in self.rulings]
        return " ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "variants": list(self.variants), "rulings": dict(self.rulings)}


@lru_cache(maxsize=64)
def game_of(form: Form):
    """The game instance of a form (cached per process)."""
    from replay.games.catalog import create

    return create(form.game, form.variants, dict(form.rulings))


def play_deal(form: Form, seed: int, nodes: int | None, seconds: float | None, greedy: bool = True,
              method: str = DEFAULT_METHOD) -> dict[str, Any]:
    """Solve one deal with ``method`` (:func:`replay.solver.nested.play`, its generator at 0, as ``replay
    solve`` has it) and play it greedily; a small dict of plain values (it crosses process boundaries)."""
    from replay.solver.greedy import play_greedy
    from replay.solver.nested import play
    from replay.solver.search import Budget

    game = game_of(form)
    deck = game.deck_from_seed(seed)
    r = play(game, deck=deck, method=method, budget=Budget(nodes=nodes, seconds=seconds))
    out: dict[str, Any] = {"seed": seed, "status": r.status, "moves": len(r.line), "nodes": r.nodes,
                           "seconds": r.seconds, "home": r.best_home, "method": method}
    if r.proved_by:  # which proof settled a deal proved lost (an exhaustive search names itself too)
        out["proved_by"] = r.proved_by
    if greedy:
        t0 = time.perf_counter()
        g = play_greedy(game, deck)
        out.update(greedy_won=g.won, greedy_moves=len(g.line), greedy_seconds=time.perf_counter() - t0,
                   greedy_home=g.table.cards_home())
    return out


def _play_many(args: tuple[Form, Sequence[int], int | None, float | None, bool, str]) -> list[dict[str, Any]]:
    form, seeds, nodes, seconds, greedy, method = args
    return [play_deal(form, s, nodes, seconds, greedy, method) for s in seeds]


#: seconds to wait for a dask scheduler given by address before giving up
SCHEDULER_TIMEOUT = 10


#: ``-j N`` beyond this many worker processes a core is refused: far past the core count, each worker (some
#: 100 MB) only waits for a core while the machine swaps
MAX_WORKERS_PER_CORE = 4


def worker_count(asked: int | None, batches: int, scheduler: str | None = None) -> int:
    """How many worker processes a local run starts: ``asked`` (default: every core), never more than the
    batches of work there are (so one batch runs in this process), at least 1.  Raises ValueError (one line)
    when ``asked`` is far past the cores (:data:`MAX_WORKERS_PER_CORE`)."""
    cores = os.cpu_count() or 1
    if asked is not None and scheduler is None and asked > MAX_WORKERS_PER_CORE * cores:
        raise ValueError(f"-j {asked} is more than {MAX_WORKERS_PER_CORE} worker processes a core (this machine "
                         f"has {cores}); give at most {MAX_WORKERS_PER_CORE * cores}")
    return max(1, min(asked or cores, batches))


def run(jobs: Sequence[tuple[Form, int]], nodes: int | None, seconds: float | None, workers: int | None = None,
        greedy: bool = True, progress: Callable[[int], None] | None = None,
        chunk: int = 4, scheduler: str | None = None, method: str = DEFAULT_METHOD) -> list[dict[str, Any]]:
    """Play every (form, seed) job with ``method``; results in job order.

    ``scheduler``: the address of a dask.distributed scheduler to run the jobs on (its workers need
    this package installed; OSError when it cannot be reached).  Otherwise ``workers`` processes (default: all
    cores, never more than the batches; :func:`worker_count`) of a local dask cluster; one worker runs the
    jobs in this process.  Jobs go out in batches of ``chunk`` deals.
    """
    batches: list[tuple[Form, list[int]]] = []
    for form, seed in jobs:
        if batches and batches[-1][0] == form and len(batches[-1][1]) < chunk:
            batches[-1][1].append(seed)
        else:
            batches.append((form, [seed]))
    workers = worker_count(workers, len(batches), scheduler)
    args = [(f, s, nodes, seconds, greedy, method) for f, s in batches]
    if workers <= 1 and scheduler is None:
        out: list[dict[str, Any]] = []
        for a in args:
            out.extend(_play_many(a))
            if progress:
                progress(len(a[1]))
        return out
    return _run_on_dask(args, workers, scheduler, progress)


class SchedulerError(OSError):
    """A ``--scheduler`` address that is not one, that no dask scheduler answers at within
    :data:`SCHEDULER_TIMEOUT`, or a scheduler lost during the run (one line)."""


def check_scheduler(address: str, timeout: float | None = None) -> None:
    """Make sure a dask scheduler answers at ``address`` before any work goes there: the address must
    parse (``tcp://HOST:PORT``), the peer must finish dask's handshake and answer an ``identity`` request
    as a scheduler, all within ``timeout`` seconds (default :data:`SCHEDULER_TIMEOUT`).  A peer that
    accepts the connection and then says nothing (dask's own client waits for it forever) or answers in
    another protocol is refused.  Raises :class:`SchedulerError`."""
    import asyncio

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address

    limit = SCHEDULER_TIMEOUT if timeout is None else timeout
    try:
        scheme, loc = parse_address(address.strip(), strict=True)
        if not loc or (scheme in ("tcp", "tls", "ws", "wss") and not loc.rpartition(":")[2].isdigit()):
            raise ValueError("no port")
    except (ValueError, TypeError):
        raise SchedulerError("not a scheduler address (give tcp://HOST:PORT)") from None

    async def identity() -> Any:
        comm = await connect(address, timeout=limit)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer = asyncio.run(asyncio.wait_for(identity(), limit))
    except (asyncio.TimeoutError, TimeoutError):
        raise SchedulerError(f"no dask scheduler answered within {limit:g} s") from None
    except (Exception, MemoryError) as e:  # a peer in another protocol: its bytes read as a frame of any length
        raise SchedulerError("what answers there is not a dask scheduler (it does not speak its protocol)") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise SchedulerError("what answers there is not a dask scheduler")


class MissingExtra(OSError):
    """An optional dependency this run needs is not installed (one line: what to install)."""


#: what ``replay stats`` on more than one process needs, and how to get it
DASK_HINT = ("replay stats on several processes or a cluster needs dask: pip install 'patience-replay[stats]' "
             "(or give -j 1 to run in this process)")


def dask_missing() -> str | None:
    """The one-line hint when dask.distributed is not installed, else None (asked before a run starts)."""
    import importlib.util

    try:
        found = importlib.util.find_spec("distributed") is not None and importlib.util.find_spec("dask") is not None
    except (ImportError, ValueError):
        found = False
    return None if found else DASK_HINT


@contextlib.contextmanager
def _cluster(workers: int, scheduler: str | None) -> Iterator[Any]:
    """A dask client: on the scheduler given, else on a local cluster of ``workers`` processes.

    The local workers are started with SIGINT ignored (an ignored signal stays ignored in the processes a
    process starts), so that Ctrl-C in the terminal reaches this process alone: it stops the cluster and
    ends quietly, where each worker, nanny and exit hook would otherwise print its own traceback.
    Raises :class:`MissingExtra` when dask is not installed (the ``stats`` extra)."""
    import signal

    hint = dask_missing()
    if hint:
        raise MissingExtra(hint)
    from dask.distributed import Client, LocalCluster

    cluster = None
    # dask's client, nanny and workers log tracebacks when the run is cut short: what went wrong is said in one line
    logging.disable(logging.CRITICAL)
    try:
        if scheduler is not None:
            check_scheduler(scheduler)
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)  # OSError when it cannot be reached
        else:
            before = signal.getsignal(signal.SIGINT)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.CRITICAL)
                client = Client(cluster)
            finally:
                signal.signal(signal.SIGINT, before)
        try:
            yield client
        finally:
            _quietly(client.close)
            if cluster is not None:
                _quietly(cluster.close)
    finally:
        logging.disable(logging.NOTSET)


def _quietly(close: Callable[[], Any]) -> None:
    """Close a dask object, a second Ctrl-C or a worker already gone included, without a word."""
    import signal

    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        close()
    except Exception:  # noqa: BLE001 - closing is best effort; what failed has been said
        pass
    finally:
        signal.signal(signal.SIGINT, before)


def _run_on_dask(args: list[tuple[Form, list[int], int | None, float | None, bool, str]], workers: int,
                 scheduler: str | None, progress: Callable[[int], None] | None) -> list[dict[str, Any]]:
    """Run the batches on a dask.distributed cluster (local unless ``scheduler`` is given), in their order."""
    from dask.distributed import as_completed

    with _cluster(workers, scheduler) as client:
        try:
            futures = client.map(_play_many, args, pure=False)
            size = {f.key: len(a[1]) for f, a in zip(futures, args)}
            for done in as_completed(futures):
                if progress:
                    progress(size[done.key])
            results = client.gather(futures)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:  # the scheduler went away (the futures are cancelled) or the cluster broke
            raise _lost(e, scheduler) from None
    return [r for batch in results for r in batch]


def _lost(e: Exception, scheduler: str | None) -> Exception:
    if scheduler is None or isinstance(e, ReplayError):
        return e
    why = " ".join(str(e).split()) or type(e).__name__
    return SchedulerError(f"the scheduler was lost during the run ({why[:200]})")


# ----------------------------------------------------------------------------- summaries


def summarize(results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Counts, rates with Wilson intervals, mean moves and time of one row of results."""
    rows = list(results)
    n = len(rows)
    won = sum(r["status"] == "won" for r in rows)
    lost = sum(r["status"] == "unwinnable" for r in rows)
    unknown = n - won - lost
    lo, hi = wilson(won, n)
    out: dict[str, Any] = {
        "deals": n,
        "solver": {
            "won": won, "unwinnable": lost, "unknown": unknown,
            "win_rate": won / n if n else 0.0, "win_ci": [lo, hi],
            "unwinnable_share": lost / n if n else 0.0, "unknown_share": unknown / n if n else 0.0,
            "win_rate_at_most": (won + unknown) / n if n else 1.0,
            "mean_moves_won": (sum(r["moves"] for r in rows if r["status"] == "won") / won) if won else None,
            "mean_nodes": sum(r["nodes"] for r in rows) / n if n else 0.0,
            "seconds": sum(r["seconds"] for r in rows),
            "results": "".join(CODE[r["status"]] for r in rows),
            **_home(rows, "home"),
        },
    }
    if rows and "greedy_won" in rows[0]:
        gw = sum(bool(r["greedy_won"]) for r in rows)
        glo, ghi = wilson(gw, n)
        out["greedy"] = {
            "won": gw, "win_rate": gw / n, "win_ci": [glo, ghi],
            "mean_moves": sum(r["greedy_moves"] for r in rows) / n,
            "seconds": sum(r["greedy_seconds"] for r in rows),
            "results": "".join("1" if r["greedy_won"] else "0" for r in rows),
            **_home(rows, "greedy_home"),
        }
    out["seeds"] = [rows[0]["seed"], rows[-1]["seed"]] if rows else []
    return out


def _home(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """How far play got: cards on the foundations (the solver: the most in any position it reached)."""
    if not rows or key not in rows[0]:
        return {}
    vals = [r[key] for r in rows]
    return {"mean_home": sum(vals) / len(vals), "max_home": max(vals)}


def home(so: dict[str, Any], gr: dict[str, Any] | None) -> str:
    """Mean cards on the foundations at the end: the solver's best position / the greedy player's last
    (the words of the terminal table and of the statistics page)."""
    parts = [f"{x['mean_home']:.1f}" if x and "mean_home" in x else "–" for x in (so, gr)]
    return " / ".join(parts)


def paired_mean(a: Sequence[float], b: Sequence[float], z: float = Z95) -> dict[str, Any]:
    """Mean of the per-deal differences ``a - b`` over the same deals, with a normal 95% interval."""
    n = min(len(a), len(b))
    if n == 0:
        return {"deals": 0, "difference": 0.0, "ci": [0.0, 0.0]}
    d = [x - y for x, y in zip(a[:n], b[:n])]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return {"deals": n, "difference": mean, "ci": [mean - half, mean + half],
            "method": "mean of paired differences, normal interval"}


def paired(reading: str, default: str) -> dict[str, Any]:
    """The paired difference (reading - default) of two per-deal win strings over the same seeds."""
    n = min(len(reading), len(default))
    a = [c in ("W", "1") for c in reading[:n]]
    b = [c in ("W", "1") for c in default[:n]]
    both = sum(x and y for x, y in zip(a, b))
    only1 = sum(x and not y for x, y in zip(a, b))
    only2 = sum(y and not x for x, y in zip(a, b))
    neither = n - both - only1 - only2
    d, lo, hi = newcombe_paired(both, only1, only2, neither)
    return {"deals": n, "difference": d, "ci": [lo, hi], "both": both, "reading_only": only1,
            "default_only": only2, "neither": neither, "method": "Newcombe hybrid score, paired (method 10)"}


__all__ = ["SchedulerError", "check_scheduler", "MissingExtra", "dask_missing", "wilson", "newcombe_paired", "newcombe_unpaired", "Form", "play_deal", "run", "summarize", "paired",
           "paired_mean", "game_of",
           "Z95", "CODE", "DECODE"]
