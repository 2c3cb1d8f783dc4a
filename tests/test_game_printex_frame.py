"""printex-frame (text 000): one test or more per clause, each tagged with the clause it shows."""

from __future__ import annotations

import pytest

from replay.engine import cards as C
from replay.engine.errors import IllegalMove, InvalidDeck
from replay.games import create
from tests.conftest import cited, foundation, mv, table_with, top_codes

clause = pytest.mark.clause


@clause("pf-1")
def test_two_full_packs_less_the_bases_make_the_stock(pf):
    assert sum(pf.expected_deck().values()) == 96
    deck = pf.deck_from_seed(3)
    pf.new_table(deck)
    with pytest.raises(InvalidDeck, match="96"):
        pf.new_table(deck + [C.parse("AS")])


@clause("pf-2", "pf-3")
def test_four_aces_and_four_kings_of_different_suits_red_and_black_interleaved(pf):
    t = pf.new_table(pf.deck_from_seed(1))
    bases = [t.piles[f][0] for f in pf.foundations]
    aces = [c for c in bases if C.rank_of(c) == C.ACE]
    kings = [c for c in bases if C.rank_of(c) == C.KING]
    assert len(aces) == 4 and len({C.suit_of(c) for c in aces}) == 4
    assert len(kings) == 4 and len({C.suit_of(c) for c in kings}) == 4
    lay = pf.layout
    for a in pf.foundations:
        for b in pf.foundations:
            if lay.adjacent(a, b):
                assert C.is_red(t.piles[a][0]) != C.is_red(t.piles[b][0])


@clause("pf-4")
def test_aces_build_up_and_kings_down_in_suit(pf):
    t = table_with(pf, {"c1": ["3S", "2S"], "c2": ["QS"], "c3": ["JS"], "c4": ["2H"]})
    ace, king = foundation(pf, t, "AS"), foundation(pf, t, "KS")
    assert cited(t, mv(pf, src="c1", dst=ace)) is None
    assert cited(t, mv(pf, src="c4", dst=ace)) == "pf-4"  # wrong suit
    assert cited(t, mv(pf, src="c3", dst=king)) == "pf-4"  # jack is not next below the king
    assert cited(t, mv(pf, src="c2", dst=king)) is None
    t.apply(mv(pf, src="c1", dst=ace))
    assert cited(t, mv(pf, src="c1", dst=ace)) is None  # then the three


@clause("pf-5", "pf-6")
def test_first_deal_lays_the_corners_then_the_sides_from_corner_to_corner(pf):
    deck = pf.deck_from_seed(11)
    t = pf.new_table(deck)
    t.apply(mv(pf, "deal"))
    order = ["c1", "c2", "c3", "c4", "t1", "t2", "t3", "t4", "r1", "r2", "b1", "b2", "b3", "b4", "l1", "l2"]
    assert [top_codes(t, n)[0] for n in order] == [C.code(c) for c in deck[:16]]
    lay = pf.layout
    # the corners are numbered clockwise from the top left; sides run from one corner to the next
    assert (lay.rows[lay.index("c1")], lay.cols[lay.index("c1")]) == (0, 0)
    assert lay.same_row(lay.index("t1"), lay.index("c2")) and lay.same_column(lay.index("r1"), lay.index("c2"))
    assert lay.corners() == {lay.index(n) for n in ("c1", "c2", "c3", "c4")}


@clause("pf-7", "pf-17")
def test_only_the_top_card_plays_and_the_one_beneath_is_freed(pf):
    t = table_with(pf, {"t2": ["2H", "5C"]})
    ace = foundation(pf, t, "AH")
    assert cited(t, mv(pf, src="t2", dst=ace)) == "pf-4"  # the 5C on top hides the 2H
    t.piles[pf.layout.index("t2")].pop()
    assert cited(t, mv(pf, src="t2", dst=ace)) is None
    empty = table_with(pf, {})
    assert cited(empty, mv(pf, src="t2", dst=ace)) == "pf-17"


@clause("pf-8", "pf-9")
def test_corner_cards_go_to_any_foundation(pf):
    for corner in ("c1", "c2", "c3", "c4"):
        for code in ("2S", "2H", "2C", "2D", "QS", "QH", "QC", "QD"):
            t = table_with(pf, {corner: [code]})
            base = ("A" if code[0] == "2" else "K") + code[1]
            assert cited(t, mv(pf, src=corner, dst=foundation(pf, t, base))) is None


