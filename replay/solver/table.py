"""The results table: what it measures (every game and variant, every ruling reading, every relative's
rules), its data file and its Markdown page.

``replay stats --table --out data/stats/results.json`` runs it (:func:`replay.solver.ladder.run_table`: all
cores of a local dask cluster, or a dask.distributed cluster with ``--scheduler ADDRESS``); ``replay stats
--page data/stats/results.json --out docs/stats.md`` writes the page from the data alone.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from replay.solver.stats import Form, home, summarize

DATA_FORMAT = "replay-stats/2"



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


@dataclass(frozen=True)
class RelativeForm:
    """A published relative played as our readings play it (its ``plays_as`` in corpus/games/*.yaml)."""

    form: Form
    relative: str  #: the relative's name in the corpus
    title: str  #: how a reader names its rules ("Cadogan's rules")
    beyond: tuple[str, ...] = ()  #: where its rules differ and no reading of ours reaches


def relative_forms() -> list[RelativeForm]:
    """Every relative whose ``plays_as`` the table plays (not ``unplayable``, and a form the engine can build)."""
    from replay.corpus.loader import default_corpus
    from replay.games.catalog import MODULES

    out = []
    corpus = default_corpus()
    for gid in MODULES:
        g = corpus.games.get(gid)
        for r in g.relatives if g else ():
            p = r.plays_as
            if p is None or p.unplayable:
                continue
            f = Form(gid, tuple(p.variants), tuple(sorted(p.rulings.items())))
            if _buildable(f):
                out.append(RelativeForm(f, r.name, p.title, tuple(p.beyond)))
    return out


# ----------------------------------------------------------------------------- progress and display


@contextlib.contextmanager
def progress_bar(total: int, label: str, grows: bool = False) -> Iterator[Callable[..., None]]:
    """A rich progress bar on stderr when it is a terminal; otherwise a line every 5% (for logs of long runs).

    It yields ``advance(n, more=0)``: ``n`` deals done, and (``grows``: a table whose rows climb a ladder of
    budgets) ``more`` deals newly planned, which the total gains; its lines then come at most every 30 s."""
    from rich.console import Console

    console = Console(stderr=True)
    if console.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
            TimeRemainingColumn

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as bar:
            task = bar.add_task(label, total=total)
            known = [total]

            def advance_bar(n: int, more: int = 0) -> None:
                if more:
                    known[0] += more
                    bar.update(task, total=known[0])
                if n:
                    bar.advance(task, n)

            yield advance_bar
        return
    done, shown, known = [0], [0], [total]
    t0 = time.perf_counter()
    last = [t0]

    def advance(n: int, more: int = 0) -> None:
        done[0] += n
        known[0] += more
        now = time.perf_counter()
        if grows:
            if n and (now - last[0] >= 30 or done[0] == known[0]):
                last[0] = now
                print(f"{label}: {done[0]}/{known[0]} deals (more as rows climb), {now - t0:.0f} s", file=sys.stderr,
                      flush=True)
            return
        step = max(1, known[0] // 20)
        if known[0] >= 40 and (done[0] // step > shown[0] or done[0] == known[0]):
            shown[0] = done[0] // step
            print(f"{label}: {done[0]}/{known[0]} deals, {now - t0:.0f} s", file=sys.stderr, flush=True)

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


def merge(full: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """``full`` with the rows of the games ``part`` measured replaced by ``part``'s (a partial re-run).

    The rows keep their order; the re-run is listed under ``reruns`` with its own command, version
    and date, and each replaced row names the version that made it.  Merging the same re-run again (a run
    resumed and assembled once more) replaces its entry instead of listing it twice.
    """
    games = set(part.get("games") or ())
    if not games:
        raise ValueError("the second file is not a partial run (no 'games')")
    for key in ("format", "seed", "deals", "ruling_deals"):
        if full.get(key) != part.get(key):
            raise ValueError(f"the runs differ in {key!r}: {full.get(key)!r} and {part.get(key)!r}")
    ladder, part_ladder = _ladder_of(full.get("budget")), _ladder_of(part.get("budget"))
    if ladder != part_ladder:
        raise ValueError(f"the runs differ in 'budget': {ladder!r} and {part_ladder!r}")
    out = dict(full)
    stamp = {"version": part["version"], "commit": part["commit"], "date": part["date"]}
    new_forms = {r["label"]: {**r, "made_by": stamp} for r in part["forms"]}
    new_rulings = {r["label"]: {**r, "made_by": stamp} for r in part["rulings"]}
    out["forms"] = _replace_rows(full["forms"], list(new_forms.values()), games)
    out["rulings"] = _replace_rows(full["rulings"], list(new_rulings.values()), games)
    new_relatives = [{**r, "made_by": stamp} for r in part.get("relatives", [])]
    out["relatives"] = _replace_rows(full.get("relatives", []), new_relatives, games)
    top = {k: part["budget"][k] for k in TOP_KEYS if (part.get("budget") or {}).get(k)}
    entry = {"games": sorted(games), "command": part["command"], **stamp, "wall_seconds": part["wall_seconds"],
             "cpu_seconds": part.get("cpu_seconds"), **({"top": top} if top else {})}
    # the same re-run merged again (the same run, assembled once more) replaces its entry: merging is idempotent
    out["reruns"] = [r for r in full.get("reruns", []) if not _same_run(r, entry)] + [entry]
    return out


def _same_run(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two re-run entries are one run: the same games, command, code and start."""
    return all(a.get(k) == b.get(k) for k in ("games", "command", "version", "commit", "date"))


#: the budget's keys of the top rung: a re-run may climb further than the run it merges into (its rows say how
#: far they went, and the re-run's entry keeps these); the rest of the budget must be the same
TOP_KEYS = ("top", "top_deals", "top_forms")


def _ladder_of(budget: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if budget is None else {k: v for k, v in budget.items() if k not in TOP_KEYS}


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


def figures_of(path: Path, label: str, budget: int) -> dict[str, Any] | None:
    """What a committed statistics file says of one form at one budget: ``{deals, won, unwinnable, unknown,
    mean_home}``, or None when it has no such figure.  ``path``: a table (``replay-stats/2``: a row's curve, or
    its result at the budget it reached) or a row of ``replay stats GAME --out`` (its budget only).  The
    register's measured figures are held to it (tests/test_register_figures.py)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == "replay-stats-row/1":
        rows = [data] if data.get("label") == label and data["budget"].get("nodes") == budget else []
    elif fmt == DATA_FORMAT:
        rows = [r for key in ("forms", "rulings", "relatives") for r in data.get(key, []) if r["label"] == label]
    else:
        raise ValueError(f"{path}: not a statistics file")
    for r in rows:
        for p in r.get("curve", []):
            if p["budget"] == budget and not p.get("subset"):
                return {k: p[k] for k in ("deals", "won", "unwinnable", "unknown", "mean_home")}
        if r.get("budget", {}).get("nodes") == budget:
            s = r["solver"]
            return {"deals": r["deals"], "won": s["won"], "unwinnable": s["unwinnable"], "unknown": s["unknown"],
                    "mean_home": s.get("mean_home")}
    return None


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


def render_page(data: dict[str, Any], extras: list[dict[str, Any]] | None = None, command: str | None = None) -> str:
    """docs/stats.md from a data file and extra rows (see replay.solver.page)."""
    from replay.solver.page import render

    return render(data, extras or [], **({"command": command} if command else {}))
