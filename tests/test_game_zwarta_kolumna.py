"""zwarta-kolumna (text 001): one test or more per normative clause, each tagged with the clause it shows.

Layout (reading ``deal-order = columns-down``, the default): positions p1-p6 down the left column,
p7-p12 down the right one; rows 1-4 each hold an ace foundation (A1-A4) and a king foundation (K1-K4)
between the columns.  Expectations are derived from the text and the layout's geometry, not from
running the engine.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from replay.engine import cards as C
from replay.engine.errors import BadCombination, IllegalMove, InvalidDeck
from replay.engine.game import Move
from replay.games import create
from tests.conftest import cited, foundation, mv, stacked_deck, table_with, top_codes

clause = pytest.mark.clause

CORNER_LABELS = {"1", "6", "7", "12"}


def corners(g):
    lay = g.layout
    return [i for i in lay.tableau if lay.labels[i] in CORNER_LABELS]


def sides(g):
    lay = g.layout
    return [i for i in lay.tableau if lay.labels[i] not in CORNER_LABELS]


def next_on(t, f) -> str:
    """The card that follows on foundation ``f`` (its top card one step on, in suit)."""
    top = t.piles[f][-1]
    return C.code(C.make(C.rank_of(top) + t.game.fdir[f], C.suit_of(top)))


def run(base: str, n: int, step: int) -> list[str]:
    """``n`` cards of ``base``'s suit from ``base`` on, going ``step`` (+1 up, -1 down)."""
    card = C.parse(base)
    return [C.code(C.make(C.rank_of(card) + step * k, C.suit_of(card))) for k in range(n)]


# ----------------------------------------------------------------------------- setup


@clause("zk-2")
def test_two_full_packs_of_fifty_two_cards_104_in_all(zk):
    t = zk.new_table(zk.deck_from_seed(3))
    on_table = Counter(c for pile in t.piles for c in pile)
    assert sum(on_table.values()) == 104 == 2 * 52
    assert set(on_table.values()) == {2} and len(on_table) == 52  # every card of a pack, twice
    deck = zk.deck_from_seed(3)
    with pytest.raises(InvalidDeck):
        zk.new_table(deck + [deck[0]])  # a 97th card
    with pytest.raises(InvalidDeck):
        zk.new_table(deck[:-1] + [deck[0]])  # one card missing, another in excess


@clause("zk-3", "zk-4")
def test_four_aces_and_four_kings_of_different_suits_red_and_black_interleaved_are_the_foundations(zk):
    deck = zk.deck_from_seed(1)
    t = zk.new_table(deck)
    bases = {f: t.piles[f] for f in zk.foundations}
    assert all(len(p) == 1 for p in bases.values())
    aces = [p[0] for p in bases.values() if C.rank_of(p[0]) == C.ACE]
    kings = [p[0] for p in bases.values() if C.rank_of(p[0]) == C.KING]
    assert len(aces) == 4 and len({C.suit_of(c) for c in aces}) == 4
    assert len(kings) == 4 and len({C.suit_of(c) for c in kings}) == 4
    lay = zk.layout
    for a in zk.foundations:
        for b in zk.foundations:
            if lay.adjacent(a, b):
                assert C.is_red(t.piles[a][0]) != C.is_red(t.piles[b][0]), (lay.names[a], lay.names[b])
    # zk-4: these eight are the foundation cards: taken out of the pack, the rest (96) is dealt
    assert len(deck) == 96
    assert Counter(deck) + Counter(c for p in bases.values() for c in p) == Counter(C.full_deck())
    assert all(zk.fbase[f] == C.rank_of(bases[f][0]) for f in zk.foundations)


@clause("zk-5")
def test_aces_build_up_in_suit_and_kings_down_in_suit(zk):
    t = table_with(zk, {"p1": ["2S"], "p6": ["3S"], "p7": ["QH"], "p12": ["2H"]})
    ace_s, king_h = foundation(zk, t, "AS"), foundation(zk, t, "KH")
    assert cited(t, mv(zk, src="p1", dst=ace_s)) is None
    assert cited(t, mv(zk, src="p6", dst=ace_s)) == "zk-5"  # 3 does not follow the ace
    assert cited(t, mv(zk, src="p12", dst=ace_s)) == "zk-5"  # another suit
    assert cited(t, mv(zk, src="p7", dst=ace_s)) == "zk-5"  # a queen on an ace
    assert cited(t, mv(zk, src="p7", dst=king_h)) is None
    t.apply(mv(zk, src="p1", dst=ace_s))
    assert cited(t, mv(zk, src="p6", dst=ace_s)) is None  # then the three
    t = table_with(zk, {"p1": ["JH"], "p7": ["QS"]})
    assert cited(t, mv(zk, src="p1", dst=king_h)) == "zk-5"  # the jack waits for the queen
    assert cited(t, mv(zk, src="p7", dst=king_h)) == "zk-5"  # another suit
    # no turning the corner: a full ascending pile takes nothing more
    full = table_with(zk, {"p1": ["AS"]}, foundations={ace_s: run("AS", 13, +1)})
    assert cited(full, mv(zk, src="p1", dst=ace_s)) == "zk-5"


