"""Budgets that follow the search: the statistics table's deals climb a ladder of position budgets.

Every deal of a row is first played at the ladder's lowest budget (``--ladder``, by default 10^5, 10^6,
10^7 positions); a deal the player neither won nor proved lost is played again from the start at the next
budget, and so on up to the row's ceiling.  Easy deals cost little, and the budget goes to the deals that
need it.  A row's open deals stop climbing early when the last rung settled none of them and raised their
mean cards home by less than ``steady_cards`` (the search has stopped finding anything: "steady").  With a
``probe`` of N deals, a rung above the first (from ``probe_from`` up) is tried on a row's first N open deals before the rest: if it
settles none of them, the row stops there ("steady", the probe a subset point of its curve), so an
expensive rung is paid for only where it settles deals.  Past the ceiling, a last rung (``--top``) may be
played on the first ``top_deals`` deals of each form only, to show where a form still climbing is going; a row
the probe stopped plays it too, on the probe's deals among those first deals (they are still open).
``deals_for`` gives a game more (or fewer) deals than ``deals`` (a rate near one half needs some 400 settled
deals for an interval 10 points wide).

The run is **resumable**: the per-deal results go to a journal (JSON lines, one result appended and
synced at a time, so a run killed at any moment loses at most the deals in flight), and a run started
again with the same journal reads what is there and computes nothing twice.  Which deals a rung plays is a
pure function of the results below it (:func:`row_progress`), so the resumed run plays exactly what the
first run would have played.  The journal's first line holds the run's configuration and the fingerprint
of the code and corpus that play it: a run resumes only on the same code.

The same results give the table's data file (:func:`assemble`, ``replay-stats/2``): per row the result of
every deal at the highest rung it reached (the ``solver`` summary the page reads), the budget at which
each deal settled, and the row's **curve**: won, proved-lost and unknown shares and mean cards home at
every rung.  A journal can be assembled at any time, a run half done included.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

from replay.solver.stats import CODE, Form

JOURNAL_FORMAT = "replay-stats-journal/1"
#: the table's ladder of position budgets, by default
LADDER = (100_000, 1_000_000, 10_000_000)
#: the ruling readings' rows climb to this rung at most (their deals compared with the default's at one budget)
RULING_CEILING = 1_000_000
#: a rung that settles none of a row's open deals and raises their mean cards home by less than this is "steady"
STEADY_CARDS = 1.0
#: deals per task at the lowest budgets (a task of the cluster); one deal a task from 10^6 positions up
SMALL_BATCH = 4


class JournalError(ValueError):
    """A journal that cannot be resumed here (another configuration or code, a damaged line): one line."""


# ----------------------------------------------------------------------------- what a run plays


@dataclass(frozen=True)
class RowPlan:
    """One row of the table: a form played on ``deals`` seeds from the run's first seed, each open deal
    climbing to ``rungs[-1]``; ``top_deals`` of them (the first seeds) may climb to ``top`` too."""

    form: Form
    deals: int
    rungs: tuple[int, ...]
    top: int | None = None
    top_deals: int = 0
    probe: int = 0  #: a rung above the first is tried on this many open deals first (0: on all at once)
    probe_from: int = 0  #: the lowest budget the probe applies to (0: every rung above the first)

    @property
    def label(self) -> str:
        return self.form.label

    def all_rungs(self) -> tuple[int, ...]:
        return self.rungs + ((self.top,) if self.top and self.top_deals else ())

    def counted_rungs(self) -> tuple[int, ...]:
        """The rungs that play every deal of the row, and so count in its results: the ladder's, and the top
        rung when it plays every deal (``top_deals`` at least ``deals``: a form sent on past the ladder whole)."""
        return self.rungs + ((self.top,) if self.top and self.top_deals >= self.deals else ())

    def merged(self, other: "RowPlan") -> "RowPlan":
        """Two plans of one form (a relative's rules that are a game's own defaults): the larger of each."""
        rungs = self.rungs if len(self.rungs) >= len(other.rungs) else other.rungs
        top = self.top or other.top
        return RowPlan(self.form, max(self.deals, other.deals), rungs, top, max(self.top_deals, other.top_deals),
                       max(self.probe, other.probe), max(self.probe_from, other.probe_from))


@dataclass(frozen=True)
class Config:
    """What a run is: written in the journal's first line, and the same on every resumption."""

    seed: int
    deals: int
    ruling_deals: int
    ladder: tuple[int, ...]
    ruling_ceiling: int
    top: int | None
    top_deals: int
    method: str
    greedy: bool
    steady_cards: float
    games: tuple[str, ...] = ()
    probe: int = 0
    probe_from: int = 0
    deals_for: tuple[tuple[str, int], ...] = ()  #: (game, deals) for the games that play other than ``deals``
    top_forms: tuple[str, ...] = ()  #: the forms (labels) that climb to ``top`` (none named: every form)

    def as_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["ladder"], d["games"] = list(self.ladder), list(self.games)
        d["deals_for"] = dict(self.deals_for)
        d["top_forms"] = list(self.top_forms)
        if not self.top_forms:  # as a journal begun before it
            del d["top_forms"]
        if not self.probe and not self.probe_from and not self.deals_for:  # as a journal begun before them
            del d["probe"], d["probe_from"], d["deals_for"]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Config":
        d = dict(d)
        d["ladder"], d["games"] = tuple(d["ladder"]), tuple(d.get("games", ()))
        d["deals_for"] = tuple(sorted((str(g), int(n)) for g, n in (d.get("deals_for") or {}).items()))
        d["top_forms"] = tuple(str(f) for f in d.get("top_forms") or ())
        return cls(**d)

    def deals_of(self, game: str) -> int:
        """The deals a form of ``game`` plays."""
        return dict(self.deals_for).get(game, self.deals)


