#!/usr/bin/env python3
"""How long does `replay validate one.json` take, start to finish, beside what its libraries alone cost?

The target (issue 23): at most 1.5 times the time Python takes to import typer, pydantic and rich
alone (``python -c "import typer, pydantic, rich"``), measured side by side: the two commands are run
interleaved, so that both see the same load of the machine, and the ratio of their medians is the
figure (the median of the ratios of each pair, too).  The earlier target of 0.35 s wall is printed
beside it.

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
TARGET_RATIO = 1.5
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
        libs = [sys.executable, "-c", "import typer, pydantic, rich"]
        # what typer itself costs at run time beside its import: it builds a pydantic TypeAdapter for every
        # parameter of the command it runs (typer 0.2x), which imports pydantic's schema machinery
        empty = [sys.executable, "-c", EMPTY_APP, args.log]
        pairs = []
        apps = []
        for _ in range(args.repeat):  # interleaved: the same load for all
            pairs.append((timed([*exe, "validate", args.log], env), timed(libs, env)))
            apps.append(timed(empty, env))
    ours = [p[0][0] for p in pairs]
    theirs = [p[1][0] for p in pairs]
    ratio = statistics.median(ours) / statistics.median(theirs)
    each = statistics.median(a[0] / b[0] for a, b in pairs)
    cpu = statistics.median(p[0][1] for p in pairs) / statistics.median(p[1][1] for p in pairs)
    print(f"{'import typer, pydantic, rich':<24} {min(theirs):6.3f} s wall (best; median {statistics.median(theirs):.3f})")
    print(f"validate / the imports    {ratio:.2f} x wall (median over median; median of pairs {each:.2f}), "
          f"{cpu:.2f} x CPU")
    print(f"target: at most {TARGET_RATIO} x the imports alone: {'met' if ratio <= TARGET_RATIO else 'NOT met'}")
    app_wall = statistics.median(w for w, _ in apps)
    print(f"{'an empty typer command':<24} {min(w for w, _ in apps):6.3f} s wall (best; median {app_wall:.3f}): "
          f"validate is {statistics.median(ours) / app_wall:.2f} x a typer command with validate's options that "
          "does nothing")
    return 0


#: a typer command with the options of `replay validate` that does nothing (what typer costs at run time)
EMPTY_APP = """
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional
import typer, pydantic, rich

class Format(str, Enum):
    text = "text"
    json = "json"

app = typer.Typer(add_completion=False)

@app.command()
def validate(paths: List[str] = typer.Argument(...), lenient: bool = typer.Option(False, "--lenient"),
             until: Optional[int] = typer.Option(None, "--until"), fmt: Format = typer.Option(Format.text, "--format"),
             all_readings: bool = typer.Option(False, "--all-readings"), jobs: Optional[int] = typer.Option(None, "-j"),
             out: Optional[Path] = typer.Option(None, "-o"), quiet: bool = typer.Option(False, "--quiet")) -> None:
    pass

app(sys.argv[1:], standalone_mode=False)
"""


if __name__ == "__main__":
    raise SystemExit(main())
