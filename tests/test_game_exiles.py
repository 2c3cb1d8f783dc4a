"""exiles (text 003, the end of a lost game): one test or more per normative clause.

Cards are dealt in rows of thirteen onto packets p1-p13, counting 1-13 along each row; a card whose
value (ace 1 … jack 11, queen 12, king 13) equals its number is exiled onto the ``exiles`` pile and
replaced by the next card.  Foundations (ruling ``foundations``): four aces up (A1-A4) and four kings
down (K1-K4), one of each suit per kind.  Expectations are derived from the text and the register.
"""

from __future__ import annotations

from collections import Counter

import pytest

from replay.engine import cards as C
from replay.games import create
from tests.conftest import cited, mv, stacked_deck, table_with, top_codes

clause = pytest.mark.clause

PACKETS = [f"p{k}" for k in range(1, 14)]
RANKS = "A23456789TJQK"


def run(base: str, n: int, step: int) -> list[str]:
    card = C.parse(base)
    return [C.code(C.make(C.rank_of(card) + step * k, C.suit_of(card))) for k in range(n)]


def row_of_values(values: list[int], suit: str = "S") -> list[str]:
    """Cards of the given values (1-13) in one suit."""
    return [RANKS[v - 1] + suit for v in values]


#: a row in which no card's value equals its number: card k has value k + 1 (the last an ace)
NO_MATCH = list(range(2, 14)) + [1]

#: foundations on which no ace, king, five or nine can go (every suit founded, in the middle of its run)
BLOCKED = {"A1": run("AS", 3, +1), "A2": run("AH", 3, +1), "A3": run("AD", 3, +1), "A4": run("AC", 3, +1),
           "K1": run("KS", 3, -1), "K2": run("KH", 3, -1), "K3": run("KD", 3, -1), "K4": run("KC", 3, -1)}


#: the foundations placed as they come (ruling foundations = aces-and-kings): all 104 cards dealt and counted
PLACED = {"foundations": "aces-and-kings"}


def quiet(game, piles=None, exiles=None, foundations=None, **kw):
    """A table after the deal with nothing playable unless the test puts it there."""
    found = dict(BLOCKED)
    found.update(foundations or {})
    return table_with(game, dict(piles or {}, exiles=list(exiles or [])), foundations=found, stock=[], **kw)


# ----------------------------------------------------------------------------- the exiling deal


@clause("ex-1")
def test_each_card_is_counted_by_its_order_and_court_cards_count_eleven_twelve_thirteen(ex):
    # values 2..13 then 1: the jack falls on No. 10, the queen on 11, the king on 12: none is exiled,
    # which shows that a jack counts 11 (not 10), a queen 12 and a king 13
    row = row_of_values(NO_MATCH)
    t = ex.new_table(stacked_deck(ex, row))
    t.apply(mv(ex, "deal"))
    assert [top_codes(t, p) for p in PACKETS] == [[c] for c in row]
    assert not t.piles[ex.layout.index("exiles")]
    # now the jack on No. 11, the queen on 12, the king on 13: each exiled, each replaced by the next card
    # (a queen on No. 10 stays: 12 is not 10)
    head = row_of_values([2, 3, 4, 5, 6, 7, 8, 9, 10, 12], "H") + ["JH", "5C", "QH", "6C", "KH", "7C"]
    t = ex.new_table(stacked_deck(ex, head))
    t.apply(mv(ex, "deal"))
    assert [C.code(c) for c in t.piles[ex.layout.index("exiles")]] == ["JH", "QH", "KH"]
    assert top_codes(t, "p10") == ["QH"] and top_codes(t, "p11") == ["5C"]
    assert top_codes(t, "p12") == ["6C"] and top_codes(t, "p13") == ["7C"]


@clause("ex-2", "ex-3")
def test_a_card_whose_value_is_its_number_is_laid_aside_and_the_next_card_takes_its_place(ex):
    row = row_of_values(NO_MATCH)
    row[4] = "5D"  # the fifth card is a five
    t = ex.new_table(stacked_deck(ex, row[:5] + ["9C"] + row[5:]))
    t.apply(mv(ex, "deal"))
    assert [C.code(c) for c in t.piles[ex.layout.index("exiles")]] == ["5D"]
    assert top_codes(t, "p5") == ["9C"]  # the next card of the pack, in its place
    assert [top_codes(t, p)[0] for p in PACKETS[5:]] == row[5:]  # the count goes on: 6 … 13
    assert "exiles" in t.snapshot()["piles"]


