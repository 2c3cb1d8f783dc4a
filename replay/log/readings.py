"""``replay validate --all-readings``: under which readings of the rules is a log legal?

The log is replayed under its own rulings and under other readings of every ruling that
applies to its game and variants: each ruling varied alone, and every combination when
the product of the reading counts is at most :data:`MAX_COMBINATIONS`.  A reading that
changes the layout (pile names) may make the log malformed: that is a verdict for that
reading, not a failure.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from math import prod
from typing import Any

from replay.log.report import VALID, Report
from replay.log.validate import Bad, Replay, check_bytes, check_log, instance, internal_error, malformed, parse

MAX_COMBINATIONS = 64


@dataclass
class Trial:
    """One set of readings and the verdict under it."""

    rulings: dict[str, str]
    changed: dict[str, str]  #: the readings that differ from the log's own
    report: Report

    def to_json(self) -> dict[str, Any]:
        r = self.report
        first = r.first
        return {
            "rulings": self.rulings,
            "changed": self.changed,
            "verdict": r.verdict,
            "replayed": r.replayed,
            "outcome": r.outcome,
            "problem": ({k: v for k, v in first.__dict__.items() if v is not None and k != "snapshot"}
                        if first else None),
        }


@dataclass
class Analysis:
    """Every trial of one log (or the single malformed verdict that stopped it)."""

    file: str
    report: Report | None = None  #: set when the log is malformed whatever the readings
    game: str | None = None
    variants: list[str] = field(default_factory=list)
    logged: dict[str, str] = field(default_factory=dict)  #: the log's rulings, resolved
    defaults: dict[str, str] = field(default_factory=dict)
    mode: str = ""  #: "every combination" or "each ruling alone"
    trials: list[Trial] = field(default_factory=list)

    @property
    def legal(self) -> list[Trial]:
        return [t for t in self.trials if t.report.verdict == VALID]

    def possible(self) -> dict[str, dict[str, bool]]:
        """Ruling -> reading -> whether some legal trial uses it."""
        out: dict[str, dict[str, bool]] = {}
        for t in self.trials:
            for name, reading in t.rulings.items():
                out.setdefault(name, {})
                out[name][reading] = out[name].get(reading, False) or t.report.verdict == VALID
        return out

    @property
    def exit_code(self) -> int:
        if self.report is not None:
            return 2 if self.report.verdict == "error" else 1
        return 0 if self.legal else 1

    def to_json(self) -> dict[str, Any]:
        if self.report is not None:
            return {"file": self.file, "verdict": self.report.verdict, "report": self.report.to_json()}
        return {
            "file": self.file, "game": self.game, "variants": self.variants, "logged": self.logged,
            "defaults": self.defaults, "mode": self.mode, "legal": len(self.legal), "tried": len(self.trials),
            "possible": self.possible(), "trials": [t.to_json() for t in self.trials],
        }


def reading_sets(game_id: str, variants: list[str], logged: dict[str, str]) -> tuple[list[dict[str, str]], str]:
    """The reading sets to try, the log's own first; and which mode was used."""
    from replay.games.catalog import rulings_for

    vset = frozenset(variants)
    defs = {n: r for n, r in sorted(rulings_for(game_id).items()) if r.applies(vset)}
    base = {n: logged.get(n, r.default) for n, r in defs.items()}
    sets = [base]
    if prod(len(r.readings) for r in defs.values()) <= MAX_COMBINATIONS:
        mode = "every combination"
        for combo in itertools.product(*(r.readings for r in defs.values())):
            s = dict(zip(defs, combo))
            if s != base:
                sets.append(s)
    else:
        mode = "each ruling alone"
        for name, r in defs.items():
            for reading in r.readings:
                if reading != base[name]:
                    sets.append({**base, name: reading})
    return sets, mode


def analyse(data: bytes, name: str, until: int | None = None) -> Analysis:
    """Replay the log in ``data`` under every reading set."""
    from replay.games.catalog import rulings_for

    a = Analysis(file=name)
    try:
        try:
            log = parse(data)
        except Bad:
            a.report = check_bytes(data, name)  # the malformed verdict, with line and column
            return a
        try:
            inst = instance(log.game, log.variants, log.rulings)
        except Bad as bad:
            a.report = malformed(name, bad, Replay(log, name, data))
            return a
        a.game, a.variants, a.logged = inst.game.id, sorted(inst.game.variants), dict(inst.game.rulings)
        a.defaults = {n: r.default for n, r in sorted(rulings_for(a.game).items()) if n in a.logged}
        sets, a.mode = reading_sets(a.game, log.variants, a.logged)
        for s in sets:
            report = check_log(log, name, data, until=until, rulings=s)
            a.trials.append(Trial(s, {k: v for k, v in s.items() if a.logged.get(k) != v}, report))
    except Exception as e:  # noqa: BLE001 - never a traceback on the command line
        a.report = internal_error(name, e)
    return a


# --------------------------------------------------------------------------- text


def _at(i: int | None) -> str:
    from replay.log.locate import move_ref

    return move_ref(i) if i is not None else "a move"


def _brief(r: Report) -> str:
    p = r.first
    if p is None:
        return f"valid ({r.outcome})" if r.outcome else "valid"
    if p.code == "illegal-move":
        return f"illegal at {_at(p.move)}: breaks {p.clause}: {p.message}"
    if p.code == "card-mismatch":
        return f"illegal at {_at(p.move)}: {p.message}"
    if p.code == "false-result":
        return f"illegal: {p.message}"
    return f"{r.verdict}: {p.path}: {p.message}" if p.path != "$" else f"{r.verdict}: {p.message}"


def _set_text(changed: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in changed.items()) if changed else "as logged"


def analysis_lines(a: Analysis, limit: int = 12) -> list[str]:
    """The analysis as text: the log as logged, each ruling varied alone, and the sets under which it is legal."""
    from replay.log.report import report_lines

    if a.report is not None:
        return report_lines(a.report)
    form = f"{a.game}" + (f" ({'+'.join(a.variants)})" if a.variants else "")
    out = [f"{a.file}: {form}: legal under {len(a.legal)} of {len(a.trials)} reading sets "
           f"({a.mode} of {len(a.logged)} rulings)"]
    logged = ", ".join(f"{k}={v}{'' if a.defaults.get(k) == v else ' (not the default)'}" for k, v in a.logged.items())
    out.append(f"  as logged ({logged or 'no rulings'}): {_brief(a.trials[0].report)}")
    alone = [t for t in a.trials[1:] if len(t.changed) == 1]
    if alone:
        out.append("  each ruling varied alone:")
        width = max(len(f"{k}={v}") for t in alone for k, v in t.changed.items())
        for t in sorted(alone, key=lambda t: next(iter(t.changed))):
            out.append(f"    {_set_text(t.changed):<{width}}  {_brief(t.report)}")
    legal = a.legal
    if legal:
        out.append("  legal under:")
        for t in legal[:limit]:
            out.append(f"    {_set_text(t.changed)}")
        if len(legal) > limit:
            out.append(f"    … and {len(legal) - limit} more (--format json lists every set)")
    possible = a.possible()
    needed = {k: [r for r, ok in v.items() if ok] for k, v in possible.items()}
    fixed = [f"{k}={v[0]}" for k, v in needed.items() if len(v) == 1]
    if legal and fixed:
        out.append(f"  every legal set has: {', '.join(fixed)}")
    return out
