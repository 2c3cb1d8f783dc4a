"""The strong player (replay.solver.nested): nested searches in C and in Python, and the portfolio.

The C search (replay/fastcore/nested.c) is held to the Python search step for step, as
tests/test_fastcore.py holds the depth-first searches: on every form of the statistics, the same
line, positions and best cards home on the same seed and budget.  Won lines are replayed through the
validator; the budget is counted exactly; a stop request ends the search; a form or a position the
kernel cannot take is searched in Python; a proof of loss from the depth-first search is never
contradicted by a win.
"""

from __future__ import annotations

import math

import pytest

from replay import fastcore
from replay.engine.errors import IllegalMove
from replay.engine.game import Move
from replay.log.validate import check_bytes
from replay.solver import logs as L
from replay.solver import nested as N
from replay.solver.nested import Params, play
from replay.solver.search import UNKNOWN, UNWINNABLE, WON, Budget, Result, position_key, profile_for, solve
from replay.solver.stats import Form, game_of
from replay.solver.table import forms, relative_forms, ruling_forms

#: Napoleon's Square under the modern readings (PySolFC's rules: its relative's plays_as)
NAPOLEON_MODERN = Form("napoleons-square", (), (("sequence-moves", "whole-sequence"), ("space-fill", "any-card"),
                                                ("take-back", "allowed")))

LIB = fastcore.library()
needs_core = pytest.mark.skipif(LIB is None, reason="the fast core is not built")

NMCS = Params("nmcs", level=2)
BEAM = Params("nmcs", level=2, width=2)
NRPA = Params("nrpa", level=2, iterations=4)


def _forms() -> list[Form]:
    out = forms() + [r[0] for r in ruling_forms()]
    out += [r.form for r in relative_forms() if r.form not in out]
    return [f for f in out if LIB is not None and fastcore.spec_of(game_of(f)) is not None]


FORMS = _forms()


def _same(a: Result, b: Result) -> None:
    assert (a.status, a.nodes, a.positions, a.best_home, a.stopped_by) == \
           (b.status, b.nodes, b.positions, b.best_home, b.stopped_by)
    assert a.line == b.line
    assert a.best_line == b.best_line


def _pair(form: Form, seed: int, params: Params, nodes: int) -> tuple[Result, Result]:
    game = game_of(form)
    deck = game.deck_from_seed(seed)
    c = play(game, deck=deck, method=params.method, params=params, budget=Budget(nodes=nodes), seed=seed)
    py = play(game, deck=deck, method=params.method, params=params, budget=Budget(nodes=nodes), seed=seed, fast=False)
    return c, py


# ----------------------------------------------------------------------------- C and Python: one search


@needs_core
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.label)
def test_the_c_search_is_the_python_search(form: Form) -> None:
    """Every form of the statistics, both methods and NMCS's beam: the same line, positions and best position."""
    for params in (NMCS, BEAM, NRPA):
        c, py = _pair(form, 3, params, 1200)
        assert (c.core, py.core) == ("c", "python")
        _same(c, py)


@needs_core
@pytest.mark.parametrize("label", ["exiles", "napoleons-square", NAPOLEON_MODERN.label, "zwarta-kolumna"])
def test_the_searches_agree_on_more_deals_and_budgets(label: str) -> None:
    """Longer runs, other seeds, level 1 and 3, wins included (where the search finds one quickly)."""
    form = next(f for f in FORMS if f.label == label)
    statuses = set()
    for seed, nodes, params in ((1, 4000, NMCS), (2, 2500, Params("nmcs", level=1)), (4, 3000, NRPA),
                                (5, 2000, Params("nmcs", level=3, max_len=60)), (6, 3000, BEAM),
                                (7, 15000, Params("nmcs", level=2, width=2, max_len=30)),
                                (8, 15000, Params("nmcs", level=3, width=1, max_len=20))):
        c, py = _pair(form, seed, params, nodes)
        _same(c, py)
        statuses.add(c.status)
    assert statuses <= {WON, UNKNOWN}


