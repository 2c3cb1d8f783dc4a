#!/usr/bin/env python3
"""The statistics table's curves and its open deals, per form, from its data file and journal (issue 29).

    .venv/bin/python benchmarks/table_curves.py data/stats/results.json [--journal JOURNAL]

Prints, per form (every game and variant, each relative's rules): at each budget of the ladder the deals won,
proved lost and open, the mean cards home and the CPU seconds the rung took; the page's interval for the true
rate and its width; and where the deals still open stand (their cards home: least, quartiles, most).  With
the run's journal it also gives the CPU the whole run took, per rung and in all, and the wall-clock time of
its sessions: what the table costs on this machine's cores.  Markdown, for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay.solver.page import figure_rows as _rows, form_title as title, row_state as state  # noqa: E402
from replay.solver.page import true_rate  # noqa: E402


def quartiles(xs: list[float]) -> str:
    if not xs:
        return "–"
    if len(xs) < 4:
        return ", ".join(f"{x:.0f}" for x in sorted(xs))
    q = statistics.quantiles(xs, n=4)
    return f"{min(xs):.0f} / {q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f} / {max(xs):.0f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data")
    ap.add_argument("--journal")
    a = ap.parse_args()
    data = json.loads(Path(a.data).read_text())
    rows = _rows(data)
    print("| Form | Budget | Won | Proved lost | Open | Cards home | CPU s |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        for p in r.get("curve", []):
            sub = " (first)" if p.get("subset") else ""
            print(f"| {title(r)} | {p['budget']:,}{sub} | {p['won']} | {p['unwinnable']} | {p['unknown']} | "
                  f"{p['mean_home']:.1f} | {p['cpu']:,.0f} |")
    print()
    print("| Form | Deals | True rate lies in | Width | Ended | Open deals' cards home (least / quartiles / most) |")
    print("|---|--:|--:|--:|---|---|")
    journal = None
    if a.journal:
        from replay.solver.ladder import Journal

        journal = Journal.read(Path(a.journal))
    for r in rows:
        lo, hi = true_rate(r["solver"], r["deals"])
        homes: list[float] = []
        if journal is not None:
            seeds = [data["seed"] + i for i, c in enumerate(r["solver"]["results"]) if c == "?"]
            top = r["budget"]["nodes"]
            for s in seeds:
                rec = journal.records.get((r["label"], s, top))
                if rec:
                    homes.append(rec["home"])
        print(f"| {title(r)} | {r['deals']} | {100 * lo:.1f}–{100 * hi:.1f}% | {100 * (hi - lo):.1f} | {state(r)} | "
              f"{quartiles(homes) if journal is not None else '–'} |")
    if journal is not None:
        cpu: dict[int, float] = {}
        for rec in journal.records.values():
            cpu[rec["budget"]] = cpu.get(rec["budget"], 0.0) + rec.get("cpu", 0.0)
        print()
        print("| Budget | Deals played | CPU hours |")
        print("|--:|--:|--:|")
        for b in sorted(cpu):
            n = sum(1 for k in journal.records if k[2] == b)
            print(f"| {b:,} | {n:,} | {cpu[b] / 3600:.2f} |")
        wall = sum(s.get("wall_seconds", 0.0) for s in journal.sessions)
        workers = max((s.get("workers", 1) for s in journal.sessions), default=1)
        print(f"| all | {len(journal.records):,} | {sum(cpu.values()) / 3600:.2f} |")
        print()
        print(f"Wall-clock: {wall / 3600:.2f} hours in {len(journal.sessions)} session(s) on {workers} worker "
              f"processes ({data['machine']['cpus']} cores).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
