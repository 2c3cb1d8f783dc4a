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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from replay.solver.nested import DEFAULT_METHOD
from replay.solver.stats import CODE, Form, home, paired, paired_mean, run, summarize

DATA_FORMAT = "replay-stats/1"

#: the first deals of each form played again at twice the budget (``--convergence-deals``)
CONVERGENCE_DEALS = 200


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
              games: list[str] | None = None, scheduler: str | None = None,
              convergence_deals: int = CONVERGENCE_DEALS, method: str = DEFAULT_METHOD) -> dict[str, Any]:
    """Measure every form on ``deals`` seeds and every ruling reading on ``ruling_deals`` seeds (paired), the
    solver playing with ``method`` (:data:`replay.solver.nested.METHODS`).

    Each published relative with a ``plays_as`` is played on ``ruling_deals`` seeds, paired with the game
    as our text reads it; the first ``convergence_deals`` deals of each form (0: none) are played again
    at twice the budget.
    ``games``: only the rows of these games (to be merged into a full table with :func:`merge`).
    ``scheduler``: run on this dask.distributed scheduler (default: a local cluster of ``workers``).
    """
    from replay.solver.version import code_version, commit

    base = [f for f in forms() if not games or f.game in games]
    rulings = [r for r in ruling_forms() if not games or r[0].game in games]
    relatives = [r for r in relative_forms() if not games or r.form.game in games]
    need: dict[Form, int] = {f: deals for f in base}
    for f, default, *_ in rulings:
        need[f] = max(need.get(f, 0), ruling_deals)
        need[default] = max(need.get(default, 0), ruling_deals)
    for rel in relatives:
        for f in (rel.form, Form(rel.form.game)):
            need[f] = max(need.get(f, 0), ruling_deals)
    jobs = [(f, s) for f, n in need.items() for s in range(seed, seed + n)]
    d2 = min(max(convergence_deals, 0), deals)
    again = [(f, s) for f in base for s in range(seed, seed + d2)]
    twice = (2 * nodes if nodes else None, 2 * seconds if seconds else None)
    version, head = code_version(), commit()  # the code that runs, not the code at the end
    t0 = time.perf_counter()
    started = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()

    def play(jobs: list[tuple[Form, int]], nodes: int | None, seconds: float | None, greedy: bool,
             advance: Callable[[int], None] | None) -> list[dict[str, Any]]:  # every run of the table goes here
        return run(jobs, nodes, seconds, workers, greedy=greedy, progress=advance, scheduler=scheduler,
                   method=method)

    ctx = progress_bar(len(jobs) + len(again), "stats table") if progress else contextlib.nullcontext(None)
    with ctx as advance:
        results = play(jobs, nodes, seconds, greedy, advance)
        results_twice = play(again, *twice, False, advance) if again else []
    wall = time.perf_counter() - t0
    by_form: dict[Form, list[dict[str, Any]]] = {}
    for (f, _), r in zip(jobs, results):
        by_form.setdefault(f, []).append(r)
    twice_by_form: dict[Form, list[dict[str, Any]]] = {}
    for (f, _), r in zip(again, results_twice):
        twice_by_form.setdefault(f, []).append(r)
    summaries = {f: summarize(rows) for f, rows in by_form.items()}

    from replay.solver.search import profile_for
    from replay.solver.stats import game_of

    form_rows = []
    for f in base:
        s = summaries[f]
        row = {**f.as_dict(), "label": f.label, **s, "reductions": list(profile_for(game_of(f)).notes)}
        if f in twice_by_form:
            row["convergence"] = convergence(s["solver"]["results"], twice_by_form[f], *twice)
        form_rows.append(row)
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
    relative_rows = []
    for rel in relatives:
        ours = Form(rel.form.game)
        rows_r, rows_d = by_form[rel.form][:ruling_deals], by_form[ours][:ruling_deals]
        s, d = summarize(rows_r), summarize(rows_d)
        relative_rows.append({
            **rel.form.as_dict(), "label": rel.form.label, "relative": rel.relative, "title": rel.title,
            "beyond": list(rel.beyond), "against": ours.label, **s,
            "paired_solver": paired(s["solver"]["results"], d["solver"]["results"]),
            "paired_home_solver": paired_mean([r["home"] for r in rows_r], [r["home"] for r in rows_d])})
    return {
        "format": DATA_FORMAT,
        "command": command,
        "version": version,
        "commit": head,
        "date": started,
        "python": platform.python_version(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "workers": workers or os.cpu_count(),
        "budget": {"nodes": nodes, "seconds": seconds, "method": method,
                   "note": "a node budget makes every result reproducible on any machine"
                   if seconds is None else "a time budget makes results depend on the machine"},
        "seed": seed,
        "deals": deals,
        "ruling_deals": ruling_deals,
        "convergence_deals": d2,
        "wall_seconds": round(wall, 1),
        "forms": form_rows,
        "rulings": ruling_rows,
        "relatives": relative_rows,
        **({"games": sorted(games)} if games else {}),
    }


def convergence(results: str, rows: list[dict[str, Any]], nodes: int | None, seconds: float | None) -> dict[str, Any]:
    """The first deals of a form played again at twice the budget: ``rows`` (their per-deal results)
    against the same deals in the form's ``results`` string at the table's budget."""
    from replay.solver.page import CLIMBING

    n = len(rows)
    won = sum(r["status"] == "won" for r in rows)
    base_won = results[:n].count("W")
    out: dict[str, Any] = {"nodes": nodes, "seconds": seconds, "deals": n,
                           "seeds": [rows[0]["seed"], rows[-1]["seed"]] if rows else [],
                           "won": won, "base_won": base_won,
                           "unwinnable": sum(r["status"] == "unwinnable" for r in rows),
                           "results": "".join(CODE[r["status"]] for r in rows),
                           "climbing": bool(n) and abs(won - base_won) / n > CLIMBING + 1e-12}
    if rows and "method" in rows[0]:
        out["method"] = rows[0]["method"]
    return out


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
    if "relatives" in part or "relatives" in full:
        new_relatives = [{**r, "made_by": stamp} for r in part.get("relatives", [])]
        out["relatives"] = _replace_rows(full.get("relatives", []), new_relatives, games)
    if "napoleon_modern" in part:  # a data file of the code before the relatives were played
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
