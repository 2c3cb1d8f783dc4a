"""Every figure the ambiguity register quotes comes from the committed statistics (issue 30): its entries'
``measured`` figures are held to the data files they name, and its prose quotes no measured figure of its own
(a count of deals won or proved lost, a budget in positions, a share, a mean: those belong in ``measured``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replay.corpus.loader import default_corpus
from replay.solver.table import figures_of

ROOT = Path(__file__).resolve().parents[1]

#: what reads as a measured figure in prose: "4 of 200", "100,000 positions", "42.4", "12%", "on 40 deals",
#: "57 cards home"; a deck's size ("104 cards") and clause IDs ("pf-15 deals") are not figures
MEASURE = re.compile(r"(?<![\w-])(\d[\d,]*\s+of\s+\d[\d,]*|\d[\d,]*\s+positions|\d+\.\d+|\d+(?:\.\d+)?\s*%|"
                     r"on\s+\d[\d,]*\s+deals|\d+\s+cards\s+(?:home|more|fewer|less))")


def prose(a) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    out = [("problem", a.problem), ("reasons", a.reasons)]
    out += [(f"reading {r.id}", r.summary + " " + (r.detail or "")) for r in a.readings]
    out += [(f"evidence {e.cite or e.source}", e.says) for e in a.evidence]
    out += [(f"measured {m.form}", m.says) for m in a.measured]
    return out


ENTRIES = sorted(default_corpus().ambiguities.values(), key=lambda a: a.id)


@pytest.mark.parametrize("a", ENTRIES, ids=lambda a: a.id)
def test_the_register_prose_quotes_no_measured_figure(a):
    found = [(where, m.group(0)) for where, text in prose(a) for m in MEASURE.finditer(text)]
    assert not found, f"{a.id}: measured figures in prose (put them in `measured`): {found}"


MEASURED = [(a.id, m) for a in ENTRIES for m in a.measured]


@pytest.mark.parametrize("entry,m", MEASURED, ids=[f"{i}:{m.form}@{m.budget}" for i, m in MEASURED])
def test_a_measured_figure_is_what_its_data_file_holds(entry, m):
    path = ROOT / m.data
    assert m.data.startswith("data/stats/") and path.is_file(), f"{entry}: {m.data} is not a committed data file"
    got = figures_of(path, m.form, m.budget)
    assert got is not None, f"{entry}: {m.data} has no figure of {m.form!r} at {m.budget:,} positions"
    said = {"deals": m.deals, "won": m.won, "unwinnable": m.unwinnable}
    assert {k: got[k] for k in said} == said, f"{entry}: {m.form} at {m.budget:,}: the data say {got}"
    if m.mean_home is not None:
        assert got["mean_home"] is not None and abs(got["mean_home"] - m.mean_home) < 0.05, (entry, got)


def test_the_checks_can_fail(tmp_path):
    """A wrong figure is caught, and a figure slipped into prose is found."""
    import json

    row = {"format": "replay-stats-row/1", "label": "exiles", "budget": {"nodes": 100}, "deals": 3,
           "solver": {"won": 1, "unwinnable": 1, "unknown": 1, "mean_home": 70.0}}
    f = tmp_path / "row.json"
    f.write_text(json.dumps(row))
    assert figures_of(f, "exiles", 100) == {"deals": 3, "won": 1, "unwinnable": 1, "unknown": 1, "mean_home": 70.0}
    assert figures_of(f, "exiles", 1000) is None and figures_of(f, "napoleons-square", 100) is None
    for text in ("it proves 4 of 200 lost", "at 100,000 positions", "42.4 against 40.9", "on 40 deals",
                 "about 57 cards home", "wins 12% of them"):
        assert MEASURE.search(text), text
    for text in ("two packs of 52 cards", "104 cards", "pf-15 deals the next sixteen", "a 6 by 6 square"):
        assert not MEASURE.search(text), text