@clause("zk-6")
def test_the_rest_is_dealt_in_the_order_of_the_figure_after_the_foundations(zk):
    deck = zk.deck_from_seed(11)
    t = zk.new_table(deck)
    assert all(len(t.piles[f]) == 1 for f in zk.foundations)  # the foundations are laid first
    t.apply(mv(zk, "deal"))
    lay = zk.layout
    order = sorted(lay.tableau, key=lambda i: int(lay.labels[i]))
    assert [top_codes(t, lay.names[i]) for i in order] == [[C.code(c)] for c in deck[:12]]
    # columns-down: 1-6 down one column, 7-12 down the other, row by row
    left, right = order[:6], order[6:]
    assert len({lay.cols[i] for i in left}) == 1 and len({lay.cols[i] for i in right}) == 1
    assert [lay.rows[i] for i in left] == sorted(lay.rows[i] for i in left)
    assert [lay.rows[i] for i in right] == sorted(lay.rows[i] for i in right)
    assert [lay.rows[i] for i in left] == [lay.rows[i] for i in right]


@clause("zk-6", "zk-7")
def test_snake_reading_deals_the_second_column_upward():
    g = create("zwarta-kolumna", rulings={"deal-order": "snake"})
    deck = g.deck_from_seed(4)
    t = g.new_table(deck)
    t.apply(mv(g, "deal"))
    lay = g.layout
    order = sorted(lay.tableau, key=lambda i: int(lay.labels[i]))
    assert [t.piles[i] for i in order] == [[c] for c in deck[:12]]
    left, right = order[:6], order[6:]
    assert [lay.rows[i] for i in right] == sorted((lay.rows[i] for i in right), reverse=True)
    assert lay.rows[order[6]] == lay.rows[order[5]]  # card 7 lies beside card 6, at the bottom
    assert lay.corners() == frozenset(corners(g))  # 1, 6, 7, 12 are still the corners
    # position 8 now lies in the bottom foundation row, not the top one
    p8 = lay.index("p8")
    rows_of_p8 = {lay.names[f] for f in g.foundations if lay.same_row(p8, f)}
    assert rows_of_p8 == {lay.names[f] for f in g.foundations if lay.rows[f] == max(lay.rows[x] for x in g.foundations)}
    t = table_with(g, {"p8": ["2C"]})
    ace_c = foundation(g, t, "AC")
    assert cited(t, mv(g, src="p8", dst=ace_c)) == (None if lay.same_row(p8, lay.index(ace_c)) else "zk-8")


# ----------------------------------------------------------------------------- which foundations


@clause("zk-7")
def test_corner_cards_go_to_any_foundation(zk):
    lay = zk.layout
    assert lay.corners() == frozenset(corners(zk))
    t0 = table_with(zk, {})
    for c in corners(zk):
        for f in zk.foundations:
            t = table_with(zk, {lay.names[c]: [next_on(t0, f)]}, stock=["5C"])
            assert cited(t, mv(zk, src=lay.names[c], dst=lay.names[f])) is None, (lay.names[c], lay.names[f])


@clause("zk-8")
def test_other_cards_only_to_a_foundation_in_their_horizontal_row(zk):
    lay = zk.layout
    t0 = table_with(zk, {})
    for s in sides(zk):
        in_row = [f for f in zk.foundations if lay.same_row(s, f)]
        assert len(in_row) == 2 and {zk.fbase[f] for f in in_row} == {C.ACE, C.KING}  # each side row: an ace, a king
        for f in zk.foundations:
            t = table_with(zk, {lay.names[s]: [next_on(t0, f)]})
            want = None if lay.same_row(s, f) else "zk-8"
            assert cited(t, mv(zk, src=lay.names[s], dst=lay.names[f])) == want, (lay.names[s], lay.names[f])


