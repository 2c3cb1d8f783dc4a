"""The fast core's exiles kernel (replay/fastcore/games/exiles.c) held to the rule functions of
replay/games/exiles.py: random walks from seeded deals under every ruling reading (the default, then
each other reading alone), comparing at every step the legal moves (same moves, same order) and, after
the same move on both, the whole table (piles, foundation suits, passes, rounds and the game state:
the chain, the cards changed and the chain's seen positions, whose codes both compute: the engine's
table encoded is the kernel's position, byte for byte, inside a chain as outside one).
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
MAX_SEEN = EX.FAST_MAX_SEEN  # the kernel's room for the chain's seen positions


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
        lost = bool(EX.a_card_the_last_deal_cannot_bring_home(t))  # the proof of loss, and its twin in the kernel
        assert kern.lost(s) == lost, f"seed {seed}: lost() differs at ply {t.ply}"
        seen["proved lost"] += lost
        seen["last deal laid out"] += t.passes == game.setup.max_passes and not t.piles[game.stock]
        if any(c > 1 for _, _, _, c in want):
            seen["a card below the top of the spread packet"] += 1
        if not want:
            seen["won" if t.is_won() else "lost"] += 1
            return
        m = _pick(rng, t, game.legal_moves(t), eager)
        chain, steps = t.vars["chain"], len(t.vars["_seen"])
        t.push(m)
        kern.apply(s, m)
        assert _kernel_table(kern, s) == _engine_table(t), f"seed {seed}: tables differ after {m} at ply {t.ply}"
        # the engine's state, seen positions and all, encodes as the kernel's and comes back from it
        assert spec.vars(t) == fastcore.state_vars(s), f"seed {seed}: vars differ after {m} at ply {t.ply}"
        assert spec.vars_back(fastcore.state_vars(s)) == t.vars, f"seed {seed}: vars_back at ply {t.ply}"
        if t.vars["chain"] is not None:
            seen["inside a chain"] += 1
        roles = game.roles
        kind = m.type if m.src < 0 else f"{m.type} {roles[m.src]}->{roles[m.dst]}"
        seen[kind] += 1
        if m.type == "tuck" and m.src == m.dst:
            seen["tuck under itself"] += 1
        if m.type == "tuck" and C.value_of(t.piles[m.dst][0]) == 13:
            seen["a king travels, the chain goes on" if t.vars["chain"] is not None else "a king travels, the chain ends"] += 1
        elif m.type == "tuck" and chain is not None and t.vars["chain"] is None:
            seen["chain ends in a loop"] += 1
            if steps >= 2:
                seen["a chain of several steps ends in a loop"] += 1
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
                 "tuck reserve->tableau", "tuck tableau->tableau", "inside a chain", "chain ends in a loop",
                 "a chain of several steps ends in a loop"):
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
    # the proof of loss is asked where it can answer, and answers there both ways
    assert seen["proved lost"] and seen["last deal laid out"] > seen["proved lost"], dict(seen)


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


def test_vars_are_encoded_with_the_chain_and_its_seen_positions() -> None:
    game = create(EX.ID)
    spec: fastcore.FastCore = EX.SEARCH["fast_core"]
    assert fastcore.spec_of(game) is spec
    t = game.new_table(game.deck_from_seed(1))
    assert spec.vars(t) == bytes([0xFF, 0, 0, 0, 0, 0])
    assert EX._fast_vars_back(bytes([0xFF, 0, 0, 0, 0, 0])) == {"chain": None, "_seen": [], "reversed": 0}
    t.vars.update(chain="p5", reversed=2, _seen=[1, EX.POSITION_MODULUS - 1])
    b = bytes([4, 2, 0, 0, 0, 2]) + (1).to_bytes(8, "little") + (EX.POSITION_MODULUS - 1).to_bytes(8, "little")
    assert spec.vars(t) == b and EX._fast_vars_back(b) == t.vars
    assert fastcore.Kernel(game).state(t) is not None  # the search of a position inside a chain runs in C
    for foundations in EX.RULINGS["foundations"]:  # the chain's packet by its index, in every layout
        g = create(EX.ID, rulings={"foundations": foundations})
        assert [g.layout.names[i] for i in g.options["packets"]] == [EX._packet_name(i) for i in range(EX.ROW)]
    # what the kernel cannot hold is left to the Python search
    t.vars["_seen"] = list(range(MAX_SEEN + 1))
    assert spec.vars(t) is None and fastcore.Kernel(game).state(t) is None
    t.vars["_seen"] = [EX.POSITION_MODULUS]
    assert spec.vars(t) is None


def _inside_a_chain(game: Game, seed: int, steps: int = 1) -> Table:
    """A table of a seeded walk inside a chain that has been in ``steps`` positions or more, the next step a
    tuck of the chain."""
    rng = random.Random(seed)
    t = game.new_table(game.deck_from_seed(seed))
    while True:
        moves = t.legal_moves()
        assert moves, f"seed {seed}: the walk ended outside a chain"
        if t.vars["chain"] is not None and len(t.vars["_seen"]) >= steps and all(m.type == "tuck" for m in moves):
            return t
        t.push(_pick(rng, t, moves, eager=True))


@pytest.mark.clause("ex-10", "ex-11")
def test_the_kernel_ends_a_chain_by_the_positions_it_has_been_in() -> None:
    """The seen positions decide where a chain ends (amb-ex-chain-loop): a kernel told the same table without
    them follows the chain past the step that would come back round, so a wrong seen list would be caught."""
    game = create(EX.ID)
    kern = fastcore.Kernel(game)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        t = game.new_table(game.deck_from_seed(seed))
        while (moves := t.legal_moves()) and checked < 20:
            m = _pick(rng, t, moves, eager=True)
            after = t.copy()
            after.push(m)
            if t.vars["chain"] is not None and m.type == "tuck" and after.vars["chain"] is None:
                # the chain ends in a loop here; the kernel, given the table, ends it too …
                s = kern.state(t)
                assert s is not None
                kern.apply(s, m)
                assert fastcore.state_vars(s) == EX._fast_vars(after)
                # … and, told the same table without the positions it has been in, it ends it only when
                # the step would bring back the position it makes
                bare = t.copy()
                bare.vars["_seen"] = []
                s = kern.state(bare)
                assert s is not None
                kern.apply(s, m)
                packets = game.options["packets"]
                now, then = EX._positions(after, packets, m.dst, packets[C.value_of(after.piles[m.dst][-1]) - 1])
                assert (fastcore.state_vars(s)[0] == 0xFF) == (now == then)
                checked += now != then
            t = after
    assert checked


def test_a_chain_longer_than_the_kernel_holds_is_searched_in_python() -> None:
    """The kernel's vars hold MAX_SEEN positions of a chain; a chain that goes on past them is beyond it
    (its beyond()), and the C search gives the root to the Python search: the same result, from Python."""
    from replay.solver.search import Budget, solve

    game = create(EX.ID)
    t = _inside_a_chain(game, 5)
    after = t.copy()
    after.push(t.legal_moves()[0])
    assert after.vars["chain"] is not None  # the chain goes on one step more at least
    fake = [EX.POSITION_MODULUS - 1 - k for k in range(MAX_SEEN - len(t.vars["_seen"]))]  # codes not met
    t.vars["_seen"] = fake + t.vars["_seen"]
    assert len(t.vars["_seen"]) == MAX_SEEN and fastcore.Kernel(game).state(t) is not None
    full = solve(game, table=t, budget=Budget(nodes=300))
    assert full.core == "python"
    assert full.as_dict() | {"seconds": 0} == solve(game, table=t, budget=Budget(nodes=300), fast=False).as_dict() | {"seconds": 0}
    t.vars["_seen"] = t.vars["_seen"][-3:]
    assert solve(game, table=t, budget=Budget(nodes=300)).core == "c"


@pytest.mark.clause("ex-12")
def test_a_won_table_has_no_move_in_the_kernel_either() -> None:
    assert won_examples_have_no_move("exiles")