@clause("ex-3", "ex-4")
def test_replacement_number_same_examines_the_replacement_again_next_does_not():
    # card No. 1 is an ace (exiled); its replacement is another ace
    head = ["AS", "AH", "9C", "2D", "3D"]
    same = create("exiles")
    t = same.new_table(stacked_deck(same, head))
    t.apply(mv(same, "deal"))
    # same: AH, examined again as No. 1, is exiled too; 9C lies on p1; 2D is No. 2 and exiled; 3D on p2
    assert [C.code(c) for c in t.piles[same.layout.index("exiles")]] == ["AS", "AH", "2D"]
    assert top_codes(t, "p1") == ["9C"] and top_codes(t, "p2") == ["3D"]
    nxt = create("exiles", rulings={"replacement-number": "next"})
    t = nxt.new_table(stacked_deck(nxt, head))
    t.apply(mv(nxt, "deal"))
    # next: AH lies on p1 unexamined; the count moves on: 9C is No. 2, 2D No. 3, 3D No. 4
    assert [C.code(c) for c in t.piles[nxt.layout.index("exiles")]] == ["AS"]
    assert [top_codes(t, p) for p in ("p1", "p2", "p3", "p4")] == [["AH"], ["9C"], ["2D"], ["3D"]]


@clause("ex-4", "ex-5")
def test_every_row_counts_again_from_one_to_thirteen(ex):
    first = row_of_values(NO_MATCH)
    second = ["AD", "7C", "3C"]  # No. 1 of the second row is an ace: exiled again
    t = ex.new_table(stacked_deck(ex, first + second))
    t.apply(mv(ex, "deal"))
    assert [len(t.piles[ex.layout.index(p)]) for p in PACKETS] == [1] * 13  # the first row ends at No. 13
    t.apply(mv(ex, "deal"))
    assert [C.code(c) for c in t.piles[ex.layout.index("exiles")]] == ["AD"]
    assert top_codes(t, "p1") == [first[0], "7C"] and top_codes(t, "p2") == [first[1], "3C"]


@clause("ex-4", "ex-6")
def test_the_deal_goes_on_row_after_row_until_all_the_cards_are_laid_out():
    ex = create("exiles", rulings=PLACED)  # 104 cards to deal: eight whole rows
    # a whole deck with no match: 8 rows of 13 (each row one card of each value)
    order = []
    for r in range(8):
        suit = "SHDC"[r % 4]
        order += row_of_values(NO_MATCH, suit)
    # swap the last two cards: an ace on No. 12, a king on No. 13: the king is exiled as the pack runs out
    order[-2], order[-1] = order[-1], order[-2]
    t = ex.new_table(stacked_deck(ex, order))
    deals = 0
    while cited(t, mv(ex, "deal")) is None:
        t.apply(mv(ex, "deal"))
        deals += 1
    assert deals == 8
    assert cited(t, mv(ex, "deal")) == "ex-4"
    assert [C.code(c) for c in t.piles[ex.layout.index("exiles")]] == [order[-1]]
    assert len(t.piles[ex.layout.index("p13")]) == 7  # its last place stays empty: no card was left
    assert sum(len(t.piles[ex.layout.index(p)]) for p in PACKETS) == 103


# ----------------------------------------------------------------------------- play


@clause("ex-6")
def test_suitable_cards_are_played_to_the_foundations_once_all_the_cards_are_laid_out():
    ex = create("exiles", rulings=PLACED)  # empty foundations, founded in play
    dealing = table_with(ex, {"p3": ["AS"]}, stock=["5C"])
    assert cited(dealing, mv(ex, src="p3", dst="A1")) == "ex-6"  # play-during-deal = after
    for p in PACKETS:  # all thirteen packets are examined
        t = table_with(ex, {p: ["9D", "AH"]}, stock=[])
        assert cited(t, mv(ex, src=p, dst="A1")) is None
    t = table_with(ex, {"p5": ["2S"], "p6": ["3S"], "p7": ["AS", "9D"]}, foundations={"A1": ["AS"]}, stock=[])
    assert cited(t, mv(ex, src="p6", dst="A1")) == "ex-6"  # not yet
    assert cited(t, mv(ex, src="p7", dst="A2")) == "ex-6"  # the ace lies under the 9D (rule I: top cards)
    assert cited(t, mv(ex, src="p5", dst="A1")) is None
    t.apply(mv(ex, src="p5", dst="A1"))
    assert cited(t, mv(ex, src="p6", dst="A1")) is None


@clause("ex-6")
def test_play_during_deal_reading_allows_play_between_rows():
    g = create("exiles", rulings={"play-during-deal": "during", **PLACED})
    t = table_with(g, {"p3": ["AS"]}, stock=["5C"])
    assert cited(t, mv(g, src="p3", dst="A1")) is None
    assert cited(t, mv(g, "deal")) is None