@clause("zk-8")
def test_side_reach_adjacent_reading_allows_only_the_neighbouring_foundation():
    g = create("zwarta-kolumna", rulings={"side-reach": "adjacent"})
    lay = g.layout
    t0 = table_with(g, {})
    for s in sides(g):
        reach = [f for f in g.foundations if lay.adjacent(s, f)]
        assert len(reach) == 1  # left piles touch the ace, right piles the king
        for f in g.foundations:
            t = table_with(g, {lay.names[s]: [next_on(t0, f)]})
            want = None if f in reach else "zk-8"
            assert cited(t, mv(g, src=lay.names[s], dst=lay.names[f])) == want, (lay.names[s], lay.names[f])
    for c in corners(g):  # corners are not affected
        for f in g.foundations:
            t = table_with(g, {lay.names[c]: [next_on(t0, f)]})
            assert cited(t, mv(g, src=lay.names[c], dst=lay.names[f])) is None


@clause("zk-8")
def test_each_side_reach_reading_gives_its_own_reason_for_a_refusal():
    """Under side-reach=adjacent a side pile is refused a foundation of its own row: the reason
    must not say "not in its row" there (it did once, and the example output of the docs with it)."""
    for reading, words in (("row", "is not in its row"), ("adjacent", "is not the foundation next to it")):
        g = create("zwarta-kolumna", rulings={"side-reach": reading})
        lay = g.layout
        t0 = table_with(g, {})
        refused = [(s, f) for s in sides(g) for f in g.foundations if not g.options["reach"][s][f]]
        assert refused
        for s, f in refused:
            t = table_with(g, {lay.names[s]: [next_on(t0, f)]})
            bad = t.violation(mv(g, src=lay.names[s], dst=lay.names[f]))
            assert bad is not None and bad[0] == "zk-8"
            message = bad[1]
            assert words in message, (reading, message)
            if reading == "adjacent" and lay.same_row(s, f):
                assert "not in its row" not in message


@clause("zk-8", "zk-14")
def test_after_deal_ruling_decides_whether_the_row_rule_lasts_once_the_deck_is_out():
    for reading, lifted in (("restricted", False), ("unrestricted", True)):
        g = create("zwarta-kolumna", rulings={"after-deal": reading})
        t0 = table_with(g, {})
        lay = g.layout
        p2 = lay.index("p2")
        far = next(f for f in g.foundations if not lay.same_row(p2, f))
        card = next_on(t0, far)
        dealing = table_with(g, {"p2": [card]}, stock=["5C"])
        assert cited(dealing, mv(g, src="p2", dst=lay.names[far])) == "zk-8"  # while the deck lasts: always
        dealt = table_with(g, {"p2": [card]}, stock=[])
        assert cited(dealt, mv(g, src="p2", dst=lay.names[far])) == (None if lifted else "zk-8"), reading


# ----------------------------------------------------------------------------- dealing and playing


@clause("zk-9")
def test_freed_places_are_not_filled(zk):
    t = table_with(zk, {"p2": ["9D"], "p7": ["TD"]}, stock=["5C"] * 1)
    assert cited(t, mv(zk, src="p2", dst="p3")) == "zk-9"
    assert cited(t, mv(zk, src="p7", dst="p1")) == "zk-9"  # from a corner to a corner: no more
    dealt = table_with(zk, {"p2": ["9D"], "p7": ["TD"]}, stock=[])
    assert cited(dealt, mv(zk, src="p2", dst="p3")) == "zk-9"  # building goes onto a card, not into a space
    assert cited(dealt, mv(zk, src="p2", dst="p7")) is None
    # the freed place is not refilled, but the next round still lays its card there
    nxt = ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "2D", "3D", "4D", "5D"]
    t = table_with(zk, {"p2": ["9D"]}, stock=nxt)
    t.apply(mv(zk, "deal"))
    assert top_codes(t, "p3") == [nxt[2]] and top_codes(t, "p2") == ["9D", nxt[1]]


@clause("zk-10")
def test_the_next_twelve_cards_are_laid_out_in_the_same_order(zk):
    deck = zk.deck_from_seed(21)
    t = zk.new_table(deck)
    t.apply(mv(zk, "deal"))
    t.apply(mv(zk, "deal"))
    for k, name in enumerate(zk.layout.spec.deal):
        assert top_codes(t, name) == [C.code(deck[k]), C.code(deck[12 + k])]
    assert len(t.piles[zk.stock]) == 96 - 24


