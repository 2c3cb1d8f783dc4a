#!/usr/bin/env python3
"""How fast is `replay validate`?  Moves per second, and the cost beside merely parsing the logs.

    .venv/bin/python benchmarks/bench_validate.py                 # 400 logs, every game and variant
    .venv/bin/python benchmarks/bench_validate.py --logs 2000 --phases --parallel

It generates complete logs by seeded random legal play (the random-greedy player of
replay.log.play, at most --max-moves moves a game), holds them as JSON bytes, then times on
one core, best of --repeat runs:

* parse: the models' validator (``replay.log.compiled.validator().validate_json``, what check_bytes reads
  with: pydantic-core, the schema of ``GameLog``) of every log;
* floor: parse, ``new_table`` and ``Table.push`` of every move, no rule asked: the least any validation with
  this engine costs (issue 33: validate within 1.5 times it);
* validate: ``check_bytes(bytes)``, everything `replay validate` does to a log: parse, resolve
  the game, check the deck, turn names into engine moves, check every move and find the outcome (by the
  fast core's checked replay, ``replay.log.fast``, as a process does once it has checked
  ``replay.log.fast.AFTER`` moves; a log it does not accept is replayed with ``Game.step``, what
  ``Table.apply`` does) and check the result claim;
* the engine alone: the same with the fast core kept off (every move through the rule functions).

Targets (issue #4): at least 200,000 moves/s on one core, and validate no more than twice parse;
(issue 33) validate within 1.5 times the floor, and the slowest game at least half the fastest's
moves per second.  --chess times python-chess reading and replaying PGN games of random play beside
validate, interleaved (when python-chess is installed).  Also timed (issue #13): ``validate --lenient`` on a Napoleon's Square log followed by
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay.games.catalog import catalog, create  # noqa: E402
from replay.log.compiled import validator  # noqa: E402
from replay.log.play import dumps, played_log  # noqa: E402
from replay.log.report import json_document  # noqa: E402
from replay.log.validate import check_bytes  # noqa: E402

TARGET_MOVES_PER_S = 200_000
TARGET_RATIO = 2.0
TARGET_FLOOR_RATIO = 1.5
TARGET_SHARE = 0.5
TARGET_LENIENT_S = 2.0


def many_violations(n: int) -> bytes:
    """A finished Napoleon's Square game followed by ``n`` deals from the empty stock (each illegal)."""
    import json

    d = json.loads(dumps(played_log(create("napoleons-square"), 1, 1000)))
    d.pop("result", None)
    d["moves"] += [{"type": "deal"}] * n
    return json.dumps(d, indent=1).encode()


def chess_games(n: int, seed: int, plies: int = 120) -> list[str]:
    """``n`` PGN games of seeded random legal play (python-chess's own move generator), up to ``plies`` moves."""
    import importlib
    import random

    chess: Any = importlib.import_module("chess")  # an optional package: imported by name, typed as it comes
    importlib.import_module("chess.pgn")
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while len(board.move_stack) < plies and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        out.append(str(game))
    return out


def chess_rows(logs: list[bytes], n_moves: int, repeat: int) -> None:
    """python-chess reading PGN games (``read_game``: every SAN move parsed and checked against the board) and
    playing their moves on a board, per move, beside ``check_bytes`` per move, interleaved."""
    import importlib
    import io

    try:
        chess: Any = importlib.import_module("chess")
        importlib.import_module("chess.pgn")
    except ImportError:
        print()
        print("python-chess is not installed (pip install chess): no comparison")
        return
    games = chess_games(200, 1)
    plies = sum(len(list(chess.pgn.read_game(io.StringIO(g)).mainline_moves())) for g in games)

    def replay_pgn() -> None:
        for text in games:
            game = chess.pgn.read_game(io.StringIO(text))
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)

    tc, tv = [], []
    for _ in range(repeat):
        tc.append(best(replay_pgn, 1))
        tv.append(best(lambda: validate_all(logs), 1))
    ours, theirs = min(tv) / n_moves, min(tc) / plies
    print()
    print(f"python-chess {chess.__version__}, {len(games)} PGN games of random play ({plies:,} moves), read and "
          f"replayed, interleaved with validate (one core, CPU time, best of {repeat}):")
    print(f"  python-chess  {1e6 * theirs:6.2f} us/move")
    print(f"  validate      {1e6 * ours:6.2f} us/move   {theirs / ours:.2f} x python-chess's speed per move")