@clause("ex-6", "ex-13")
def test_foundations_aces_and_kings_one_of_each_suit_per_kind():
    ex = create("exiles", rulings=PLACED)
    t = table_with(ex, {"p1": ["AS"], "p2": ["AS"], "p3": ["KS"], "p4": ["KS"], "p5": ["AH"]}, stock=[])
    assert cited(t, mv(ex, src="p3", dst="A1")) == "ex-6"  # a king does not found an ascending pile
    assert cited(t, mv(ex, src="p1", dst="K1")) == "ex-6"  # nor an ace a descending one
    t.apply(mv(ex, src="p1", dst="A1"))
    assert cited(t, mv(ex, src="p2", dst="A2")) == "ex-6"  # a second ascending spade pile
    assert cited(t, mv(ex, src="p5", dst="A2")) is None
    t.apply(mv(ex, src="p3", dst="K1"))
    assert cited(t, mv(ex, src="p4", dst="K2")) == "ex-6"
    assert ex.fdir[ex.layout.index("A1")] == 1 and ex.fdir[ex.layout.index("K1")] == -1


@clause("ex-6", "ex-13")
def test_withdrawn_first_lays_an_ace_and_a_king_of_each_suit_out_before_the_deal(ex):
    """foundations = withdrawn-first (the default): the eight bases are on the table before the deal, 96 cards are
    dealt and counted; an ace that would found a foundation placed as they come follows on nothing here."""
    t = ex.new_table(ex.deck_from_seed(4))
    assert [C.code(t.piles[f][0]) for f in ex.foundations] == ["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC"]
    assert len(ex.deck_from_seed(4)) == 96 and sum(ex.expected_deck().values()) == 96
    while t.piles[ex.stock]:
        t.apply(mv(ex, "deal"))
    assert sum(len(t.piles[ex.layout.index(p)]) for p in PACKETS + ["exiles"]) == 96
    move = {"p3": ["AS"]}
    refused = table_with(ex, move, stock=[])
    assert cited(refused, mv(ex, src="p3", dst="A1")) == "ex-6"  # A1 holds its base ace: the second ace waits
    placed = create("exiles", rulings=PLACED)
    assert cited(table_with(placed, move, stock=[]), mv(placed, src="p3", dst="A1")) is None  # it founds A1
    from replay.engine.errors import InvalidDeck
    with pytest.raises(InvalidDeck):
        ex.new_table(placed.deck_from_seed(4))  # 104 cards: the bases are not dealt


@clause("ex-13")
def test_reversal_bases_stay_keeps_the_base_ace_on_its_foundation():
    """reversal-bases = bases-stay (Leoni's Own): the base ace may not go onto the descending pile; bases-move
    (the default, ex-13 names no exception) lets it complete the descending pile."""
    found = {"A1": ["AS"], "K1": run("KS", 12, -1)}  # K1 is down to the two of spades
    default = create("exiles")
    t = quiet(default, foundations=found)
    assert cited(t, mv(default, src="A1", dst="K1")) is None
    t.apply(mv(default, src="A1", dst="K1"))
    assert len(t.piles[default.layout.index("K1")]) == 13 and not t.piles[default.layout.index("A1")]
    stay = create("exiles", rulings={"reversal-bases": "bases-stay"})
    t = quiet(stay, foundations=found)
    assert cited(t, mv(stay, src="A1", dst="K1")) == "ex-13"
    assert "base" in t.violation(mv(stay, src="A1", dst="K1"))[1]
    t = quiet(stay, foundations={"A1": run("AS", 2, +1), "K1": run("KS", 11, -1)})  # a card built on the base
    assert cited(t, mv(stay, src="A1", dst="K1")) is None


@clause("ex-9", "ex-10")
def test_chain_king_ends_chain_stops_the_travelling_at_a_king():
    """An exiled king goes under packet 13; under travels-on (the default, ex-10) the top card of packet 13
    travels next, under ends-chain (Leoni's Own) the chain ends and the next exile is taken."""
    piles = {"p13": ["8D", "6C"], "p6": ["9H"]}
    on = create("exiles")
    t = quiet(on, piles, exiles=["5H", "KH"])
    t.apply(mv(on, "tuck", "exiles", "p13"))
    assert top_codes(t, "p13") == ["KH", "8D", "6C"] and t.vars["chain"] == "p13"
    assert cited(t, mv(on, "tuck", "p13", "p6")) is None  # the 6C travels on
    assert cited(t, mv(on, "tuck", "exiles", "p5")) == "ex-10"  # the chain is not over
    ends = create("exiles", rulings={"chain-king": "ends-chain"})
    t = quiet(ends, piles, exiles=["5H", "KH"])
    t.apply(mv(ends, "tuck", "exiles", "p13"))
    assert top_codes(t, "p13") == ["KH", "8D", "6C"] and t.vars["chain"] is None
    assert cited(t, mv(ends, "tuck", "p13", "p6")) == "ex-10"  # nothing travels from packet 13
    assert cited(t, mv(ends, "tuck", "exiles", "p5")) is None  # the next exile


