"""Every example log gets the verdict it is meant to get.

* examples/games and examples/readings: valid complete games whose ``result`` claim is true
  (won logs added later by a solver are checked the same way);
* examples/broken: each is rejected as its ``meta.expect`` (or broken/expectations.yaml) says.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from replay.games.catalog import catalog
from replay.log.report import VALID
from replay.log.validate import check_file

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
GAMES = sorted((EXAMPLES / "games").rglob("*.json"))
READINGS = sorted((EXAMPLES / "readings").rglob("*.json"))
BROKEN = sorted((EXAMPLES / "broken").glob("*.json"))
SIDECAR = yaml.safe_load((EXAMPLES / "broken" / "expectations.yaml").read_text(encoding="utf-8"))


def rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


@pytest.mark.parametrize("path", GAMES + READINGS, ids=rel)
def test_example_game_is_valid_and_its_claim_true(path):
    r = check_file(str(path))
    assert r.verdict == VALID, r.problems
    d = json.loads(path.read_bytes())
    assert d.get("result") in ("won", "lost"), "a complete example game claims its result"
    assert r.outcome == d["result"]
    kind = path.name.split("-")[0]
    if kind in ("won", "lost"):
        assert d["result"] == kind, "the file name says the result"
    if path.is_relative_to(EXAMPLES / "games"):
        game, form = path.relative_to(EXAMPLES / "games").parts[:2]
        assert d["game"] == game
        assert d["variants"] == ([] if form == "base" else [form])


def test_every_game_and_variant_has_a_lost_example():
    have = {p.relative_to(EXAMPLES / "games").parts[:2] for p in GAMES if p.name.startswith("lost-")}
    for gid, mod in catalog().items():
        for form in ("base", *mod.VARIANTS):
            assert (gid, form) in have, f"no lost example of {gid} {form}"


def expectation(path: Path) -> dict:
    if path.name in SIDECAR:
        return SIDECAR[path.name]
    return json.loads(path.read_bytes())["meta"]["expect"]


@pytest.mark.parametrize("path", BROKEN, ids=rel)
def test_broken_example_is_rejected_as_it_says(path):
    want = expectation(path)
    r = check_file(str(path))
    p = r.first
    assert r.verdict == want["verdict"], r.problems
    assert p.code == want["code"], p
    for key in ("clause", "move", "path"):
        if key in want:
            assert getattr(p, key) == want[key], (key, p)
    if want["verdict"] == "illegal" and want["code"] == "illegal-move":
        assert p.diplomatic and p.translation and p.held


def test_broken_examples_are_many_and_cover_every_game():
    assert len(BROKEN) >= 20
    assert set(SIDECAR) <= {p.name for p in BROKEN}
    games = set()
    illegal_clauses = {}
    for path in BROKEN:
        want = expectation(path)
        assert want["verdict"] in ("illegal", "malformed")
        if path.name not in SIDECAR:
            games.add(json.loads(path.read_bytes())["game"])
        if want.get("clause"):
            illegal_clauses.setdefault(want["clause"].split("-")[0], []).append(want["clause"])
    assert set(catalog()) <= games | {"zwarta-kolumn"}
    assert set(illegal_clauses) == {"pf", "zk", "ex", "ns"}


def test_example_generator_is_reproducible():
    """One example, played again by the generator, is byte for byte the committed file."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        import make_examples as mk
    finally:
        sys.path.remove(str(EXAMPLES))
    from replay.games import create
    from replay.log.play import dumps, play

    path = next(p for p in GAMES if p.relative_to(EXAMPLES / "games").parts[:2] == ("zwarta-kolumna", "base")
                and p.name.startswith("lost-seed-"))
    seed = int(path.stem.rsplit("-", 1)[1])
    g = create("zwarta-kolumna")
    moves, _ = play(g, g.deck_from_seed(seed), seed, mk.MAX_MOVES)
    assert dumps(mk.record(g, seed, moves, mk.meta_for(seed))).encode() == path.read_bytes()
