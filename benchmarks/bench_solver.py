"""Benchmark of the solver: deals solved per second per game on one core, and the speed-up with two workers.

    .venv/bin/python benchmarks/bench_solver.py [--deals 12] [--nodes 2000] [--seed 1]

Each game is played in its base form on seeds SEED … SEED+DEALS-1 with the same node budget
as the committed results table (so "solved" means: searched to a verdict or to the budget).
One worker runs in this process; two workers run through the same process pool as
``replay stats``.  Figures depend on the machine and on what else it is doing: run it on
an idle machine and read the speed-up, not only the absolute numbers.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay.solver.stats import Form, game_of, run  # noqa: E402
from replay.solver.version import code_version  # noqa: E402

GAMES = ("printex-frame", "zwarta-kolumna", "exiles", "napoleons-square")


def bench(game: str, seeds: list[int], nodes: int, workers: int) -> tuple[float, float, dict[str, int]]:
    jobs = [(Form(game), s) for s in seeds]
    game_of(Form(game))  # build the game (and load the corpus) before the clock starts; forked workers inherit it
    t0 = time.perf_counter()
    results = run(jobs, nodes, None, workers=workers, greedy=False, chunk=1)
    wall = time.perf_counter() - t0
    verdicts: dict[str, int] = {}
    for r in results:
        verdicts[r["status"]] = verdicts.get(r["status"], 0) + 1
    return wall, sum(r["nodes"] for r in results) / wall, verdicts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    args = ap.parse_args()
    seeds = list(range(args.seed, args.seed + args.deals))
    print(f"replay solver benchmark — code {code_version()}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "")
    print(f"{args.deals} deals per game (seeds {seeds[0]}–{seeds[-1]}), {args.nodes} nodes per deal\n")
    head = f"{'game':18} {'deals/s, 1 core':>16} {'nodes/s':>9} {'deals/s, 2 workers':>19} {'speed-up':>9}  verdicts"
    print(head)
    print("-" * len(head))
    for game in args.games:
        w1, n1, v1 = bench(game, seeds, args.nodes, 1)
        w2, _, _ = bench(game, seeds, args.nodes, 2)
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(v1.items()))
        print(f"{game:18} {args.deals / w1:16.2f} {n1:9.0f} {args.deals / w2:19.2f} {w1 / w2:8.2f}x  {verdicts}")


if __name__ == "__main__":
    main()
