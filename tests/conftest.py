"""Shared test helpers: build a table holding exactly the cards a test needs."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from replay.engine import cards as C
from replay.engine.game import Game, Move, Table
from replay.games import create


def table_with(
    game: Game,
    piles: dict[str, list[str]] | None = None,
    *,
    foundations: dict[str, list[str]] | None = None,
    stock: list[str] | None = None,
    passes: int = 1,
    rounds: int = 1,
    vars: dict | None = None,
) -> Table:
    """A table of ``game`` whose non-foundation containers hold only the listed cards (bottom first).

    ``foundations`` replaces the named foundations (bottom first); ``stock`` lists the stock in
    dealing order (first card dealt first).  Other foundations keep their bases, if the game lays any.
    """
    t = game.new_table(game.deck_from_seed(0))
    for i, role in enumerate(game.roles):
        if role != "foundation":
            t.piles[i] = []
    for name, cards in (piles or {}).items():
        t.piles[game.layout.index(name)] = [C.parse(c) for c in cards]
    for name, cards in (foundations or {}).items():
        f = game.layout.index(name)
        t.piles[f] = [C.parse(c) for c in cards]
        t.fsuit[f] = C.suit_of(t.piles[f][0]) if cards else -1
    if stock is not None:
        t.piles[game.stock] = [C.parse(c) for c in reversed(stock)]
    t.passes, t.rounds = passes, rounds
    t.vars.update(vars or {})
    return t


def mv(game: Game, type: str = "move", src: str | None = None, dst: str | None = None, count: int = 1) -> Move:
    lay = game.layout
    return Move(type, lay.index(src) if src else -1, lay.index(dst) if dst else -1, count=count)


def cited(t: Table, m: Move) -> str | None:
    """The clause the move breaks, or None when it is legal (and then it is in the legal-move list)."""
    bad = t.violation(m)
    if bad is None:
        assert any((x.type, x.src, x.dst, x.count) == (m.type, m.src, m.dst, m.count) for x in t.legal_moves())
        return None
    return bad[0]


def foundation(game: Game, t: Table, code: str) -> str:
    """Name of the foundation whose base card is ``code`` (e.g. ``"KH"``)."""
    card = C.parse(code)
    for f in game.foundations:
        if t.piles[f] and t.piles[f][0] == card:
            return game.layout.names[f]
    raise LookupError(code)


def top_codes(t: Table, name: str) -> list[str]:
    return [C.code(c) for c in t.piles[t.game.layout.index(name)]]


@pytest.fixture
def pf() -> Game:
    """printex-frame in the sixteen-pile frame rect-16, whose pile names (t1-t4, r1-r2, b1-b4, l1-l2) the
    hand-built tables of the tests use; the default frame (square-20-ring) has tests of its own."""
    return create("printex-frame", rulings={"frame": "rect-16"})


@pytest.fixture
def zk() -> Game:
    return create("zwarta-kolumna")


@pytest.fixture
def ns() -> Game:
    return create("napoleons-square")


@pytest.fixture
def ex() -> Game:
    return create("exiles")


def stacked_deck(game: Game, first: list[str]) -> list[int]:
    """A deck for ``game`` that deals the cards ``first`` first, in that order, then the rest of
    :meth:`Game.expected_deck` in canonical order (ace of spades upward)."""
    from collections import Counter

    head = [C.parse(c) for c in first]
    rest = Counter(game.expected_deck())
    rest.subtract(head)
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"{first} asks for more copies of a card than the deck holds")
    return head + [card for card in sorted(rest) for _ in range(rest[card])]


#: the environment variable naming the folder the processes of one test run share for the site
SITE_FOLDER = "REPLAY_TEST_SITE"


def pytest_configure(config: pytest.Config) -> None:
    """The run's main process makes the folder its processes share for the one site build
    (tests/test_site.py's ``build_site``); pytest-xdist's workers inherit it through the environment."""
    if not hasattr(config, "workerinput") and SITE_FOLDER not in os.environ:
        os.environ[SITE_FOLDER] = tempfile.mkdtemp(prefix="replay-test-site-")
        config._replay_site = os.environ[SITE_FOLDER]  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    shared = getattr(config, "_replay_site", None)
    if shared:
        shutil.rmtree(shared, ignore_errors=True)
        os.environ.pop(SITE_FOLDER, None)
