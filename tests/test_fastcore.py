"""The fast search core (replay.fastcore) against the Python search: the same search, step for step.

Every game whose module declares a kernel is searched both ways, in every form the statistics use
(each variant, each ruling reading, Napoleon's Square's modern readings), on the same deals and
budgets: the verdict, the positions expanded and recorded, the positions a proof pruned, the best
cards home, the winning line and the line to the best position must all be equal.  The kernels'
own tests (tests/test_fastcore_<game>.py) hold each kernel to the rule functions move by move.
"""

from __future__ import annotations

import os

import pytest

from replay import fastcore
from replay.fastcore import build
from replay.solver.search import Budget, Profile, solve
from replay.solver.stats import Form, game_of
from replay.solver.table import forms, relative_forms, ruling_forms

LIB = fastcore.library()


def test_the_install_built_the_fast_core() -> None:
    """The README's install compiles the core (hatch_build.py); without it the solver is slow, not wrong,
    so nothing else would notice its absence."""
    if os.environ.get("REPLAY_NO_FASTCORE"):
        pytest.skip("REPLAY_NO_FASTCORE is set")
    assert LIB is not None, "replay/fastcore was not built (is there a C compiler?)"
    assert LIB.fc_source_hash().decode() == build.source_hash()


def test_the_library_is_named_after_its_sources(tmp_path) -> None:
    """A library built from other sources is never loaded: its file name changes with every byte of them."""
    import shutil

    root = tmp_path / "fastcore"
    shutil.copytree(build.HERE, root, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    before = build.library_path(root)
    src = root / "search.c"
    src.write_bytes(src.read_bytes() + b"\n/* changed */\n")
    assert build.library_path(root) != before


def _kernel_forms() -> list[Form]:
    out = [f for f in forms() if _has_kernel(f)]
    out += [r[0] for r in ruling_forms() if _has_kernel(r[0])]
    out += [r.form for r in relative_forms() if r.form not in out and _has_kernel(r.form)]
    return out


def _has_kernel(form: Form) -> bool:
    return LIB is not None and fastcore.spec_of(game_of(form)) is not None


FORMS = _kernel_forms() if LIB is not None else []
needs_core = pytest.mark.skipif(LIB is None, reason="the fast core is not built")


def _same(a, b) -> None:
    assert (a.status, a.nodes, a.positions, a.pruned, a.best_home, a.stopped_by) == \
           (b.status, b.nodes, b.positions, b.pruned, b.best_home, b.stopped_by)
    assert a.line == b.line
    assert a.best_line == b.best_line


@needs_core
def test_some_game_has_a_kernel() -> None:
    assert {f.game for f in FORMS} >= {"exiles", "napoleons-square"}


@needs_core
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.label)
def test_the_c_search_is_the_python_search(form: Form) -> None:
    """Same deals, same node budget: the same result in every field, whether won, lost or cut off."""
    game = game_of(form)
    statuses = set()
    for seed in range(1, 7):
        deck = game.deck_from_seed(seed)
        for nodes in (150, 700):
            py = solve(game, deck=deck, budget=Budget(nodes=nodes), fast=False)
            c = solve(game, deck=deck, budget=Budget(nodes=nodes))
            _same(c, py)
            statuses.add(py.status)
    assert statuses  # the comparison ran


def _inside_chains(game, seed: int, count: int) -> list:
    """Up to ``count`` tables of a seeded walk (eager for the foundations) inside exiles' travelling chain,
    each from another chain, as ``replay analyse`` meets them in a log."""
    import random

    rng = random.Random(seed)
    t = game.new_table(game.deck_from_seed(seed))
    out: list = []
    chains = 0
    for _ in range(3000):
        moves = t.legal_moves()
        if not moves or len(out) >= count:
            break
        if t.vars["chain"] is not None and t.vars["_seen"] and len(t.vars["_seen"]) == 1 + chains % 3:
            out.append(t.copy())
            chains += 1
        home = [m for m in moves if m.type == "move" and game.roles[m.dst] == "foundation"
                and game.roles[m.src] != "foundation"]
        t.push(rng.choice(home) if home and rng.random() < 0.9 else rng.choice(moves))
    return out