@clause("ex-6")
def test_thirteenth_packet_spread_lets_any_card_of_it_go_to_a_foundation():
    """thirteenth-packet = spread (Leoni's Own): the 5S under the top card of packet 13 may go onto the four of
    spades (a move of count 2: its place from the top); like-the-others (the default): only top cards."""
    piles = {"p13": ["9D", "5S", "JC"], "p4": ["8H", "5H"]}
    found = {"A1": run("AS", 4, +1), "A2": run("AH", 4, +1)}  # ... 4S and ... 4H
    like = create("exiles")
    t = quiet(like, piles, foundations=found)
    assert cited(t, mv(like, src="p13", dst="A1", count=2)) == "ex-6"
    spread = create("exiles", rulings={"thirteenth-packet": "spread"})
    t = quiet(spread, piles, foundations=found)
    assert cited(t, mv(spread, src="p13", dst="A1", count=2)) is None
    assert cited(t, mv(spread, src="p4", dst="A2", count=2)) == "ex-6"  # the other packets: the top card only
    assert cited(t, mv(spread, src="p4", dst="A2")) is None
    t.apply(mv(spread, src="p13", dst="A1", count=2))
    assert top_codes(t, "p13") == ["9D", "JC"] and top_codes(t, "A1")[-1] == "5S"


@clause("ex-6")
def test_eight_aces_reading_founds_eight_ascending_piles():
    g = create("exiles", rulings={"foundations": "eight-aces"})
    names = [g.layout.names[f] for f in g.foundations]
    assert len(names) == 8 and all(g.fbase[f] == C.ACE for f in g.foundations)
    t = table_with(g, {"p1": ["AS"], "p2": ["AS"], "p3": ["KS"]}, stock=[])
    t.apply(mv(g, src="p1", dst=names[0]))
    assert cited(t, mv(g, src="p2", dst=names[1])) is None  # both aces of spades found
    assert cited(t, mv(g, src="p3", dst=names[2])) == "ex-6"


@clause("ex-7")
def test_an_empty_place_takes_a_card_from_the_packets(ex):
    t = table_with(ex, {"p1": [], "p2": ["9D", "5C"], "p3": ["8H"]}, stock=[])
    assert cited(t, mv(ex, src="p2", dst="p1")) is None
    assert cited(t, mv(ex, src="p2", dst="p3")) == "ex-7"  # nothing is built on a packet
    t.apply(mv(ex, src="p2", dst="p1"))
    assert top_codes(t, "p1") == ["5C"] and top_codes(t, "p2") == ["9D"]
    dealing = table_with(ex, {"p2": ["9D"]}, stock=["5C"])
    assert cited(dealing, mv(ex, src="p2", dst="p1")) == "ex-6"


# ----------------------------------------------------------------------------- exiles and chains


@clause("ex-8")
def test_when_nothing_more_plays_the_top_exile_goes_under_the_packet_of_its_number(ex):
    piles = {"p5": ["9C", "7H"], "p1": ["8D"]}
    t = quiet(ex, piles, exiles=["6S", "5D"])  # 5D on top
    assert cited(t, mv(ex, "tuck", "exiles", "p5")) is None
    assert cited(t, mv(ex, "tuck", "exiles", "p6")) == "ex-8"  # not the packet of its number
    playable = quiet(ex, dict(piles, p2=["4S"]), exiles=["5D"])  # the 4S can go on A1 (A 2 3 of spades)
    assert cited(playable, mv(ex, "tuck", "exiles", "p5")) == "ex-8"
    t.apply(mv(ex, "tuck", "exiles", "p5"))
    assert top_codes(t, "p5") == ["5D", "9C", "7H"]  # under the bottom of the packet
    assert top_codes(t, "exiles") == ["6S"]


@clause("ex-8", "ex-13")
def test_the_exiles_wait_while_an_ace_can_refound_a_foundation_emptied_by_the_change(ex):
    """A1's only card, the ace of spades, was changed to the descending order (ex-13): A1 is empty
    but stays the foundation of spades, so the other ace of spades may found it again; while it
    lies on a packet, the exiles wait (the check once counted A1's own suit as taken)."""
    t = quiet(ex, {"p1": ["AS"]}, exiles=["5H"], foundations={"A1": [], "K1": run("KS", 13, -1)})
    t.fsuit[ex.layout.index("A1")] = C.suit_of(C.parse("AS"))
    assert cited(t, mv(ex, "move", "p1", "A1")) is None
    assert cited(t, mv(ex, "tuck", "exiles", "p5")) == "ex-8"


