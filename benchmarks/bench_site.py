#!/usr/bin/env python3
"""How long does the site take to build, warm, and how large is it? (issue 33: ≤ 15 CPU-s, ≤ 40 MB)

    .venv/bin/python benchmarks/bench_site.py                   # one cold build, then a warm one, timed
    .venv/bin/python benchmarks/bench_site.py --builds 3         # three warm builds: best and median
    .venv/bin/python benchmarks/bench_site.py --profile 25       # and a profiled build: its top 25 entries
    .venv/bin/python benchmarks/bench_site.py --fresh-cache      # the first build with an empty cache directory

Each build is ``mkdocs build --strict`` in a fresh process, into a temporary folder (the project's
``site/`` is left alone), as CI runs it; the first build fills the caches when they are empty (the corpus's
parsed YAML, the highlighted source lines, the example viewers, the formatted signatures, the Play page's
runtime; with ``--fresh-cache`` an empty ``REPLAY_CACHE_DIR`` of its own, the runtime fetched again) and is
reported as the first; the warm builds after it count.
Printed: the CPU seconds of each build (user + system of the child), the wall clock and the load
average of the machine (the CPU figure depends on it much less than the wall clock); the built site's
total size and file count, the size of each top-level folder, the largest files; with ``--profile``, a
build under cProfile (in this process's child, so the figures are the build's own): the functions with
the most cumulative time, and the time of each of the site's hooks (the ``replay site: generated … in``
line the build logs). Nothing here is a test: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_CPU_S = 15.0
GOAL_MB = 40.0


def mkdocs_cmd(site_dir: Path) -> list[str]:
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]


ENV = dict(os.environ)


def build(site_dir: Path, extra: list[str] | None = None) -> tuple[float, float, str]:
    """(CPU seconds of the child, wall seconds, its stderr) of one build, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(extra or mkdocs_cmd(site_dir), cwd=ROOT, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"bench_site: the build failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, done.stderr


def sizes(site: Path) -> tuple[int, int, dict[str, int], list[tuple[int, str]]]:
    """(total bytes, files, bytes per top-level folder or file, every file's size and path)."""
    total = count = 0
    top: dict[str, int] = {}
    files: list[tuple[int, str]] = []
    for p in site.rglob("*"):
        if not p.is_file():
            continue
        n = p.stat().st_size
        rel = p.relative_to(site).as_posix()
        total += n
        count += 1
        head = rel.split("/", 1)[0] + ("/" if "/" in rel else "")
        top[head] = top.get(head, 0) + n
        files.append((n, rel))
    return total, count, top, sorted(files, reverse=True)


def mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builds", type=int, default=1, metavar="N", help="warm builds to time (default 1)")
    ap.add_argument("--largest", type=int, default=15, metavar="N", help="largest files to list (default 15)")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="also profile one warm build and print its N top entries by cumulative time")
    ap.add_argument("--fresh-cache", action="store_true",
                    help="give the builds an empty cache directory of their own: the first build is cold")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        if args.fresh_cache:
            ENV["REPLAY_CACHE_DIR"] = str(Path(tmp) / "cache")
        cpu, wall, _ = build(site)
        print(f"first build{' (empty cache)' if args.fresh_cache else ''}: {cpu:.1f} CPU-s, {wall:.1f} s wall")
        runs = []
        log = ""
        for _ in range(max(1, args.builds)):
            load = os.getloadavg()[0]
            cpu, wall, log = build(site)
            runs.append((cpu, wall, load))
            print(f"warm build: {cpu:.1f} CPU-s, {wall:.1f} s wall (load average {load:.1f} on {os.cpu_count()} cores)")
        cpus = [r[0] for r in runs]
        best, med = min(cpus), statistics.median(cpus)
        for line in log.splitlines():
            if "replay site:" in line:
                print("  " + line.split("replay site:", 1)[1].strip())
        total, count, top, files = sizes(site)
        print(f"\nbuild, warm: best {best:.1f} CPU-s, median {med:.1f} CPU-s of {len(runs)} "
              f"(goal ≤ {GOAL_CPU_S:g}: {'met' if best <= GOAL_CPU_S else 'not met'})")
        print(f"site: {mb(total)} in {count} files (goal ≤ {GOAL_MB:g} MB: "
              f"{'met' if total <= GOAL_MB * 1e6 else 'not met'})")
        for name, n in sorted(top.items(), key=lambda kv: -kv[1]):
            if n >= total / 200:
                print(f"  {name:<28} {mb(n):>9}  {100 * n / total:4.1f}%")
        print(f"\nthe {args.largest} largest files:")
        for n, rel in files[:args.largest]:
            print(f"  {mb(n):>9}  {rel}")
        if args.profile:
            prof = Path(os.environ.get("BENCH_SITE_PROFILE") or Path(tmp) / "build.prof")
            cmd = [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "mkdocs", "build", "--strict",
                   "--site-dir", str(site)]
            cpu, wall, _ = build(site, cmd)
            print(f"\nprofiled build: {cpu:.1f} CPU-s (the profiler's own cost included), {wall:.1f} s wall")
            import pstats

            st = pstats.Stats(str(prof))
            st.sort_stats("cumulative").print_stats(args.profile)
            print("by own time:")
            st.sort_stats("tottime").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