def check_config(c: Config) -> str | None:
    """What is wrong with a configuration (one line), or None."""
    if not c.ladder:
        return "the ladder needs at least one budget"
    if any(b < 1 for b in c.ladder) or list(c.ladder) != sorted(set(c.ladder)):
        return "the ladder's budgets must be positive and rising (e.g. 100000,1000000,10000000)"
    if c.ruling_ceiling not in c.ladder:
        return f"the rulings' ceiling {c.ruling_ceiling:,} must be a budget of the ladder"
    if c.top is not None and c.top <= c.ladder[-1]:
        return f"the top budget {c.top:,} must be above the ladder's last, {c.ladder[-1]:,}"
    if c.top_deals < 0 or (c.top is not None and c.top_deals == 0):
        return "the top budget needs a number of deals to play at it (1 or more)"
    if c.top_forms and c.top is None:
        return "the forms named to climb to the top budget need a top budget"
    if c.deals < 1 or c.ruling_deals < 1 or any(n < 1 for _, n in c.deals_for):
        return "the deals per form and per reading must be at least 1"
    if c.probe < 0:
        return "the probe is a number of deals, 0 or more"
    if c.probe_from and (c.probe_from not in c.ladder or not c.probe):
        return f"the probe's first budget {c.probe_from:,} must be a budget of the ladder, with a probe"
    if c.steady_cards < 0:
        return "the steady threshold is a number of cards, 0 or more"
    if c.top_forms:
        climbing = {p.label for p in plans(dataclasses.replace(c, top_forms=())) if p.top is not None}
        unknown = [f for f in c.top_forms if f not in climbing]
        if unknown:
            return (f"{unknown[0]!r}, named to climb to the top budget, is no form of this run that climbs the "
                    f"ladder (known: {', '.join(sorted(climbing))})")
    return None


def plans(c: Config) -> list[RowPlan]:
    """Every row of the table, each form once: the games and variants and the relatives' rules (``deals`` each)
    climb the whole ladder (and the top rung on their first deals: every form's, or only those ``top_forms``
    names), the ruling readings (``ruling_deals``) up to ``ruling_ceiling``."""
    from replay.solver.table import forms, relative_forms, ruling_forms

    games = set(c.games)
    whole = c.ladder
    ruled = tuple(b for b in c.ladder if b <= c.ruling_ceiling)
    out: dict[str, RowPlan] = {}

    def top_of(f: Form) -> int | None:
        return c.top if c.top_deals and (not c.top_forms or f.label in c.top_forms) else None

    def add(p: RowPlan) -> None:
        out[p.label] = out[p.label].merged(p) if p.label in out else p

    for f in forms():
        if not games or f.game in games:
            add(RowPlan(f, c.deals_of(f.game), whole, top_of(f), c.top_deals, c.probe, c.probe_from))
    for rel in relative_forms():
        if not games or rel.form.game in games:
            n = c.deals_of(rel.form.game)  # a form of the page's answers: as many deals
            add(RowPlan(rel.form, n, whole, top_of(rel.form), c.top_deals, c.probe, c.probe_from))
            add(RowPlan(Form(rel.form.game), n, whole, probe=c.probe, probe_from=c.probe_from))
    for f, default, *_ in ruling_forms():
        if not games or f.game in games:
            add(RowPlan(f, c.ruling_deals, ruled))
            add(RowPlan(default, c.ruling_deals, ruled))
    return list(out.values())