@clause("pf-10", "pf-8")
def test_other_cards_only_to_a_foundation_in_their_row_or_column(pf):
    lay = pf.layout
    for side in ("t1", "t2", "t3", "t4", "r1", "r2", "b1", "b2", "b3", "b4", "l1", "l2"):
        t0 = table_with(pf, {})
        for f in pf.foundations:
            base = t0.piles[f][0]
            nxt = C.make(C.rank_of(base) + (1 if C.rank_of(base) == C.ACE else -1), C.suit_of(base))
            t = table_with(pf, {side: [C.code(nxt)]})
            want = None if lay.in_line(lay.index(side), f) else "pf-10"
            assert cited(t, mv(pf, src=side, dst=lay.names[f])) == want, (side, lay.names[f])


@clause("pf-11")
def test_worked_example_queen_of_hearts_after_corner_1_cannot_go_on_the_king_of_hearts():
    for frame in ("rect-16", "square-16", "square-20", "square-20-ring"):
        g = create("printex-frame", rulings={"frame": frame})
        t = table_with(g, {"t1": ["QH"]})
        kh = foundation(g, t, "KH")
        lay = g.layout
        assert lay.same_row(lay.index("t1"), lay.index("c1")), "t1 lies after card 1 in the top row"
        assert not lay.same_column(lay.index("t1"), lay.index(kh))
        with pytest.raises(IllegalMove) as err:
            t.apply(mv(g, src="t1", dst=kh))
        assert err.value.clause == "pf-10"
        corner = table_with(g, {"c1": ["QH"]})  # the same queen at the corner may go
        assert cited(corner, mv(g, src="c1", dst=kh)) is None


@clause("pf-12")
def test_worked_example_two_of_hearts_from_the_bottom_row_goes_on_the_ace_of_hearts():
    for frame in ("rect-16", "square-16", "square-20", "square-20-ring"):
        g = create("printex-frame", rulings={"frame": frame})
        t0 = table_with(g, {})
        ah = foundation(g, t0, "AH")
        lay = g.layout
        bottom = max(lay.rows[i] for i in lay.tableau)
        below = [lay.names[i] for i in lay.tableau if lay.rows[i] == bottom and lay.same_column(i, lay.index(ah))]
        assert below, frame
        t = table_with(g, {below[0]: ["2H"]})
        t.apply(mv(g, src=below[0], dst=ah))
        assert top_codes(t, ah) == ["AH", "2H"]


@clause("pf-13")
def test_a_corner_card_that_is_moved_is_replaced_from_the_deck(pf):
    t = table_with(pf, {"c2": ["2S"]}, stock=["9D", "4C"])
    t.apply(mv(pf, src="c2", dst=foundation(pf, t, "AS")))
    assert top_codes(t, "c2") == ["9D"]
    # when-empty (default): a corner holding more cards is not covered again
    t = table_with(pf, {"c2": ["7H", "2S"]}, stock=["9D"])
    t.apply(mv(pf, src="c2", dst=foundation(pf, t, "AS")))
    assert top_codes(t, "c2") == ["7H"]
    # every-card: each card played from a corner is replaced
    g = create("printex-frame", rulings={"corner-refill": "every-card", "frame": "rect-16"})
    t = table_with(g, {"c2": ["7H", "2S"]}, stock=["9D"])
    t.apply(mv(g, src="c2", dst=foundation(g, t, "AS")))
    assert top_codes(t, "c2") == ["7H", "9D"]


@clause("pf-14")
def test_other_piles_are_not_replaced(pf):
    t = table_with(pf, {"t1": ["2S"]}, stock=["9D"])
    t.apply(mv(pf, src="t1", dst=foundation(pf, t, "AS")))
    assert top_codes(t, "t1") == [] and len(t.piles[pf.stock]) == 1


@clause("pf-15")
def test_next_sixteen_cover_the_same_positions_and_fill_the_freed_places(pf):
    deck = pf.deck_from_seed(5)
    t = pf.new_table(deck)
    t.apply(mv(pf, "deal"))
    t.piles[pf.layout.index("t3")].clear()  # a freed place
    t.apply(mv(pf, "deal"))
    for n in pf.layout.spec.deal:
        assert len(top_codes(t, n)) == (1 if n == "t3" else 2)
    assert top_codes(t, "t3") == [C.code(deck[16 + pf.layout.spec.deal.index("t3")])]


@clause("pf-15", "pf-19")
def test_when_stuck_ruling_forbids_dealing_while_a_move_remains():
    g = create("printex-frame", rulings={"deal-timing": "when-stuck"})
    t = table_with(g, {"c1": ["2S"]}, stock=["9D", "8D"])
    assert cited(t, mv(g, "deal")) == "pf-15"
    t.apply(mv(g, src="c1", dst=foundation(g, t, "AS")))
    t.piles[g.layout.index("c1")].clear()  # nothing playable is left
    t.piles[g.layout.index("t1")] = [C.parse("9S")]
    assert cited(t, mv(g, "deal")) is None
    default = table_with(create("printex-frame"), {"c1": ["2S"]}, stock=["9D"])
    assert cited(default, mv(default.game, "deal")) is None  # player's choice


