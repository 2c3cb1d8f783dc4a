"""`replay coverage`: a compliance report in the spirit of duvet.

For every clause, its status:

* ``implemented-and-tested``: at least one function implements it and at least one test is tagged with it;
* ``implemented-untested``: implemented, but no test is tagged with it;
* ``excused``: deliberately not implemented, with a written reason (``replay.engine.registry.excuse``);
* ``not-applicable``: commentary or provenance, which no code implements;
* ``missing``: a normative clause (setup, rule, variant, example) with neither implementation nor excuse.

Also every reference to a clause that does not exist (from a function, a test, an excuse).
The committed snapshot (``data/coverage.json``) leaves out line numbers, so that editing code
does not change it; only a change in what is implemented, tested or excused does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from replay.corpus.loader import Corpus, default_corpus
from replay.corpus.models import NORMATIVE_KINDS
from replay.engine.registry import by_clause, excuses, implementations

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "data" / "coverage.json"
STATUSES = ("implemented-and-tested", "implemented-untested", "excused", "not-applicable", "missing")


def coverage_report(corpus: Corpus | None = None) -> dict[str, Any]:
    """The report as plain data (stable order; no line numbers)."""
    from replay.games import catalog
    from replay.trace.testindex import clause_tests

    corpus = corpus or default_corpus()
    catalog()
    impls = by_clause()
    exc = excuses()
    tests, _ = clause_tests(ROOT)
    clauses = []
    for cid, cl in corpus.clauses.items():
        fns = sorted(i.name for i in impls.get(cid, []))
        tagged = sorted(f"{t.file}::{t.name}" for t in tests.get(cid, []))
        if fns:
            status = "implemented-and-tested" if tagged else "implemented-untested"
        elif cid in exc:
            status = "excused"
        elif cl.kind not in NORMATIVE_KINDS:
            status = "not-applicable"
        else:
            status = "missing"
        entry: dict[str, Any] = {"clause": cid, "game": cl.game, "kind": cl.kind, "status": status,
                                 "functions": fns, "tests": tagged}
        if cid in exc:
            entry["excuse"] = exc[cid].reason
        clauses.append(entry)
    dangling = []
    for impl in implementations().values():
        for cid in impl.clauses:
            if cid not in corpus.clauses:
                dangling.append({"from": f"function {impl.name}", "clause": cid})
    for cid, refs in tests.items():
        if cid not in corpus.clauses:
            dangling += [{"from": f"test {t.file}::{t.name}", "clause": cid} for t in refs]
    for cid, e in exc.items():
        if cid not in corpus.clauses:
            dangling.append({"from": f"excuse in {e.module}", "clause": cid})
    summary = {s: sum(1 for c in clauses if c["status"] == s) for s in STATUSES}
    return {"summary": summary, "clauses": clauses, "dangling": sorted(dangling, key=lambda d: (d["clause"], d["from"]))}


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def report_text(report: dict[str, Any]) -> str:
    lines = []
    width = max(len(c["clause"]) for c in report["clauses"])
    for c in report["clauses"]:
        line = f"{c['clause']:<{width}}  {c['status']:<23} {c['game']:<17} {c['kind']:<10}"
        if c["functions"]:
            line += f" {len(c['functions'])} fn, {len(c['tests'])} test(s)"
        if c.get("excuse"):
            line += f" excused: {c['excuse']}"
        lines.append(line.rstrip())
    for d in report["dangling"]:
        lines.append(f"DANGLING: {d['from']} cites {d['clause']}, which does not exist")
    s = report["summary"]
    lines.append(", ".join(f"{v} {k}" for k, v in s.items()))
    return "\n".join(lines) + "\n"


def problems(report: dict[str, Any]) -> list[str]:
    """What makes the report fail: missing normative implementations and dangling references."""
    out = [f"{c['clause']}: normative clause with no implementation and no excuse"
           for c in report["clauses"] if c["status"] == "missing"]
    out += [f"{d['from']} cites {d['clause']}, which does not exist" for d in report["dangling"]]
    return out