@needs_core
@pytest.mark.parametrize("form", [f for f in FORMS if f.game == "exiles"], ids=lambda f: f.label)
def test_the_c_search_is_the_python_search_inside_a_chain(form: Form) -> None:
    """Exiles' positions inside a tuck chain (the chain's packet and the positions it has been in, in the
    kernel's vars) are searched by the core, with the Python search's result in every field."""
    game = game_of(form)
    searched = 0
    for seed in range(1, 5):
        for t in _inside_chains(game, seed, 2):
            for nodes in (150, 700):
                c = solve(game, table=t, budget=Budget(nodes=nodes))
                assert c.core == "c"
                _same(c, solve(game, table=t, budget=Budget(nodes=nodes), fast=False))
                searched += 1
    assert searched >= 8


@needs_core
def test_the_c_search_decides_as_python_does_to_the_end() -> None:
    """With no budget on small searches (exiles' lost deals end within a few hundred positions): the
    same proof of loss, every position of it."""
    game = game_of(Form("exiles"))
    decided = 0
    for seed in range(1, 30):
        deck = game.deck_from_seed(seed)
        c = solve(game, deck=deck, budget=Budget(nodes=20_000))
        if c.status == "unknown":
            continue
        _same(c, solve(game, deck=deck, budget=Budget(nodes=20_000), fast=False))
        decided += 1
    assert decided >= 5


@needs_core
def test_the_c_search_follows_a_custom_profile() -> None:
    """Without the game's reductions (a profile given by the caller) the C search mirrors the bare search."""
    game = game_of(Form("napoleons-square"))
    deck = game.deck_from_seed(3)
    _same(solve(game, deck=deck, budget=Budget(nodes=400), profile=Profile()),
          solve(game, deck=deck, budget=Budget(nodes=400), profile=Profile(), fast=False))


@needs_core
def test_a_stop_request_and_progress_reach_the_c_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """should_stop ends the C search as it ends the Python one (Ctrl-C in ``replay solve``), and
    progress is reported while it runs (every 0.05 s here, well inside the time budget however loaded the
    machine: the test asks whether the reports reach the caller, not how fast they come)."""
    from replay.solver import search as S

    monkeypatch.setattr(S, "PROGRESS_EVERY", 0.05)
    game = game_of(Form("napoleons-square"))
    deck = game.deck_from_seed(2)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) >= 5

    r = solve(game, deck=deck, budget=Budget(nodes=None), should_stop=stop)
    assert r.status == "unknown" and r.stopped_by == "interrupted"
    assert r.nodes == 5 * 16  # asked every 16 positions, as the Python search asks
    seen = []
    r = solve(game, deck=deck, budget=Budget(nodes=None, seconds=1.0),
              progress=lambda n, b, s: seen.append((n, b, s)))
    assert r.stopped_by == "seconds" and seen and seen[-1][0] > 0


@needs_core
def test_an_error_in_a_callback_is_raised_not_swallowed() -> None:
    game = game_of(Form("exiles"))

    def boom() -> bool:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(game, deck=game.deck_from_seed(1), budget=Budget(nodes=None), should_stop=boom)


def test_without_the_core_the_solver_searches_in_python(monkeypatch) -> None:
    """No library (no compiler, or REPLAY_NO_FASTCORE): the same answers from the Python search."""
    monkeypatch.setattr(fastcore, "library", lambda: None)
    game = game_of(Form("exiles"))
    r = solve(game, deck=game.deck_from_seed(3), budget=Budget(nodes=300))
    assert r.status in ("won", "unwinnable", "unknown") and r.nodes > 0