@clause("pf-16")
def test_play_to_the_foundations_goes_on_after_each_deal(pf):
    t = table_with(pf, {"t1": ["QD"]}, stock=[], rounds=4)
    kd = foundation(pf, t, "KD")
    want = None if pf.layout.same_column(pf.layout.index("t1"), pf.layout.index(kd)) else "pf-10"
    assert cited(t, mv(pf, src="t1", dst=kd)) == want


@clause("pf-18")
def test_deals_go_on_to_the_end_of_the_deck(pf):
    t = pf.new_table(pf.deck_from_seed(8))
    deals = 0
    while t.piles[pf.stock]:
        t.apply(mv(pf, "deal"))
        deals += 1
    assert deals == 6  # 96 cards, sixteen at a time
    assert cited(t, mv(pf, "deal")) == "pf-18"


@clause("pf-19")
def test_remaining_cards_are_gathered_in_dealing_order_and_dealt_again_unshuffled(pf):
    t = table_with(pf, {"c1": ["4S", "9H"], "t1": ["7C"], "l2": ["5D", "6D"]}, stock=[])
    assert cited(t, mv(pf, "redeal")) is None
    t.apply(mv(pf, "redeal"))
    assert t.passes == 2
    t.apply(mv(pf, "deal"))
    # bottom-first: c1's bottom card first, then its top, then t1, then l2 from the bottom
    dealt = [top_codes(t, n)[-1] for n in ("c1", "c2", "c3", "c4", "t1")]
    assert dealt == ["4S", "9H", "7C", "5D", "6D"]
    top_first = create("printex-frame", rulings={"gather-order": "piles-top-first"})
    t = table_with(top_first, {"c1": ["4S", "9H"]}, stock=[])
    t.apply(mv(top_first, "redeal"))
    assert [C.code(c) for c in reversed(t.piles[top_first.stock])] == ["9H", "4S"]


@clause("pf-19")
def test_no_gathering_before_the_deck_is_dealt_out(pf):
    t = table_with(pf, {"c1": ["4S"]}, stock=["9H"])
    assert cited(t, mv(pf, "redeal")) == "pf-19"


@clause("pf-20")
def test_three_layouts_of_the_deck_at_most_and_the_game_is_won_when_all_are_home(pf):
    t = table_with(pf, {"c1": ["4S"]}, stock=[], passes=3)
    assert cited(t, mv(pf, "redeal")) == "pf-20"
    assert t.outcome() == "lost"
    won = table_with(pf, {}, stock=[])
    for f in pf.foundations:
        base = won.piles[f][0]
        step = 1 if C.rank_of(base) == C.ACE else -1
        won.piles[f] = [C.make(C.rank_of(base) + step * k, C.suit_of(base)) for k in range(13)]
    assert won.is_won() and won.outcome() == "won"
    # won in the first laying-out: no redeal (a won game has no move left)
    assert won.passes == 1 and cited(won, mv(pf, "redeal")) == "pf-20" and won.legal_moves() == []


@clause("pf-21")
def test_any_pile_to_any_foundation_after_the_third_deal():
    g = create("printex-frame", variants=["any-pile-after-third-deal"])
    t0 = table_with(g, {})
    kh = foundation(g, t0, "KH")
    early = table_with(g, {"t1": ["QH"]}, stock=[], passes=2)
    assert cited(early, mv(g, src="t1", dst=kh)) == "pf-10"
    late = table_with(g, {"t1": ["QH"]}, stock=[], passes=3)
    assert cited(late, mv(g, src="t1", dst=kh)) is None
    dealing = table_with(g, {"t1": ["QH"]}, stock=["2C"], passes=3)
    assert cited(dealing, mv(g, src="t1", dst=kh)) == "pf-10"