# ----------------------------------------------------------------------------- the code that plays


def fingerprint() -> str:
    """SHA-256 over the package's sources and the corpus (every file that can change a result), in a fixed
    order: a journal is resumed only by the code and data that began it."""
    from replay.corpus.files import corpus_dir

    h = hashlib.sha256()
    pkg = Path(__file__).resolve().parents[1]
    roots = [(pkg, ("*.py", "*.c", "*.h", "*.json")), (corpus_dir(), ("*.yaml", "*.txt"))]
    for root, patterns in roots:
        files = sorted({p for pat in patterns for p in root.rglob(pat) if "__pycache__" not in p.parts})
        for p in files:
            h.update(str(p.relative_to(root)).encode() + b"\0")
            h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


# ----------------------------------------------------------------------------- the journal


Key = tuple[str, int, int]  #: (row label, seed, budget)


class Journal:
    """The run's per-deal results, one JSON object a line: the header (``kind: run``), then ``deal``
    records and ``session`` records (one per start of the run).  Appending writes a whole line with one
    ``write`` on a descriptor opened with ``O_APPEND`` and syncs it, so a line is on disk whole or not at all
    (a line torn by a crash mid-write is cut off when the journal is opened again)."""

    def __init__(self, path: Path, header: dict[str, Any], records: dict[Key, dict[str, Any]],
                 sessions: list[dict[str, Any]]) -> None:
        self.path = path
        self.header = header
        self.records = records
        self.sessions = sessions
        self._fd: int | None = None

    # -- reading

    @classmethod
    def read(cls, path: Path) -> "Journal":
        """A journal as it stands (a torn last line is left out, not repaired: see :meth:`open`)."""
        header, records, sessions, _ = _parse(path)
        return cls(path, header, records, sessions)

    @classmethod
    def open(cls, path: Path, config: Config, code: str, stamp: dict[str, Any]) -> "Journal":
        """Resume the journal at ``path`` (its configuration and code must be ``config`` and ``code``), or
        begin it when there is none.  Raises :class:`JournalError`."""
        if path.exists():
            header, records, sessions, good = _parse(path)
            theirs = header.get("config")
            if theirs != config.as_dict():
                diff = sorted(k for k in set(theirs or {}) | set(config.as_dict())
                              if (theirs or {}).get(k) != config.as_dict().get(k))
                raise JournalError(f"{path}: the journal is of another run (it differs in {', '.join(diff)}); "
                                   "give the same options, or another journal")
            if header.get("fingerprint") != code:
                raise JournalError(f"{path}: the journal was begun by other code or another corpus (commit "
                                   f"{str(header.get('commit'))[:12]}, version {header.get('version')}); a run "
                                   "resumes only on the code that began it")
            if good < path.stat().st_size:  # a line torn by a crash: cut off before anything is appended
                with open(path, "r+b") as f:
                    f.truncate(good)
            j = cls(path, header, records, sessions)
        else:
            header = {"kind": "run", "format": JOURNAL_FORMAT, "config": config.as_dict(), "fingerprint": code,
                      **stamp}
            j = cls(path, header, {}, [])
            j._append(header)
        return j

    # -- writing

    def _append(self, obj: dict[str, Any]) -> None:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        data = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]
        os.fsync(self._fd)

    def add(self, label: str, budget: int, row: dict[str, Any]) -> None:
        rec = {"kind": "deal", "row": label, "budget": budget, **row}
        self._append(rec)
        self.records[(label, int(row["seed"]), budget)] = rec

    def session(self, info: dict[str, Any]) -> None:
        rec = {"kind": "session", **info}
        self._append(rec)
        self.sessions.append(rec)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _parse(path: Path) -> tuple[dict[str, Any], dict[Key, dict[str, Any]], list[dict[str, Any]], int]:
    """(header, deal records, session records, bytes of whole lines) of a journal file."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise JournalError(f"{path}: cannot read the journal: {(e.strerror or str(e)).lower()}") from None
    good = raw.rfind(b"\n") + 1  # a last line without its newline was torn by a crash
    header: dict[str, Any] | None = None
    records: dict[Key, dict[str, Any]] = {}
    sessions: list[dict[str, Any]] = []
    for n, line in enumerate(raw[:good].splitlines(), 1):
        try:
            obj = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise JournalError(f"{path}:{n}: not a line of a journal (not JSON)") from None
        if not isinstance(obj, dict):
            raise JournalError(f"{path}:{n}: not a line of a journal (not an object)")
        kind = obj.get("kind")
        if n == 1:
            if kind != "run" or obj.get("format") != JOURNAL_FORMAT:
                raise JournalError(f"{path}:1: not a {JOURNAL_FORMAT} journal")
            header = obj
        elif kind == "deal":
            try:
                records[(str(obj["row"]), int(obj["seed"]), int(obj["budget"]))] = obj
            except (KeyError, TypeError, ValueError):
                raise JournalError(f"{path}:{n}: a deal record without its row, seed or budget") from None
        elif kind == "session":
            sessions.append(obj)
        else:
            raise JournalError(f"{path}:{n}: an unknown kind of record ({kind!r})")
    if header is None:
        raise JournalError(f"{path}: an empty journal (no header line)")
    return header, records, sessions, good


# ----------------------------------------------------------------------------- which deals a rung plays


@dataclass
class Progress:
    """Where a row stands: the rungs it has completed, and the deals to play next (``todo``, at ``budget``;
    None when the row is done, with the reason it ``stopped``: "settled", "ceiling" or "steady")."""

    budget: int | None
    todo: list[int]
    complete: list[int] = dataclasses.field(default_factory=list)
    stopped: str | None = None
    probe: tuple[int, list[int]] | None = None  #: (budget, deals) of a probe that settled none and stopped the row


def rung_seeds(plan: RowPlan, seed: int, budget: int) -> range:
    """The seeds a rung is about: every deal of the row, or at the top rung its first ``top_deals``."""
    if plan.top is not None and budget == plan.top and budget not in plan.rungs:
        return range(seed, seed + min(plan.deals, plan.top_deals))
    return range(seed, seed + plan.deals)


def row_progress(plan: RowPlan, seed: int, records: dict[Key, dict[str, Any]], steady_cards: float) -> Progress:
    """The next deals ``plan`` plays, given the results so far: a pure function of ``records``, so a resumed
    run plays what the first would have.

    A rung plays the row's deals still open (at the top rung, those among its first ``top_deals``); the row
    stops when no deal is open, at its last rung, or when a rung above the first settled none of the open
    deals and raised their mean cards home by less than ``steady_cards``, or when the row's ``probe`` (its
    first open deals, played at a rung above the first before the rest) settled none of them there (after
    the top rung, if the row has one, on the probe's deals among its first deals: :func:`_past_the_probe`)."""
    open_ = list(range(seed, seed + plan.deals))
    rungs = plan.all_rungs()
    complete: list[int] = []
    prev: dict[int, int] | None = None  # open deal -> its cards home at the rung below
    for k, budget in enumerate(rungs):
        chosen = rung_seeds(plan, seed, budget)
        if open_ and not any(s in chosen for s in open_):  # the top rung's first deals are all settled
            return Progress(None, [], complete, "ceiling")
        open_ = [s for s in open_ if s in chosen]
        if not open_:
            return Progress(None, [], complete, "settled")
        if k and plan.probe and budget >= plan.probe_from and budget in plan.rungs and len(open_) > plan.probe:
            sample = open_[:plan.probe]
            todo = [s for s in sample if (plan.label, s, budget) not in records]
            if todo:
                return Progress(budget, todo, complete)
            if all(records[(plan.label, s, budget)]["status"] == "unknown" for s in sample):
                return _past_the_probe(plan, seed, records, complete, (budget, sample))
        todo = [s for s in open_ if (plan.label, s, budget) not in records]
        if todo:
            return Progress(budget, todo, complete)
        complete.append(budget)
        res = {s: records[(plan.label, s, budget)] for s in open_}
        still = [s for s in open_ if res[s]["status"] == "unknown"]
        if not still:
            return Progress(None, [], complete, "settled")
        if k == len(rungs) - 1:
            return Progress(None, [], complete, "ceiling")
        if prev is not None and steady_cards > 0 and len(still) == len(open_):
            rise = sum(res[s]["home"] - prev[s] for s in open_) / len(open_)
            if rise < steady_cards:
                return Progress(None, [], complete, "steady")
        prev = {s: res[s]["home"] for s in still}
        open_ = still
    return Progress(None, [], complete, "ceiling")


def _past_the_probe(plan: RowPlan, seed: int, records: dict[Key, dict[str, Any]], complete: list[int],
                    probe: tuple[int, list[int]]) -> Progress:
    """A row whose probe settled none stops there, but for its top rung: the probe's deals among the top rung's
    first ``top_deals`` are open deals of those first seeds, and a row sent past the ladder (``--top``, by name
    with ``--top-for``) plays them there, so a form the probe stopped still shows where its first deals go."""
    top = plan.top
    onward = [] if top is None or top in plan.rungs else [s for s in probe[1] if s in rung_seeds(plan, seed, top)]
    if top is None or not onward:
        return Progress(None, [], complete, "steady", probe)
    todo = [s for s in onward if (plan.label, s, top) not in records]
    if todo:
        return Progress(top, todo, complete, probe=probe)
    return Progress(None, [], [*complete, top], "steady", probe)


def deal_at(plan: RowPlan, seed: int, records: dict[Key, dict[str, Any]], budget: int) -> dict[str, Any] | None:
    """A deal's result at ``budget``: its record at the rung where it settled, when at or below ``budget``,
    else its last record at or below ``budget`` (the highest budget it was played at)."""
    last, first = None, None
    for b in plan.all_rungs():
        if b > budget:
            break
        r = records.get((plan.label, seed, b))
        if r is None:
            break
        first = first or r
        last = r
        if r["status"] != "unknown":
            break
    if last is not None and first is not None and first is not last and "greedy_won" in first:  # greedy: first rung
        last = {**last, **{k: v for k, v in first.items() if k.startswith("greedy_")}}
    return last


def curve(plan: RowPlan, seed: int, records: dict[Key, dict[str, Any]], prog: Progress) -> list[dict[str, Any]]:
    """The row at every rung it completed: the deals counted there (every deal; at the top rung its first
    ``top_deals``), won, proved lost and unknown among them, their mean cards home, the deals played at that
    rung and the CPU seconds they took."""
    out = []
    for b in prog.complete:
        seeds = rung_seeds(plan, seed, b)
        got = [r for r in (deal_at(plan, s, records, b) for s in seeds) if r is not None]
        played = [records[(plan.label, s, b)] for s in seeds if (plan.label, s, b) in records]
        point = _point(b, got, played)
        if b not in plan.counted_rungs():
            point["subset"] = True
        out.append(point)
    if prog.probe is not None:  # the probe's deals at the budget where it settled none
        b, sample = prog.probe
        got = [records[(plan.label, s, b)] for s in sample]
        out.append({**_point(b, got, got), "subset": True, "probe": True})
    return sorted(out, key=lambda p: p["budget"])  # a top rung played past the probe comes after it


def _point(budget: int, got: list[dict[str, Any]], played: list[dict[str, Any]]) -> dict[str, Any]:
    """A curve's point: the deals ``got`` at ``budget`` (each at the rung where it settled, or at ``budget``),
    and the CPU of those ``played`` there."""
    n = len(got)
    return {"budget": budget, "deals": n, "played": len(played),
            "won": sum(r["status"] == "won" for r in got),
            "unwinnable": sum(r["status"] == "unwinnable" for r in got),
            "unknown": sum(r["status"] == "unknown" for r in got),
            "mean_home": round(sum(r["home"] for r in got) / n, 3) if n else None,
            "cpu": round(sum(r.get("cpu", 0.0) for r in played), 2),
            "results": "".join(CODE[r["status"]] for r in got)}


def row_results(plan: RowPlan, seed: int, records: dict[Key, dict[str, Any]], prog: Progress) -> list[dict[str, Any]]:
    """Each deal's result at the row's highest complete rung that plays every deal (the ladder's, or the top
    rung when it plays them all), in seed order: the summary the page reads.  A deal still open there but
    settled on a rung above it (the top rung, which plays the row's first deals only) counts as settled
    there: a won line, replayed, or a proof of loss holds whatever the budget that found it, so the deals
    known won and known lost are all counted; an open deal counts as it stood at the row's budget.  Empty
    when not even the first rung is complete."""
    base = [b for b in prog.complete if b in plan.counted_rungs()]
    if not base:
        return []
    above = [b for b in plan.all_rungs() if b > base[-1]]
    out = []
    for s in range(seed, seed + plan.deals):
        r = deal_at(plan, s, records, base[-1])
        if r is None:
            continue
        if r["status"] == "unknown":  # each rung above looked up itself: deal_at stops at a rung not played,
            # and a row the probe stopped plays its top rung without the rungs between
            settled = next((x for b in above if (x := records.get((plan.label, s, b))) is not None
                            and x["status"] != "unknown"), None)
            if settled is not None:
                r = {**settled, **{k: v for k, v in r.items() if k.startswith("greedy_")}}
        out.append(r)
    return out


def settled_string(plan: RowPlan, seed: int, records: dict[Key, dict[str, Any]]) -> str:
    """Per deal, the place in the row's rungs of the budget at which it settled ('0', '1', …), '.' for open."""
    rungs = plan.all_rungs()
    out = []
    for s in range(seed, seed + plan.deals):
        mark = "."
        for k, b in enumerate(rungs):
            r = records.get((plan.label, s, b))
            if r is None:
                break
            if r["status"] != "unknown":
                mark = str(k)
                break
        out.append(mark)
    return "".join(out)


# ----------------------------------------------------------------------------- playing


def _play_batch(args: tuple[Form, list[int], int, str, bool]) -> list[dict[str, Any]]:
    """Play the deals of one task at one budget; each result with the CPU seconds it took in this process."""
    from replay.solver.stats import play_deal

    form, seeds, budget, method, greedy = args
    out = []
    for s in seeds:
        c0 = time.process_time()
        r = play_deal(form, s, budget, None, greedy, method)
        r["cpu"] = round(time.process_time() - c0, 4)
        out.append(r)
    return out


@dataclass(frozen=True)
class Task:
    label: str
    form: Form
    budget: int
    seeds: tuple[int, ...]
    greedy: bool
    rung: int  #: the budget's place in the ladder: lower rungs go first


def tasks_for(plan: RowPlan, prog: Progress, ladder: tuple[int, ...], greedy: bool) -> list[Task]:
    """The tasks of a row's next rung: a few deals a task at the lowest budgets, one deal a task above."""
    assert prog.budget is not None
    b = prog.budget
    size = SMALL_BATCH if b <= ladder[0] else 1
    rung = ladder.index(b) if b in ladder else len(ladder)
    first = b == plan.all_rungs()[0]
    return [Task(plan.label, plan.form, b, tuple(prog.todo[i:i + size]), greedy and first, rung)
            for i in range(0, len(prog.todo), size)]


class Runner(Protocol):
    """Where tasks run: :class:`LocalRunner` in this process, :class:`replay.solver.stats.DaskRunner` on a
    dask cluster."""

    def submit(self, task: Task) -> None: ...

    def results(self) -> Iterator[tuple[Task, list[dict[str, Any]]]]: ...


class LocalRunner:
    """One task at a time in this process, the lowest rung first."""

    def __init__(self, method: str) -> None:
        self.method = method
        self.queue: list[Task] = []

    def submit(self, task: Task) -> None:
        self.queue.append(task)

    def results(self) -> Iterator[tuple[Task, list[dict[str, Any]]]]:
        while self.queue:
            self.queue.sort(key=lambda t: t.rung)
            t = self.queue.pop(0)
            yield t, _play_batch((t.form, list(t.seeds), t.budget, self.method, t.greedy))


class DaskRunner:
    """The statistics table's tasks (:class:`replay.solver.ladder.Task`) on a dask cluster, the lower rungs
    first (dask's task priority), each result handed back as it comes (:mod:`replay.solver.ladder`)."""

    def __init__(self, method: str, workers: int, scheduler: str | None) -> None:
        self.method, self.workers, self.scheduler = method, workers, scheduler
        self._ctx: Any = None
        self._tasks: dict[str, Any] = {}

    def __enter__(self) -> "DaskRunner":
        from dask.distributed import as_completed

        from replay.solver.stats import _cluster

        self._ctx = _cluster(self.workers, self.scheduler)
        self.client = self._ctx.__enter__()
        self._done = as_completed()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._ctx.__exit__(*exc)

    def submit(self, task: Any) -> None:
        fut = self.client.submit(_play_batch, (task.form, list(task.seeds), task.budget, self.method, task.greedy),
                                 priority=-task.rung, pure=False)
        self._tasks[fut.key] = task
        self._done.add(fut)

    def results(self) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
        try:
            for fut in self._done:
                task = self._tasks.pop(fut.key)
                yield task, fut.result()
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:  # noqa: BLE001
            from replay.solver.stats import _lost

            raise _lost(e, self.scheduler) from None


def run(config: Config, journal: Journal, runner: Runner, advance: Callable[..., None] | None = None,
        on_row: Callable[[str, Progress], None] | None = None) -> dict[str, Progress]:
    """Play every row of ``config`` to its end, appending each result to ``journal`` as it comes back.

    Rows advance independently: when the last task of a row's rung is back, its next rung is planned and
    submitted (the lower rungs first everywhere).  Returns each row's final :class:`Progress`."""
    rows = {p.label: p for p in plans(config)}
    state: dict[str, Progress] = {}
    pending: dict[str, int] = {}

    def plan_row(label: str) -> None:
        prog = row_progress(rows[label], config.seed, journal.records, config.steady_cards)
        state[label] = prog
        if prog.budget is None:
            if on_row:
                on_row(label, prog)
            return
        ts = tasks_for(rows[label], prog, config.ladder, config.greedy)
        pending[label] = len(ts)
        if advance and started[0]:
            advance(0, len(prog.todo))
        for t in ts:
            runner.submit(t)

    started = [False]
    for label in rows:
        plan_row(label)
    started[0] = True  # the first rungs are the bar's total; later rungs add to it
    for task, out in runner.results():
        for r in out:
            journal.add(task.label, task.budget, r)
        if advance:
            advance(len(out))
        pending[task.label] -= 1
        if pending[task.label] == 0:
            plan_row(task.label)
    return state


def remaining(config: Config, records: dict[Key, dict[str, Any]]) -> tuple[int, int]:
    """(deals done, deals known to come at the rungs now open): for a progress bar that grows as rows climb."""
    done = sum(1 for _ in records)
    todo = 0
    for p in plans(config):
        prog = row_progress(p, config.seed, records, config.steady_cards)
        todo += len(prog.todo)
    return done, todo


def run_table(config: Config, journal_path: Path, *, workers: int | None, scheduler: str | None = None,
              command: str = "", progress: bool = True) -> dict[str, Any]:
    """Play the table ``config`` describes (:mod:`replay.solver.ladder`: every deal's budget climbs the
    ladder until it is won or proved lost), resuming the journal at ``journal_path`` if there is one, and
    return its data file (:func:`assemble`).

    ``workers`` processes of a local dask cluster (1: in this process), or the cluster of ``scheduler``.
    Raises :class:`JournalError` for a journal of another run or other code.
    """
    import contextlib
    import datetime as _dt
    import platform

    from replay.solver.table import progress_bar
    from replay.solver.version import code_version, commit


    started = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    stamp = {"version": code_version(), "commit": commit(), "date": started, "command": command,
             "python": platform.python_version(), "machine": {"cpus": os.cpu_count(), "platform": platform.platform()}}
    journal = Journal.open(journal_path, config, fingerprint(), stamp)
    done, todo = remaining(config, journal.records)
    n_workers = 1 if scheduler is None and (workers or 1) <= 1 else (workers or os.cpu_count() or 1)
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        ctx = progress_bar(todo, "stats table", grows=True) if progress else contextlib.nullcontext(None)
        with ctx as advance:
            if scheduler is None and n_workers <= 1:
                run(config, journal, LocalRunner(config.method), advance)
            else:
                with DaskRunner(config.method, n_workers, scheduler) as runner:
                    run(config, journal, runner, advance)
    finally:
        journal.session({"started": started, "wall_seconds": round(time.perf_counter() - t0, 1),
                         "driver_cpu_seconds": round(time.process_time() - c0, 1), "workers": n_workers,
                         "scheduler": scheduler, "version": code_version(), "deals_before": done})
        journal.close()
    return assemble(Journal.read(journal_path))


def assemble(journal: Journal) -> dict[str, Any]:
    """The table's data file (``replay-stats/2``) from a journal, a run half done included (its rows say
    how far they got; ``complete`` is false until every row has stopped)."""
    from replay.solver.search import profile_for
    from replay.solver.stats import game_of, paired, paired_mean, summarize
    from replay.solver.table import DATA_FORMAT, forms, relative_forms, ruling_forms


    h = journal.header
    config = Config.from_dict(h["config"])
    rows = {p.label: p for p in plans(config)}
    recs = journal.records
    prog = {label: row_progress(p, config.seed, recs, config.steady_cards) for label, p in rows.items()}

    def row(label: str) -> dict[str, Any] | None:
        p = rows[label]
        results = row_results(p, config.seed, recs, prog[label])
        if not results:
            return None
        budget = max(b for b in prog[label].complete if b in p.counted_rungs())
        out = {**p.form.as_dict(), "label": label, **summarize(results),
               "budget": {"nodes": budget, "method": config.method},
               "curve": curve(p, config.seed, recs, prog[label]),
               "settled": settled_string(p, config.seed, recs),
               "rungs": list(p.all_rungs()), "stopped": prog[label].stopped,
               "cpu_seconds": round(sum(r.get("cpu", 0.0) for (lb, _, _), r in recs.items() if lb == label), 1)}
        return out

    def at(label: str, budget: int, n: int) -> list[dict[str, Any]]:
        p = rows[label]
        return [r for r in (deal_at(p, s, recs, budget) for s in range(config.seed, config.seed + n))
                if r is not None]

    games = set(config.games)
    form_rows = []
    for f in forms():
        if games and f.game not in games:
            continue
        r = row(f.label)
        if r is not None:
            r["reductions"] = list(profile_for(game_of(f)).notes)
            form_rows.append(r)
    ruling_rows = []
    for f, default, name, reading, dflt in ruling_forms():
        if games and f.game not in games:
            continue
        mine, theirs = row(f.label), row(default.label)
        if mine is None or theirs is None:
            continue
        b = min(mine["budget"]["nodes"], theirs["budget"]["nodes"])
        n = config.ruling_deals
        rows_r, rows_d = at(f.label, b, n), at(default.label, b, n)
        if len(rows_r) < n or len(rows_d) < n:
            continue
        s, d = summarize(rows_r), summarize(rows_d)
        out = {**mine, **s, "ruling": name, "reading": reading, "default": dflt,
               "budget": {"nodes": b, "method": config.method},
               "default_row": {"solver": {k: d["solver"][k] for k in ("won", "win_rate", "win_ci", "unwinnable",
                                                                     "unknown", "results", "mean_home")}},
               "paired_solver": paired(s["solver"]["results"], d["solver"]["results"]),
               "paired_home_solver": paired_mean([x["home"] for x in rows_r], [x["home"] for x in rows_d])}
        if "greedy" in s and "greedy" in d:
            out["default_row"]["greedy"] = {k: d["greedy"][k] for k in ("won", "win_rate", "win_ci", "results",
                                                                        "mean_home")}
            out["paired_greedy"] = paired(s["greedy"]["results"], d["greedy"]["results"])
            out["paired_home_greedy"] = paired_mean([x["greedy_home"] for x in rows_r],
                                                    [x["greedy_home"] for x in rows_d])
        ruling_rows.append(out)
    relative_rows = []
    for rel in relative_forms():
        if games and rel.form.game not in games:
            continue
        ours = Form(rel.form.game)
        mine, theirs = row(rel.form.label), row(ours.label)
        if mine is None or theirs is None:
            continue
        b = min(mine["budget"]["nodes"], theirs["budget"]["nodes"])
        n = min(mine["deals"], theirs["deals"])
        rows_r, rows_d = at(rel.form.label, b, n), at(ours.label, b, n)
        relative_rows.append({
            **mine, "relative": rel.relative, "title": rel.title, "beyond": list(rel.beyond), "against": ours.label,
            "paired_solver": paired(summarize(rows_r)["solver"]["results"], summarize(rows_d)["solver"]["results"]),
            "paired_home_solver": paired_mean([x["home"] for x in rows_r], [x["home"] for x in rows_d]),
            "paired_budget": b})
    sessions = journal.sessions
    return {
        "format": DATA_FORMAT,
        "command": h.get("command", ""),
        "version": h.get("version"),
        "commit": h.get("commit"),
        "fingerprint": h.get("fingerprint"),
        "date": h.get("date"),
        "python": h.get("python"),
        "machine": h.get("machine"),
        "workers": max((x.get("workers", 1) for x in sessions), default=1),
        "budget": {"ladder": list(config.ladder), "ruling_ceiling": config.ruling_ceiling, "top": config.top,
                   "top_deals": config.top_deals, **({"top_forms": list(config.top_forms)} if config.top_forms else {}),
                   "steady_cards": config.steady_cards, "method": config.method,
                   **({"probe": config.probe, "probe_from": config.probe_from or config.ladder[min(1, len(config.ladder) - 1)]}
                      if config.probe else {}),
                   "note": "position budgets make every result reproducible on any machine"},
        "seed": config.seed,
        "deals": config.deals,
        **({"deals_for": dict(config.deals_for)} if config.deals_for else {}),
        "ruling_deals": config.ruling_deals,
        "complete": all(pr.budget is None for pr in prog.values()),
        "wall_seconds": round(sum(x.get("wall_seconds", 0.0) for x in sessions), 1),
        "cpu_seconds": round(sum(r.get("cpu", 0.0) for r in recs.values()), 1),
        "sessions": sessions,
        "forms": form_rows,
        "rulings": ruling_rows,
        "relatives": relative_rows,
        **({"games": sorted(games)} if games else {}),
    }



__all__ = ["run_table", "assemble", "DaskRunner", "LADDER", "RULING_CEILING", "STEADY_CARDS", "Config", "RowPlan", "Journal", "JournalError",
           "check_config", "plans", "fingerprint", "row_progress", "run", "curve", "row_results",
           "settled_string", "deal_at"]
