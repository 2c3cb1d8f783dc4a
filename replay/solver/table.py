"""The results table: every game and variant, every ruling reading; its data file and its Markdown page.

``replay stats --table --out data/stats/results.json`` runs it (all cores of a local dask cluster, or
a dask.distributed cluster with ``--scheduler ADDRESS``); ``replay stats --page
data/stats/results.json --out docs/stats.md`` writes the page from the data alone.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from replay.solver.stats import Form, home, paired, paired_mean, run, summarize

DATA_FORMAT = "replay-stats/1"

#: Napoleon's Square as modern books play it: spaces take any card, sequences move as a whole
NAPOLEON_MODERN = Form("napoleons-square", (), (("sequence-moves", "whole-sequence"), ("space-fill", "any-card")))


# ----------------------------------------------------------------------------- what to measure


def forms() -> list[Form]:
    """Every game alone and with each of its variants, default readings."""
    from replay.games.catalog import MODULES, module

    out = []
    for gid in MODULES:
        mod = module(gid)
        out.append(Form(gid))
        for v in mod.VARIANTS:
            if mod.combination_problem(frozenset({v})) is None:
                out.append(Form(gid, (v,)))
    return out


def ruling_forms() -> list[tuple[Form, Form, str, str, str]]:
    """(form with the reading, its default form, ruling, reading, default) for every non-default reading.

    A ruling that applies only with some variants is measured with the first of them.
    Readings the game cannot be built with are left out.
    """
    from replay.engine.errors import ReplayError
    from replay.games.catalog import MODULES, create, rulings_for

    out = []
    for gid in MODULES:
        for name, r in rulings_for(gid).items():
            variants = (r.variants[0],) if r.variants else ()
            for reading in r.readings:
                if reading == r.default:
                    continue
                try:
                    create(gid, variants, {name: reading})
                except (ReplayError, KeyError, ValueError):
                    continue
                out.append((Form(gid, variants, ((name, reading),)), Form(gid, variants), name, reading, r.default))
    return out


# ----------------------------------------------------------------------------- progress and display


@contextlib.contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal; otherwise a line every 5% (for logs of long runs)."""
    from rich.console import Console

    console = Console(stderr=True)
    if console.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
            TimeRemainingColumn

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as bar:
            task = bar.add_task(label, total=total)
            yield lambda n: bar.advance(task, n)
        return
    done = [0, 0]
    t0 = time.perf_counter()

    def advance(n: int) -> None:
        done[0] += n
        step = max(1, total // 20)
        if total >= 40 and (done[0] // step > done[1] or done[0] == total):
            done[1] = done[0] // step
            print(f"{label}: {done[0]}/{total} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    yield advance


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def ci(v: list[float] | tuple[float, float], digits: int = 1) -> str:
    return f"[{100 * v[0]:.{digits}f}, {100 * v[1]:.{digits}f}]"


def show_rows(rows: list[tuple[str, dict[str, Any]]], wall: float | None = None) -> None:
    """Print summaries as a rich table on stdout."""
    from rich.console import Console
    from rich.table import Table as RichTable

    t = RichTable(title="Win rates (95% Wilson intervals)")
    for col in ("form", "deals", "solver won", "unwinnable", "unknown", "greedy won", "moves (solver/greedy)",
                "cards home (solver best/greedy)", "time"):
        t.add_column(col)
    for label, s in rows:
        so, gr = s["solver"], s.get("greedy")
        moves = f"{so['mean_moves_won']:.0f}" if so["mean_moves_won"] else "–"
        moves += f" / {gr['mean_moves']:.0f}" if gr else ""
        t.add_row(label, str(s["deals"]), f"{pct(so['win_rate'])} {ci(so['win_ci'])}", pct(so["unwinnable_share"]),
                  pct(so["unknown_share"]), f"{pct(gr['win_rate'])} {ci(gr['win_ci'])}" if gr else "–", moves,
                  home(so, gr), f"{so['seconds'] + (gr['seconds'] if gr else 0):.1f} s")
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    console.print(t)
    if wall is not None:
        console.print(f"wall-clock {wall:.1f} s")


# ----------------------------------------------------------------------------- the run


def run_table(*, deals: int, ruling_deals: int, seed: int, nodes: int | None, seconds: float | None,
              workers: int | None, greedy: bool = True, command: str = "", progress: bool = True,
              games: list[str] | None = None, scheduler: str | None = None) -> dict[str, Any]:
    """Measure every form on ``deals`` seeds and every ruling reading on ``ruling_deals`` seeds (paired).

    ``games``: only the rows of these games (to be merged into a full table with :func:`merge`).
    ``scheduler``: run on this dask.distributed scheduler (default: a local cluster of ``workers``).
    """
    from replay.solver.version import code_version, commit

    base = [f for f in forms() if not games or f.game in games]
    rulings = [r for r in ruling_forms() if not games or r[0].game in games]
    need: dict[Form, int] = {f: deals for f in base}
    for f, default, *_ in rulings:
        need[f] = max(need.get(f, 0), ruling_deals)
        need[default] = max(need.get(default, 0), ruling_deals)
    modern = _buildable(NAPOLEON_MODERN) and (not games or NAPOLEON_MODERN.game in games)
    if modern:
        ns_default = Form(NAPOLEON_MODERN.game, NAPOLEON_MODERN.variants)
        for f in (NAPOLEON_MODERN, ns_default):
            need[f] = max(need.get(f, 0), ruling_deals)
    jobs = [(f, s) for f, n in need.items() for s in range(seed, seed + n)]
    version, head = code_version(), commit()  # the code that runs, not the code at the end
    t0 = time.perf_counter()
    started = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    ctx = progress_bar(len(jobs), "stats table") if progress else contextlib.nullcontext(None)
    with ctx as advance:
        results = run(jobs, nodes, seconds, workers, greedy=greedy, progress=advance, scheduler=scheduler)
    wall = time.perf_counter() - t0
    by_form: dict[Form, list[dict[str, Any]]] = {}
    for (f, _), r in zip(jobs, results):
        by_form.setdefault(f, []).append(r)
    summaries = {f: summarize(rows) for f, rows in by_form.items()}

    from replay.solver.search import profile_for
    from replay.solver.stats import game_of

    form_rows = []
    for f in base:
        s = summaries[f]
        form_rows.append({**f.as_dict(), "label": f.label, **s, "reductions": list(profile_for(game_of(f)).notes)})
    ruling_rows = []
    for f, default, name, reading, dflt in rulings:
        rows_r, rows_d = by_form[f][:ruling_deals], by_form[default][:ruling_deals]
        s, d = summarize(rows_r), summarize(rows_d)
        row = {**f.as_dict(), "label": f.label, "ruling": name, "reading": reading, "default": dflt, **s,
               "default_row": {"solver": {k: d["solver"][k] for k in ("won", "win_rate", "win_ci", "unwinnable",
                                                                     "unknown", "results", "mean_home")}},
               "paired_solver": paired(s["solver"]["results"], d["solver"]["results"]),
               "paired_home_solver": paired_mean([r["home"] for r in rows_r], [r["home"] for r in rows_d])}
        if "greedy" in s:
            row["default_row"]["greedy"] = {k: d["greedy"][k] for k in ("won", "win_rate", "win_ci", "results",
                                                                        "mean_home")}
            row["paired_greedy"] = paired(s["greedy"]["results"], d["greedy"]["results"])
            row["paired_home_greedy"] = paired_mean([r["greedy_home"] for r in rows_r],
                                                    [r["greedy_home"] for r in rows_d])
        ruling_rows.append(row)
    extra = {}
    if modern:
        s = summarize(by_form[NAPOLEON_MODERN][:ruling_deals])
        d = summarize(by_form[ns_default][:ruling_deals])
        extra["napoleon_modern"] = {**NAPOLEON_MODERN.as_dict(), "label": NAPOLEON_MODERN.label, **s,
                                    "paired_solver": paired(s["solver"]["results"], d["solver"]["results"])}
    return {
        "format": DATA_FORMAT,
        "command": command,
        "version": version,
        "commit": head,
        "date": started,
        "python": platform.python_version(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "workers": workers or os.cpu_count(),
        "budget": {"nodes": nodes, "seconds": seconds,
                   "note": "a node budget makes every result reproducible on any machine"
                   if seconds is None else "a time budget makes results depend on the machine"},
        "seed": seed,
        "deals": deals,
        "ruling_deals": ruling_deals,
        "wall_seconds": round(wall, 1),
        "forms": form_rows,
        "rulings": ruling_rows,
        **({"games": sorted(games)} if games else {}),
        **extra,
    }


def merge(full: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """``full`` with the rows of the games ``part`` measured replaced by ``part``'s (a partial re-run).

    The rows keep their order; the re-run is listed under ``reruns`` with its own command, version
    and date, and each replaced row names the version that made it.
    """
    games = set(part.get("games") or ())
    if not games:
        raise ValueError("the second file is not a partial run (no 'games')")
    for key in ("seed", "deals", "ruling_deals", "budget"):
        if full[key] != part[key]:
            raise ValueError(f"the runs differ in {key!r}: {full[key]!r} and {part[key]!r}")
    out = dict(full)
    stamp = {"version": part["version"], "commit": part["commit"], "date": part["date"]}
    new_forms = {r["label"]: {**r, "made_by": stamp} for r in part["forms"]}
    new_rulings = {r["label"]: {**r, "made_by": stamp} for r in part["rulings"]}
    out["forms"] = _replace_rows(full["forms"], list(new_forms.values()), games)
    out["rulings"] = _replace_rows(full["rulings"], list(new_rulings.values()), games)
    if "napoleon_modern" in part:
        out["napoleon_modern"] = {**part["napoleon_modern"], "made_by": stamp}
    out["reruns"] = list(full.get("reruns", [])) + [{
        "games": sorted(games), "command": part["command"], **stamp, "wall_seconds": part["wall_seconds"]}]
    return out


def _replace_rows(old: list[dict[str, Any]], new: list[dict[str, Any]], games: set[str]) -> list[dict[str, Any]]:
    """``old`` with every row of ``games`` replaced by ``new``'s rows of that game, where the first stood.

    A row of those games that the re-run no longer makes (a reading that became the default, one
    that was removed) goes: the table describes the code that re-ran them, not an older one.
    """
    out: list[dict[str, Any]] = []
    placed: set[str] = set()
    for r in old:
        g = r["game"]
        if g not in games:
            out.append(r)
        elif g not in placed:
            placed.add(g)
            out += [n for n in new if n["game"] == g]
    out += [n for n in new if n["game"] not in placed]
    return out


def _buildable(form: Form) -> bool:
    from replay.engine.errors import ReplayError
    from replay.games.catalog import create

    try:
        create(form.game, form.variants, dict(form.rulings))
    except (ReplayError, KeyError, ValueError):
        return False
    return True


def save(data: dict[str, Any], path: Path, **policy: Any) -> None:
    """Write the data file atomically (:func:`replay.fsio.write_text`; ``policy``: its inputs, force, update)."""
    from replay.fsio import write_text

    write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n", **policy)


def load(path: Path) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != DATA_FORMAT:
        raise ValueError(f"not a {DATA_FORMAT} data file")
    return data


# ----------------------------------------------------------------------------- the page


def load_row(path: Path) -> dict[str, Any]:
    """A row written by ``replay stats GAME --json``."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != "replay-stats-row/1":
        raise ValueError(f"{path} is not a row written by replay stats GAME --out FILE")
    return data


def render_page(data: dict[str, Any], extras: list[dict[str, Any]] | None = None,
                compare: dict[str, Any] | None = None, command: str | None = None) -> str:
    """docs/stats.md from a data file, extra rows and another run of the table (see replay.solver.page)."""
    from replay.solver.page import render

    if compare is not None:
        for key in ("seed", "deals", "ruling_deals"):
            if compare[key] != data[key]:
                raise ValueError(f"the runs to compare differ in {key!r}")
    return render(data, extras or [], compare, **({"command": command} if command else {}))
