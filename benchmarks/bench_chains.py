"""Benchmark of the solver on exiles positions inside a travelling chain (issue #20).

    .venv/bin/python benchmarks/bench_chains.py [--deals 12] [--nodes 10000] [--per-deal 3] [--rulings K=V ...]

For each deal (seeds 1 … DEALS) a seeded random walk (eager for the foundations) is played until it
has met PER-DEAL positions inside a chain (``vars['chain']`` set, the chain's seen list not empty) and
as many outside one; each is searched with the node budget, and the script prints, for both kinds,
the positions expanded per CPU second, the CPU seconds per 10,000 positions, and which search ran
(``core``: "c", the fast core, or "python").  ``REPLAY_NO_FASTCORE=1`` forces the Python search.
The positions searched depend only on the seeds; the seconds on the machine and its load.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay.engine.game import Game, Table  # noqa: E402
from replay.games import create  # noqa: E402
from replay.solver.search import Budget, solve  # noqa: E402


@dataclass
class Tally:
    nodes: int = 0
    cpu: float = 0.0
    cores: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)


def positions(game: Game, seed: int, per_deal: int) -> tuple[list[Table], list[Table]]:
    """Positions of one seeded random walk: up to ``per_deal`` inside a chain (each from another
    chain), and as many outside one."""
    rng = random.Random(seed)
    t = game.new_table(game.deck_from_seed(seed))
    inside: list[Table] = []
    outside: list[Table] = []
    last_chain_start = -1
    for _ in range(3000):
        moves = t.legal_moves()
        if not moves:
            break
        v = t.vars
        if v["chain"] is not None and v["_seen"] and len(inside) < per_deal and last_chain_start != len(v["_seen"]) \
                and rng.random() < 0.5:
            inside.append(t.copy())
            last_chain_start = len(v["_seen"])
        elif v["chain"] is None and not t.piles[t.game.stock] and len(outside) < per_deal and rng.random() < 0.1:
            outside.append(t.copy())
        home = [m for m in moves if m.type == "move" and game.roles[m.dst] == "foundation"
                and game.roles[m.src] != "foundation"]
        t.push(rng.choice(home) if home and rng.random() < 0.9 else rng.choice(moves))
    return inside, outside


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--nodes", type=int, default=10_000, help="node budget per position (default 10000)")
    ap.add_argument("--per-deal", type=int, default=3, help="positions of each kind per deal (default 3)")
    ap.add_argument("--rulings", nargs="*", default=[], metavar="K=V", help="ruling readings (default: the defaults)")
    args = ap.parse_args(argv)
    game = create("exiles", rulings=dict(r.split("=", 1) for r in args.rulings))
    budget = Budget(nodes=args.nodes)
    totals = {k: Tally() for k in ("inside a chain", "outside")}
    for seed in range(1, args.deals + 1):
        inside, outside = positions(game, seed, args.per_deal)
        for kind, tables in (("inside a chain", inside), ("outside", outside)):
            for t in tables:
                c0 = time.process_time()
                r = solve(game, table=t, budget=budget)
                tot = totals[kind]
                tot.cpu += time.process_time() - c0
                tot.nodes += r.nodes
                tot.cores[r.core] += 1
                tot.statuses[r.status] += 1
    print(f"exiles {args.rulings or 'defaults'}, seeds 1-{args.deals}, budget {args.nodes} positions each")
    print(f"{'positions':<16} {'searches':>8} {'expanded':>10} {'CPU s':>8} {'per CPU-s':>11} {'s / 10,000':>10}  core, verdicts")
    for kind, tot in totals.items():
        rate = tot.nodes / tot.cpu if tot.cpu else float("inf")
        print(f"{kind:<16} {sum(tot.cores.values()):>8} {tot.nodes:>10} {tot.cpu:>8.2f} {rate:>11,.0f} "
              f"{1e4 / rate if rate else 0:>10.3f}  {dict(tot.cores)} {dict(tot.statuses)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