def lenient_rows(n: int, repeat: int) -> None:
    from replay.log import check as validate  # the replay of a parsed log, where the report's room is kept

    print()
    print(f"validate --lenient, one core, CPU time, best of {repeat} (every violation listed: the report's room,"
          " replay.log.check.REPORT_SLACK, lifted):")
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
    """What reading the logs costs: the models' validator (replay.log.compiled, as check_bytes reads)."""
    read = validator().validate_json
    for b in logs:
        read(b)


def validate_all(logs: list[bytes]) -> None:
    for b in logs:
        check_bytes(b)


class Floor:
    """The least any validation with this engine costs: parse every log, lay out its table (new_table, which
    checks the deck) and carry out every move with ``Table.push``, no rule asked (the moves turned into engine
    moves beforehand: naming them is not part of the floor)."""

    def __init__(self, logs: list[bytes]) -> None:
        from replay.log import check as V

        self.logs = logs
        parsed = [validator().validate_json(b) for b in logs]
        self.games = [V.instance(p.game, p.variants, p.rulings).game for p in parsed]
        self.moves = [V.engine_moves(V.instance(p.game, p.variants, p.rulings), p) for p in parsed]

    def __call__(self) -> None:
        from replay.log.check import _CARD

        read = validator().validate_json
        for b, game, moves in zip(self.logs, self.games, self.moves):
            log = read(b)
            t = game.new_table([_CARD[c] for c in log.deck])
            perform = game.perform
            for m in moves:
                perform(t, m)


def interleaved(logs: list[bytes], repeat: int) -> tuple[float, float, float]:
    """Best parse, floor (:class:`Floor`) and validate times, the runs alternating so that all see the same
    machine."""
    floor = Floor(logs)
    tp, tf, tv = [], [], []
    for _ in range(repeat):
        tp.append(best(lambda: parse_all(logs), 1))
        tf.append(best(floor, 1))
        tv.append(best(lambda: validate_all(logs), 1))
    return min(tp), min(tf), min(tv)


def phases(logs: list[bytes], repeat: int) -> tuple[dict[str, float], float]:
    """Time of each phase of the validation (same work as check_bytes, split up), and the time of
    carrying out the same moves unchecked with ``Table.push`` (not a phase: what any replay pays)."""
    from replay.log import check as V

    from replay.log.validate import _keys_held

    parsed = [validator().validate_json(b) for b in logs]
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

    def fast_core():  # what check_log does with the moves and the new table once the fast core is loaded
        from replay.log.fast import accepted

        for i, t, ms in zip(inst, tables(), moves):
            accepted(i.game, t, ms)

    t_parse = best(lambda: parse_all(logs), repeat)
    t_strict = best(lambda: [V.strict_unless_counted(b, p, _keys_held) for b, p in zip(logs, parsed)], repeat)
    t_inst = best(lambda: [V.instance(p.game, p.variants, p.rulings) for p in parsed], repeat)
    t_deck = best(lambda: [[V._CARD[c] for c in p.deck] for p in parsed], repeat)
    t_tables = best(tables, repeat)
    t_convert = best(lambda: [V.engine_moves(i, p) for i, p in zip(inst, parsed)], repeat)
    t_replay = best(replay, repeat) - t_tables
    t_outcome = best(lambda: [t.outcome() for t in final], repeat)
    t_floor = best(unchecked, repeat) - t_tables
    with engine_only(False):
        t_fast = best(fast_core, repeat) - t_tables
    return {"parse (pydantic-core)": t_parse, "strict JSON (key count)": t_strict, "game instance (cached)": t_inst, "deck codes": t_deck,
            "new_table (deck check)": t_tables, "names -> engine moves": t_convert,
            "fast core: moves checked, outcome": t_fast,
            "(engine: Game.step of every move)": t_replay, "(engine: outcome)": t_outcome}, t_floor