def test_the_quick_foundation_check_agrees_with_the_foundation_rules():
    """_foundation_play_exists (asked at every step of a chain) is true exactly when some packet's
    top card fits a foundation by the rules a move there is checked by."""
    import random

    from replay.engine.common import fits_foundation
    from replay.games.exiles import _base_allowed, _foundation_play_exists

    rng = random.Random(3)
    checked = {True: 0, False: 0}
    for rulings in ({}, {"foundations": "eight-aces"}, {"reversal": "unlimited"}):
        g = create("exiles", rulings=rulings)
        packets = g.options["packets"]
        for seed in range(6):
            t = g.new_table(g.deck_from_seed(seed))
            for _ in range(400):
                want = any(t.piles[p] and fits_foundation(t, f, t.piles[p][-1]) and _base_allowed(t, f, t.piles[p][-1])
                           for p in packets for f in g.foundations)
                assert _foundation_play_exists(t) == want, (rulings, seed, t.snapshot())
                checked[want] += 1
                legal = t.legal_moves()
                if not legal:
                    break
                t.push(rng.choice(legal))
    assert checked[True] > 50 and checked[False] > 50, checked


@clause("ex-8")
def test_an_exile_that_suits_a_foundation_is_played_there_not_put_under(ex):
    t = quiet(ex, {"p4": ["9C"]}, exiles=["4S"])  # the 4S follows A 2 3 of spades
    assert cited(t, mv(ex, "tuck", "exiles", "p4")) == "ex-8"
    assert cited(t, mv(ex, "move", "exiles", "A1")) is None
    assert cited(t, mv(ex, "move", "exiles", "A2")) == "ex-6"
    t.apply(mv(ex, "move", "exiles", "A1"))
    assert top_codes(t, "A1")[-1] == "4S"
    # while a packet card can be played, the exiles wait
    t = quiet(ex, {"p4": ["4H"]}, exiles=["4S"])
    assert cited(t, mv(ex, "move", "exiles", "A1")) == "ex-8"


@clause("ex-9")
def test_a_five_goes_under_the_fifth_packet_a_queen_under_the_twelfth_and_so_on(ex):
    for code, number in (("5H", 5), ("QS", 12), ("KD", 13), ("AC", 1), ("JC", 11)):
        for k, p in enumerate(PACKETS, start=1):
            t = quiet(ex, {q: ["8D"] for q in PACKETS}, exiles=[code])
            assert cited(t, mv(ex, "tuck", "exiles", p)) == (None if k == number else "ex-8"), (code, p)
        t = quiet(ex, {q: ["8D"] for q in PACKETS}, exiles=[code])
        t.apply(mv(ex, "tuck", "exiles", f"p{number}"))
        assert top_codes(t, f"p{number}") == [code, "8D"]


@clause("ex-10")
def test_the_top_card_of_that_packet_goes_on_under_the_packet_of_its_own_number(ex):
    t = quiet(ex, {"p5": ["9C", "7H"], "p7": ["6D", "8S"], "p8": ["6H"], "p2": ["8D"], "p3": []}, exiles=["5D"])
    t.apply(mv(ex, "tuck", "exiles", "p5"))
    assert cited(t, mv(ex, "tuck", "p2", "p8")) == "ex-10"  # only the packet just added to
    assert cited(t, mv(ex, "tuck", "p5", "p6")) == "ex-8"  # the 7H goes under packet 7
    assert cited(t, mv(ex, "move", "p2", "p3")) == "ex-10"  # the chain comes before anything else
    assert cited(t, mv(ex, "tuck", "p5", "p7")) is None
    t.apply(mv(ex, "tuck", "p5", "p7"))
    assert top_codes(t, "p7") == ["7H", "6D", "8S"] and top_codes(t, "p5") == ["5D", "9C"]
    assert cited(t, mv(ex, "tuck", "p5", "p9")) == "ex-10"  # now from packet 7
    assert cited(t, mv(ex, "tuck", "p7", "p8")) is None  # its 8S under packet 8
    t.apply(mv(ex, "tuck", "p7", "p8"))
    assert top_codes(t, "p8") == ["8S", "6H"]


