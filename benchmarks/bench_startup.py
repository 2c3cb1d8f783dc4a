#!/usr/bin/env python3
"""How long does `replay validate one.json` take, start to finish, beside what its libraries alone cost?

The target (issues 23 and 33): at most 1.5 times the CPU time Python takes to import typer, pydantic and
rich alone (``python -c "import typer, pydantic, rich"``), measured side by side: the commands are run
interleaved, so that all see the same load of the machine (printed), and the ratio of their medians is
the figure (the median of the ratios of each pair, too; wall clock beside it).  The same imports with
Python's collector off (as replay's entry point imports its app) are timed too: the least those
libraries cost.  The earlier target of 0.35 s wall is printed beside it.

    .venv/bin/python benchmarks/bench_startup.py                 # 10 runs of each command, best counts
    .venv/bin/python benchmarks/bench_startup.py --repeat 20 --log examples/games/exiles/base/won-2.json

It runs the installed ``replay`` console script as a user does (a fresh process each time) and
prints, for ``replay --help``, ``replay --version`` and ``replay validate LOG``, the best and the
median wall-clock time and the CPU time (user + system) of the child.  The first run of
``validate`` after a corpus change parses the YAML (with libyaml's ``CSafeLoader`` when PyYAML
has it) and fills the cache; it is timed separately as the cold start.  It also prints which YAML
loader is in use, and whether Python may keep compiled bytecode (``PYTHONDONTWRITEBYTECODE``).

Bytecode: ``pip install .`` (the README's install) compiles every module of the package to ``.pyc``, as it
does the libraries', so an installed ``replay`` never compiles its own source at start.  An editable
checkout run with ``PYTHONDONTWRITEBYTECODE`` set (this machine sets it) has no ``.pyc`` of its own and
compiles some 35 modules at every start (about 75 ms, a third of the whole start), while the libraries it is
measured against keep theirs: that compares two installs, not two programs.  So before timing, the script
compiles the ``replay`` package's modules that have no current ``.pyc`` (``compileall``, what pip does at
install; ``__pycache__`` is ignored by git) and says so; ``--as-is`` measures the package as it stands.
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


def bytecode(compile_first: bool) -> str:
    """How many of the package's modules have a current ``.pyc`` (after compiling the rest, unless told not to)."""
    import compileall
    import importlib.util

    import replay

    pkg = Path(replay.__file__).parent
    sources = sorted(pkg.rglob("*.py"))

    def current() -> int:
        n = 0
        for src in sources:
            pyc = Path(importlib.util.cache_from_source(str(src)))
            n += pyc.exists() and pyc.stat().st_mtime >= src.stat().st_mtime
        return n

    before = current()
    if compile_first and before < len(sources):
        compileall.compile_dir(str(pkg), quiet=1)
        return (f"{before} of {len(sources)} modules had a current .pyc; the rest compiled now, as "
                f"`pip install .` does (--as-is: measure without)")
    return f"{before} of {len(sources)} modules have a current .pyc" + ("" if compile_first else " (--as-is)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10, metavar="N", help="runs of each command (default 10)")
    ap.add_argument("--log", default=str(DEFAULT_LOG), metavar="LOG", help="the log to validate")
    ap.add_argument("--as-is", action="store_true",
                    help="do not compile the package's bytecode first (measure the install as it stands)")
    args = ap.parse_args(argv)

    import yaml

    from replay.corpus.loader import SafeLoader

    exe = replay_exe()
    print(f"command: {' '.join(exe)}; YAML loader: {SafeLoader.__name__} "
          f"(libyaml {'present' if getattr(yaml, '__with_libyaml__', False) else 'absent'})")
    print(f"bytecode of the replay package: {bytecode(compile_first=not args.as_is)}")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("bytecode cache: not written (PYTHONDONTWRITEBYTECODE is set): a module without a .pyc is compiled "
              "at every start, which an installed wheel (compiled by pip) never does")
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
        # the same imports with Python's collector off, as replay's entry point imports its app (the least
        # those libraries cost to import)
        libs_quiet = [sys.executable, "-c", "import gc; gc.disable(); import typer, pydantic, rich"]
        # what typer itself costs at run time beside its import: typer 0.29 builds a pydantic TypeAdapter for
        # every parameter of the command it runs, which imports pydantic's schema machinery
        empty = [sys.executable, "-c", EMPTY_APP, args.log]
        rounds: dict[str, list[tuple[float, float]]] = {"validate": [], "imports": [], "quiet": [], "empty": []}
        load_before = os.getloadavg()[0]
        for _ in range(args.repeat):  # interleaved: the same load for all
            rounds["validate"].append(timed([*exe, "validate", args.log], env))
            rounds["imports"].append(timed(libs, env))
            rounds["quiet"].append(timed(libs_quiet, env))
            rounds["empty"].append(timed(empty, env))
        load_after = os.getloadavg()[0]

    def median(name: str, k: int) -> float:
        return statistics.median(r[k] for r in rounds[name])

    print(f"{'import typer, pydantic, rich':<24} {min(w for w, _ in rounds['imports']):6.3f} s wall (best; median "
          f"{median('imports', 0):.3f})  {median('imports', 1):6.3f} s CPU (median)")
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.1f} before the {args.repeat} interleaved "
          f"rounds, {load_after:.1f} after (on a loaded machine read the CPU ratio)")
    wall = median("validate", 0) / median("imports", 0)
    cpu = median("validate", 1) / median("imports", 1)
    pairs = statistics.median(v[1] / i[1] for v, i in zip(rounds["validate"], rounds["imports"]))
    print(f"validate / the imports    {cpu:.2f} x CPU (median over median; median of the pairs {pairs:.2f}), "
          f"{wall:.2f} x wall")
    print(f"target: at most {TARGET_RATIO} x the imports alone (CPU): {'met' if cpu <= TARGET_RATIO else 'NOT met'}")
    quiet = median("validate", 1) / median("quiet", 1)
    print(f"validate / the imports with the collector off  {quiet:.2f} x CPU (those imports "
          f"{median('quiet', 1):.3f} s CPU: what the libraries cost at the least)")
    print(f"{'an empty typer command':<24} {median('empty', 1):6.3f} s CPU (median): validate is "
          f"{median('validate', 1) / median('empty', 1):.2f} x a typer command with validate's options that "
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