@needs_core
def test_the_comparison_can_fail() -> None:
    """Another seed, another chance of a foundation move in the rollouts, another beam, or a kernel told
    another reading: the lines differ, and the comparison says so."""
    form = Form("napoleons-square")
    game = game_of(form)
    deck = game.deck_from_seed(3)
    c = play(game, deck=deck, method="nmcs", params=NMCS, budget=Budget(nodes=1500), seed=3)
    for other in (play(game, deck=deck, method="nmcs", params=NMCS, budget=Budget(nodes=1500), seed=4, fast=False),
                  play(game, deck=deck, method="nmcs", params=Params("nmcs", p_found=0.8), budget=Budget(nodes=1500),
                       seed=3, fast=False),
                  play(game, deck=deck, method="nmcs", params=BEAM, budget=Budget(nodes=1500), seed=3, fast=False)):
        with pytest.raises(AssertionError):
            _same(c, other)
    spec = fastcore.declared(game)
    assert spec is not None
    g = fastcore._prepared(game, spec)
    assert g is not None
    saved = g.opt[0]  # in_suit: marriages in suit (1) read as any suit (0)
    assert saved == 1
    right = play(game, deck=deck, method="nmcs", params=NMCS, budget=Budget(nodes=1500), seed=3, fast=False)
    try:
        g.opt[0] = 0
        with pytest.raises((AssertionError, IllegalMove)):  # another line, or a "win" the engine refuses
            _same(play(game, deck=deck, method="nmcs", params=NMCS, budget=Budget(nodes=1500), seed=3), right)
    finally:
        g.opt[0] = saved