@clause("ex-10", "ex-11")
def test_the_chain_ends_when_a_card_is_freed_for_a_foundation(ex):
    t = quiet(ex, {"p5": ["9C", "4S", "7H"], "p7": ["6D", "8D"]}, exiles=["9H", "5D"])
    t.apply(mv(ex, "tuck", "exiles", "p5"))
    t.apply(mv(ex, "tuck", "p5", "p7"))  # uncovers the 4S, which follows A 2 3 of spades
    assert cited(t, mv(ex, "tuck", "p7", "p8")) == "ex-10"  # a card has been freed: the chain stops
    assert cited(t, mv(ex, "tuck", "exiles", "p9")) == "ex-8"  # and the next exile waits for the play
    assert cited(t, mv(ex, "move", "p5", "A1")) is None
    t.apply(mv(ex, "move", "p5", "A1"))
    # ex-11: having played the freed card, take the next exile
    assert cited(t, mv(ex, "tuck", "p7", "p8")) == "ex-10"
    assert cited(t, mv(ex, "tuck", "exiles", "p9")) is None


@clause("ex-10")
def test_a_chain_that_would_come_round_to_a_position_already_seen_ends():
    # packet 5 holds only fives: each step puts its top five under itself, so the second step would bring
    # back the packet as it was after the exile went in; the travelling is forced, so the chain can free
    # nothing and ends before that step (amb-ex-chain-loop)
    g = create("exiles")
    t = quiet(g, {"p5": ["5S"], "p9": ["8D"]}, exiles=["9C", "5D"])
    t.apply(mv(g, "tuck", "exiles", "p5"))
    assert top_codes(t, "p5") == ["5D", "5S"]
    assert cited(t, mv(g, "tuck", "exiles", "p9")) == "ex-10"  # the chain goes on (ex-10: until a card is freed)
    assert cited(t, mv(g, "tuck", "p5", "p5")) is None  # a five under packet 5 itself
    t.apply(mv(g, "tuck", "p5", "p5"))
    assert top_codes(t, "p5") == ["5S", "5D"]
    assert cited(t, mv(g, "tuck", "p5", "p5")) == "ex-10"  # the next step would come back: the chain has ended
    assert cited(t, mv(g, "tuck", "exiles", "p9")) is None  # ex-11: the next exile


@clause("ex-10", "ex-8")
def test_an_exile_put_under_an_empty_packet_becomes_its_only_card_and_the_chain_ends():
    g = create("exiles")
    t = quiet(g, {"p9": ["8D"]}, exiles=["9C", "5D"])
    t.apply(mv(g, "tuck", "exiles", "p5"))
    assert top_codes(t, "p5") == ["5D"]
    # its next step (the five under packet 5 again) would change nothing, so there is no chain at all
    assert cited(t, mv(g, "tuck", "p5", "p5")) == "ex-10"
    assert cited(t, mv(g, "tuck", "exiles", "p9")) is None


@clause("ex-11", "ex-12")
def test_the_exiles_are_taken_one_after_another_until_all_are_used(ex):
    t = quiet(ex, {"p6": ["8C"], "p9": ["8D"], "p2": ["7C"]}, exiles=["9S", "6H"])
    assert cited(t, mv(ex, "redeal")) == "ex-12"  # exiles remain
    t.apply(mv(ex, "tuck", "exiles", "p6"))  # 6H under packet 6: its 8C travels under packet 8 …
    t.apply(mv(ex, "tuck", "p6", "p8"))  # … onto an empty packet: its next step would change nothing
    assert cited(t, mv(ex, "tuck", "p8", "p8")) == "ex-10"  # so the chain has ended
    assert cited(t, mv(ex, "tuck", "exiles", "p9")) is None
    t.apply(mv(ex, "tuck", "exiles", "p9"))
    t.apply(mv(ex, "tuck", "p9", "p8"))  # 8D under packet 8 (now 8D, 8C)
    while t.vars["chain"] is not None:
        m = next(m for m in t.legal_moves() if m.type == "tuck")
        t.apply(m)
    assert not t.piles[ex.layout.index("exiles")]
    assert cited(t, mv(ex, "redeal")) is None


# ----------------------------------------------------------------------------- the second deal


@clause("ex-12")
def test_the_packets_are_taken_up_last_first_and_dealt_again_exactly_as_before(ex):
    """Default rule-three = reverse: Cadogan's taking-up (The Nation), the last packet dealt first."""
    t = quiet(ex, {"p1": ["2S", "5D"], "p2": ["2C"], "p13": ["9H", "6C"]})
    t.apply(mv(ex, "redeal"))
    assert t.passes == 2 and all(not t.piles[ex.layout.index(p)] for p in PACKETS)
    # packet 13 bottom first, then packet 12, …, packet 1
    assert [C.code(c) for c in reversed(t.piles[ex.stock])] == ["9H", "6C", "2C", "2S", "5D"]
    assert cited(t, mv(ex, src="p13", dst="A1")) == "ex-6"  # the new deal comes first
    t.apply(mv(ex, "deal"))
    # counted and exiled as before: 9H on No. 1, 6C on No. 2, 2C on No. 3, 2S on No. 4; 5D on No. 5, exiled
    assert [top_codes(t, p) for p in PACKETS[:4]] == [["9H"], ["6C"], ["2C"], ["2S"]]
    assert top_codes(t, "exiles") == ["5D"]


