"""Benchmark of ``replay analyse``: how many positions it searches, how many it infers, and the time it takes.

    .venv/bin/python benchmarks/bench_analyse.py [--nodes 200] [--every] [LOG ...]

For each log (default: every example under ``examples/games``) it prints the positions of the
log (the deal and one per move), how many the solver searched and how many verdicts were
inferred from the monotonicity of winnability (see :mod:`replay.solver.analyse`), the verdicts,
and the wall-clock seconds.  With ``--every`` it also searches every position with the same
budget and prints that time: the saving the inference buys.  The counts depend only on the
node budget; the seconds depend on the machine and on what else it is doing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay.solver.search import Budget, solve  # noqa: E402
from replay.solver.analyse import analysis_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def every_position(raw: bytes, budget: Budget) -> float:
    """Seconds to search every position of the log (no inference)."""
    from replay.engine import cards as C
    from replay.log.validate import engine_moves, instance, parse

    log = parse(raw)
    inst = instance(log.game, log.variants, log.rulings)
    t = inst.game.new_table([C.parse(c) for c in log.deck])
    t0 = time.perf_counter()
    solve(inst.game, table=t, budget=budget)
    for m in engine_moves(inst, log):
        t.apply(m)
        solve(inst.game, table=t, budget=budget)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="*", type=Path, help="logs (default: examples/games/*/*/*.json)")
    ap.add_argument("--nodes", type=int, default=200, help="node budget per position (default 200)")
    ap.add_argument("--every", action="store_true", help="also time searching every position")
    args = ap.parse_args(argv)
    logs = args.logs or sorted((ROOT / "examples" / "games").glob("*/*/*.json"))
    budget = Budget(nodes=args.nodes)
    print(f"budget {budget.describe()} per position")
    head = f"{'log':<58} {'positions':>9} {'searched':>8} {'inferred':>8} {'won':>4} {'lost':>4} {'unkn':>4} {'s':>7}"
    print(head + ("  every position, s" if args.every else ""))
    totals = [0, 0, 0, 0.0, 0.0]
    for path in logs:
        raw = path.read_bytes()
        t0 = time.perf_counter()
        doc, _ = analysis_of(raw, str(path), budget)
        wall = time.perf_counter() - t0
        count = {s: sum(p["status"] == s for p in doc["positions"]) for s in ("won", "unwinnable", "unknown")}
        n = len(doc["positions"])
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        line = (f"{name[-58:]:<58} {n:>9} {doc['searched']:>8} {doc['inferred']:>8} {count['won']:>4} "
                f"{count['unwinnable']:>4} {count['unknown']:>4} {wall:>7.2f}")
        totals[0] += n
        totals[1] += doc["searched"]
        totals[2] += doc["inferred"]
        totals[3] += wall
        if args.every:
            every = every_position(raw, budget)
            totals[4] += every
            line += f"  {every:>8.2f}"
        print(line, flush=True)
    print(f"{len(logs)} logs, {totals[0]} positions: {totals[1]} searched, {totals[2]} inferred "
          f"({100 * totals[2] / max(1, totals[0]):.0f}% of the searches saved), {totals[3]:.1f} s"
          + (f"; searching every position: {totals[4]:.1f} s" if args.every else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
