"""What the kernels' tests (tests/test_fastcore_<game>.py) share: comparing a kernel with the engine,
and showing that the comparisons can fail."""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

import pytest

from replay import fastcore
from replay.engine.game import Game, Move, Table
from replay.engine.layout import FOUNDATION


def statistics_forms(game_id: str) -> list[tuple[tuple[str, ...], dict[str, str]]]:
    """Every form of ``game_id`` the statistics build, as ``(variants, rulings)``: the game alone and with
    each variant, each ruling's other readings (``replay.solver.table``), and Napoleon's Square's modern
    the relatives' forms (their ``plays_as``), such as Napoleon's Square's modern readings."""
    from replay.solver.table import forms, relative_forms, ruling_forms

    built = [f for f in forms() if f.game == game_id] + [r[0] for r in ruling_forms() if r[0].game == game_id]
    built += [r.form for r in relative_forms() if r.form.game == game_id and r.form not in built]
    return [(f.variants, dict(f.rulings)) for f in built]


def moves_of(ms: list[Move]) -> list[tuple[str, int, int, int]]:
    return [(m.type, m.src, m.dst, m.count) for m in ms]


def compare_tables(k: fastcore.Kernel, s: fastcore.FcState, t: Table, where: str) -> None:
    """The kernel's position and the engine's table hold the same: piles, foundation suits, counters, vars."""
    n = len(t.piles)
    assert k.piles(s) == t.piles, f"piles differ {where}"
    assert list(s.fsuit[:n]) == t.fsuit, f"foundation suits differ {where}"
    assert (s.passes, s.rounds) == (t.passes, t.rounds), f"passes/rounds differ {where}"
    assert fastcore.state_vars(s) == k.spec.vars(t), f"vars differ {where}"
    assert k.spec.vars_back is not None and k.spec.vars_back(fastcore.state_vars(s)) == t.vars, where


def compare_legal(game: Game, k: fastcore.Kernel, s: fastcore.FcState, t: Table, where: str) -> list[Move]:
    """The kernel's legal moves are the engine's, in the same order (the engine's are returned)."""
    want = game.legal_moves(t)
    got = k.legal(s)
    assert moves_of(got) == moves_of(want), f"legal moves differ {where}"
    return want


def choose(rng: random.Random, t: Table, legal: list[Move], seen: set, progress: float) -> Move:
    """A random legal move, preferring one that leads to a position not seen yet, and (with probability
    ``progress``) one that makes progress (a deal or a card home), so that most walks reach the end."""
    order = list(legal)
    rng.shuffle(order)
    if rng.random() < progress:
        order.sort(key=lambda m: m.type == "move" and t.game.roles[m.dst] != FOUNDATION)
    for m in order:
        after = t.copy()
        after.push(m)
        if after.key() not in seen:
            return m
    return order[0]


Walk = Callable[[Game, fastcore.Kernel, int, Counter], None]


def the_comparisons_can_fail(game: Game, t: Table, walk: Walk, wrong_option: int) -> None:
    """A move list in another order, a kernel told another reading (its option ``wrong_option`` set to
    0 where the game has it otherwise), and a table changed behind the kernel's back are all caught."""
    k = fastcore.Kernel(game)
    s = k.state(t)
    assert s is not None
    legal = k.legal(s)
    assert len(legal) > 1 and moves_of(legal) == moves_of(game.legal_moves(t))
    assert moves_of(legal[::-1]) != moves_of(game.legal_moves(t))
    assert k.g.opt[wrong_option] != 0
    k.g.opt[wrong_option] = 0
    with pytest.raises(AssertionError):
        for seed in range(10):
            walk(game, k, 3000 + seed, Counter())
    k2 = fastcore.Kernel(game)
    s2 = k2.state(t)
    assert s2 is not None
    t2 = t.copy()
    t2.piles[0].append(t2.piles[1].pop())
    with pytest.raises(AssertionError):
        compare_tables(k2, s2, t2, "")


def won_examples_have_no_move(game_id: str) -> int:
    """At the end of every won example log of ``game_id`` (examples/games/<game>/*/won-*.json) the kernel,
    like the engine, has no legal move: a won game offers no redeal.  Returns how many logs were checked."""
    from pathlib import Path

    from replay.log.validate import parse, replay_to

    checked = 0
    for path in sorted((Path(__file__).resolve().parents[1] / "examples" / "games" / game_id).glob("*/won-*.json")):
        inst, t, _, _ = replay_to(parse(path.read_bytes()), None)
        k = fastcore.Kernel(inst.game)
        s = k.state(t)
        assert s is not None and t.is_won(), path
        assert k.legal(s) == [] and inst.game.legal_moves(t) == [], path
        checked += 1
    return checked