@clause("zk-10", "zk-11")
def test_deal_timing_when_stuck_forbids_the_next_deal_while_a_move_remains():
    g = create("zwarta-kolumna", rulings={"deal-timing": "when-stuck"})
    t = table_with(g, {"p1": ["2S"], "p2": ["9D"]}, stock=["9H", "8H"])
    assert cited(t, mv(g, "deal")) == "zk-10"
    t.apply(mv(g, src="p1", dst=foundation(g, t, "AS")))
    assert cited(t, mv(g, "deal")) is None  # the 9D has nowhere to go: the deal may come
    default = table_with(create("zwarta-kolumna"), {"p1": ["2S"]}, stock=["9H"])
    assert cited(default, mv(default.game, "deal")) is None  # player's choice


@clause("zk-11")
def test_between_deals_we_make_the_possible_transfers(zk):
    deck = stacked_deck(zk, ["2S", "9D", "QH"])  # 2S on position 1 (a corner), QH on position 3 (row 2)
    t = zk.new_table(deck)
    t.apply(mv(zk, "deal"))
    ace_s, king_h = foundation(zk, t, "AS"), foundation(zk, t, "KH")
    assert cited(t, mv(zk, src="p1", dst=ace_s)) is None
    t.apply(mv(zk, src="p1", dst=ace_s))
    lay = zk.layout
    want = None if lay.same_row(lay.index("p3"), lay.index(king_h)) else "zk-8"
    assert cited(t, mv(zk, src="p3", dst=king_h)) == want
    assert cited(t, mv(zk, "deal")) is None  # and then the next twelve


@clause("zk-12")
def test_only_the_top_card_plays_and_the_one_beneath_is_freed_by_its_move(zk):
    t = table_with(zk, {"p1": ["2S", "9D"]})
    ace_s = foundation(zk, t, "AS")
    assert cited(t, mv(zk, src="p1", dst=ace_s)) == "zk-5"  # the 9D on top is the card that moves
    t = table_with(zk, {"p1": ["3S", "2S"]})
    assert cited(t, mv(zk, src="p1", dst=ace_s)) is None
    t.apply(mv(zk, src="p1", dst=ace_s))
    assert cited(t, mv(zk, src="p1", dst=ace_s)) is None  # the three beneath may now be moved too
    assert cited(table_with(zk, {}), mv(zk, src="p1", dst=ace_s)) == "zk-12"  # an empty pile gives nothing
    two = table_with(zk, {"p1": ["3S", "2S"]})
    assert cited(two, mv(zk, src="p1", dst=ace_s, count=2)) == "zk-12"  # never two cards at once


@clause("zk-13")
def test_twelve_at_a_time_to_the_end_of_the_deck():
    for variants in ((), ("gotycki-zamek",)):
        # (as-playable: the bases found along the way would otherwise have to be placed between the deals)
        g = create("zwarta-kolumna", variants, {"base-timing": "as-playable"} if variants else None)
        t = g.new_table(g.deck_from_seed(8))
        size = len(t.piles[g.stock])
        deals = 0
        while cited(t, mv(g, "deal")) is None:
            before = len(t.piles[g.stock])
            t.apply(mv(g, "deal"))
            assert before - len(t.piles[g.stock]) == min(12, before)
            deals += 1
        assert deals == math.ceil(size / 12)  # 96 -> 8 deals; 104 (bases in the deck) -> 9, the last of 8
        assert cited(t, mv(g, "deal")) == "zk-13"


@clause("zk-14")
def test_once_the_whole_deck_is_dealt_playable_cards_build_in_suit_up_or_down(zk):
    piles = {"p1": ["8S"], "p2": ["9S"], "p3": ["7S"], "p4": ["9H"], "p5": ["TS"], "p11": ["9S"]}
    dealing = table_with(zk, piles, stock=["2C"])
    assert cited(dealing, mv(zk, src="p1", dst="p2")) == "zk-14"
    t = table_with(zk, piles, stock=[])
    assert cited(t, mv(zk, src="p1", dst="p2")) is None  # down
    assert cited(t, mv(zk, src="p1", dst="p3")) is None  # up
    assert cited(t, mv(zk, src="p1", dst="p4")) == "zk-14"  # another suit
    assert cited(t, mv(zk, src="p1", dst="p5")) == "zk-14"  # two ranks apart
    assert cited(t, mv(zk, src="p5", dst="p11")) is None  # position rules do not bind building (other row)
    t.apply(mv(zk, src="p1", dst="p2"))
    assert top_codes(t, "p2") == ["9S", "8S"]


