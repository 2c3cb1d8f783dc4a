"""The checked replay's twins held equal: the fast core's kernel (``replay.log.fast``, bridge.c's
``fc_check_line``) and the engine's rule functions (``replay.log.check._replay``) give every log the same
report, byte for byte, and the fast core only ever accepts.

Compared here: every example log and test fixture of the repository, and random logs of every game form
the statistics play (each game, each variant, each ruling's other readings, the relatives' rules), each
valid as played and broken five ways (a move sent elsewhere, a card misnamed, a move left out, a move
made twice, a false claim of the result): 752 logs at this writing, the 141 valid ones all accepted by the
fast core and none of the 453 with a move the engine refuses (printed with ``-s``; asserted: at least 400
logs compared, 200 refused moves never accepted, 90% of the valid logs accepted).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Iterator

import pytest

from replay import fastcore
from replay.games.catalog import catalog, create
from replay.log import check as V
from replay.log import fast
from replay.log.play import dumps, played_log
from replay.log.validate import check_bytes

from tests.fastcore_checks import statistics_forms

ROOT = Path(__file__).resolve().parents[1]
SEEDS = (1, 2, 3)
pytestmark = pytest.mark.skipif(fastcore.library() is None, reason="the fast core is not built here")


class Path_:
    """Which path check_log takes: ``engine`` (the fast core kept off) or ``fast`` (used from the first log)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.mp = monkeypatch
        self.accepted = 0

    def report(self, body: bytes, path: str) -> str:
        real = fast.accepted
        self.mp.setattr(fast, "AFTER", 10**18 if path == "engine" else 0)
        self.mp.setattr(fast, "_seen", 0)

        def counting(*a: Any) -> Any:
            out = real(*a)
            self.accepted += out is not None
            return out

        self.mp.setattr(V, "accepted", counting)
        try:
            return json.dumps(check_bytes(body, "log.json").to_json(), sort_keys=True)
        finally:
            self.mp.setattr(V, "accepted", real)


def _broken(log: dict[str, Any], rng: random.Random, game_id: str) -> Iterator[tuple[str, dict[str, Any]]]:
    moves = log["moves"]
    if not moves:
        return
    names = list(create(game_id).layout.names)
    i = rng.randrange(len(moves))
    for how in ("elsewhere", "misnamed", "left-out", "twice", "false-claim"):
        bad = json.loads(json.dumps(log))
        m = bad["moves"]
        if how == "elsewhere":
            if "to" not in m[i]:
                continue
            m[i]["to"] = rng.choice([n for n in names if n != m[i]["to"]])
        elif how == "misnamed":
            if "card" not in m[i]:
                continue
            m[i]["card"] = rng.choice([c for c in set(log["deck"]) if c != m[i]["card"]])
        elif how == "left-out":
            del m[i]
        elif how == "twice":
            m.insert(i, dict(m[i]))
        else:
            bad["result"] = {"won": "lost", "lost": "won", "unfinished": "won"}[log.get("result") or "unfinished"]
        yield how, bad


def test_the_fast_core_and_the_engine_report_every_log_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    both = Path_(monkeypatch)
    compared = valid = valid_accepted = refused_by_fast = 0
    rng = random.Random(33)
    for game_id in catalog():
        for variants, rulings in statistics_forms(game_id):
            game = create(game_id, variants, rulings)
            for seed in SEEDS:
                log = played_log(game, seed, 400)
                for how, one in [("as played", log), *_broken(log, rng, game_id)]:
                    body = dumps(one).encode()
                    before = both.accepted
                    want = both.report(body, "engine")
                    got = both.report(body, "fast")
                    assert got == want, f"{game_id} {variants} {rulings} seed {seed} ({how}): the reports differ"
                    compared += 1
                    if how == "as played":
                        valid += 1
                        valid_accepted += both.accepted > before
                    elif {p["code"] for p in json.loads(want)["problems"]} & {"illegal-move", "card-mismatch"}:
                        # a move the engine refuses: the fast core must not have accepted the moves (where every
                        # move is legal and only the claim is false, the kernel accepts them and the engine
                        # words the claim)
                        assert both.accepted == before, f"{game_id} seed {seed} ({how}): the fast core accepted it"
                        refused_by_fast += 1
    print(f"compared {compared} logs ({valid} valid as played, {refused_by_fast} with a move the engine refuses); "
          f"the fast core accepted {valid_accepted} of the valid and {both.accepted} logs' moves in all")
    assert compared >= 400 and refused_by_fast >= 200, (compared, refused_by_fast)
    assert valid_accepted >= 0.9 * valid, f"the fast core accepted {valid_accepted} of {valid} valid logs"


def test_every_log_of_the_repository_is_reported_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    both = Path_(monkeypatch)
    files = sorted(p for d in ("examples", "tests") for p in (ROOT / d).rglob("*.json")
                   if p.stat().st_size < 2_000_000)
    compared = 0
    for p in files:
        body = p.read_bytes()
        assert both.report(body, "fast") == both.report(body, "engine"), f"{p.relative_to(ROOT)}: the reports differ"
        compared += 1
    assert compared >= 50 and both.accepted >= 20, (compared, both.accepted)


def test_a_log_the_engine_refuses_is_never_passed_by_the_fast_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that accepted an illegal move (simulated: a check_line that accepts everything) is caught
    by the sample's engine replay, and the report says so (an internal error), never valid."""
    game = create("zwarta-kolumna")
    log = played_log(game, 1, 200)
    log["moves"].insert(3, dict(log["moves"][3]))  # a move made twice: illegal
    body = dumps(log).encode()
    monkeypatch.setattr(fast, "AFTER", 10**18)
    first = check_bytes(body, "log.json").problems[0]  # the engine's own refusal
    assert first.code in ("illegal-move", "card-mismatch")
    monkeypatch.setattr(fast, "AFTER", 0)
    monkeypatch.setattr(fast, "_seen", 0)
    monkeypatch.setattr(fast, "SAMPLE", 1)  # every accepted log confirmed by the engine
    monkeypatch.setattr(fastcore, "check_line", lambda g, spec, t, packed, n: (n, 1, 0))
    r = check_bytes(body, "log.json")
    assert r.verdict != "valid"
    assert r.problems[0].code == "internal-error"
    assert f"the fast core accepted move {first.move}, which the engine refuses" in r.problems[0].message


def test_one_log_validated_does_not_load_the_fast_core() -> None:
    """A process checks fast.AFTER moves in Python before it loads the library (some 30-50 ms)."""
    import subprocess
    import sys

    log = ROOT / "examples" / "games" / "zwarta-kolumna" / "base" / "lost-seed-1.json"
    code = ("import sys; from replay.log.validate import check_file; r = check_file(sys.argv[1]); "
            "print(r.verdict, 'replay.fastcore' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["valid", "False"]