@clause("pf-22")
def test_cztery_katy_builds_one_card_on_another_up_or_down_after_the_third_layout():
    g = create("printex-frame", variants=["cztery-katy"])
    piles = {"t1": ["8S"], "t2": ["9S"], "t3": ["7S"], "t4": ["9H"], "r1": []}
    assert cited(table_with(g, piles, stock=[], passes=2), mv(g, src="t1", dst="t2")) == "pf-22"
    t = table_with(g, piles, stock=[], passes=3)
    assert cited(t, mv(g, src="t1", dst="t2")) is None  # down
    assert cited(t, mv(g, src="t1", dst="t3")) is None  # up
    assert cited(t, mv(g, src="t1", dst="t4")) == "pf-22"  # another suit (in-suit by default)
    assert cited(t, mv(g, src="t1", dst="r1")) == "pf-22"  # not into a space
    any_suit = create("printex-frame", variants=["cztery-katy"], rulings={"build-suit": "any-suit"})
    assert cited(table_with(any_suit, piles, stock=[], passes=3), mv(any_suit, src="t1", dst="t4")) is None
    round_3 = create("printex-frame", variants=["cztery-katy"], rulings={"third-layout": "third-round"})
    assert cited(table_with(round_3, piles, stock=["2D"], passes=1, rounds=3), mv(round_3, src="t1", dst="t2")) is None
    base = create("printex-frame")
    # base: no building; pf-10 is cited (a card goes onto a foundation, amb-pf-target-foundation), not pf-8
    assert cited(table_with(base, piles, stock=[], passes=3), mv(base, src="t1", dst="t2")) == "pf-10"


def test_frame_readings_select_layouts_of_sixteen_and_twenty():
    sizes = {}
    for frame in ("rect-16", "square-16", "square-20", "square-20-ring"):
        g = create("printex-frame", rulings={"frame": frame})
        sizes[frame] = len(g.layout.tableau)
        t = g.new_table(g.deck_from_seed(2))
        t.apply(mv(g, "deal"))
        first = sum(len(t.piles[i]) for i in g.layout.tableau)
        t.apply(mv(g, "deal"))
        assert sum(len(t.piles[i]) for i in g.layout.tableau) - first == 16
    assert sizes == {"rect-16": 16, "square-16": 16, "square-20": 20, "square-20-ring": 20}


@clause("pf-10", "pf-6")
def test_square_20_ring_leaves_no_pile_stranded_where_the_block_of_square_20_strands_four():
    """amb-pf-frame: the stranding belongs to square-20's 2 by 4 foundation block, not to the frame of twenty."""
    stranded = {}
    for frame in ("square-20", "square-20-ring", "rect-16"):
        g = create("printex-frame", rulings={"frame": frame})
        lay = g.layout
        stranded[frame] = sorted(lay.names[p] for p in lay.tableau if not any(g.options["reach"][p][f] for f in g.foundations))
    assert stranded == {"square-20": ["l1", "l4", "r1", "r4"], "square-20-ring": [], "rect-16": []}
    # l4 (beside the first interior row) plays to an ace of its row in the ring, and nowhere in square-20
    ring = create("printex-frame", rulings={"frame": "square-20-ring"})
    t = table_with(ring, {})
    a1 = ring.layout.index("A1")
    assert ring.layout.same_row(ring.layout.index("l4"), a1)
    two = C.code(t.piles[a1][-1] + 4)  # the next card up on A1
    assert cited(table_with(ring, {"l4": [two]}), mv(ring, src="l4", dst="A1")) is None
    block = create("printex-frame", rulings={"frame": "square-20"})
    t = table_with(block, {})
    for f in block.foundations:
        nxt = t.piles[f][-1] + (4 if block.fbase[f] == C.ACE else -4)
        assert cited(table_with(block, {"l4": [C.code(nxt)]}), mv(block, src="l4", dst=block.layout.names[f])) == "pf-10"


def test_ruling_that_applies_only_to_a_variant_is_refused_without_it():
    from replay.engine.errors import BadCombination

    with pytest.raises(BadCombination, match="cztery-katy"):
        create("printex-frame", rulings={"build-suit": "any-suit"})



@clause("pf-19")
def test_when_stuck_ruling_also_holds_back_the_gathering():
    g = create("printex-frame", rulings={"deal-timing": "when-stuck"})
    t = table_with(g, {"c1": ["2S"]}, stock=[])
    assert cited(t, mv(g, "redeal")) == "pf-19"
    t.piles[g.layout.index("c1")] = [C.parse("9S")]
    assert cited(t, mv(g, "redeal")) is None


@clause("pf-5", "pf-6", "pf-15")
def test_the_default_frame_is_twenty_piles_every_one_of_which_plays() -> None:
    """The edition's reading (amb-pf-frame): four corners and four cards on each side; the first deal is 20
    cards, each later deal sixteen onto the side piles; every pile shares a row or a column with a foundation
    (pf-7, pf-8, pf-10), which is the ring of square-20-ring."""
    g = create("printex-frame")
    assert g.rulings["frame"] == "square-20-ring"
    assert all(any(g.options["reach"][p][f] for f in g.foundations) for p in g.layout.tableau)
    t = g.new_table(g.deck_from_seed(3))
    start = len(t.piles[g.stock])
    t.apply(mv(g, "deal"))
    assert start - len(t.piles[g.stock]) == 20
    before = len(t.piles[g.stock])
    t.apply(mv(g, "deal"))
    assert before - len(t.piles[g.stock]) == 16
