#!/usr/bin/env python3
"""Every proof of loss against every deal the table has won (issue 29: "it never proves lost a deal that any
search has won").

    .venv/bin/python benchmarks/proofs_of_loss.py [data/stats/results.json] [--nodes N] [--lines K]

For every form of the statistics' data file and every deal it won (a ``W``), each proof of the game's search
(the ones asked at every position and the ones asked at the root) is asked about the deal as dealt; for the
first ``--lines`` won deals of each form (every one with ``--lines 0``) the deal is won again by the portfolio at
``--nodes`` positions and every proof is asked at every position of the winning line.  Prints, per form, the
won deals asked, the positions of winning lines asked and any proof that said "lost" where a win exists
(there must be none: the script exits 1 if one did).  The checks are
tests/proof_checks.py's, which tests/test_proofs_of_loss.py samples in CI.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay.solver.search import proof_name  # noqa: E402
from tests.proof_checks import RESULTS, check_won_lines, proofs_of, won_deals  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="?", default=str(RESULTS), help="the table's data file (replay-stats/2)")
    ap.add_argument("--nodes", type=int, default=200_000,
                    help="the portfolio's least budget to win a deal again (the table's, where it won the deal higher)")
    ap.add_argument("--lines", type=int, default=5,
                    help="won deals per form whose winning line is asked position by position (0: every one)")
    a = ap.parse_args()
    wrong: list[str] = []
    print("| form | won deals | asked at the deal | lines asked | positions of lines | not won again | wrong |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    t0 = time.process_time()
    for label, game, seeds, budgets in won_deals(Path(a.data)):
        proofs = proofs_of(game)
        if not proofs:
            continue
        fired = []
        for seed in seeds:
            t = game.new_table(game.deck_from_seed(seed))
            fired += [f"{label} seed {seed}: {proof_name(p)}: {why}" for p in proofs if (why := p(t))]
        lines = check_won_lines(label, game, seeds if a.lines == 0 else seeds[:a.lines], proofs, nodes=a.nodes,
                                budgets=budgets)
        fired += lines.fired
        wrong += fired
        print(f"| {label} | {len(seeds)} | {len(seeds)} | {lines.deals} | {lines.positions:,} | "
              f"{lines.not_won_again} | {len(fired)} |", flush=True)
    print(f"\nCPU {time.process_time() - t0:.0f} s; proofs that called a won deal lost: {len(wrong)}")
    for w in wrong:
        print("  " + w)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