class engine_only:
    """With True: every log replayed by the engine's rule functions (the fast core's checked replay,
    replay.log.fast, kept off); with False: the fast core used from the first log (as a process does once
    it has checked replay.log.fast.AFTER moves)."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __enter__(self) -> None:
        from replay.log import fast

        self.saved = fast.AFTER, fast._seen
        fast.AFTER, fast._seen = (10**18, 0) if self.on else (0, 0)

    def __exit__(self, *exc: object) -> None:
        from replay.log import fast

        fast.AFTER, fast._seen = self.saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=int, default=400, help="how many logs to generate (default 400)")
    ap.add_argument("--max-moves", type=int, default=1000, help="cap on the moves of one game (default 1000)")
    ap.add_argument("--repeat", type=int, default=5, help="timing runs; the best counts (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--phases", action="store_true", help="split the validation time into its phases")
    ap.add_argument("--parallel", action="store_true", help="also time `replay validate` over files on every core")
    ap.add_argument("--chess", action="store_true",
                    help="also time python-chess replaying PGN games (pip install chess), interleaved with validate")
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

    from replay.log import check as V
    from replay.log import fast

    taken = {"fast": 0}
    real = V.accepted

    def counting(*a: Any) -> Any:
        out = real(*a)
        taken["fast"] += out is not None
        return out

    setattr(V, "accepted", counting)
    with engine_only(False):
        [check_bytes(b) for b in logs]
    setattr(V, "accepted", real)
    print(f"the fast core's checked replay (replay.log.fast) accepts {taken['fast']} of the {len(logs)} logs (every "
          "other log is replayed by the engine); a process uses it once it has checked "
          f"{fast.AFTER:,} moves")

    load = os.getloadavg()[0]
    with engine_only(False):
        t_parse, t_floor, t_valid = interleaved(logs, args.repeat)
    with engine_only(True):
        _, t_floor_e, t_engine = interleaved(logs, args.repeat)
    rate = n_moves / t_valid
    ratio = t_valid / t_parse
    print()
    print(f"one core, CPU time, best of {args.repeat} interleaved runs (load average {load:.1f} on {cores} cores "
          f"before, {os.getloadavg()[0]:.1f} after):")
    print(f"  parse only        {t_parse:8.3f} s   {n_moves / t_parse:12,.0f} moves/s")
    print(f"  unchecked floor   {t_floor:8.3f} s   {n_moves / t_floor:12,.0f} moves/s   (parse, new_table, Table.push of "
          f"every move: {t_floor / t_parse:.2f} x parse)")
    print(f"  validate          {t_valid:8.3f} s   {rate:12,.0f} moves/s   {1e6 * t_valid / n_moves:5.2f} us/move   "
          f"{'meets' if rate >= TARGET_MOVES_PER_S else 'MISSES'} the target of {TARGET_MOVES_PER_S:,}")
    print(f"  validate / floor  {t_valid / t_floor:8.2f}     "
          f"{'meets' if t_valid / t_floor <= TARGET_FLOOR_RATIO else 'MISSES'} the target of at most "
          f"{TARGET_FLOOR_RATIO:g} (issue 33)")
    print(f"  the engine alone  {t_engine:8.3f} s   {n_moves / t_engine:12,.0f} moves/s   {1e6 * t_engine / n_moves:5.2f} "
          f"us/move   ({t_engine / t_floor_e:.2f} x the floor: every move asked of the rule functions, the fast core off)")
    print(f"  validate / parse  {ratio:8.2f}     "
          f"{'meets' if ratio <= TARGET_RATIO else 'MISSES'} the target of at most {TARGET_RATIO:g} (issue 4; "
          f"out of reach while the floor is {t_floor / t_parse:.2f} x parse)")

    print()
    print("by game (one core, each game's logs timed apart):")
    print(f"  {'game':<18} {'logs':>5} {'moves':>8} {'moves/s':>12} {'validate/floor':>15} {'validate/parse':>15}")
    speeds: dict[str, float] = {}
    for gid in catalog():
        mine = [b for g, b in generated if g == gid]
        moves = sum(r.moves for (g, _), r in zip(generated, reports) if g == gid)
        with engine_only(False):
            tp, tf, tv = interleaved(mine, args.repeat)
        speeds[gid] = moves / tv
        print(f"  {gid:<18} {len(mine):>5} {moves:>8,} {moves / tv:>12,.0f} {tv / tf:>15.2f} {tv / tp:>15.2f}")
    fastest = max(speeds, key=speeds.__getitem__)
    slowest = min(speeds, key=speeds.__getitem__)
    share = speeds[slowest] / speeds[fastest]
    print(f"  the slowest, {slowest}, at {share:.2f} of the fastest, {fastest}: "
          f"{'meets' if share >= TARGET_SHARE else 'MISSES'} the target of at least {TARGET_SHARE:g} (issue 33)")

    if args.chess:
        chess_rows(logs, n_moves, args.repeat)

    if args.violations:
        lenient_rows(args.violations, args.repeat)

    if args.phases:
        print()
        print("where the validation time goes (one core, CPU time):")
        ph, floor = phases(logs, args.repeat)
        total = sum(t for name, t in ph.items() if not name.startswith("("))
        for name, t in ph.items():
            pct = "" if name.startswith("(") else f"  {100 * t / total:5.1f} %"
            print(f"  {name:<36} {t:8.3f} s{pct}")
        print("  (the engine's two lines: the same moves through the rule functions, what a refused log, a log of the")
        print("   sample and a process's first moves take instead of the fast core's line)")
        t_parse = ph["parse (pydantic-core)"]
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
