"""The fast core's exiles kernel (replay/fastcore/games/exiles.c) held to the rule functions of
replay/games/exiles.py: random walks from seeded deals under every ruling reading (the default, then
each other reading alone), comparing at every step the legal moves (same moves, same order) and, after
the same move on both, the whole table (piles, foundation suits, passes, rounds and the game state:
the chain, the cards changed and the length of the chain's seen list; the kernel keeps its own hashes
of the seen positions, the engine Python's hash()).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from replay import fastcore
from replay.engine import cards as C
from replay.engine.game import Game, Move, Table
from replay.games import create
from replay.games import exiles as EX
from replay.solver.search import frees_a_card
from tests.fastcore_checks import moves_of, statistics_forms, won_examples_have_no_move

pytestmark = pytest.mark.skipif(fastcore.library() is None,
                                reason="the fast core library is missing and cannot be built (no C compiler?)")

WALKS = 24  # per reading: half uniform, half eager for the foundations (they get further: redeals, changes)
CAP = 3000  # steps per walk, at most
MAX_SEEN = (fastcore.VARS - 6) // 8  # the kernel's room for the chain's seen positions


#: the statistics' readings: the defaults, then each other reading of each ruling alone
READINGS = [rulings for _, rulings in statistics_forms(EX.ID)]


def _engine_table(t: Table) -> tuple:
    v = t.vars
    return ([list(p) for p in t.piles], list(t.fsuit), t.passes, t.rounds,
            (None if v["chain"] is None else t.game.layout.index(v["chain"]), v["reversed"], len(v["_seen"])))


def _kernel_table(k: fastcore.Kernel, s: fastcore.FcState) -> tuple:
    n = len(k.game.roles)
    b = fastcore.state_vars(s)
    assert len(b) == 6 + 8 * b[5]
    return (k.piles(s), list(s.fsuit[:n]), s.passes, s.rounds,
            (None if b[0] == 0xFF else b[0], int.from_bytes(b[1:5], "little"), b[5]))


def _pick(rng: random.Random, t: Table, moves: list[Move], eager: bool) -> Move:
    if eager:
        home = [m for m in moves if m.type == "move" and t.game.roles[m.dst] == "foundation"
                and t.game.roles[m.src] != "foundation"]
        if home and rng.random() < 0.9:
            return rng.choice(home)
    return rng.choice(moves)


def _walk(game: Game, kern: fastcore.Kernel, seed: int, eager: bool, seen: Counter) -> None:
    """One random walk, holding the kernel to the engine at every step; ``seen`` counts what it met."""
    rng = random.Random(seed)
    t = game.new_table(game.deck_from_seed(seed))
    s = kern.state(t)
    assert s is not None
    spec = kern.spec
    for _ in range(CAP):
        want = moves_of(game.legal_moves(t))
        got = moves_of(kern.legal(s))
        assert got == want, f"seed {seed}: legal moves differ at ply {t.ply}"
        for src in game.by_role["tableau"]:  # the kernel's frees answers as the engine's frees_a_card
            assert kern.frees(s, src) == frees_a_card(game, t, src), f"seed {seed}: frees({src}) at ply {t.ply}"
        if any(c > 1 for _, _, _, c in want):
            seen["a card below the top of the spread packet"] += 1
        if not want:
            seen["won" if t.is_won() else "lost"] += 1
            return
        m = _pick(rng, t, game.legal_moves(t), eager)
        chain = t.vars["chain"]
        t.push(m)
        kern.apply(s, m)
        assert _kernel_table(kern, s) == _engine_table(t), f"seed {seed}: tables differ after {m} at ply {t.ply}"
        if not t.vars["_seen"]:  # the engine's own state encodes as the kernel's
            assert spec.vars(t) == fastcore.state_vars(s)
        roles = game.roles
        kind = m.type if m.src < 0 else f"{m.type} {roles[m.src]}->{roles[m.dst]}"
        seen[kind] += 1
        if m.type == "tuck" and m.src == m.dst:
            seen["tuck under itself"] += 1
        if m.type == "tuck" and C.value_of(t.piles[m.dst][0]) == 13:
            seen["a king travels, the chain goes on" if t.vars["chain"] is not None else "a king travels, the chain ends"] += 1
        elif m.type == "tuck" and chain is not None and t.vars["chain"] is None:
            seen["chain ends in a loop"] += 1
        if m.type == "move" and m.src in game.foundations and not t.piles[m.src]:
            seen["a base changed"] += 1
        seen["longest chain"] = max(seen["longest chain"], len(t.vars["_seen"]))
    seen["capped"] += 1


@pytest.mark.parametrize("rulings", READINGS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_kernel_follows_the_engine_on_random_walks(rulings: dict[str, str]) -> None:
    game = create(EX.ID, rulings=rulings)
    kern = fastcore.Kernel(game)
    seen: Counter = Counter()
    for seed in range(WALKS):
        _walk(game, kern, 1000 * seed + 7, eager=seed % 2 == 1, seen=seen)
    # the walks reach every part of the rules
    for kind in ("deal", "redeal", "move tableau->foundation", "move reserve->foundation", "move tableau->tableau",
                 "tuck reserve->tableau", "tuck tableau->tableau", "chain ends in a loop"):
        assert seen[kind], f"no {kind} in the walks: {dict(seen)}"
    if game.rulings["foundations"] != "eight-aces":
        assert seen["move foundation->foundation"], dict(seen)
    # each reading is met where it plays differently
    assert bool(seen["a card below the top of the spread packet"]) == (game.rulings["thirteenth-packet"] == "spread")
    if game.rulings["chain-king"] == "ends-chain":
        assert seen["a king travels, the chain ends"] and not seen["a king travels, the chain goes on"], dict(seen)
    else:
        assert seen["a king travels, the chain goes on"], dict(seen)
    if game.rulings["reversal-bases"] == "bases-stay" or game.rulings["foundations"] == "eight-aces":
        assert not seen["a base changed"], dict(seen)
    assert seen["longest chain"] < MAX_SEEN


def test_the_comparisons_can_fail() -> None:
    """A wrong move list or a wrong table is seen: the kernel's own output, altered, differs."""
    game = create(EX.ID)
    kern = fastcore.Kernel(game)
    t = game.new_table(game.deck_from_seed(3))
    s = kern.state(t)
    assert s is not None
    t.push(Move("deal"))
    kern.apply(s, Move("deal"))
    assert _kernel_table(kern, s) == _engine_table(t)
    kern.apply(s, Move("deal"))  # one deal too many on the kernel's side
    assert _kernel_table(kern, s) != _engine_table(t)
    t.push(Move("deal"))
    assert moves_of(kern.legal(s)) == moves_of(game.legal_moves(t))
    assert moves_of(kern.legal(s)[::-1]) != moves_of(game.legal_moves(t)) or len(game.legal_moves(t)) < 2
    assert moves_of(kern.legal(s)[1:]) != moves_of(game.legal_moves(t))


def test_vars_are_encoded_only_without_seen_positions() -> None:
    game = create(EX.ID)
    spec: fastcore.FastCore = EX.SEARCH["fast_core"]
    assert fastcore.spec_of(game) is spec
    t = game.new_table(game.deck_from_seed(1))
    assert spec.vars(t) == bytes([0xFF, 0, 0, 0, 0, 0])
    assert EX._fast_vars_back(bytes([0xFF, 0, 0, 0, 0, 0])) == {"chain": None, "_seen": [], "reversed": 0}
    t.vars.update(chain="p5", reversed=2)
    assert spec.vars(t) == bytes([4, 2, 0, 0, 0, 0])
    t.vars["_seen"] = [hash(())]
    assert spec.vars(t) is None and fastcore.Kernel(game).state(t) is None  # the search runs in Python there


@pytest.mark.clause("ex-12")
def test_a_won_table_has_no_move_in_the_kernel_either() -> None:
    assert won_examples_have_no_move("exiles")