@clause("zk-14")
def test_building_from_last_pass_reading_waits_for_the_third_laying_out():
    g = create("zwarta-kolumna", rulings={"building-from": "last-pass"})
    piles = {"p1": ["8S"], "p2": ["9S"]}
    for passes, want in ((1, "zk-14"), (2, "zk-14"), (3, None)):
        assert cited(table_with(g, piles, stock=[], passes=passes), mv(g, src="p1", dst="p2")) == want
    each = create("zwarta-kolumna")  # each-pass (default)
    assert cited(table_with(each, piles, stock=[], passes=1), mv(each, src="p1", dst="p2")) is None


@clause("zk-15")
def test_gathered_from_pile_1_to_12_and_laid_out_again_unshuffled(zk):
    piles = {"p1": ["4S", "9H"], "p2": ["7C"], "p12": ["5D", "6D"]}
    t = table_with(zk, piles, stock=[])
    assert cited(t, mv(zk, "redeal")) is None
    t.apply(mv(zk, "redeal"))
    assert t.passes == 2 and all(not t.piles[i] for i in zk.layout.tableau)
    t.apply(mv(zk, "deal"))
    # piles-bottom-first (default): pile 1 from its bottom card, then pile 2, …, pile 12
    assert [top_codes(t, n) for n in ("p1", "p2", "p3", "p4", "p5", "p6")] == [["4S"], ["9H"], ["7C"], ["5D"], ["6D"], []]
    top_first = create("zwarta-kolumna", rulings={"gather-order": "piles-top-first"})
    t = table_with(top_first, piles, stock=[])
    t.apply(mv(top_first, "redeal"))
    assert [C.code(c) for c in reversed(t.piles[top_first.stock])] == ["9H", "4S", "7C", "6D", "5D"]
    not_yet = table_with(zk, piles, stock=["2C"])
    assert cited(not_yet, mv(zk, "redeal")) == "zk-15"


@clause("zk-15", "zk-10")
def test_when_stuck_reading_also_makes_every_possible_move_come_before_the_gathering():
    g = create("zwarta-kolumna", rulings={"deal-timing": "when-stuck"})
    t = table_with(g, {"p1": ["2S"], "p2": ["9D"]}, stock=[])
    assert cited(t, mv(g, "redeal")) == "zk-15"
    t.apply(mv(g, src="p1", dst=foundation(g, t, "AS")))
    assert cited(t, mv(g, "redeal")) is None


@clause("zk-16")
def test_three_layings_out_at_most_and_the_game_comes_out_when_all_are_home(zk):
    t = zk.new_table(zk.deck_from_seed(5))
    layings = 0
    while True:
        while t.piles[zk.stock]:
            t.apply(mv(zk, "deal"))
        layings += 1
        if cited(t, mv(zk, "redeal")) is not None:
            break
        t.apply(mv(zk, "redeal"))
    assert layings == 3
    assert cited(t, mv(zk, "redeal")) == "zk-16"
    stuck = table_with(zk, {"p1": ["4S"]}, stock=[], passes=3)
    assert stuck.outcome() == "lost"
    assert table_with(zk, {"p1": ["4S"]}, stock=[], passes=2).outcome() == "unfinished"  # one more laying-out
    won = table_with(zk, {}, stock=[])
    for f in zk.foundations:
        won.piles[f] = [C.parse(c) for c in run(C.code(won.piles[f][0]), 13, zk.fdir[f])]
    assert won.is_won() and won.outcome() == "won"
    # the patience has come out in the first laying-out: a won game has no move left, not even a redeal
    assert won.passes == 1 and cited(won, mv(zk, "redeal")) == "zk-16"
    assert "come out" in won.violation(mv(zk, "redeal"))[1] and won.legal_moves() == []


# ----------------------------------------------------------------------------- variants


