#!/usr/bin/env python3
"""How long does `replay validate one.json` take, start to finish?  (issue #16: at most 0.35 s wall.)

    .venv/bin/python benchmarks/bench_startup.py                 # 10 runs of each command, best counts
    .venv/bin/python benchmarks/bench_startup.py --repeat 20 --log examples/games/exiles/base/won-2.json

It runs the installed ``replay`` console script as a user does (a fresh process each time) and
prints, for ``replay --help``, ``replay --version`` and ``replay validate LOG``, the best and the
median wall-clock time and the CPU time (user + system) of the child.  The first run of
``validate`` after a corpus change parses the YAML (with libyaml's ``CSafeLoader`` when PyYAML
has it) and fills the cache; it is timed separately as the cold start.  It also prints which YAML
loader is in use, and whether Python may keep compiled bytecode (``PYTHONDONTWRITEBYTECODE``).
Nothing here is a test: it prints figures; wall-clock figures depend on the
load of the machine, CPU figures much less.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.35
DEFAULT_LOG = ROOT / "examples" / "games" / "zwarta-kolumna" / "base" / "lost-seed-1.json"


def replay_exe() -> list[str]:
    here = Path(sys.executable).parent / "replay"
    if here.exists():
        return [str(here)]
    found = shutil.which("replay")
    return [found] if found else [sys.executable, "-m", "replay"]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run; the run must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"bench_startup: {' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10, metavar="N", help="runs of each command (default 10)")
    ap.add_argument("--log", default=str(DEFAULT_LOG), metavar="LOG", help="the log to validate")
    args = ap.parse_args(argv)

    import yaml

    from replay.corpus.loader import SafeLoader

    exe = replay_exe()
    print(f"command: {' '.join(exe)}; YAML loader: {SafeLoader.__name__} "
          f"(libyaml {'present' if getattr(yaml, '__with_libyaml__', False) else 'absent'})")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("bytecode cache: off (PYTHONDONTWRITEBYTECODE is set): every run compiles the modules that have no "
              ".pyc yet, which an installed wheel (compiled by pip) never does")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "REPLAY_CACHE_DIR": cache}
        cold_wall, cold_cpu = timed([*exe, "validate", args.log], env)
        print(f"{'validate, cold cache':<24} {cold_wall:6.3f} s wall  {cold_cpu:6.3f} s CPU")
        best_validate = 0.0
        for label, cmd in (("--help", [*exe, "--help"]), ("--version", [*exe, "--version"]),
                           ("validate LOG", [*exe, "validate", args.log])):
            runs = [timed(cmd, env) for _ in range(args.repeat)]
            walls = [w for w, _ in runs]
            cpus = [c for _, c in runs]
            print(f"{label:<24} {min(walls):6.3f} s wall (best; median {statistics.median(walls):.3f})  "
                  f"{min(cpus):6.3f} s CPU (best)")
            if label == "validate LOG":
                best_validate = min(walls)
    verdict = "met" if best_validate <= TARGET_S else "NOT met"
    print(f"target: validate one log in at most {TARGET_S} s wall (best run): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
