#!/usr/bin/env python3
"""How fast is `replay validate`?  Moves per second, and the cost beside merely parsing the logs.

    .venv/bin/python benchmarks/bench_validate.py                 # 400 logs, every game and variant
    .venv/bin/python benchmarks/bench_validate.py --logs 2000 --phases --parallel

It generates complete logs by seeded random legal play (the random-greedy player of
replay.log.play, at most --max-moves moves a game), holds them as JSON bytes, then times on
one core, best of --repeat runs:

* parse: ``GameLog.model_validate_json(bytes)`` of every log (pydantic-core only);
* validate: ``check_bytes(bytes)``, everything `replay validate` does to a log: parse, resolve
  the game, check the deck, turn names into engine moves, replay every move with
  ``Game.step`` (what ``Table.apply`` does), find the outcome and check the result claim.

Targets (issue #4): at least 200,000 moves/s on one core, and validate no more than twice parse.
Also timed (issue #13): ``validate --lenient`` on a Napoleon's Square log followed by
--violations illegal deals (default 10,000), which must take under 2 s on one core, and the
cost per violation at a tenth of that many (it must not grow with their number).
--phases splits the validation time into its phases; --parallel also times the whole command
path over files on every core.  Nothing here is a test: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay.games.catalog import catalog, create  # noqa: E402
from replay.log.models import GameLog  # noqa: E402
from replay.log.play import dumps, played_log  # noqa: E402
from replay.log.report import json_document  # noqa: E402
from replay.log.validate import check_bytes  # noqa: E402

TARGET_MOVES_PER_S = 200_000
TARGET_RATIO = 2.0
TARGET_LENIENT_S = 2.0


def many_violations(n: int) -> bytes:
    """A finished Napoleon's Square game followed by ``n`` deals from the empty stock (each illegal)."""
    import json

    d = json.loads(dumps(played_log(create("napoleons-square"), 1, 1000)))
    d.pop("result", None)
    d["moves"] += [{"type": "deal"}] * n
    return json.dumps(d, indent=1).encode()