@clause("zk-17")
def test_fill_from_any_pile_variant_lets_freed_places_take_a_card_from_any_pile():
    g = create("zwarta-kolumna", ["fill-from-any-pile"])
    t = table_with(g, {"p2": ["9D"], "p7": ["3C", "KC"], "p4": ["5H"]}, stock=["5C"])
    assert cited(t, mv(g, src="p2", dst="p3")) is None  # a side card, during the deal
    assert cited(t, mv(g, src="p7", dst="p3")) is None  # a corner card
    assert cited(t, mv(g, src="p2", dst="p4")) == "zk-14"  # onto a card: still only after the deal
    t.apply(mv(g, src="p7", dst="p3"))
    assert top_codes(t, "p3") == ["KC"] and top_codes(t, "p7") == ["3C"]
    base = create("zwarta-kolumna")
    assert cited(table_with(base, {"p2": ["9D"]}, stock=["5C"]), mv(base, src="p2", dst="p3")) == "zk-9"


@clause("zk-18")
def test_chaldejski_puts_the_ace_and_king_of_each_suit_in_one_row():
    g = create("zwarta-kolumna", ["chaldejski"])
    t = g.new_table(g.deck_from_seed(2))
    lay = g.layout
    rows = {}
    for f in g.foundations:
        rows.setdefault(lay.rows[f], []).append(t.piles[f][0])
    assert len(rows) == 4
    for cards in rows.values():
        assert sorted(C.rank_of(c) for c in cards) == [C.ACE, C.KING]
        assert len({C.suit_of(c) for c in cards}) == 1
    aces = [c for cards in rows.values() for c in cards if C.rank_of(c) == C.ACE]
    assert len({C.suit_of(c) for c in aces}) == 4
    base = create("zwarta-kolumna").new_table(g.deck_from_seed(2))
    assert any(len({C.suit_of(base.piles[f][0]) for f in g.foundations if lay.rows[f] == r}) == 2 for r in rows)


@clause("zk-19")
def test_gotycki_zamek_takes_the_foundation_cards_during_the_deal():
    g = create("zwarta-kolumna", ["gotycki-zamek"])
    assert sum(g.expected_deck().values()) == 104
    t = g.new_table(g.deck_from_seed(6))
    assert all(not t.piles[f] for f in g.foundations)  # nothing is taken out beforehand
    t = table_with(g, {"p1": ["AH"], "p7": ["AH"], "p6": ["KS"], "p12": ["5C"]}, stock=["2C"])
    assert cited(t, mv(g, src="p1", dst="A1")) is None  # an ace from a corner, while dealing
    assert cited(t, mv(g, src="p12", dst="A1")) == "zk-5"  # only an ace founds an ace pile
    assert cited(t, mv(g, src="p6", dst="A1")) == "zk-5"  # and a king a king pile
    assert cited(t, mv(g, src="p6", dst="K1")) is None
    t.apply(mv(g, src="p1", dst="A1"))
    assert cited(t, mv(g, src="p7", dst="A2")) == "zk-3"  # four aces of different suits: not a second AH


@clause("zk-19", "zk-22")
def test_base_timing_on_dealing_places_a_dealt_base_before_anything_else_as_playable_when_one_likes():
    """zk-19 "nie są wyjmowane uprzednio, lecz w trakcie rozkładania" (default on-dealing): while a card that can
    found a foundation lies uncovered, nothing else is done; under as-playable it waits as long as one likes."""
    for variants, own in ((["gotycki-zamek"], "zk-19"), (["cztery-katy"], "zk-22")):
        g = create("zwarta-kolumna", variants)
        t = table_with(g, {"p1": ["AH"], "p2": ["6C"], "p8": ["7C"]}, stock=["2C"])
        assert cited(t, mv(g, "deal")) == own  # the ace first, in the variant's own words
        assert cited(t, mv(g, src="p2", dst="p8")) in ("zk-19", "zk-22")  # nothing else either
        assert cited(t, mv(g, src="p1", dst="A1")) is None
        t.apply(mv(g, src="p1", dst="A1"))
        if "cztery-katy" in variants:
            assert t.vars["replace"] is None  # no other corner holds a card to replace it with
        assert cited(t, mv(g, "deal")) is None
        # a card that cannot found anything (a second ace of hearts) does not hold play up
        t = table_with(g, {"p1": ["AH"]}, foundations={"A1": ["AH"]}, stock=["2C"])
        assert cited(t, mv(g, "deal")) is None
        lax = create("zwarta-kolumna", variants, {"base-timing": "as-playable"})
        t = table_with(lax, {"p1": ["AH"]}, stock=["2C"])
        assert cited(t, mv(lax, "deal")) is None  # the ace may wait, and be covered
        t.apply(mv(lax, "deal"))
        assert cited(t, mv(lax, src="p1", dst="A1")) == "zk-5"  # now the 2C lies on it