@needs_core
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.label)
def test_a_kernels_shortcut_for_the_move_order_agrees_with_its_legal_moves(form: Form) -> None:
    """A kernel's optional ``frees`` (the search's question "can this pile's top card now go home?",
    answered without listing every move) gives what the engine's legal moves give, on random walks."""
    import random

    game = game_of(form)
    k = fastcore.Kernel(game)
    if not k.has_frees:
        pytest.skip("this kernel has no frees: the search scans its legal moves")
    rng = random.Random(form.label)
    asked = answered_yes = 0
    for seed in range(1, 9):
        t = game.new_table(game.deck_from_seed(seed))
        for _ in range(300):
            moves = t.legal_moves()
            if not moves:
                break
            s = k.state(t)
            if s is None:  # a position the kernel does not take (an exiles chain longer than it holds): Python's
                t.push(rng.choice(moves))
                continue
            for src in range(len(game.roles)):  # the top card, one card (a deeper one of exiles' spread packet: no)
                want = bool(t.piles[src]) and any(m.type == "move" and m.src == src and m.dst in game.foundations
                                                  and m.count == 1 for m in moves)
                got = k.frees(s, src)
                if game.roles[src] in ("tableau", "reserve"):  # the sources the search asks about
                    assert got == want, (seed, src, t.snapshot())
                    asked += 1
                    answered_yes += got
            t.push(rng.choice(moves))
    assert asked and answered_yes


@needs_core
def test_replay_solve_writes_the_same_log_with_and_without_the_fast_core() -> None:
    """What a user sees: the same won log, byte for byte, whichever search found it (the figures on
    standard error differ only in the time and in naming the fast core)."""
    import subprocess
    import sys

    def run(**env: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "replay", "solve", "exiles", "--seed", "1", "--nodes", "20000"],
                              capture_output=True, text=True, env={**os.environ, **env}, timeout=600)

    fast, slow = run(), run(REPLAY_NO_FASTCORE="1")
    assert fast.returncode == slow.returncode == 0, fast.stderr + slow.stderr
    assert "fast core" in fast.stderr and "fast core" not in slow.stderr
    strip = lambda text: [ln for ln in text.splitlines() if '"version"' not in ln]  # noqa: E731
    assert strip(fast.stdout) == strip(slow.stdout)


@needs_core
def test_a_search_without_a_node_budget_stops_at_its_memory_bound(monkeypatch) -> None:
    """Bounded cost: the C search records hundreds of thousands of positions a second, so a search with
    no node budget stops (unknown, stopped_by memory) when its table of positions reaches the bound."""
    monkeypatch.setenv("REPLAY_SOLVER_MEMORY", "24")  # MiB
    game = game_of(Form("napoleons-square"))
    r = solve(game, deck=game.deck_from_seed(2), budget=Budget(nodes=None))
    assert r.status == "unknown" and r.stopped_by == "memory" and r.core == "c"
    assert 10_000 < r.positions < 1_000_000


@needs_core
def test_the_largest_memory_bound_read_is_kept_by_the_c_search(monkeypatch) -> None:
    """Issue 32: REPLAY_SOLVER_MEMORY of 2^44 MiB wrapped to 0 bytes in the C side's int64 and the fast core
    stopped at once, where the Python search went on; the largest value read now (1 PiB) gives both the
    same answer."""
    from replay.settings import MAX_MIB

    monkeypatch.setenv("REPLAY_SOLVER_MEMORY", str(MAX_MIB))
    game = game_of(Form("exiles"))
    fast = solve(game, deck=game.deck_from_seed(1), budget=Budget(nodes=20_000))
    slow = solve(game, deck=game.deck_from_seed(1), budget=Budget(nodes=20_000), fast=False)
    assert fast.core == "c" and slow.core == "python"
    assert (fast.status, fast.nodes, fast.line) == (slow.status, slow.nodes, slow.line) == ("won", fast.nodes, fast.line)