def test_the_generator_is_splitmix64() -> None:
    """The Python search's generator gives splitmix64's published outputs (seed 0), as nested.c's does
    (the searches' equal lines show the C one)."""
    game = game_of(Form("exiles"))
    s = N._PythonNested(game, game.new_table(game.deck_from_seed(1)), profile_for(game), NMCS, 10, 0, None)
    assert [s.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


# ----------------------------------------------------------------------------- what a search answers


@needs_core
def test_the_same_seed_and_budget_give_the_same_line_and_another_seed_another() -> None:
    game = game_of(Form("zwarta-kolumna"))
    deck = game.deck_from_seed(2)
    runs = [play(game, deck=deck, method=m, budget=Budget(nodes=30_000), seed=s) for m in ("nmcs", "nrpa")
            for s in (7, 7, 8)]
    for a, b, other in (runs[0:3], runs[3:6]):
        _same(a, b)
        assert a.best_line != other.best_line


def _won(form: Form, method: str, seeds: range, nodes: int) -> list[tuple[int, Result]]:
    game = game_of(form)
    return [(s, r) for s in seeds
            for r in [play(game, deck=game.deck_from_seed(s), method=method, budget=Budget(nodes=nodes), seed=s)]
            if r.status == WON]


@needs_core
@pytest.mark.parametrize("form", [Form("exiles"), NAPOLEON_MODERN, Form("napoleons-square")], ids=lambda f: f.label)
def test_every_won_line_is_a_valid_log(form: Form) -> None:
    """The nested searches win deals of these forms; every line they report validates as a complete log."""
    game = game_of(form)
    won = _won(form, "nmcs", range(1, 9), 60_000) + _won(form, "nrpa", range(1, 5), 60_000)
    assert won
    for seed, r in won:
        assert r.line == r.best_line and r.best_home == 104 and r.stopped_by is None
        log = L.make_log(game, game.deck_from_seed(seed), r.line, "won", {"source": "test", "player": r.method})
        report = check_bytes(L.dumps(log).encode())
        assert report.ok, report.problems
        assert report.outcome == "won" and report.moves == len(r.line)


def test_a_won_line_is_replayed_through_the_checked_path_before_it_is_reported(monkeypatch) -> None:
    from replay.engine.errors import IllegalMove
    from replay.engine.game import Game

    game = game_of(Form("exiles"))
    real, calls = Game.step, []

    def step(self, t, m):  # the checked path refuses the 5th move it is asked
        calls.append(m)
        if len(calls) == 5:
            raise IllegalMove("ex-6", "refused by the test", m)
        return real(self, t, m)

    monkeypatch.setattr(Game, "step", step)
    with pytest.raises(IllegalMove):
        play(game, deck=game.deck_from_seed(1), method="nmcs", budget=Budget(nodes=5000), seed=1)
    assert len(calls) == 5


@pytest.mark.parametrize("fast", [True, False], ids=["c", "python"])
def test_the_budget_is_counted_exactly(fast: bool) -> None:
    """Positions made, every one counted: a budget that runs out is spent to the position, and the best
    line replays to its cards home."""
    game = game_of(Form("printex-frame"))
    deck = game.deck_from_seed(1)
    for params, nodes in ((NMCS, 777), (NRPA, 1001)):
        r = play(game, deck=deck, method=params.method, params=params, budget=Budget(nodes=nodes), seed=1, fast=fast)
        assert (r.status, r.stopped_by, r.nodes, r.positions) == (UNKNOWN, "nodes", nodes, nodes)
        t = game.new_table(deck)
        for m in r.best_line:
            t.apply(m)
        assert t.cards_home() == r.best_home > 8


def test_a_line_never_comes_back_to_a_position_nor_grows_past_max_len() -> None:
    """Napoleon's Square's modern readings move sequences back and forth between equal cards: the lines
    a search plays never enter a position twice, and stop at max_len."""
    game = game_of(NAPOLEON_MODERN)
    key = position_key(game, profile_for(game))
    for params in (Params("nmcs", level=1, max_len=40), Params("nrpa", level=1, iterations=30, max_len=40)):
        for seed in (2, 5):
            r = play(game, deck=game.deck_from_seed(seed), method=params.method, params=params,
                     budget=Budget(nodes=4000), seed=seed, fast=False)
            assert 0 < len(r.best_line) <= 40
    s = N._PythonNested(game, game.new_table(game.deck_from_seed(2)), profile_for(game),
                        Params("nmcs", level=1, max_len=300), 3000, 2, None)
    lines: list[list[Move]] = []
    real = s.rollout

    def rollout(t):  # every rollout's line from the root, as it ends
        score, seq = real(t)
        lines.append(list(s.line))
        return score, seq

    s.rollout = rollout  # type: ignore[method-assign]
    s.run()
    assert len(lines) > 20 and max(map(len, lines)) > 60
    for line in lines:
        t = game.new_table(game.deck_from_seed(2))
        seen = {key(t)}
        for m in line:
            t.push(m)
            seen.add(key(t))
        assert len(seen) == len(line) + 1  # no position twice


@needs_core
def test_a_stop_request_and_progress_reach_the_search() -> None:
    """should_stop ends the search (Ctrl-C in the commands) at the same position in C and in Python; an
    exception raised in a callback is raised, not swallowed; progress is reported."""
    game = game_of(Form("zwarta-kolumna"))
    deck = game.deck_from_seed(1)
    for fast in (True, False):
        asked: list[int] = []

        def stop() -> bool:
            asked.append(1)
            return len(asked) >= 3

        r = play(game, deck=deck, method="nmcs", budget=Budget(nodes=None), should_stop=stop, fast=fast)
        assert (r.status, r.stopped_by, r.positions) == (UNKNOWN, "interrupted", 3 * N.TICK_EVERY)

        def boom() -> bool:
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            play(game, deck=deck, method="nrpa", budget=Budget(nodes=None), should_stop=boom, fast=fast)
    # progress is reported: the search runs until it has said how far it got (no fixed time: on a loaded
    # machine a time budget could end before the first report), then a stop request ends it
    seen: list[tuple[int, int, float]] = []
    r = play(game, deck=deck, method="nmcs", budget=Budget(nodes=None), should_stop=lambda: bool(seen),
             progress=lambda n, b, s: seen.append((n, b, s)))
    assert r.stopped_by == "interrupted" and seen and seen[-1][0] > 0 and seen[-1][1] > 8
    # a time budget ends the search by itself
    r = play(game, deck=deck, method="nmcs", budget=Budget(nodes=None, seconds=0.2))
    assert (r.status, r.stopped_by) == (UNKNOWN, "seconds")


def test_a_search_without_any_budget_is_refused() -> None:
    game = game_of(Form("exiles"))
    with pytest.raises(ValueError, match="budget"):
        play(game, deck=game.deck_from_seed(1), method="nmcs", budget=Budget(nodes=None))
    with pytest.raises(ValueError):
        play(game, deck=game.deck_from_seed(1), method="greedy")
    with pytest.raises(ValueError):
        Params("nmcs", level=0)


@pytest.mark.parametrize("field, value", [
    ("max_len", 2**30), ("max_len", 2**31 - 1), ("max_len", 0), ("max_len", N.MAX_LINE + 1), ("level", 9),
    ("width", -1), ("width", N.MAX_WIDTH + 1),
    ("iterations", 2**32 + 5), ("iterations", 0), ("p_found", 1.5), ("p_found", float("nan")), 
    ("bias", 1e6), ("bias", float("inf")), ("bias", float("-inf")), ("alpha", float("nan")), ("alpha", -1.0),
    ("alpha", 1e300), ("level", 2.0), ("max_len", True), ("bias", "3")])
def test_every_number_of_the_parameters_is_bounded_where_it_enters(field: str, value: object) -> None:
    """Issue 32: a max_len of 2**30 made nested.c loop for ever (sizing its table of positions), a bias or an
    alpha beyond what exp() holds made the Python search raise OverflowError where C answered.  Params
    refuses each in one line naming the parameter and its range."""
    low, high = N.BOUNDS[field]
    with pytest.raises(ValueError, match=rf"^Params {field} must be a (whole )?number from {low} to {high}, not ") as e:
        Params(**{field: value})  # type: ignore[arg-type]
    assert "\n" not in str(e.value)
    Params(**{field: low}), Params(**{field: high})  # type: ignore[arg-type]  # the ends are allowed


@needs_core
@pytest.mark.parametrize("field, value", [("max_len", 2**31 - 1), ("max_len", N.MAX_LINE + 1), ("bias", 1e6),
                                          ("alpha", float("nan")), ("iterations", 0), ("level", 0),
                                          ("width", N.MAX_WIDTH + 1)])
def test_the_c_search_refuses_what_params_refuses(field: str, value: object) -> None:
    """nested.c bounds the parameters again (a caller of the library may skip Params): the search refuses them
    (None: the caller would search in Python) where it answered before (a stop for memory at max_len
    2**31 - 1, an answer of infinite weights at bias 1e6)."""
    from replay.fastcore import nested as fn

    game = game_of(Form("exiles"))
    spec = fastcore.spec_of(game)
    t = game.new_table(game.deck_from_seed(1))
    profile = profile_for(game)
    state = fastcore.encode_table(t, spec)
    cap = fastcore.encode_profile(game, profile.same_tableau, profile.same_foundations, profile.rounds_cap,
                                  profile.safe is not None, False)
    good = dict(method="nrpa", level=1, iterations=3, max_len=200, width=0, p_found=0, bias=3.0, alpha=1.0, seed=1)
    assert fn.search(game, spec, state, cap, fn.encode_params(**good), 500, None) is not None
    assert fn.search(game, spec, state, cap, fn.encode_params(**{**good, field: value}), 500, None) is None


@needs_core
def test_nrpa_weights_stay_finite_and_the_searches_equal_at_the_ends_of_the_ranges() -> None:
    """A policy weight beyond what exp() holds is clamped (both searches), so the Python search never raises
    OverflowError and a sum of weights is never 0 or infinite; at the largest bias and alpha the C and the
    Python search still give one line."""
    game = game_of(Form("napoleons-square"))
    t = game.new_table(game.deck_from_seed(1))
    s = N._PythonNested(game, t, profile_for(game), NRPA, 10, 0, None)
    while len(s.candidates(t)[0]) < 2:
        t.push(s.candidates(t)[0][0])
    moves, _ = s.candidates(t)
    pol = {s.code_of(t, moves[0]): 1000.0, s.code_of(t, moves[-1]): -1000.0}
    w = s.weights(pol, t, moves)
    assert w[0] == math.exp(N.MAX_EXP) and w[-1] == math.exp(-N.MAX_EXP) > 0
    for params in (Params("nrpa", level=2, iterations=4, bias=N.MAX_WEIGHT, alpha=N.MAX_WEIGHT),
                   Params("nrpa", level=1, iterations=50, bias=-N.MAX_WEIGHT, alpha=N.MAX_WEIGHT)):
        c, py = _pair(Form("napoleons-square"), 1, params, 2500)
        _same(c, py)


@needs_core
def test_a_form_the_kernel_refuses_is_searched_in_python(monkeypatch) -> None:
    """A game module's encoder may refuse a form (NotImplementedError): the nested search runs in Python,
    with the answer the Python search gives."""
    from replay.fastcore import FastCore
    from replay.games.catalog import create, module

    mod = module("printex-frame")
    real = mod.SEARCH["fast_core"]

    def refuse(game):
        raise NotImplementedError

    monkeypatch.setitem(mod.SEARCH, "fast_core", FastCore(real.kernel, refuse, real.vars, real.vars_back))
    game = create("printex-frame")  # a new instance: the encoded forms are kept per instance
    assert fastcore.spec_of(game) is None
    r = play(game, deck=game.deck_from_seed(2), method="nmcs", budget=Budget(nodes=900), seed=2)
    assert r.core == "python"
    _same(r, play(game, deck=game.deck_from_seed(2), method="nmcs", budget=Budget(nodes=900), seed=2, fast=False))


@needs_core
def test_a_position_inside_a_tuck_chain_is_searched_by_the_core() -> None:
    """Exiles inside a tuck chain that has seen positions (the kernel holds the chain since issue 20): the
    nested search runs in the fast core from there, and finds the Python search's line."""
    game = game_of(Form("exiles"))
    spec = fastcore.spec_of(game)
    assert spec is not None
    t = game.new_table(game.deck_from_seed(2))
    for _ in range(400):
        if t.vars.get("chain") is not None and t.vars.get("_seen"):
            break
        moves = t.legal_moves()
        assert moves
        tucks = [m for m in moves if m.type == "tuck"]
        t.push((tucks or moves)[0])
    assert t.vars.get("chain") is not None and spec.vars(t) is not None
    r = play(game, t, method="nmcs", budget=Budget(nodes=600), seed=1)
    assert r.core == "c"
    _same(r, play(game, t, method="nmcs", budget=Budget(nodes=600), seed=1, fast=False))


@needs_core
def test_the_memory_bound_stops_a_search_that_would_exceed_it(monkeypatch) -> None:
    monkeypatch.setenv("REPLAY_SOLVER_MEMORY", "1")  # MiB: less than a search's lines and policies take
    game = game_of(Form("exiles"))
    r = play(game, deck=game.deck_from_seed(1), method="nrpa", budget=Budget(nodes=5000), seed=1)
    assert (r.status, r.stopped_by, r.positions, r.core) == (UNKNOWN, "memory", 0, "c")


# ----------------------------------------------------------------------------- the portfolio


@needs_core
def test_a_proof_of_loss_is_never_contradicted_by_a_win() -> None:
    """Exiles' deals the depth-first search proves lost (within the portfolio's share of the budget) are
    never won by a nested search; the portfolio answers unwinnable for them, and won wherever the
    depth-first search wins."""
    game = game_of(Form("exiles"))
    lost = won = 0
    for seed in range(1, 25):
        deck = game.deck_from_seed(seed)
        dfs = solve(game, deck=deck, budget=Budget(nodes=N.PORTFOLIO_DFS_MIN))
        pf = play(game, deck=deck, method="portfolio", budget=Budget(nodes=200_000), seed=seed)
        assert pf.method == "portfolio"
        if dfs.status == UNWINNABLE:
            lost += 1
            assert pf.status == UNWINNABLE
            for method in ("nmcs", "nrpa"):
                assert play(game, deck=deck, method=method, budget=Budget(nodes=30_000), seed=seed).status != WON
        else:
            assert pf.status in (WON, UNKNOWN)
            won += pf.status == WON
        if dfs.status == WON:
            assert pf.status == WON
    assert lost >= 5 and won >= 5


@needs_core
def test_the_portfolio_counts_both_searches_within_the_budget() -> None:
    game = game_of(Form("zwarta-kolumna"))
    deck = game.deck_from_seed(3)
    r = play(game, deck=deck, method="portfolio", budget=Budget(nodes=60_000), seed=3)
    dfs = solve(game, deck=deck, budget=Budget(nodes=N.PORTFOLIO_DFS_MIN))
    assert r.status == UNKNOWN and r.stopped_by == "nodes" and r.nodes == 60_000
    assert r.best_home >= dfs.best_home
    nested = play(game, deck=deck, method="nmcs", budget=Budget(nodes=60_000 - N.PORTFOLIO_DFS_MIN), seed=3)
    assert r.best_home == max(dfs.best_home, nested.best_home)
    assert r.best_line == (nested.best_line if nested.best_home > dfs.best_home else dfs.best_line)
    assert play(game, deck=deck, method="depth-first", budget=Budget(nodes=300)).method == "depth-first"
    small = play(game, deck=deck, method="portfolio", budget=Budget(nodes=5_000), seed=3)  # the depth-first search alone
    assert small.nodes == 5_000 and small.best_line == solve(game, deck=deck, budget=Budget(nodes=5_000)).best_line


def test_the_modern_readings_are_a_relative_the_table_plays() -> None:
    assert NAPOLEON_MODERN in [r.form for r in relative_forms()]


@needs_core
def test_a_game_that_declares_its_share_gives_its_depth_first_search_that_share() -> None:
    """The printex frame declares ``portfolio_dfs_share`` (SEARCH): its portfolio's depth-first search takes that
    share of the budget, the nested search the rest; a game that declares none takes the solver's tenth."""
    from replay.games import printex_frame

    game = game_of(Form("printex-frame"))
    share = printex_frame.depth_first_share(game)
    assert N.dfs_share(game) == share != N.PORTFOLIO_DFS_SHARE
    assert N.dfs_share(game_of(Form("printex-frame", ("any-pile-after-third-deal",)))) == N.PORTFOLIO_DFS_SHARE
    assert N.dfs_share(game_of(Form("printex-frame", ("cztery-katy",)))) == N.PORTFOLIO_DFS_SHARE
    assert N.dfs_share(game_of(Form("zwarta-kolumna"))) == N.PORTFOLIO_DFS_SHARE
    budget = 400_000
    for seed in range(1, 40):  # a deal the depth-first search leaves open at its share
        deck = game.deck_from_seed(seed)
        dfs = solve(game, deck=deck, budget=Budget(nodes=int(budget * share)))
        if dfs.status == UNKNOWN:
            break
    else:
        raise AssertionError("no deal left open by the depth-first search")
    r = play(game, deck=deck, method="portfolio", budget=Budget(nodes=budget), seed=seed)
    assert r.nodes == budget and r.best_home >= dfs.best_home
    nested = play(game, deck=deck, method="nmcs", budget=Budget(nodes=budget - dfs.nodes), seed=seed)
    assert r.best_home == max(dfs.best_home, nested.best_home)


@pytest.mark.parametrize("share", [0, -0.5, 1.5, True, "half", float("nan"), lambda g: 2.0])
def test_a_share_that_is_not_a_part_of_the_budget_is_refused(monkeypatch, share) -> None:
    from replay.games import printex_frame
    from replay.solver.search import profile_for

    monkeypatch.setitem(printex_frame.SEARCH, "portfolio_dfs_share", share)
    with pytest.raises(ValueError, match="portfolio_dfs_share must be a number above 0 and at most 1"):
        profile_for(game_of(Form("printex-frame")))