@clause("zk-20")
def test_gotycki_zamek_suits_may_lie_in_any_arrangement():
    g = create("zwarta-kolumna", ["gotycki-zamek"])
    t = table_with(g, {"p1": ["AH"], "p6": ["AD"], "p7": ["KH"]})
    lay = g.layout
    assert lay.adjacent(lay.index("A1"), lay.index("A2"))
    t.apply(mv(g, src="p1", dst="A1"))
    assert cited(t, mv(g, src="p6", dst="A2")) is None  # two red aces side by side: no interleaving
    t.apply(mv(g, src="p6", dst="A2"))
    assert cited(t, mv(g, src="p7", dst="K1")) is None  # and the ace and king of one suit in a row
    base = create("zwarta-kolumna")
    assert C.is_red(table_with(base, {}).piles[lay.index("A1")][0]) != C.is_red(
        table_with(base, {}).piles[lay.index("A2")][0])


@clause("zk-21")
def test_gotycki_zamek_keeps_the_other_rules_of_the_game():
    g = create("zwarta-kolumna", ["gotycki-zamek"])
    lay = g.layout
    p3 = lay.index("p3")
    own = next(lay.names[f] for f in g.foundations if g.fbase[f] == C.ACE and lay.same_row(p3, f))
    other = next(lay.names[f] for f in g.foundations if g.fbase[f] == C.ACE and not lay.same_row(p3, f))
    t = table_with(g, {"p3": ["AS"], "p4": ["9D"]}, stock=["2C"])
    assert cited(t, mv(g, src="p3", dst=own)) is None
    assert cited(t, mv(g, src="p3", dst=other)) == "zk-8"  # base-placement by-position (default)
    t = table_with(g, {"p3": ["7S"], "p4": ["9D"]}, stock=["2C"])
    assert cited(t, mv(g, src="p4", dst="p5")) == "zk-9"
    assert cited(t, mv(g, src="p4", dst="p3")) == "zk-14"
    t = table_with(g, {"p3": ["2S"]}, foundations={other: ["AS"]})
    assert cited(t, mv(g, src="p3", dst=other)) == "zk-8"  # ordinary cards keep their row
    anywhere = create("zwarta-kolumna", ["gotycki-zamek"], {"base-placement": "anywhere"})
    t = table_with(anywhere, {"p3": ["AS"]})
    assert cited(t, mv(anywhere, src="p3", dst=other)) is None
    t = table_with(anywhere, {"p3": ["2S"]}, foundations={other: ["AS"]})
    assert cited(t, mv(anywhere, src="p3", dst=other)) == "zk-8"


@clause("zk-22")
def test_cztery_katy_places_the_foundation_cards_regardless_of_where_they_lie():
    g = create("zwarta-kolumna", ["cztery-katy"])
    assert sum(g.expected_deck().values()) == 104
    assert all(not g.new_table(g.deck_from_seed(1)).piles[f] for f in g.foundations)
    lay = g.layout
    p3 = lay.index("p3")
    far = [lay.names[f] for f in g.foundations if g.fbase[f] == C.ACE and not lay.same_row(p3, f)]
    for f in far:
        t = table_with(g, {"p3": ["AS"]}, stock=["2C"])
        assert cited(t, mv(g, src="p3", dst=f)) is None
    t = table_with(g, {"p3": ["2S"]}, foundations={far[0]: ["AS"]})
    assert cited(t, mv(g, src="p3", dst=far[0])) == "zk-8"  # other cards keep their row