@clause("ex-12")
def test_the_in_order_reading_takes_up_packet_1_first():
    g = create("exiles", rulings={"rule-three": "in-order"})
    t = quiet(g, {"p1": ["2S", "5D"], "p2": ["2C"], "p13": ["9H", "6C"]})
    t.apply(mv(g, "redeal"))
    # packet 1 bottom first, then packet 2, …, packet 13
    assert [C.code(c) for c in reversed(t.piles[g.stock])] == ["2S", "5D", "2C", "9H", "6C"]
    t.apply(mv(g, "deal"))
    # counted and exiled as before: 2S on No. 1, 5D on No. 2, 2C on No. 3, 9H on No. 4; 6C on No. 5
    assert [top_codes(t, p) for p in PACKETS[:5]] == [["2S"], ["5D"], ["2C"], ["9H"], ["6C"]]


@clause("ex-12")
def test_a_card_exiled_in_the_first_deal_can_be_exiled_again(ex):
    t = quiet(ex, {"p1": ["AS", "2H", "5D"]})
    t.apply(mv(ex, "redeal"))
    t.apply(mv(ex, "deal"))
    # the AS falls on No. 1 again and is exiled again; the 2H takes its place (as No. 1); the 5D is No. 2
    assert top_codes(t, "exiles") == ["AS"]
    assert top_codes(t, "p1") == ["2H"] and top_codes(t, "p2") == ["5D"]


@clause("ex-12")
def test_the_second_deal_only_when_the_pack_is_out_and_once_unless_two_redeals():
    one = create("exiles")
    t = quiet(one, {"p1": ["8D"]}, passes=2)
    assert cited(t, mv(one, "redeal")) == "ex-12"  # redeals one: a second deal only
    t = quiet(one, {"p1": ["8D"]}, passes=1)
    assert cited(t, mv(one, "redeal")) is None
    dealing = table_with(one, {"p1": ["8D"]}, stock=["9D"])
    assert cited(dealing, mv(one, "redeal")) == "ex-12"  # all cards must be laid out first
    two = create("exiles", rulings={"redeals": "two"})
    assert cited(quiet(two, {"p1": ["8D"]}, passes=2), mv(two, "redeal")) is None
    assert cited(quiet(two, {"p1": ["8D"]}, passes=3), mv(two, "redeal")) == "ex-12"


@clause("ex-12")
def test_no_second_deal_once_the_patience_has_come_out():
    """"раскладываютъ, если необходимо, вторично": a won game is not dealt again (it has no move left)."""
    g = create("exiles")
    won = quiet(g, foundations={n: run(top, 13, +1 if n.startswith("A") else -1)
                                for n, top in (("A1", "AS"), ("A2", "AH"), ("A3", "AD"), ("A4", "AC"),
                                               ("K1", "KS"), ("K2", "KH"), ("K3", "KD"), ("K4", "KC"))})
    assert won.is_won() and won.passes == 1
    assert cited(won, mv(g, "redeal")) == "ex-12" and won.legal_moves() == [] and won.outcome() == "won"


# ----------------------------------------------------------------------------- ex-13


@clause("ex-13")
def test_cards_may_be_changed_one_at_a_time_from_the_ascending_to_the_descending_order(ex):
    """Default reversal = unlimited: "one card at a time", repeatable, ascending to descending only."""
    found = {"A1": run("AS", 7, +1), "K1": run("KS", 5, -1)}  # A…7 and K…9: the 8 is still out
    t = table_with(ex, {}, foundations=found, stock=[])
    assert cited(t, mv(ex, src="A1", dst="K1")) == "ex-13"  # the 7 does not follow the 9
    found = {"A1": run("AS", 7, +1), "K1": run("KS", 6, -1)}  # A…7 and K…8
    t = table_with(ex, {}, foundations=found, stock=[])
    assert cited(t, mv(ex, src="K1", dst="A1")) == "ex-13"  # descending to ascending: not in the Russian
    assert cited(t, mv(ex, src="A1", dst="K1")) is None
    t.apply(mv(ex, src="A1", dst="K1"))
    assert top_codes(t, "K1")[-1] == "7S" and top_codes(t, "A1")[-1] == "6S"
    assert cited(t, mv(ex, src="A1", dst="K1")) is None  # again: one card at a time, not once in the game
    t.apply(mv(ex, src="A1", dst="K1"))
    assert top_codes(t, "K1")[-2:] == ["7S", "6S"]


