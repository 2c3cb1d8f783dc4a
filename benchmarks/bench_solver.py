"""Benchmark of the solver: how many deals it decides, how fast it searches, and the speed-up of workers.

    .venv/bin/python benchmarks/bench_solver.py [--deals 12] [--nodes 2000] [--seed 1]
    .venv/bin/python benchmarks/bench_solver.py --decide [--deals 20] [--seconds 1] [--forms napoleons] [--python]
    .venv/bin/python benchmarks/bench_solver.py --play [--deals 20] [--nodes 1000000] [--methods nmcs portfolio]

Default mode: each game is played in its base form on seeds SEED … SEED+DEALS-1 with the same
node budget as the committed results table (so "solved" means: searched to a verdict or to the
budget).  One worker runs in this process; two workers run through the same pool as ``replay
stats``.

``--decide``: the measurement of issue #15.  Every form of the results table
(:func:`replay.solver.table.forms`) and Napoleon's Square under the modern readings is searched
on DEALS seeds with SECONDS of time each, on one core (this process), and the benchmark prints
per form the share of deals *decided* (won, or proven unwinnable), won and unwinnable, the
share decided without search (a static proof at the root), and the positions expanded per
CPU second (the budget itself is wall-clock time, as ``replay stats --seconds`` has it: on a busy
machine fewer positions fit in it).  The goal of the issue is 99% decided at 1 s for every form.

``--play``: the strong player of issue #20 (:func:`replay.solver.nested.play`).  Every form of the
results table and Napoleon's Square under the modern readings, on DEALS seeds, is played by each of
METHODS (``depth-first``, ``nmcs``, ``nrpa``, ``portfolio``) with the same position budget NODES per
deal (``depth-first`` counts positions expanded, the nested searches positions made: every move
carried out) and the deal's seed as the nested search's seed, in this process; per form and method it
prints the mean cards home at the best position reached (of 104), the share won, the share proved
unwinnable, positions per CPU second and CPU seconds per deal.  ``--readings`` adds every other
reading of each ruling (the table's rows of readings); ``--json FILE`` appends each row to FILE.
The shares and cards home depend only on the budget, not on the machine.

Figures depend on the machine and on what else it is doing: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

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


def decide_forms(only: list[str] | None, readings: bool = False) -> list[Form]:
    """Every form of the results table, then the relatives' forms (Napoleon's Square under the modern
    readings, …); ``readings``: then every other reading of each ruling, as the table's rows of readings
    have them."""
    from replay.solver.table import forms, relative_forms, ruling_forms

    out = forms()
    out += [r.form for r in relative_forms() if r.form not in out]
    if readings:
        out += [r[0] for r in ruling_forms() if r[0] not in out]
    if only:
        out = [f for f in out if any(o in f.label for o in only)]
    return out


def decide(form: Form, seeds: list[int], seconds: float, fast: bool = True) -> dict[str, Any]:
    """Search every deal of ``form`` with ``seconds`` each in this process: the shares and the speed
    (``fast=False``: always the Python search, not the fast core)."""
    from replay.solver.search import UNWINNABLE, WON, Budget, solve

    game = game_of(form)
    won = lost = static = 0
    nodes = 0
    cores: set[str] = set()
    spent = cpu = 0.0
    for s in seeds:
        c0 = time.process_time()
        r = solve(game, deck=game.deck_from_seed(s), budget=Budget(nodes=None, seconds=seconds), fast=fast)
        cores.add(r.core)
        cpu += time.process_time() - c0
        won += r.status == WON
        lost += r.status == UNWINNABLE
        static += r.status == UNWINNABLE and r.proof is not None
        nodes += r.nodes
        spent += r.seconds
    n = len(seeds)
    return {"decided": (won + lost) / n, "won": won / n, "unwinnable": lost / n, "static": static / n,
            "positions_per_s": nodes / cpu if cpu else 0.0, "seconds": spent, "core": "+".join(sorted(cores))}


def main_decide(args: argparse.Namespace) -> None:
    seeds = list(range(args.seed, args.seed + args.deals))
    which = "the Python search only" if args.python else "the fast core where a game has one"
    print(f"{args.deals} deals per form (seeds {seeds[0]}–{seeds[-1]}), {args.seconds:g} s each, one core, {which}\n")
    head = (f"{'form':62} {'decided':>8} {'won':>7} {'unwinn.':>8} {'static':>7} {'positions/cpu-s':>15} "
            f"{'time':>7} {'core':>6}")
    print(head)
    print("-" * len(head))
    worst = 1.0
    for form in decide_forms(args.forms):
        game_of(form)  # built before the clock starts
        d = decide(form, seeds, args.seconds, fast=not args.python)
        worst = min(worst, d["decided"])
        print(f"{form.label:62} {100 * d['decided']:7.0f}% {100 * d['won']:6.0f}% {100 * d['unwinnable']:7.0f}% "
              f"{100 * d['static']:6.0f}% {d['positions_per_s']:15.0f} {d['seconds']:6.1f}s {d['core']:>6}", flush=True)
    print(f"\nleast decided form: {100 * worst:.0f}% (goal of issue #15: 99% at 1 s)")


def play_form(form: Form, seeds: list[int], method: str, nodes: int) -> dict[str, Any]:
    """Play every deal of ``form`` with ``method`` and ``nodes`` positions each in this process."""
    from replay.solver.nested import play
    from replay.solver.search import UNWINNABLE, WON, Budget

    game = game_of(form)
    won = lost = home = used = 0
    cpu = 0.0
    cores: set[str] = set()
    for s in seeds:
        c0 = time.process_time()
        r = play(game, deck=game.deck_from_seed(s), method=method, budget=Budget(nodes=nodes), seed=s)
        cpu += time.process_time() - c0
        cores.add(r.core)
        won += r.status == WON
        lost += r.status == UNWINNABLE
        home += r.best_home
        used += r.nodes
    n = len(seeds)
    return {"form": form.label, "method": method, "nodes": nodes, "deals": n, "seeds": [seeds[0], seeds[-1]],
            "home": home / n, "won": won / n, "unwinnable": lost / n, "positions_per_s": used / cpu if cpu else 0.0,
            "cpu_per_deal": cpu / n, "core": "+".join(sorted(cores))}


def main_play(args: argparse.Namespace) -> None:
    import json

    seeds = list(range(args.seed, args.seed + args.deals))
    print(f"{args.deals} deals per form (seeds {seeds[0]}–{seeds[-1]}), {args.nodes:,} positions each, one core\n")
    head = (f"{'form':62} {'method':12} {'home':>6} {'won':>6} {'unwinn.':>8} {'positions/cpu-s':>15} "
            f"{'cpu-s/deal':>10} {'core':>6}")
    print(head)
    print("-" * len(head))
    for form in decide_forms(args.forms, args.readings):
        game_of(form)  # built before the clock starts
        for method in args.methods:
            d = play_form(form, seeds, method, args.nodes)
            print(f"{form.label:62} {method:12} {d['home']:6.1f} {100 * d['won']:5.0f}% {100 * d['unwinnable']:7.0f}% "
                  f"{d['positions_per_s']:15.0f} {d['cpu_per_deal']:10.2f} {d['core']:>6}", flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as f:
                    f.write(json.dumps(d) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=None, help="deals per game (12) or per form with --decide (20)")
    ap.add_argument("--nodes", type=int, default=None, help="positions per deal (2000; with --play 1,000,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--decide", action="store_true", help="the measurement of issue #15 (decided within a time)")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per deal with --decide (default 1)")
    ap.add_argument("--forms", nargs="*", default=None,
                    help="with --decide or --play: only the forms whose label contains one of these words")
    ap.add_argument("--python", action="store_true",
                    help="with --decide: search in Python even where a game has a fast core (the comparison)")
    ap.add_argument("--play", action="store_true", help="the strong player of issue #20: every method, equal positions")
    ap.add_argument("--methods", nargs="*", default=["depth-first", "nmcs", "nrpa", "portfolio"],
                    help="with --play: the methods (replay.solver.nested.METHODS)")
    ap.add_argument("--json", default=None, help="with --play: append each row to this file (JSON lines)")
    ap.add_argument("--readings", action="store_true", help="with --play: the rulings' other readings too")
    args = ap.parse_args()
    print(f"replay solver benchmark — code {code_version()}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "")
    if args.decide:
        args.deals = args.deals or 20
        main_decide(args)
        return
    if args.play:
        args.deals = args.deals or 20
        args.nodes = args.nodes or 1_000_000
        main_play(args)
        return
    args.deals = args.deals or 12
    args.nodes = args.nodes or 2000
    seeds = list(range(args.seed, args.seed + args.deals))
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