@clause("zk-23")
def test_cztery_katy_replaces_a_moved_foundation_card_from_the_top_of_a_corner_pile():
    g = create("zwarta-kolumna", ["cztery-katy"])
    piles = {"p3": ["9H", "AS"], "p1": ["4C", "5C"], "p6": ["7D"], "p8": ["2S"]}
    t = table_with(g, piles, stock=["3C"])
    t.apply(mv(g, src="p3", dst="A1"))
    assert cited(t, mv(g, "deal")) == "zk-23"  # the replacement comes first
    assert cited(t, mv(g, src="p8", dst="A1")) == "zk-23"
    assert cited(t, mv(g, "fill", src="p8", dst="p3")) == "zk-23"  # p8 is not a corner
    # p3, the place refilled, is no corner: not "another" corner pile; the corners with a card are named
    assert t.violation(mv(g, "fill", src="p8", dst="p3"))[1] == \
        "p8 is not a corner pile: the card comes from the top of p1 or p6"
    assert cited(t, mv(g, "fill", src="p1", dst="p4")) == "zk-23"  # the place to refill is p3
    assert cited(t, mv(g, "fill", src="p6", dst="p3")) is None
    assert cited(t, mv(g, "fill", src="p1", dst="p3")) is None
    t.apply(mv(g, "fill", src="p1", dst="p3"))
    assert top_codes(t, "p3") == ["9H", "5C"] and top_codes(t, "p1") == ["4C"]
    assert cited(t, mv(g, "deal")) is None
    assert cited(t, mv(g, "fill", src="p6", dst="p3")) == "zk-23"  # nothing left to replace
    # no corner card to take: nothing is owed
    lone = table_with(g, {"p3": ["AS"], "p8": ["2S"]}, stock=["3C"])
    lone.apply(mv(g, src="p3", dst="A1"))
    assert cited(lone, mv(g, "deal")) is None
    # a base taken from a corner is replaced from another corner, not from itself
    t = table_with(g, {"p1": ["4C", "AS"], "p6": ["7D"]}, stock=["3C"])
    t.apply(mv(g, src="p1", dst="A1"))
    assert cited(t, mv(g, "fill", src="p1", dst="p1")) == "zk-23"
    assert t.violation(mv(g, "fill", src="p1", dst="p1"))[1] == \
        "the card comes from a corner pile (p6), not from p1 itself"
    assert t.violation(mv(g, "fill", src="p2", dst="p1"))[1] == \
        "p2 is not a corner pile: the card comes from the top of p6"
    assert cited(t, mv(g, "fill", src="p6", dst="p1")) is None
    # ordinary cards are not replaced
    t = table_with(g, {"p1": ["4C"], "p6": ["7D"], "p2": ["2S"]}, foundations={"A1": ["AS"]}, stock=["3C"])
    t.apply(mv(g, src="p2", dst="A1"))
    assert cited(t, mv(g, "deal")) is None


@clause("zk-23")
def test_replacement_if_empty_reading_replaces_only_a_base_that_leaves_its_place_empty():
    g = create("zwarta-kolumna", ["cztery-katy"], {"replacement": "if-empty"})
    t = table_with(g, {"p3": ["9H", "AS"], "p1": ["5C"]}, stock=["3C"])
    t.apply(mv(g, src="p3", dst="A1"))
    assert cited(t, mv(g, "deal")) is None  # the 9H still lies there
    t = table_with(g, {"p3": ["AS"], "p1": ["5C"]}, stock=["3C"])
    t.apply(mv(g, src="p3", dst="A1"))
    assert cited(t, mv(g, "deal")) == "zk-23"
    assert cited(t, mv(g, "fill", src="p1", dst="p3")) is None


def test_gotycki_zamek_and_cztery_katy_are_refused_together():
    with pytest.raises(BadCombination, match="cztery"):
        create("zwarta-kolumna", ["gotycki-zamek", "cztery-katy"])
    for v in (["fill-from-any-pile", "chaldejski", "gotycki-zamek"], ["fill-from-any-pile", "chaldejski", "cztery-katy"]):
        create("zwarta-kolumna", v)  # every other combination is allowed


def test_rulings_of_one_variant_are_refused_without_it():
    with pytest.raises(BadCombination, match="gotycki-zamek"):
        create("zwarta-kolumna", rulings={"base-placement": "anywhere"})
    with pytest.raises(BadCombination, match="cztery-katy"):
        create("zwarta-kolumna", ["gotycki-zamek"], {"replacement": "if-empty"})


@clause("zk-8", "zk-12")
def test_a_refused_move_raises_illegal_move_with_its_clause(zk):
    t = table_with(zk, {"p2": ["2C"]})
    ace_c = foundation(zk, t, "AC")
    lay = zk.layout
    assert not lay.same_row(lay.index("p2"), lay.index(ace_c))
    with pytest.raises(IllegalMove) as err:
        t.apply(mv(zk, src="p2", dst=ace_c))
    assert err.value.clause == "zk-8"
    with pytest.raises(IllegalMove) as err:
        t.apply(Move("move", lay.index("p9"), lay.index(ace_c)))  # p9 is empty
    assert err.value.clause == "zk-12"
    assert top_codes(t, "p2") == ["2C"]  # a refused move changes nothing