@clause("ex-13")
def test_one_card_reading_allows_the_change_once_in_the_game():
    g = create("exiles", rulings={"reversal": "one-card"})
    found = {"A1": run("AS", 7, +1), "K1": run("KS", 6, -1)}
    t = table_with(g, {}, foundations=found, stock=[])
    t.apply(mv(g, src="A1", dst="K1"))
    assert cited(t, mv(g, src="A1", dst="K1")) == "ex-13"  # one card only


@clause("ex-13")
def test_both_directions_reading_adds_cadogans_vice_versa():
    """Cadogan's La Nivernaise: "… from the ascending to the descending sequences, and vice versâ"."""
    found = {"A1": run("AS", 6, +1), "K1": run("KS", 7, -1)}  # A…6 and K…7: the 7 may go up onto the 6
    for reading, want in (("both-directions", None), ("unlimited", "ex-13"), ("one-card", "ex-13")):
        g = create("exiles", rulings={"reversal": reading})
        t = table_with(g, {}, foundations=found, stock=[])
        assert cited(t, mv(g, src="K1", dst="A1")) == want, reading
    g = create("exiles", rulings={"reversal": "both-directions"})
    t = table_with(g, {}, foundations={"A1": run("AS", 6, +1), "K1": run("KS", 6, -1)}, stock=[])
    assert cited(t, mv(g, src="K1", dst="A1")) == "ex-13"  # the 8 does not follow the 6
    assert cited(t, mv(g, src="A1", dst="A2")) == "ex-13"  # never between two foundations of one order


@clause("ex-13")
def test_a_card_changed_and_changed_back_leaves_the_same_position_but_one_card_remembers_the_change():
    """Only reversal = one-card asks how often a card was changed, so only it keeps the count: under the
    other readings a change made and undone gives back the very position (the search's key included),
    where a count kept made every such pair a new position and the search went on down them without end."""
    from replay.solver.search import position_key, profile_for
    found = {"A1": run("AS", 7, +1), "K1": run("KS", 6, -1)}  # A…7 and K…8: the 7 may go down onto the 8
    g = create("exiles", rulings={"reversal": "both-directions"})
    t = table_with(g, {}, foundations=found, stock=[])
    key = position_key(g, profile_for(g))
    before = (key(t), dict(t.vars))
    t.apply(mv(g, src="A1", dst="K1"))
    t.apply(mv(g, src="K1", dst="A1"))
    assert (key(t), dict(t.vars)) == before
    g = create("exiles")  # unlimited: ascending to descending only, as often as wanted, nothing counted
    t = table_with(g, {}, foundations=found, stock=[])
    t.apply(mv(g, src="A1", dst="K1"))
    assert t.vars["reversed"] == 0
    g = create("exiles", rulings={"reversal": "one-card"})
    t = table_with(g, {}, foundations=found, stock=[])
    t.apply(mv(g, src="A1", dst="K1"))
    assert t.vars["reversed"] == 1


@clause("ex-13")
def test_eight_aces_leave_no_descending_order_to_change_to():
    g = create("exiles", rulings={"foundations": "eight-aces"})
    a, b = [g.layout.names[f] for f in g.foundations[:2]]
    t = table_with(g, {}, foundations={a: run("AS", 7, +1), b: run("AS", 6, +1)}, stock=[])
    assert cited(t, mv(g, src=a, dst=b)) == "ex-13"


def test_won_when_all_cards_are_on_the_foundations(ex):
    t = table_with(ex, {}, stock=[])
    for k, s in enumerate("SHDC"):
        t.piles[ex.layout.index(f"A{k + 1}")] = [C.parse(c) for c in run("A" + s, 13, +1)]
        t.piles[ex.layout.index(f"K{k + 1}")] = [C.parse(c) for c in run("K" + s, 13, -1)]
    assert Counter(c for p in t.piles for c in p) == Counter(C.full_deck())
    assert t.outcome() == "won"


@clause("ex-8", "ex-6")
def test_even_when_play_goes_on_during_the_deal_the_exiles_wait_for_the_whole_deal():
    g = create("exiles", rulings={"play-during-deal": "during"})
    t = table_with(g, {"p9": ["8D"]}, stock=["2C"], vars={"chain": None})
    t.piles[g.layout.index("exiles")] = [C.parse("5D")]
    assert cited(t, mv(g, "tuck", "exiles", "p5")) == "ex-8"
    t.piles[g.stock].clear()
    assert cited(t, mv(g, "tuck", "exiles", "p5")) is None