def lenient_rows(n: int, repeat: int) -> None:
    from replay.log import validate

    print()
    print(f"validate --lenient, one core, CPU time, best of {repeat} (every violation listed: the report's room,"
          " validate.REPORT_SLACK, lifted):")
    per = []
    room = validate.REPORT_SLACK
    validate.REPORT_SLACK = 1 << 40
    for k in (max(1, n // 10), n):
        raw = many_violations(k)
        report = check_bytes(raw, lenient=True)
        found = sum(p.code == "illegal-move" for p in report.problems)
        t = best(lambda: check_bytes(raw, lenient=True), repeat)
        per.append(t / k)
        verdict = ""
        if k == n:
            verdict = f"  {'meets' if t < TARGET_LENIENT_S else 'MISSES'} the target of under {TARGET_LENIENT_S:g} s"
        print(f"  {found:>7,} violations  {len(raw) / 1e3:8.0f} kB  {t:8.3f} s  {1e6 * t / k:8.1f} us/violation"
              f"{verdict}")
    print(f"  cost per violation at {n:,} / at {max(1, n // 10):,}: {per[1] / per[0]:.2f} "
          "(near 1: linear in the number of violations)")
    validate.REPORT_SLACK = room
    raw = many_violations(n)
    report = check_bytes(raw, lenient=True)
    size = len(json_document([report]).encode())
    t = best(lambda: check_bytes(raw, lenient=True), repeat)
    print(f"  with the report's room: {len(report.problems):,} listed ({report.details_omitted:,} without their texts), "
          f"{report.omitted:,} counted; {t:.3f} s; JSON {size / 1e6:.1f} MB for a {len(raw) / 1e6:.2f} MB log")


def forms() -> list[tuple[str, tuple[str, ...]]]:
    out: list[tuple[str, tuple[str, ...]]] = []
    for gid, mod in catalog().items():
        out.append((gid, ()))
        out.extend((gid, (v,)) for v in mod.VARIANTS)
    return out


def _make(job: tuple[str, tuple[str, ...], int, int]) -> bytes:
    gid, variants, seed, cap = job
    return dumps(played_log(create(gid, variants), seed, cap, meta={"source": f"bench seed {seed}"})).encode()


def generate(n: int, cap: int, seed0: int, jobs: int) -> list[tuple[str, bytes]]:
    fs = forms()
    work = [(fs[i % len(fs)][0], fs[i % len(fs)][1], seed0 + i, cap) for i in range(n)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        logs = list(pool.map(_make, work, chunksize=4))
    return [(w[0], b) for w, b in zip(work, logs)]


def best(fn, repeat: int, clock=time.process_time) -> float:
    """Best of ``repeat`` runs of ``fn``, in CPU seconds of this process (other load on the machine
    then matters little)."""
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def parse_all(logs: list[bytes]) -> None:
    for b in logs:
        GameLog.model_validate_json(b)


def validate_all(logs: list[bytes]) -> None:
    for b in logs:
        check_bytes(b)


def interleaved(logs: list[bytes], repeat: int) -> tuple[float, float]:
    """Best parse and validate times, the runs alternating so that both see the same machine."""
    tp, tv = [], []
    for _ in range(repeat):
        tp.append(best(lambda: parse_all(logs), 1))
        tv.append(best(lambda: validate_all(logs), 1))
    return min(tp), min(tv)


def phases(logs: list[bytes], repeat: int) -> tuple[dict[str, float], float]:
    """Time of each phase of the validation (same work as check_bytes, split up), and the time of
    carrying out the same moves unchecked with ``Table.push`` (not a phase: what any replay pays)."""
    from replay.log import validate as V

    parsed = [GameLog.model_validate_json(b) for b in logs]
    inst = [V.instance(p.game, p.variants, p.rulings) for p in parsed]
    decks = [[V._CARD[c] for c in p.deck] for p in parsed]
    moves = [V.engine_moves(i, p) for i, p in zip(inst, parsed)]

    def tables():
        return [i.game.new_table(d) for i, d in zip(inst, decks)]

    def replay():
        out = []
        for t, ms in zip(tables(), moves):
            step = t.game.step  # as check_bytes does
            for m in ms:
                step(t, m)
            out.append(t)
        return out

    def unchecked():
        for t, ms in zip(tables(), moves):
            perform = t.game.perform
            for m in ms:
                perform(t, m)

    final = replay()
    t_parse = best(lambda: parse_all(logs), repeat)
    t_inst = best(lambda: [V.instance(p.game, p.variants, p.rulings) for p in parsed], repeat)
    t_deck = best(lambda: [[V._CARD[c] for c in p.deck] for p in parsed], repeat)
    t_tables = best(tables, repeat)
    t_convert = best(lambda: [V.engine_moves(i, p) for i, p in zip(inst, parsed)], repeat)
    t_replay = best(replay, repeat) - t_tables
    t_outcome = best(lambda: [t.outcome() for t in final], repeat)
    t_floor = best(unchecked, repeat) - t_tables
    return {"parse (pydantic)": t_parse, "game instance (cached)": t_inst, "deck codes": t_deck,
            "new_table (deck check)": t_tables, "names -> engine moves": t_convert,
            "Game.step of every move": t_replay, "outcome (result claim)": t_outcome}, t_floor


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=int, default=400, help="how many logs to generate (default 400)")
    ap.add_argument("--max-moves", type=int, default=1000, help="cap on the moves of one game (default 1000)")
    ap.add_argument("--repeat", type=int, default=5, help="timing runs; the best counts (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--phases", action="store_true", help="split the validation time into its phases")
    ap.add_argument("--parallel", action="store_true", help="also time `replay validate` over files on every core")
    ap.add_argument("--violations", type=int, default=10_000,
                    help="violations in the --lenient log (default 10,000; 0: skip that row)")
    args = ap.parse_args()

    cores = os.cpu_count() or 1
    t0 = time.perf_counter()
    generated = generate(args.logs, args.max_moves, args.seed, cores)
    logs = [b for _, b in generated]
    print(f"generated {len(logs)} complete logs ({len(forms())} game forms) in {time.perf_counter() - t0:.1f} s "
          f"on {cores} cores")

    reports = [check_bytes(b) for b in logs]  # warm the caches; every log must be valid
    bad = [r for r in reports if not r.ok]
    if bad:
        sys.exit(f"{len(bad)} generated logs are not valid: {bad[0].problems}")
    n_moves = sum(r.moves for r in reports)
    n_bytes = sum(len(b) for b in logs)
    print(f"{n_moves:,} moves, {n_bytes / 1e6:.1f} MB of JSON; outcomes: "
          + ", ".join(f"{o} {sum(r.outcome == o for r in reports)}" for o in ("won", "lost", "unfinished")))

    t_parse, t_valid = interleaved(logs, args.repeat)
    rate = n_moves / t_valid
    ratio = t_valid / t_parse
    print()
    print(f"one core, CPU time, best of {args.repeat}:")
    print(f"  parse only        {t_parse:8.3f} s   {n_moves / t_parse:12,.0f} moves/s")
    print(f"  validate          {t_valid:8.3f} s   {rate:12,.0f} moves/s   "
          f"{'meets' if rate >= TARGET_MOVES_PER_S else 'MISSES'} the target of {TARGET_MOVES_PER_S:,}")
    print(f"  validate / parse  {ratio:8.2f}     "
          f"{'meets' if ratio <= TARGET_RATIO else 'MISSES'} the target of at most {TARGET_RATIO:g}")

    print()
    print("by game (one core):")
    print(f"  {'game':<18} {'logs':>5} {'moves':>8} {'moves/s':>12} {'validate/parse':>15}")
    for gid in catalog():
        mine = [b for g, b in generated if g == gid]
        moves = sum(r.moves for (g, _), r in zip(generated, reports) if g == gid)
        tp, tv = interleaved(mine, args.repeat)
        print(f"  {gid:<18} {len(mine):>5} {moves:>8,} {moves / tv:>12,.0f} {tv / tp:>15.2f}")

    if args.violations:
        lenient_rows(args.violations, args.repeat)

    if args.phases:
        print()
        print("where the validation time goes (one core, CPU time):")
        ph, floor = phases(logs, args.repeat)
        total = sum(ph.values())
        for name, t in ph.items():
            print(f"  {name:<28} {t:8.3f} s  {100 * t / total:5.1f} %")
        t_parse = ph["parse (pydantic)"]
        bare = t_parse + ph["new_table (deck check)"] + floor
        print(f"  (unchecked: Table.push of every move {floor:8.3f} s; parse + new_table + that = {bare / t_parse:.2f} x parse,")
        print("   the least any replay with this engine costs before a single rule is asked)")

    if args.parallel:
        from replay.log.runner import Options, run

        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for i, b in enumerate(logs):
                p = Path(tmp) / f"log-{i:05d}.json"
                p.write_bytes(b)
                files.append(str(p))
            t1 = best(lambda: list(run(files, Options(), 1)), max(1, args.repeat // 2), time.perf_counter)
            t = best(lambda: list(run(files, Options(), cores)), max(1, args.repeat // 2), time.perf_counter)
        print()
        print(f"the command's path over {len(files)} files (reading them, wall clock, machine load included):")
        print(f"  1 process      {t1:8.3f} s  {n_moves / t1:12,.0f} moves/s")
        print(f"  {cores} processes    {t:8.3f} s  {n_moves / t:12,.0f} moves/s  ({t1 / t:.2f}x)")


if __name__ == "__main__":
    main()
